// The select of spec section 5: single or multiple choice, optionally with autocomplete, as a WAI-ARIA
// combobox. Without autocomplete it follows the APG "Select-Only Combobox" (a focusable element with
// type-ahead); with it, the APG "Editable Combobox With List Autocomplete" (a text input that filters).
//
// Menu placement (the spec's 768 px switch): at 768 px of viewport width and above the menu drops down
// under the field, at least as wide as the field and wider for long titles, and opens upward when there
// is not room enough below and more above. Below 768 px (phones) the menu is exactly the field's width,
// always below it, and the page scrolls it into view: on a phone the on-screen keyboard changes the room
// above and below while the user types, so a menu that flips would jump away from the field.
//
// A hidden input named like the field carries the value (ids joined by commas for a multiple select),
// so the field takes part in the form like any other input.
import {
  useCallback,
  useEffect,
  useId,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useIntl } from 'react-intl';
import {
  choosableOptions,
  fallbackValue,
  filterEntries,
  keepKnownValues,
  toEntries,
  typeAheadMatch,
  type SelectOption,
} from './options';
import '../field.css';
import './select.css';

export type { SelectOption } from './options';

/** The spec's post-input delay (section 9): the filter applies this long after the last keystroke. */
export const FILTER_DELAY_MS = 25;
/** Viewport width from which the menu drops down under the field and may flip upward (section 9). */
export const MENU_BREAKPOINT_PX = 768;
/** Type-ahead of the select-only combobox: letters typed within this time form one word. */
const TYPE_AHEAD_RESET_MS = 500;
/** Page Up and Page Down move the active option by this many. */
const PAGE_STEP = 10;
/** The menu's tallest height in CSS (select.css), used to decide whether it fits below the field. */
const MENU_MAX_HEIGHT_PX = 288;
/** An option row's height in CSS (44 px touch targets). */
const OPTION_HEIGHT_PX = 44;

interface CommonSelectProps {
  label: ReactNode;
  /** The field's name in the model; also the name of the hidden input that carries the value. */
  name: string;
  options: readonly SelectOption[];
  onBlur?: () => void;
  /** Shown while nothing is chosen. A select with a placeholder may stay empty (see `nullable`). */
  placeholder?: string;
  error?: ReactNode;
  tip?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  /** The spec's autocomplete: the user types to filter the options (case-insensitive). */
  searchable?: boolean;
  /** Options are on their way: the menu says 'Loading...' and the value is left as it is. */
  loading?: boolean;
  /**
   * A single select that may stay empty. When false, an empty value or one not in the list falls back
   * to the first option (spec section 5). Defaults to true with a placeholder, false without one.
   */
  nullable?: boolean;
  /** The `autocomplete` hint of the hidden input; the text the user types is never autofilled. */
  autoComplete?: string;
}

export interface SingleSelectProps extends CommonSelectProps {
  multiple?: false;
  value: string;
  /** A committed choice; forms validate here (spec section 5). */
  onChange: (value: string) => void;
}

export interface MultipleSelectProps extends CommonSelectProps {
  multiple: true;
  value: readonly string[];
  /** Every choice toggled in or out; values not in the list are dropped (spec section 5). */
  onChange: (value: string[]) => void;
}

export type SelectProps = SingleSelectProps | MultipleSelectProps;

type Placement = 'phone' | 'down' | 'up';

