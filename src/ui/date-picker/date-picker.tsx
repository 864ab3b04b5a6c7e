// The date picker's field, downloaded by every page with a date field: the label, the input with the typing,
// parsing and checking of typed dates (date-model.ts), the preset selector, the clear and calendar buttons, the
// hidden inputs, and the open menu's frame (the dialog, beside the field or a sheet, and its backdrop) with the box
// shown while its contents load or when they cannot be loaded; Escape, the calendar button or a click outside
// closes it then. What the menu holds once open (the month grid, months turned by wheel and swipe, the time of
// day, Close and Select: date-picker-menu.tsx with calendar.tsx, react-day-picker and date-fns) is one chunk,
// loaded by loadCalendar when the field is focused, pointed at or opened: most visits type a date or leave it
// alone, and a form's route must stay within 200 KB (issue 14). The draft and the shown month are kept here,
// because typing moves them while the menu is open, also while its chunk is still on its way.
import { isAfter, isBefore, startOfDay, startOfMonth } from 'date-fns';
import { useEffect, useId, useRef, useState, useSyncExternalStore, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { DateRange } from 'react-day-picker';
import { useIntl, type IntlShape } from 'react-intl';
import '../field.css';
import './date-picker.css';
import {
  FIRST_YEAR,
  LAST_YEAR,
  RANGE_SEPARATOR,
  parseDisplay,
  parseDisplayRange,
  parseModel,
  rangeLength,
  toDisplay,
  toDisplayRange,
  toModel,
  type DateRangeValue,
} from './date-model';
import { lazyModule, useLazyModule } from '../lazy-module';
import type * as MenuModuleType from './date-picker-menu';
import { MIDNIGHT, modelKey, timeOf, type TimeOfDay } from './draft';

export type { DateRangeValue } from './date-model';

type MenuModule = typeof MenuModuleType;

const menuModule = lazyModule<MenuModule>(() => import('./date-picker-menu'));

/**
 * Loads what the open menu holds (./date-picker-menu with the month grid, react-day-picker: one chunk) once for
 * every date picker of the page; a failed load is tried again next time. The fields start it when they are
 * focused or pointed at, so it is usually there when the menu opens; the service worker precaches it for a cold
 * start offline.
 */
export function loadCalendar(): Promise<MenuModule> {
  return menuModule.load();
}

/** The open menu's module once loaded; loads it while `wanted`. 'failed' when it could not be loaded. */
function useMenuModule(wanted: boolean): MenuModule | 'failed' | null {
  const { value, retry } = useLazyModule(menuModule, wanted, 'The calendar');
  // A menu opened again after a failed load tries again.
  const [wasWanted, setWasWanted] = useState(wanted);
  if (wanted !== wasWanted) {
    setWasWanted(wanted);
    if (wanted && value === 'failed') retry();
  }
  return value;
}

/** Below this viewport width the menu is a full-width sheet (spec section 9). */
export const MOBILE_BREAKPOINT_PX = 600;

export type DatePickerLocale = 'ru' | 'en';

export interface DateRangePreset {
  id: string;
  title: string;
  /** A range in the model format, or 'custom': the choice that opens the calendar. */
  range: DateRangeValue | 'custom';
}

interface DatePickerCommonProps {
  label: ReactNode;
  /** The field's name in the model; hidden inputs carry the model value under it in a native form. */
  name: string;
  /** Calendar language; the app's when it is English, otherwise Russian (spec section 5). */
  locale?: DatePickerLocale;
  /** Adds a 24-hour time picker (minute and second steps of 5); the model becomes `yyyy-MM-dd HH:mm:ss`. */
  enableTime?: boolean;
  /** Offers a clear button, and an emptied input clears the value. */
  clearable?: boolean;
  /** Which edge of the field the menu lines up with. */
  position?: 'left' | 'right';
  /** Earliest and latest day that can be chosen, in the model format. */
  minDate?: string;
  maxDate?: string;
  /** Days that cannot be chosen: a list in the model format, or a test on a model date. */
  disabledDates?: readonly string[] | ((day: string) => boolean);
  /** Always shows six weeks, so the menu keeps its height from month to month. */
  sixWeeks?: boolean;
  /** A valid selection commits at once (a range when both ends are chosen), without the Select button. */
  autoApply?: boolean;
  error?: ReactNode;
  tip?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
  onBlur?: () => void;
}

export interface SingleDatePickerProps extends DatePickerCommonProps {
  range?: false;
  /** Model value `yyyy-MM-dd` (or `yyyy-MM-dd HH:mm:ss` with `enableTime`), null when empty. */
  value: string | null;
  onChange: (value: string | null) => void;
}

export interface RangeDatePickerProps extends DatePickerCommonProps {
  range: true;
  value: DateRangeValue | null;
  onChange: (value: DateRangeValue | null) => void;
  /** Longest range in days, counted as the calendar does (1-8 January is 7 days). */
  maxRange?: number;
  /** A preset selector beside the field: a preset commits its range, the 'custom' one opens the calendar. */
  presets?: readonly DateRangePreset[];
  /** Label of the preset selector; 'Period' when omitted. */
  presetsLabel?: ReactNode;
}

export type DatePickerProps = SingleDatePickerProps | RangeDatePickerProps;

type TypingError = 'format' | 'unavailable' | 'order' | 'maxRange';

const FIRST_MONTH = new Date(FIRST_YEAR, 0, 1);
const LAST_MONTH = new Date(LAST_YEAR, 11, 1);

function subscribeToResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The viewport width, kept current on resize (the server snapshot assumes a desktop). */
function useViewportWidth(): number {
  return useSyncExternalStore(
    subscribeToResize,
    () => window.innerWidth,
    () => 1024,
  );
}

/** The committed value as dates: [from, to] for a range (to = from for a single date), or null. */
function committedDates(props: DatePickerProps, hasTime: boolean): [Date, Date] | null {
  if (props.range) {
    if (!props.value) return null;
    const from = parseModel(props.value[0], hasTime);
    const to = parseModel(props.value[1], hasTime);
    return from && to ? [from, to] : null;
  }
  const date = parseModel(props.value, hasTime);
  return date ? [date, date] : null;
}

/** A typed text as [from, to] (to = from for a single date), or null when it is not in the display format. */
function parseTyped(text: string, isRange: boolean, hasTime: boolean): [Date, Date] | null {
  if (isRange) return parseDisplayRange(text, hasTime);
  const date = parseDisplay(text, hasTime);
  return date ? [date, date] : null;
}

function displayText(dates: readonly [Date, Date] | null, isRange: boolean, hasTime: boolean): string {
  if (!dates) return '';
  return isRange ? toDisplayRange(dates, hasTime) : toDisplay(dates[0], hasTime);
}

/** The display format as the user reads it: 'дд.мм.гггг', 'dd.mm.yyyy hh:mm:ss', a range of them. */
function typingPattern(intl: IntlShape, options: { isRange: boolean; hasTime: boolean }): string {
  const date = intl.formatMessage({ id: 'ui.datepicker.pattern.date', defaultMessage: 'dd.mm.yyyy' });
  const one = options.hasTime ? `${date} ${intl.formatMessage({ id: 'ui.datepicker.pattern.time', defaultMessage: 'hh:mm:ss' })}` : date;
  return options.isRange ? `${one}${RANGE_SEPARATOR}${one}` : one;
}

function typingErrorMessage(intl: IntlShape, error: TypingError, options: { isRange: boolean; hasTime: boolean; maxRange?: number }): string {
  switch (error) {
    case 'format':
      return intl.formatMessage(
        { id: 'ui.datepicker.error.format', defaultMessage: 'Enter the date as {pattern}' },
        { pattern: typingPattern(intl, options) },
      );
    case 'unavailable':
      return intl.formatMessage({ id: 'ui.datepicker.error.unavailable', defaultMessage: 'This date cannot be chosen' });
    case 'order':
      return intl.formatMessage({ id: 'ui.datepicker.error.order', defaultMessage: 'The end date is before the start date' });
    case 'maxRange':
      return intl.formatMessage(
        { id: 'ui.datepicker.error.maxRange', defaultMessage: 'A period can be at most {max, plural, one {# day} other {# days}} long' },
        { max: options.maxRange ?? 0 },
      );
  }
}

/**
 * The date picker of spec section 5 on react-day-picker: the input shows day.month.year and accepts a
 * typed date, the model holds year-month-day. The menu is a non-modal dialog beside the field (a
 * full-width sheet below 600 px); without `autoApply` a choice waits for Select, Close drops it.
 * Escape closes the menu and gives focus back to the input.
 */
export function DatePicker(props: DatePickerProps) {
  const {
    label,
    name,
    enableTime = false,
    clearable = false,
    position = 'right',
    minDate,
    maxDate,
    disabledDates,
    sixWeeks = false,
    autoApply = false,
    error,
    tip,
    required = false,
    disabled = false,
    placeholder,
    onBlur,
  } = props;
  const intl = useIntl();
  const locale: DatePickerLocale = props.locale ?? (intl.locale.startsWith('en') ? 'en' : 'ru');
  const isRange = props.range === true;
  const maxRange = props.range ? props.maxRange : undefined;
  const presets = props.range ? (props.presets ?? []) : [];

  const baseId = useId();
  const inputId = `${name}-${baseId}`;
  const labelId = `${inputId}-label`;
  const menuId = `${inputId}-menu`;
  const messageId = `${inputId}-message`;

  const committed = committedDates(props, enableTime);
  const committedKey = modelKey(committed, isRange, enableTime);
  const committedText = displayText(committed, isRange, enableTime);

  const [isOpen, setOpen] = useState(false);
  const [draft, setDraft] = useState<DateRange | undefined>(undefined);
  const [draftTimes, setDraftTimes] = useState<[TimeOfDay, TimeOfDay]>([MIDNIGHT, MIDNIGHT]);
  const [month, setMonth] = useState<Date>(() => startOfMonth(committed?.[0] ?? new Date()));
  const [text, setText] = useState(committedText);
  const [typingError, setTypingError] = useState<TypingError | null>(null);
  const [isFocused, setFocused] = useState(false);
  const [isCustomPresetChosen, setCustomPresetChosen] = useState(false);
  // The input follows the model whenever the model changes (a commit here, or the form resetting it).
  const [textFor, setTextFor] = useState(committedKey);
  if (textFor !== committedKey) {
    setTextFor(committedKey);
    setText(committedText);
    setTypingError(null);
  }

  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const focusGridOnOpen = useRef(false);

  const isMobile = useViewportWidth() < MOBILE_BREAKPOINT_PX;
  const menu = useMenuModule(isOpen);

  const min = minDate ? parseModel(minDate) : null;
  const max = maxDate ? parseModel(maxDate) : null;
  const startMonth = min && isAfter(min, FIRST_MONTH) ? startOfMonth(min) : FIRST_MONTH;
  const endMonth = max && isBefore(max, LAST_MONTH) ? startOfMonth(max) : LAST_MONTH;

  function isDayAllowed(day: Date): boolean {
    const year = day.getFullYear();
    if (year < FIRST_YEAR || year > LAST_YEAR) return false;
    if (min && isBefore(startOfDay(day), min)) return false;
    if (max && isAfter(startOfDay(day), max)) return false;
    if (!disabledDates) return true;
    const key = toModel(day);
    return typeof disabledDates === 'function' ? !disabledDates(key) : !disabledDates.includes(key);
  }

  function clampMonth(date: Date): Date {
    const first = startOfMonth(date);
    if (isBefore(first, startMonth)) return startMonth;
    if (isAfter(first, endMonth)) return endMonth;
    return first;
  }

  function commit(dates: readonly [Date, Date] | null) {
    setCustomPresetChosen(false);
    if (props.range) {
      props.onChange(dates ? [toModel(dates[0], enableTime), toModel(dates[1], enableTime)] : null);
    } else {
      props.onChange(dates ? toModel(dates[0], enableTime) : null);
    }
  }

  function open(options: { focusGrid: boolean }) {
    if (disabled) return;
    focusGridOnOpen.current = options.focusGrid;
    if (isOpen) {
      if (options.focusGrid) focusGrid();
      return;
    }
    setDraft(committed ? { from: committed[0], to: isRange ? committed[1] : undefined } : undefined);
    setDraftTimes([timeOf(committed?.[0]), timeOf(committed?.[1])]);
    setMonth(clampMonth(committed?.[0] ?? new Date()));
    setOpen(true);
  }

  function close(options: { returnFocus: boolean }) {
    setOpen(false);
    setCustomPresetChosen(false);
    if (options.returnFocus) inputRef.current?.focus();
  }

  function focusGrid() {
    const target = menuRef.current?.querySelector<HTMLButtonElement>('[role="grid"] button[tabindex="0"]');
    target?.focus();
  }

  // Opening from the calendar button, the keyboard or the preset selector moves focus into the grid
  // once it is drawn (its module may still be loading when the menu opens); opening by a click in the input
  // leaves the caret there for typing.
  const isCalendarShown = isOpen && menu !== null && menu !== 'failed';
  useEffect(() => {
    if (!isCalendarShown || !focusGridOnOpen.current) return;
    focusGridOnOpen.current = false;
    focusGrid();
  }, [isCalendarShown]);

  // A click anywhere outside the field closes the menu, as Close does.
  useEffect(() => {
    if (!isOpen) return;
    function closeOnOutsidePointer(event: globalThis.PointerEvent) {
      if (event.target instanceof Node && rootRef.current?.contains(event.target)) return;
      setOpen(false);
      setCustomPresetChosen(false);
    }
    document.addEventListener('pointerdown', closeOnOutsidePointer);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePointer);
  }, [isOpen]);

  function resetTyping() {
    setText(committedText);
    setTypingError(null);
  }

  /** Checks a typed text and commits it; true when it was committed (or cleared). */
  function commitTyped(): boolean {
    const typed = text.trim();
    if (typed === '') {
      if (clearable) {
        commit(null);
        return true;
      }
      resetTyping();
      return false;
    }
    const dates = parseTyped(typed, isRange, enableTime);
    if (!dates) {
      setTypingError('format');
      return false;
    }
    if (!isDayAllowed(dates[0]) || !isDayAllowed(dates[1])) {
      setTypingError('unavailable');
      return false;
    }
    if (isAfter(dates[0], dates[1])) {
      setTypingError('order');
      return false;
    }
    if (maxRange !== undefined && rangeLength(dates[0], dates[1]) > maxRange) {
      setTypingError('maxRange');
      return false;
    }
    setTypingError(null);
    if (modelKey(dates, isRange, enableTime) === committedKey) setText(committedText);
    else commit(dates);
    return true;
  }

  function changeText(next: string) {
    setText(next);
    setTypingError(null);
    // While the menu is open the calendar follows what is typed, so the month is there to look at.
    if (!isOpen) return;
    const typed = parseTyped(next, isRange, enableTime);
    if (!typed || !isDayAllowed(typed[0]) || !isDayAllowed(typed[1])) return;
    setDraft({ from: typed[0], to: isRange ? typed[1] : undefined });
    setDraftTimes([timeOf(typed[0]), timeOf(typed[1])]);
    setMonth(clampMonth(typed[0]));
  }

  function handleInputKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' && (event.altKey || !isOpen)) {
      event.preventDefault();
      open({ focusGrid: true });
    } else if (event.key === 'ArrowDown' && isOpen) {
      event.preventDefault();
      focusGrid();
    } else if (event.key === 'Enter') {
      if (text.trim() !== committedText) {
        event.preventDefault();
        if (commitTyped()) close({ returnFocus: false });
      } else if (isOpen) {
        event.preventDefault();
        close({ returnFocus: false });
      }
    }
  }

  function handleRootKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Escape') return;
    if (isOpen) {
      // Handled here, so a dialog around the field does not close as well.
      event.stopPropagation();
      event.preventDefault();
      resetTyping();
      close({ returnFocus: true });
    } else if (text !== committedText) {
      event.stopPropagation();
      resetTyping();
    }
  }

  function handleRootBlur(event: FocusEvent<HTMLDivElement>) {
    const next = event.relatedTarget;
    if (next instanceof Node && rootRef.current?.contains(next)) return;
    setFocused(false);
    if (text.trim() !== committedText) commitTyped();
    if (isOpen) close({ returnFocus: false });
    onBlur?.();
  }

  function choosePreset(id: string) {
    const preset = presets.find((candidate) => candidate.id === id);
    if (!preset) return;
    if (preset.range === 'custom') {
      setCustomPresetChosen(true);
      open({ focusGrid: true });
      return;
    }
    const from = parseModel(preset.range[0], enableTime);
    const to = parseModel(preset.range[1], enableTime);
    if (!from || !to) return;
    resetTyping();
    commit([from, to]);
    if (isOpen) setOpen(false);
  }

  const typingMessage = typingError ? typingErrorMessage(intl, typingError, { isRange, hasTime: enableTime, maxRange }) : null;
  const shownError: ReactNode = typingMessage ?? error;
  const hasError = shownError !== undefined && shownError !== null && shownError !== false && shownError !== '';
  const hasTip = !hasError && tip !== undefined && tip !== null;

  const presetValue = (() => {
    if (presets.length === 0) return '';
    const custom = presets.find((preset) => preset.range === 'custom');
    if (isCustomPresetChosen && custom) return custom.id;
    if (props.range && props.value) {
      const [from, to] = props.value;
      const matching = presets.find((preset) => preset.range !== 'custom' && preset.range[0] === from && preset.range[1] === to);
      if (matching) return matching.id;
      return custom?.id ?? '';
    }
    return '';
  })();

  const classes = [
    'field',
    'date-picker',
    isFocused || isOpen ? 'field--focused' : '',
    text !== '' ? 'field--active' : '',
    hasError ? 'field--invalid' : '',
    disabled ? 'field--disabled' : '',
  ]
    .filter(Boolean)
    .join(' ');

  const calendarButtonLabel = intl.formatMessage({ id: 'ui.datepicker.open', defaultMessage: 'Choose in the calendar' });
  const clearLabel = intl.formatMessage({ id: 'ui.datepicker.clear', defaultMessage: 'Clear' });
  const hiddenValues = committed ? (isRange ? [toModel(committed[0], enableTime), toModel(committed[1], enableTime)] : [toModel(committed[0], enableTime)]) : [''];

  return (
    <div
      ref={rootRef}
      className={classes}
      onKeyDown={handleRootKeyDown}
      onFocus={() => {
        setFocused(true);
        void loadCalendar().catch(() => undefined);
      }}
      onPointerEnter={() => void loadCalendar().catch(() => undefined)}
      onBlur={handleRootBlur}
    >
      {presets.length > 0 && (
        <PresetSelect
          id={`${inputId}-presets`}
          label={
            props.range && props.presetsLabel !== undefined
              ? props.presetsLabel
              : intl.formatMessage({ id: 'ui.datepicker.presets.label', defaultMessage: 'Period' })
          }
          presets={presets}
          value={presetValue}
          disabled={disabled}
          onChoose={choosePreset}
        />
      )}
      <label className="field__label" id={labelId} htmlFor={inputId}>
        {label}
        {required && <span className="field__required" aria-hidden="true" />}
      </label>
      <div className="field__control date-picker__control">
        <input
          ref={inputRef}
          id={inputId}
          className="field__input date-picker__input"
          type="text"
          role="combobox"
          aria-haspopup="dialog"
          aria-expanded={isOpen}
          aria-controls={isOpen ? menuId : undefined}
          aria-autocomplete="none"
          aria-required={required || undefined}
          aria-invalid={hasError || undefined}
          aria-describedby={hasError || hasTip ? messageId : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder ?? typingPattern(intl, { isRange, hasTime: enableTime })}
          value={text}
          disabled={disabled}
          onChange={(event) => changeText(event.currentTarget.value)}
          // On a phone the first tap moves focus into the sheet, so the on-screen keyboard does not
          // cover it; a second tap in the input is for typing.
          onClick={() => {
            if (!isOpen) open({ focusGrid: isMobile });
          }}
          onKeyDown={handleInputKeyDown}
        />
        {clearable && committed && !disabled && (
          <button
            type="button"
            className="date-picker__clear"
            aria-label={clearLabel}
            title={clearLabel}
            onClick={() => {
              commit(null);
              inputRef.current?.focus();
            }}
          >
            <CrossIcon />
          </button>
        )}
        <button
          type="button"
          className="date-picker__toggle"
          tabIndex={-1}
          aria-label={calendarButtonLabel}
          title={calendarButtonLabel}
          aria-haspopup="dialog"
          aria-expanded={isOpen}
          aria-controls={isOpen ? menuId : undefined}
          disabled={disabled}
          onClick={() => (isOpen ? close({ returnFocus: true }) : open({ focusGrid: true }))}
        >
          <CalendarIcon />
        </button>
        {hiddenValues.map((hidden, index) => (
          <input key={index} type="hidden" name={name} value={hidden} />
        ))}
        {isOpen && isMobile && (
          <div className="date-picker__backdrop" aria-hidden="true" onClick={() => close({ returnFocus: true })} />
        )}
        {isOpen && (
          <div
            id={menuId}
            ref={menuRef}
            role="dialog"
            aria-labelledby={labelId}
            // Focusable, so a click on the menu's padding keeps focus inside the field instead of
            // sending it to the page, which would close the menu as focus leaving it does.
            tabIndex={-1}
            className={[
              'date-picker__menu',
              isMobile ? 'date-picker__menu--mobile' : 'date-picker__menu--desktop',
              `date-picker__menu--${position}`,
            ].join(' ')}
            data-position={position}
            data-layout={isMobile ? 'mobile' : 'desktop'}
          >
            {menu !== null && menu !== 'failed' ? (
              <menu.DatePickerMenu
                locale={locale}
                isRange={isRange}
                enableTime={enableTime}
                autoApply={autoApply}
                sixWeeks={sixWeeks}
                isMobile={isMobile}
                maxRange={maxRange}
                startMonth={startMonth}
                endMonth={endMonth}
                month={month}
                changeMonth={(update) => setMonth((current) => clampMonth(update(current)))}
                isDayAllowed={isDayAllowed}
                draft={draft}
                setDraft={setDraft}
                draftTimes={draftTimes}
                setDraftTimes={setDraftTimes}
                committedKey={committedKey}
                commit={commit}
                resetTyping={resetTyping}
                close={() => close({ returnFocus: true })}
              />
            ) : (
              <div className="date-picker__calendar">
                {menu === 'failed' ? (
                  <p className="date-picker__unavailable" role="alert">
                    {intl.formatMessage(
                      { id: 'ui.datepicker.unavailable', defaultMessage: 'The calendar could not be loaded. Type the date as {pattern}.' },
                      { pattern: typingPattern(intl, { isRange, hasTime: enableTime }) },
                    )}
                  </p>
                ) : (
                  <div className="date-picker__loading" role="status" aria-label={intl.formatMessage({ id: 'ui.datepicker.loading', defaultMessage: 'Loading the calendar' })} />
                )}
              </div>
            )}
          </div>
        )}
      </div>
      {hasError && (
        <p className="field__error" id={messageId} role="alert">
          {shownError}
        </p>
      )}
      {hasTip && (
        <p className="field__tip" id={messageId}>
          {tip}
        </p>
      )}
    </div>
  );
}

function PresetSelect({
  id,
  label,
  presets,
  value,
  disabled,
  onChoose,
}: {
  id: string;
  label: ReactNode;
  presets: readonly DateRangePreset[];
  value: string;
  disabled: boolean;
  onChoose: (id: string) => void;
}) {
  const intl = useIntl();
  return (
    <div className="date-picker__presets">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__control">
        <select
          id={id}
          className="field__input date-picker__preset-select"
          value={value}
          disabled={disabled}
          onChange={(event) => onChoose(event.currentTarget.value)}
        >
          {value === '' && (
            <option value="" disabled>
              {intl.formatMessage({ id: 'ui.datepicker.presets.none', defaultMessage: 'Not chosen' })}
            </option>
          )}
          {presets.map((preset) => (
            <option key={preset.id} value={preset.id}>
              {preset.title}
            </option>
          ))}
        </select>
        <span className="date-picker__chevron" aria-hidden="true" />
      </div>
    </div>
  );
}

function CalendarIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M7 2v2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2h-2V2h-2v2H9V2H7zm-2 8h14v10H5V10zm2 2v2h2v-2H7zm4 0v2h2v-2h-2zm4 0v2h2v-2h-2z"
        fill="currentColor"
      />
    </svg>
  );
}

function CrossIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

