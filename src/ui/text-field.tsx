import { useId, useState, type HTMLInputTypeAttribute, type KeyboardEvent, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import './field.css';

export interface TextFieldProps {
  label: ReactNode;
  /** The field's name in the model; also the input's `name`. */
  name: string;
  value: string;
  /** Called on every keystroke (the DOM `input` event). Forms do not validate here (spec section 5). */
  onChange: (value: string) => void;
  onBlur?: () => void;
  type?: HTMLInputTypeAttribute;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric' | 'decimal' | 'search' | 'url' | 'none';
  placeholder?: string;
  error?: ReactNode;
  /** A hint below the field, hidden while an error is shown. */
  tip?: ReactNode;
  /** Shows the required marker and `aria-required`; the check itself belongs to the form's struct. */
  required?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  maxLength?: number;
  spellCheck?: boolean;
}

/**
 * A labelled text input with its tip or error beneath (spec section 5): default type text, spellcheck
 * off, a Show/Hide toggle for passwords, Enter submits the enclosing form.
 */
export function TextField({
  label,
  name,
  value,
  onChange,
  onBlur,
  type = 'text',
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
  const isPassword = type === 'password';
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const hasTip = !hasError && tip !== undefined && tip !== null;
  const describedBy = hasError ? `${id}-error` : hasTip ? `${id}-tip` : undefined;

  // Submitting through requestSubmit() runs the form's submit handler the same way in every browser,
  // also for forms whose submit button is disabled while a request is running.
  function submitOnEnter(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    const form = event.currentTarget.form;
    if (!form) return;
    event.preventDefault();
    form.requestSubmit();
  }

  const toggleTitle = isPasswordVisible
    ? intl.formatMessage({ id: 'field.password.hide', defaultMessage: 'Hide' })
    : intl.formatMessage({ id: 'field.password.show', defaultMessage: 'Show' });

  const classes = [
    'field',
    'text-field',
    isFocused ? 'field--focused' : '',
    value !== '' ? 'field--active' : '',
    hasError ? 'field--invalid' : '',
    disabled ? 'field--disabled' : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={classes}>
      <label className="field__label" htmlFor={id}>
        {label}
        {/* The marker is drawn by CSS; screen readers hear aria-required instead. */}
        {required && <span className="field__required" aria-hidden="true" />}
      </label>
      <div className="field__control">
        <input
          id={id}
          className="field__input"
          name={name}
          value={value}
          type={isPassword && isPasswordVisible ? 'text' : type}
          autoComplete={autoComplete}
          inputMode={inputMode}
          placeholder={placeholder}
          spellCheck={spellCheck}
          disabled={disabled}
          autoFocus={autoFocus}
          maxLength={maxLength}
          aria-required={required || undefined}
          aria-invalid={hasError || undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.currentTarget.value)}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            onBlur?.();
          }}
          onKeyDown={submitOnEnter}
        />
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
          {tip}
        </p>
      )}
    </div>
  );
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
