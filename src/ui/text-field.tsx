import {
  use,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type HTMLInputTypeAttribute,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useIntl } from 'react-intl';
import { attachEmailMask, maskAffix, maskKey, maskPlaceholder, parseMaskKey, type FieldMask, type MaskEngine, type MaskKind } from './masks';
import { lazyModule } from './lazy-module';
import './field.css';

// The imask engine (masks-imask.ts, 16 KB gzipped) is a chunk of its own, fetched only when a field needs it:
// a field with a value to show waits for it (Suspense) at its first render, so the value never shows
// unformatted; an empty field fetches it when it is first focused, pressed or typed into, and the engine
// formats what was typed meanwhile when it takes over. So a page whose masked fields start empty (the proposal
// form) does not download imask until one is used, and the sign-in pages, whose e-mail mask needs no engine,
// never do.
const maskEngine = lazyModule<MaskEngine>(() => import('./masks-imask').then((module) => module.engine));

// In development and in the tests (the Vite dev server, Vitest) the engine loads with this module, so a masked
// field has it from its first render there; the build's lazy path is tested in Chromium (mask-engine.test.ts).
if (!import.meta.env.PROD) await maskEngine.load();

/** The keys a field accepts: digits ('int'), digits and '.' ('float'), or characters fitting a regex. */
export type FieldValidation = 'int' | 'float' | `pattern|${string}`;

/** 1: boxed (the default), 2: underlined. */
export type FieldStyleType = 1 | 2;

/** How long after a paste the field checks what was pasted (spec section 9). */
export const PASTE_CHECK_DELAY_MS = 50;

export interface TextFieldProps {
  label: ReactNode;
  /** The field's name in the model; also the input's `name`. */
  name: string;
  /** The model value: for a masked field the unmasked value ("1000000", "+79123456789"). */
  value: string;
  /** Called on every keystroke (the DOM `input` event). Forms do not validate here (spec section 5). */
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Enter in the field calls this; without it, Enter submits the enclosing form. */
  onSubmit?: () => void;
  type?: HTMLInputTypeAttribute;
  /** 1 boxed (default), 2 underlined. */
  styleType?: FieldStyleType;
  /** Blocks keys that do not fit; a paste that leaves an invalid number is cleared after 50 ms. */
  validate?: FieldValidation;
  /** A number below is raised to `min` when the value is committed (blur, Enter). */
  min?: number;
  /** A number above is lowered to `max` when the value is committed (blur, Enter). */
  max?: number;
  /** Formats what the user sees; the model gets the unmasked value. */
  mask?: MaskKind;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric' | 'decimal' | 'search' | 'url' | 'none';
  /** For a masked field it shows only while the field is focused, like the mask itself. */
  placeholder?: string;
  error?: ReactNode;
  /** A hint below the field, hidden while an error is shown. Masks for numbers bring an example; `null` hides it. */
  tip?: ReactNode;
  /** Shows the required marker and `aria-required`; the check itself belongs to the form's struct. */
  required?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  maxLength?: number;
  spellCheck?: boolean;
}

/** Whether one typed character may go into a field with this validation. */
export function acceptsCharacter(rule: FieldValidation, char: string, currentValue: string): boolean {
  const code = char.charCodeAt(0);
  const isDigit = code >= 48 && code <= 57;
  if (rule === 'int') return isDigit;
  if (rule === 'float') return isDigit || (code === 46 && !currentValue.includes('.'));
  return patternOf(rule).test(char);
}

/** Whether a whole value fits (checked after a paste). */
export function fitsValidation(rule: FieldValidation, value: string): boolean {
  if (rule === 'int') return /^\d*$/.test(value);
  if (rule === 'float') return /^(\d+(\.\d*)?|\.\d+)?$/.test(value);
  const pattern = patternOf(rule);
  return Array.from(value).every((char) => pattern.test(char));
}

function patternOf(rule: `pattern|${string}`): RegExp {
  return new RegExp(rule.slice('pattern|'.length), 'u');
}