export function Select(props: SelectProps) {
  const {
    label,
    name,
    options,
    onBlur,
    placeholder,
    error,
    tip,
    required = false,
    disabled = false,
    searchable = false,
    loading = false,
    autoComplete,
  } = props;
  const isMultiple = props.multiple === true;
  const isNullable = props.nullable ?? placeholder !== undefined;
  const intl = useIntl();

  const baseId = `${name}-${useId()}`;
  const labelId = `${baseId}-label`;
  const comboboxId = `${baseId}-combobox`;
  const listboxId = `${baseId}-listbox`;
  const optionId = (index: number) => `${baseId}-option-${index}`;

  const entries = useMemo(() => toEntries(options), [options]);
  const choosable = useMemo(() => choosableOptions(entries), [entries]);
  const indexById = useMemo(() => new Map(choosable.map((option, index) => [option.id, index])), [choosable]);

  // What is chosen, as the field shows it: a non-nullable select shows its fallback at once, before the
  // model has caught up through onChange.
  const selectedIds: string[] = useMemo(() => {
    if (props.multiple === true) return keepKnownValues(props.value, choosable);
    const shown = isNullable || loading ? props.value : fallbackValue(props.value, choosable);
    return shown === '' ? [] : [shown];
  }, [props.multiple, props.value, choosable, isNullable, loading]);
  const selectedOptions = selectedIds.flatMap((id) => {
    const index = indexById.get(id);
    return index === undefined ? [] : [choosable[index]!];
  });

  const [isOpen, setOpen] = useState(false);
  const [isFocused, setFocused] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  /** What the user typed in an autocomplete select; null while not typing (the choice is shown). */
  const [typed, setTyped] = useState<string | null>(null);
  /** The filter in force: `typed` as it was FILTER_DELAY_MS after the last keystroke. */
  const [query, setQuery] = useState('');
  const [placement, setPlacement] = useState<Placement>('down');

  const controlRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const comboboxRef = useRef<HTMLElement | null>(null);
  const filterTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const typeAhead = useRef({ text: '', timer: undefined as ReturnType<typeof setTimeout> | undefined });

  const visibleEntries = useMemo(() => (searchable ? filterEntries(entries, query) : entries), [searchable, entries, query]);
  const visible = useMemo(() => choosableOptions(visibleEntries), [visibleEntries]);
  const activeOption = isOpen ? visible[activeIndex] : undefined;
  const activeId = activeOption ? optionId(indexById.get(activeOption.id) ?? 0) : undefined;

  // The model follows the spec's rules: a non-nullable single select takes the first option, a
  // multiple select loses values that are not in the list. Not while loading: the list is not final.
  const modelKey = props.multiple === true ? props.value.join('\u0000') : props.value;
  const shownKey = selectedIds.join('\u0000');
  const bringModelInLine = useEffectEvent(() => {
    if (props.multiple === true) props.onChange(selectedIds);
    else if (selectedIds[0] !== undefined) props.onChange(selectedIds[0]);
  });
  useEffect(() => {
    if (!loading && modelKey !== shownKey) bringModelInLine();
  }, [loading, modelKey, shownKey]);

  useEffect(
    () => () => {
      clearTimeout(filterTimer.current);
      clearTimeout(typeAhead.current.timer);
    },
    [],
  );

  // Where the menu goes, decided when it opens and again when the window changes size. Its height is
  // estimated from its rows, as it is not rendered yet when it opens.
  const rowCount = loading || visible.length === 0 ? 1 : visible.length + visibleEntries.filter((entry) => entry.kind === 'group').length;
  const place = useCallback(() => {
    if (window.innerWidth < MENU_BREAKPOINT_PX) {
      setPlacement('phone');
      return;
    }
    const control = controlRef.current;
    if (!control) return;
    const rect = control.getBoundingClientRect();
    const needed = Math.min(rowCount * OPTION_HEIGHT_PX + 8, MENU_MAX_HEIGHT_PX) + 4;
    const below = window.innerHeight - rect.bottom;
    const above = rect.top;
    setPlacement(below < needed && above > below ? 'up' : 'down');
  }, [rowCount]);

  useEffect(() => {
    if (!isOpen) return;
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [isOpen, place]);

  useEffect(() => {
    if (isOpen && placement === 'phone') menuRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [isOpen, placement]);

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  function indexOfSelection(): number {
    const first = selectedIds[0];
    const index = first === undefined ? -1 : visible.findIndex((option) => option.id === first);
    return index >= 0 ? index : firstEnabled(visible, 0, 1);
  }

  function open(active: number = indexOfSelection()) {
    if (disabled) return;
    if (!isOpen) place();
    setOpen(true);
    setActiveIndex(active);
  }

  /** Closes the menu and puts back what the field shows for the choice (Escape, Tab, leaving). */
  function close() {
    clearTimeout(filterTimer.current);
    setOpen(false);
    setActiveIndex(-1);
    setTyped(null);
    setQuery('');
  }

  function commit(option: SelectOption) {
    if (option.disabled === true) return;
    if (props.multiple === true) {
      const next = selectedIds.includes(option.id) ? selectedIds.filter((id) => id !== option.id) : [...selectedIds, option.id];
      props.onChange(next);
      // The list stays open for the next choice; a filter typed for this one is cleared.
      if (searchable && typed !== null && typed !== '') {
        clearTimeout(filterTimer.current);
        setTyped('');
        setQuery('');
        setActiveIndex(indexById.get(option.id) ?? 0);
      }
      return;
    }
    if (option.id !== props.value) props.onChange(option.id);
    close();
  }

  function removeChip(id: string) {
    if (props.multiple !== true || disabled) return;
    props.onChange(selectedIds.filter((selected) => selected !== id));
  }

  function move(to: number, direction: 1 | -1) {
    if (!isOpen) {
      open(firstEnabled(visible, to, direction));
      return;
    }
    setActiveIndex(firstEnabled(visible, to, direction, activeIndex));
  }

  function typeAheadTo(char: string) {
    const state = typeAhead.current;
    clearTimeout(state.timer);
    state.text += char;
    state.timer = setTimeout(() => {
      state.text = '';
    }, TYPE_AHEAD_RESET_MS);
    const from = isOpen ? activeIndex : indexOfSelection();
    const index = typeAheadMatch(visible, state.text, from);
    if (index >= 0) open(index);
    else if (!isOpen) open();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (disabled || event.nativeEvent.isComposing) return;
    const isTyping = typeAhead.current.text !== '';
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!isOpen) open();
        else if (!event.altKey) move(activeIndex + 1, 1);
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (!isOpen) open();
        else if (event.altKey && activeOption && !isMultiple) commit(activeOption);
        else move(activeIndex - 1, -1);
        return;
      case 'Home':
      case 'End':
        // In a closed autocomplete field Home and End move the caret, as in any text input.
        if (searchable && !isOpen) return;
        event.preventDefault();
        if (event.key === 'Home') move(0, 1);
        else move(visible.length - 1, -1);
        return;
      case 'PageDown':
      case 'PageUp':
        if (!isOpen) return;
        event.preventDefault();
        if (event.key === 'PageDown') move(Math.min(activeIndex + PAGE_STEP, visible.length - 1), -1);
        else move(Math.max(activeIndex - PAGE_STEP, 0), 1);
        return;
      case 'Enter':
        if (isOpen) {
          event.preventDefault();
          if (activeOption) commit(activeOption);
          else if (!isMultiple) close();
        } else if (!searchable) {
          event.preventDefault();
          open();
        }
        return;
      case ' ':
        if (searchable) return;
        if (isTyping) {
          event.preventDefault();
          typeAheadTo(' ');
          return;
        }
        event.preventDefault();
        if (!isOpen) open();
        else if (activeOption) commit(activeOption);
        return;
      case 'Escape':
        if (!isOpen && typed === null) return;
        // The menu closes, not the dialog the field may sit in.
        event.preventDefault();
        event.stopPropagation();
        close();
        return;
      case 'Tab':
        // Leaving the field takes the option the user moved to, as a native select does.
        if (isOpen && activeOption && !isMultiple) commit(activeOption);
        else close();
        return;
      case 'Backspace': {
        const last = selectedIds.at(-1);
        if (!isMultiple || last === undefined) return;
        if (searchable && (typed ?? '') !== '') return;
        event.preventDefault();
        removeChip(last);
        return;
      }
      default:
        if (!searchable && event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
          event.preventDefault();
          typeAheadTo(event.key);
        }
    }
  }

  function handleInput(text: string) {
    setTyped(text);
    if (!isOpen) open(-1);
    clearTimeout(filterTimer.current);
    filterTimer.current = setTimeout(() => {
      setQuery(text);
      // The first match becomes active, so Enter or Tab takes it; an emptied field marks none.
      setActiveIndex(text.trim() === '' ? -1 : 0);
    }, FILTER_DELAY_MS);
  }

  function handleBlur() {
    setFocused(false);
    close();
    onBlur?.();
  }

  /** A press on the field (not on an option): focus the combobox and open or close the menu. */
  function handleFieldMouseDown(event: MouseEvent<HTMLElement>) {
    if (disabled || event.button !== 0) return;
    const combobox = comboboxRef.current;
    // A press in the text keeps the caret where the user put it; elsewhere focus stays on the combobox.
    if (event.target !== combobox || !searchable) event.preventDefault();
    combobox?.focus();
    if (isOpen && !(searchable && event.target === combobox)) close();
    else if (!isOpen) open();
  }

  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const hasTip = !hasError && tip !== undefined && tip !== null;
  const describedBy = hasError ? `${baseId}-error` : hasTip ? `${baseId}-tip` : undefined;
  const hasValue = selectedIds.length > 0;

  const classes = [
    'field',
    'select',
    isMultiple ? 'select--multiple' : '',
    searchable ? 'select--searchable' : '',
    isOpen ? 'select--open' : '',
    isFocused ? 'field--focused' : '',
    hasValue ? 'field--active' : '',
    hasError ? 'field--invalid' : '',
    disabled ? 'field--disabled' : '',
  ]
    .filter(Boolean)
    .join(' ');

  const comboboxProps = {
    id: comboboxId,
    role: 'combobox',
    'aria-expanded': isOpen,
    'aria-controls': listboxId,
    'aria-haspopup': 'listbox' as const,
    'aria-activedescendant': activeId,
    'aria-required': required || undefined,
    'aria-invalid': hasError || undefined,
    'aria-describedby': describedBy,
    onKeyDown: handleKeyDown,
    onFocus: () => setFocused(true),
    onBlur: handleBlur,
  };

  const singleTitle = !isMultiple ? selectedOptions[0]?.title : undefined;
  const chosenTitles = selectedOptions.map((option) => option.title).join(', ');

  const status = loading
    ? intl.formatMessage({ id: 'ui.select.loading', defaultMessage: 'Loading...' })
    : choosable.length === 0
      ? intl.formatMessage({ id: 'ui.select.noData', defaultMessage: 'No data' })
      : visible.length === 0
        ? intl.formatMessage({ id: 'ui.select.nothingFound', defaultMessage: 'Nothing found' })
        : undefined;

  const renderOption = (option: SelectOption) => {
    const index = indexById.get(option.id) ?? 0;
    const isSelected = selectedIds.includes(option.id);
    const isActive = activeOption?.id === option.id;
    const optionClasses = [
      'select__option',
      isActive ? 'select__option--active' : '',
      isSelected ? 'select__option--selected' : '',
      option.disabled === true ? 'select__option--disabled' : '',
      option.cls ?? '',
    ]
      .filter(Boolean)
      .join(' ');
    return (
      <div
        key={option.id}
        id={optionId(index)}
        role="option"
        className={optionClasses}
        aria-selected={isSelected}
        aria-disabled={option.disabled === true || undefined}
        data-id={option.id}
        onMouseMove={() => {
          if (!isActive && option.disabled !== true) setActiveIndex(visible.indexOf(option));
        }}
        onClick={() => commit(option)}
      >
        {isMultiple && <span className="select__check" aria-hidden="true" />}
        {option.img !== undefined && <img className="select__option-img" src={option.img} alt="" />}
        {option.icon !== undefined && (
          <span className="select__option-icon" aria-hidden="true">
            {option.icon}
          </span>
        )}
        <span className="select__option-title">{option.title}</span>
      </div>
    );
  };

  return (
    <div className={classes}>
      <label
        className="field__label"
        id={labelId}
        htmlFor={searchable ? comboboxId : undefined}
        onClick={searchable ? undefined : () => comboboxRef.current?.focus()}
      >
        {label}
        {/* The marker is drawn by CSS; screen readers hear aria-required instead. */}
        {required && <span className="field__required" aria-hidden="true" />}
      </label>
      <div className="field__control select__control" ref={controlRef}>
        <input type="hidden" name={name} value={selectedIds.join(',')} autoComplete={autoComplete} />
        <div className={['field__input', 'select__box', disabled ? 'select__box--disabled' : ''].filter(Boolean).join(' ')} onMouseDown={handleFieldMouseDown}>
          {isMultiple &&
            selectedOptions.map((option) => (
              <span className="select__chip" key={option.id}>
                <span className="select__chip-title">{option.title}</span>
                <button
                  type="button"
                  className="select__chip-remove"
                  tabIndex={-1}
                  disabled={disabled}
                  aria-label={intl.formatMessage({ id: 'ui.select.remove', defaultMessage: 'Remove {title}' }, { title: option.title })}
                  onMouseDown={(event) => {
                    // Keeps focus (and the menu) where it is.
                    event.preventDefault();
                    event.stopPropagation();
                  }}
                  onClick={() => removeChip(option.id)}
                >
                  <CrossIcon />
                </button>
              </span>
            ))}
          {searchable ? (
            <input
              {...comboboxProps}
              ref={(element) => {
                comboboxRef.current = element;
              }}
              className="select__input-text"
              type="text"
              aria-autocomplete="list"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              disabled={disabled}
              value={typed ?? singleTitle ?? ''}
              placeholder={hasValue && isMultiple ? undefined : placeholder}
              onChange={(event) => handleInput(event.currentTarget.value)}
            />
          ) : (
            <div
              {...comboboxProps}
              ref={(element) => {
                comboboxRef.current = element;
              }}
              className={['select__value', hasValue ? '' : 'select__value--placeholder', isMultiple && hasValue ? 'select__value--beside-chips' : '']
                .filter(Boolean)
                .join(' ')}
              tabIndex={disabled ? -1 : 0}
              aria-labelledby={labelId}
              aria-disabled={disabled || undefined}
            >
              {isMultiple ? (
                hasValue ? (
                  <span className="select__sr-only">{chosenTitles}</span>
                ) : (
                  placeholder
                )
              ) : (
                (singleTitle ?? placeholder)
              )}
            </div>
          )}
        </div>
        <span className="select__arrow" aria-hidden="true" />
        <div
          ref={menuRef}
          className={`select__menu select__menu--${placement}`}
          hidden={!isOpen}
          // Choosing with the pointer keeps focus in the field, so the field does not blur mid-choice.
          onMouseDown={(event) => event.preventDefault()}
        >
          {isOpen && status !== undefined && (
            <div className="select__status" role="status">
              {status}
            </div>
          )}
          <div id={listboxId} role="listbox" aria-labelledby={labelId} aria-multiselectable={isMultiple || undefined} className="select__listbox">
            {isOpen &&
              !loading &&
              visibleEntries.map((entry) =>
                entry.kind === 'option' ? (
                  renderOption(entry.option)
                ) : (
                  <div key={`group-${entry.group.id}`} role="group" aria-labelledby={`${baseId}-group-${entry.group.id}`} className={['select__group', entry.group.cls ?? ''].filter(Boolean).join(' ')}>
                    <div role="presentation" id={`${baseId}-group-${entry.group.id}`} className="select__group-title">
                      {entry.group.title}
                    </div>
                    {entry.options.map(renderOption)}
                  </div>
                ),
              )}
          </div>
        </div>
      </div>
      {hasError && (
        <p className="field__error" id={`${baseId}-error`} role="alert">
          {error}
        </p>
      )}
      {hasTip && (
        <p className="field__tip" id={`${baseId}-tip`}>
          {tip}
        </p>
      )}
    </div>
  );
}

/** The first enabled option from `start` going `direction`; `fallback` when there is none. */
function firstEnabled(options: readonly SelectOption[], start: number, direction: 1 | -1, fallback = -1): number {
  for (let index = start; index >= 0 && index < options.length; index += direction) {
    if (options[index]?.disabled !== true) return index;
  }
  return fallback;
}

function CrossIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}
