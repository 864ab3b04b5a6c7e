// What the date picker's menu holds once it is open: the month grid (./calendar), months turned by wheel and swipe,
// the time of day, Close and Select. One chunk with the grid, loaded by date-picker.tsx's loadCalendar when a
// field is focused, pointed at or opened, so a page with a date field downloads only the field: most visits type
// a date or leave it alone (issue 14: every route within 200 KB). The field keeps the draft and the month and
// passes them in, because typing in its input moves them while the menu is open, also while this module is
// still on its way; the menu's frame (the dialog, its place and layout) is the field's too, as it holds the box
// shown before this module is there or when it cannot be loaded.
import { addDays, addMonths, subDays } from 'date-fns';
import { useEffect, useEffectEvent, useRef, type PointerEvent } from 'react';
import type { DateRange, Matcher } from 'react-day-picker';
import { useIntl } from 'react-intl';
import { Calendar, type CalendarLocale } from './calendar';
import { TIME_STEP } from './date-model';
import { modelKey, withTime, type TimeOfDay } from './draft';
import { swipeMonthStep, wheelMonthStep } from './month-gestures';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const STEPS = Array.from({ length: 60 / TIME_STEP }, (_, index) => index * TIME_STEP);

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

export interface DatePickerMenuProps {
  locale: CalendarLocale;
  isRange: boolean;
  enableTime: boolean;
  autoApply: boolean;
  sixWeeks: boolean;
  isMobile: boolean;
  maxRange: number | undefined;
  startMonth: Date;
  endMonth: Date;
  month: Date;
  /** Moves the shown month; the field keeps it within startMonth..endMonth. */
  changeMonth: (update: (current: Date) => Date) => void;
  isDayAllowed: (day: Date) => boolean;
  draft: DateRange | undefined;
  setDraft: (draft: DateRange | undefined) => void;
  draftTimes: [TimeOfDay, TimeOfDay];
  setDraftTimes: (times: [TimeOfDay, TimeOfDay]) => void;
  /** The committed value's key (draft.ts, modelKey): Select waits for a draft that differs from it. */
  committedKey: string;
  commit: (dates: readonly [Date, Date]) => void;
  /** Puts the committed value back in the input, dropping a typed text and its error. */
  resetTyping: () => void;
  /** Closes the menu and gives focus back to the input. */
  close: () => void;
}