/** `value` held within [min, max]; anything that is not a number is left alone. */
export function clampValue(value: string, min: number | undefined, max: number | undefined): string {
  if (value.trim() === '' || (min === undefined && max === undefined)) return value;
  const number = Number(value);
  if (Number.isNaN(number)) return value;
  if (min !== undefined && number < min) return String(min);
  if (max !== undefined && number > max) return String(max);
  return value;
}

/** The phone keyboard that fits a mask or a validation, unless the caller chose one. */
function keyboardFor(mask: MaskKind | undefined, validate: FieldValidation | undefined): TextFieldProps['inputMode'] {
  if (mask === 'email') return 'email';
  if (mask === 'phone') return 'tel';
  if (mask !== undefined) return 'decimal';
  if (validate === 'int') return 'numeric';
  if (validate === 'float') return 'decimal';
  return undefined;
}

/**
 * A labelled text input with its tip or error beneath (spec section 5): default type text, styleType
 * 1, spellcheck off, a Show/Hide toggle for passwords, key filtering (`validate`), min/max clamping,
 * masks, and Enter that submits.
 */
export function TextField({
  label,
  name,
  value,
  onChange,
  onBlur,
  onSubmit,
  type = 'text',
  styleType = 1,
  validate,
  min,
  max,
  mask,
  autoComplete,
  inputMode,
  placeholder,
  error,
  tip,
  required = false,
  disabled = false,
  autoFocus = false,
  maxLength,
  spellCheck = false,
}: TextFieldProps) {
  const intl = useIntl();
  const id = `${name}-${useId()}`;
  const [isFocused, setFocused] = useState(false);
  const [isPasswordVisible, setPasswordVisible] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const maskRef = useRef<FieldMask | null>(null);
  const onChangeRef = useRef(onChange);
  const valueRef = useRef(value);
  const pasteTimer = useRef<number | undefined>(undefined);

  const kindKey = maskKey(mask);
  const isMasked = kindKey !== '';
  const [hasEngine, setHasEngine] = useState(() => maskEngine.current !== null);
  const isEngineReady = hasEngine || maskEngine.current !== null;
  // While no mask is attached yet (an empty field not used so far): where the input's text came from, typed by
  // the user or set from code, and the request for the engine.
  const unmasked = useRef<{ source: 'typed' | 'code' | null; request: () => void } | null>(null);
  // A field with a value to show at its first render waits for the engine (the page's Suspense shows its
  // loading bar meanwhile), so the value never shows unformatted.
  const [hasValueAtFirst] = useState(() => value !== '');
  if (mask !== undefined && mask !== 'email' && maskEngine.current === null && hasValueAtFirst) use(maskEngine.load());
  const isPassword = type === 'password';
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const shownTip = tip === undefined ? maskTip(kindKey, intl.formatMessage) : tip;
  const hasTip = !hasError && shownTip !== undefined && shownTip !== null;
  const affix = mask === undefined ? {} : maskAffix(mask);

  useLayoutEffect(() => {
    onChangeRef.current = onChange;
    valueRef.current = value;
  });

  // The mask owns the input's text: it is attached once per kind and told of model updates.
  useLayoutEffect(() => {
    const kind = parseMaskKey(kindKey);
    const input = inputRef.current;
    if (kind === undefined || input === null) return;
    const report = (next: string) => {
      valueRef.current = next;
      onChangeRef.current(next);
    };
    if (kind === 'email') {
      const attached = attachEmailMask(input, report);
      attached.setModelValue(valueRef.current);
      maskRef.current = attached;
      return () => {
        attached.destroy();
        maskRef.current = null;
      };
    }
    const engine = maskEngine.current;
    if (engine === null) {
      // An empty field with no mask yet: the engine is fetched when the field is used (or given a value).
      // Should it fail to load, what was typed becomes the model value as it is (the form's check says what is
      // wrong with it), and the next use tries again.
      let isCurrent = true;
      const requestEngine = () => {
        maskEngine.load().then(
          () => {
            if (isCurrent) setHasEngine(true);
          },
          (error: unknown) => {
            console.warn('The input mask could not be loaded; the field takes the text as typed.', error);
            if (isCurrent && pending.source === 'typed' && input.value !== valueRef.current) report(input.value);
          },
        );
      };
      const pending: { source: 'typed' | 'code' | null; request: () => void } = { source: null, request: requestEngine };
      const onInput = () => {
        pending.source = 'typed';
        requestEngine();
      };
      unmasked.current = pending;
      input.dataset.mask = 'none';
      input.addEventListener('pointerdown', requestEngine);
      input.addEventListener('focus', requestEngine);
      input.addEventListener('input', onInput);
      if (input.ownerDocument.activeElement === input) requestEngine();
      return () => {
        isCurrent = false;
        input.removeEventListener('pointerdown', requestEngine);
        input.removeEventListener('focus', requestEngine);
        input.removeEventListener('input', onInput);
        delete input.dataset.mask;
      };
    }
    // Text typed before the engine was there is the user's: it is typed again into the engine, as one input event
    // at the end of an empty field, so the engine takes it as typing (a value set from code would be completed as
    // if the field were left: '1,200.00' under the user's fingers). Otherwise the engine shows the model value.
    const typed = unmasked.current?.source === 'typed' && input.value !== '' ? input.value : null;
    unmasked.current = null;
    if (typed !== null) input.value = '';
    const attached = engine(input, kind, report);
    input.dataset.mask = 'imask';
    if (typed !== null) {
      input.value = typed;
      input.setSelectionRange(typed.length, typed.length);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    } else attached.setModelValue(valueRef.current);
    maskRef.current = attached;
    return () => {
      attached.destroy();
      delete input.dataset.mask;
      maskRef.current = null;
    };
  }, [kindKey, isEngineReady]);

  useLayoutEffect(() => {
    const attached = maskRef.current;
    if (attached) {
      if (attached.modelValue() !== value) attached.setModelValue(value);
      return;
    }
    // No mask yet: a value set from code shows as it is until the mask it asks for arrives and formats it.
    const pending = unmasked.current;
    const input = inputRef.current;
    if (pending === null || input === null || input.value === value) return;
    input.value = value;
    pending.source = 'code';
    pending.request();
  }, [value]);

  useEffect(() => () => window.clearTimeout(pasteTimer.current), []);

  // Keys are filtered before the browser inserts them; `beforeinput` also carries what phone
  // keyboards type, which often report no usable key code.
  useEffect(() => {
    const input = inputRef.current;
    if (validate === undefined || input === null) return;
    const filterKeys = (event: InputEvent) => {
      if (event.inputType !== 'insertText' || event.data === null) return;
      let after = input.value;
      for (const char of event.data) {
        if (!acceptsCharacter(validate, char, after)) {
          event.preventDefault();
          return;
        }
        after += char;
      }
    };
    input.addEventListener('beforeinput', filterKeys);
    return () => input.removeEventListener('beforeinput', filterKeys);
  }, [validate]);

  function checkPaste(_event: ClipboardEvent<HTMLInputElement>) {
    if (validate === undefined) return;
    window.clearTimeout(pasteTimer.current);
    // The pasted text lands after this event; it is judged once it is in the field.
    pasteTimer.current = window.setTimeout(() => {
      const input = inputRef.current;
      if (input && !fitsValidation(validate, input.value)) {
        valueRef.current = '';
        onChangeRef.current('');
      }
    }, PASTE_CHECK_DELAY_MS);
  }

  /** Min and max apply when the value is committed, so typing "5" on the way to "50" is not refused. */
  function commit() {
    const clamped = clampValue(valueRef.current, min, max);
    if (clamped !== valueRef.current) {
      valueRef.current = clamped;
      onChange(clamped);
    }
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    commit();
    if (onSubmit) {
      event.preventDefault();
      onSubmit();
      return;
    }
    const form = event.currentTarget.form;
    if (!form) return;
    event.preventDefault();
    // requestSubmit() runs the form's submit handler the same way in every browser, also for forms
    // whose submit button is disabled while a request is running.
    form.requestSubmit();
  }

  const toggleTitle = isPasswordVisible
    ? intl.formatMessage({ id: 'ui.field.password.hide', defaultMessage: 'Hide' })
    : intl.formatMessage({ id: 'ui.field.password.show', defaultMessage: 'Show' });

  const affixId = `${id}-affix`;
  const describedBy = [hasError ? `${id}-error` : hasTip ? `${id}-tip` : '', affix.prefix ?? affix.suffix ? affixId : '']
    .filter(Boolean)
    .join(' ');

  const classes = [
    'field',
    'text-field',
    `field--style-${styleType}`,
    isFocused ? 'field--focused' : '',
    value !== '' ? 'field--active' : '',
    hasError ? 'field--invalid' : '',
    disabled ? 'field--disabled' : '',
  ]
    .filter(Boolean)
    .join(' ');

  // An e-mail input has no caret position in browsers, which a mask needs; the keyboard stays the same.
  const inputType = isPassword && isPasswordVisible ? 'text' : isMasked && type === 'email' ? 'text' : type;
  const keyboard = inputMode ?? keyboardFor(mask, validate);

  return (
    <div className={classes}>
      <label className="field__label" htmlFor={id}>
        {label}
        {/* The marker is drawn by CSS; screen readers hear aria-required instead. */}
        {required && <span className="field__required" aria-hidden="true" />}
      </label>
      <div className="field__control">
        {affix.prefix !== undefined && (
          <span className="field__affix field__affix--prefix" id={affixId} aria-hidden="true">
            {affix.prefix}
          </span>
        )}
        <input
          ref={inputRef}
          id={id}
          className="field__input"
          name={name}
          // A masked input is left to its mask; React would otherwise overwrite the formatted text.
          {...(isMasked ? {} : { value })}
          type={inputType}
          autoComplete={autoComplete}
          inputMode={keyboard}
          placeholder={mask === undefined ? placeholder : isFocused ? (placeholder ?? maskPlaceholder(mask)) : undefined}
          spellCheck={spellCheck}
          disabled={disabled}
          autoFocus={autoFocus}
          maxLength={maxLength}
          aria-required={required || undefined}
          aria-invalid={hasError || undefined}
          aria-describedby={describedBy === '' ? undefined : describedBy}
          onChange={isMasked ? undefined : (event) => {
            valueRef.current = event.currentTarget.value;
            onChange(event.currentTarget.value);
          }}
          onPaste={checkPaste}
          onFocus={() => {
            setFocused(true);
          }}
          onBlur={() => {
            setFocused(false);
            commit();
            onBlur?.();
          }}
          onKeyDown={handleKeyDown}
        />
        {affix.suffix !== undefined && (
          <span className="field__affix field__affix--suffix" id={affixId} aria-hidden="true">
            {affix.suffix}
          </span>
        )}
        {isPassword && (
          <button
            type="button"
            className="field__toggle"
            title={toggleTitle}
            aria-label={toggleTitle}
            aria-pressed={isPasswordVisible}
            aria-controls={id}
            disabled={disabled}
            onClick={() => setPasswordVisible((visible) => !visible)}
          >
            <EyeIcon crossed={isPasswordVisible} />
          </button>
        )}
      </div>
      {hasError && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      {hasTip && (
        <p className="field__tip" id={`${id}-tip`}>
          {shownTip}
        </p>
      )}
    </div>
  );
}

/** The example hints of spec section 9 (10 and 1,000,000) for the masks that take numbers. */
function maskTip(kindKey: string, format: ReturnType<typeof useIntl>['formatMessage']): string | undefined {
  if (kindKey === 'percent') return format({ id: 'ui.mask.percent.tip', defaultMessage: 'For example 10' });
  if (kindKey === 'number' || kindKey.startsWith('currency:')) {
    return format({ id: 'ui.mask.number.tip', defaultMessage: 'For example 1,000,000; 5k is 5,000 and 2m is 2,000,000' });
  }
  return undefined;
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 5C6.5 5 2.7 9.1 1.5 12c1.2 2.9 5 7 10.5 7s9.3-4.1 10.5-7C21.3 9.1 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4z"
        fill="currentColor"
      />
      {crossed && <path d="M3 3l18 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
    </svg>
  );
}