export function DatePickerMenu(props: DatePickerMenuProps) {
  const {
    locale,
    isRange,
    enableTime,
    autoApply,
    sixWeeks,
    isMobile,
    maxRange,
    draft,
    setDraft,
    draftTimes,
    setDraftTimes,
    commit,
    resetTyping,
    close,
  } = props;
  const intl = useIntl();
  const calendarRef = useRef<HTMLDivElement>(null);
  const lastWheelChangeAt = useRef<number | null>(null);
  const swipeStart = useRef<{ x: number; y: number; pointerId: number } | null>(null);
  const isSwipeClickSuppressed = useRef(false);

  // The wheel turns months over the calendar. React registers wheel listeners as passive, and the
  // page must not scroll underneath while the wheel is turning months, hence a listener of our own.
  const turnMonth = (step: number) => props.changeMonth((current) => addMonths(current, step));
  const turnMonthByWheel = useEffectEvent(turnMonth);
  useEffect(() => {
    const calendar = calendarRef.current;
    if (!calendar) return;
    function turnMonthOnWheel(event: WheelEvent) {
      if (event.deltaY === 0) return;
      event.preventDefault();
      const now = Date.now();
      const step = wheelMonthStep(event.deltaY, now, lastWheelChangeAt.current);
      if (step === 0) return;
      lastWheelChangeAt.current = now;
      turnMonthByWheel(step);
    }
    calendar.addEventListener('wheel', turnMonthOnWheel, { passive: false });
    return () => calendar.removeEventListener('wheel', turnMonthOnWheel);
  }, []);

  function startSwipe(event: PointerEvent<HTMLDivElement>) {
    // A mouse drag is a click that slipped, not a swipe.
    if (event.pointerType === 'mouse') return;
    swipeStart.current = { x: event.clientX, y: event.clientY, pointerId: event.pointerId };
  }

  function endSwipe(event: PointerEvent<HTMLDivElement>) {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (!start || start.pointerId !== event.pointerId) return;
    const step = swipeMonthStep(start, { x: event.clientX, y: event.clientY });
    if (step === 0) return;
    // The finger may lift over a day: that click belongs to the swipe, not to a choice.
    isSwipeClickSuppressed.current = true;
    window.setTimeout(() => {
      isSwipeClickSuppressed.current = false;
    }, 0);
    turnMonth(step);
  }

  function draftDates(): [Date, Date] | null {
    if (!draft?.from) return null;
    const from = withTime(draft.from, draftTimes[0]);
    if (!isRange) return [from, from];
    if (!draft.to) return null;
    return [from, withTime(draft.to, draftTimes[1])];
  }

  function selectSingle(day: Date | undefined) {
    if (isSwipeClickSuppressed.current || !day) return;
    resetTyping();
    setDraft({ from: day, to: undefined });
    if (autoApply) {
      commit([withTime(day, draftTimes[0]), withTime(day, draftTimes[0])]);
      // With a time picker the menu stays for the time; the date is committed already.
      if (!enableTime) close();
    }
  }

  function selectRange(range: DateRange | undefined) {
    if (isSwipeClickSuppressed.current) return;
    resetTyping();
    setDraft(range);
    if (autoApply && range?.from && range.to) {
      commit([withTime(range.from, draftTimes[0]), withTime(range.to, draftTimes[1])]);
      if (!enableTime) close();
    }
  }

  function changeTime(end: 0 | 1, part: keyof TimeOfDay, value: number) {
    const times: [TimeOfDay, TimeOfDay] = [...draftTimes];
    times[end] = { ...times[end], [part]: value };
    setDraftTimes(times);
    if (!autoApply || !draft?.from) return;
    if (!isRange) commit([withTime(draft.from, times[0]), withTime(draft.from, times[0])]);
    else if (draft.to) commit([withTime(draft.from, times[0]), withTime(draft.to, times[1])]);
  }

  const pending = draftDates();
  const hasChanged = pending !== null && modelKey(pending, isRange, enableTime) !== props.committedKey;

  const disabledMatchers: Matcher[] = [(day: Date) => !props.isDayAllowed(day)];
  // While the end of a range is being chosen, days too far from its start are out of reach.
  if (isRange && maxRange !== undefined && draft?.from && !draft.to) {
    disabledMatchers.push({ before: subDays(draft.from, maxRange) }, { after: addDays(draft.from, maxRange) });
  }

  const calendarCommon = {
    locale,
    sixWeeks,
    startMonth: props.startMonth,
    endMonth: props.endMonth,
    month: props.month,
    onMonthChange: (next: Date) => props.changeMonth(() => next),
    disabled: disabledMatchers,
  };

  return (
    <>
      <div
        ref={calendarRef}
        className="date-picker__calendar"
        onPointerDown={startSwipe}
        onPointerUp={endSwipe}
        onPointerCancel={() => {
          swipeStart.current = null;
        }}
      >
        {isRange ? (
          <Calendar {...calendarCommon} mode="range" selected={draft} onSelect={selectRange} max={maxRange} />
        ) : (
          <Calendar {...calendarCommon} mode="single" selected={draft?.from} onSelect={selectSingle} />
        )}
      </div>
      {enableTime && (
        <div className="date-picker__times">
          <TimeInputs
            legend={
              isRange
                ? intl.formatMessage({ id: 'ui.datepicker.time.start', defaultMessage: 'Start time' })
                : intl.formatMessage({ id: 'ui.datepicker.time', defaultMessage: 'Time' })
            }
            time={draftTimes[0]}
            onChange={(part, value) => changeTime(0, part, value)}
          />
          {isRange && (
            <TimeInputs
              legend={intl.formatMessage({ id: 'ui.datepicker.time.end', defaultMessage: 'End time' })}
              time={draftTimes[1]}
              onChange={(part, value) => changeTime(1, part, value)}
            />
          )}
        </div>
      )}
      {(!autoApply || enableTime || isMobile) && (
        <div className="date-picker__actions">
          <button type="button" className="button button--secondary date-picker__action" onClick={() => {
            resetTyping();
            close();
          }}>
            {intl.formatMessage({ id: 'ui.datepicker.close', defaultMessage: 'Close' })}
          </button>
          {!autoApply && (
            <button
              type="button"
              className="button button--primary date-picker__action"
              disabled={!hasChanged}
              onClick={() => {
                if (!pending) return;
                commit(pending);
                close();
              }}
            >
              {intl.formatMessage({ id: 'ui.datepicker.select', defaultMessage: 'Select' })}
            </button>
          )}
        </div>
      )}
    </>
  );
}

function TimeInputs({
  legend,
  time,
  onChange,
}: {
  legend: string;
  time: TimeOfDay;
  onChange: (part: keyof TimeOfDay, value: number) => void;
}) {
  const intl = useIntl();
  const parts: { part: keyof TimeOfDay; label: string; values: number[] }[] = [
    { part: 'hours', label: intl.formatMessage({ id: 'ui.datepicker.time.hours', defaultMessage: 'Hours' }), values: HOURS },
    { part: 'minutes', label: intl.formatMessage({ id: 'ui.datepicker.time.minutes', defaultMessage: 'Minutes' }), values: STEPS },
    { part: 'seconds', label: intl.formatMessage({ id: 'ui.datepicker.time.seconds', defaultMessage: 'Seconds' }), values: STEPS },
  ];
  return (
    <fieldset className="date-picker__time">
      <legend className="date-picker__time-legend">{legend}</legend>
      {parts.map(({ part, label, values }) => {
        // A typed time off the 5-step grid stays as typed, so it is offered too.
        const options = values.includes(time[part]) ? values : [...values, time[part]].sort((a, b) => a - b);
        return (
          <span key={part} className="date-picker__time-part">
            <select
              className="date-picker__time-select"
              aria-label={label}
              value={time[part]}
              onChange={(event) => onChange(part, Number(event.currentTarget.value))}
            >
              {options.map((option) => (
                <option key={option} value={option}>
                  {pad(option)}
                </option>
              ))}
            </select>
          </span>
        );
      })}
    </fieldset>
  );
}
