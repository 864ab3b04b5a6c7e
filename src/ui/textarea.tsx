import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { FieldStyleType } from './text-field';
import './field.css';

/** The textarea grows to its content this long after the last change (spec section 9). */
export const TEXTAREA_AUTO_HEIGHT_DELAY_MS = 50;
/** Added to the content height so the last line never sits on the border (spec section 5). */
export const TEXTAREA_AUTO_HEIGHT_EXTRA_PX = 4;

export interface TextareaProps {
  label: ReactNode;
  /** The field's name in the model; also the textarea's `name`. */
  name: string;
  value: string;
  /** Called on every keystroke; forms validate on blur, not here. */
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Limits the text and shows the counter 'N / max characters'. */
  maxLength?: number;
  /** Lines shown before the field starts to grow. */
  rows?: number;
  /** Grows with its content (default); off, the user resizes it. */
  autoHeight?: boolean;
  styleType?: FieldStyleType;
  placeholder?: string;
  error?: ReactNode;
  tip?: ReactNode;
  required?: boolean;
  disabled?: boolean;
}

/** A labelled multi-line field with tip or error and an optional character counter (spec section 5). */
export function Textarea({
  label,
  name,
  value,
  onChange,
  onBlur,
  maxLength,
  rows = 3,
  autoHeight = true,
  styleType = 1,
  placeholder,
  error,
  tip,
  required = false,
  disabled = false,
}: TextareaProps) {
  const intl = useIntl();
  const id = `${name}-${useId()}`;
  const [isFocused, setFocused] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const hasTip = !hasError && tip !== undefined && tip !== null;
  const counterId = `${id}-counter`;
  const describedBy = [hasError ? `${id}-error` : hasTip ? `${id}-tip` : '', maxLength === undefined ? '' : counterId].filter(Boolean).join(' ');

  // Measured a moment after the change, once the text is laid out; a burst of keystrokes measures once.
  useEffect(() => {
    const textarea = ref.current;
    if (!autoHeight || textarea === null) return;
    const timer = window.setTimeout(() => {
      textarea.style.height = 'auto';
      textarea.style.height = `${textarea.scrollHeight + TEXTAREA_AUTO_HEIGHT_EXTRA_PX}px`;
    }, TEXTAREA_AUTO_HEIGHT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [value, autoHeight]);

  const classes = [
    'field',
    'textarea',
    `field--style-${styleType}`,
    autoHeight ? 'textarea--auto-height' : '',
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
        {required && <span className="field__required" aria-hidden="true" />}
      </label>
      <div className="field__control">
        <textarea
          ref={ref}
          id={id}
          className="field__input textarea__input"
          name={name}
          value={value}
          rows={rows}
          maxLength={maxLength}
          placeholder={placeholder}
          disabled={disabled}
          aria-required={required || undefined}
          aria-invalid={hasError || undefined}
          aria-describedby={describedBy === '' ? undefined : describedBy}
          onChange={(event) => onChange(event.currentTarget.value)}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            onBlur?.();
          }}
        />
      </div>
      <div className="textarea__footer">
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
        {maxLength !== undefined && (
          <p className="field__tip textarea__counter" id={counterId}>
            {intl.formatMessage(
              { id: 'ui.textarea.counter', defaultMessage: '{count} / {max, plural, one {# character} other {# characters}}' },
              { count: value.length, max: maxLength },
            )}
          </p>
        )}
      </div>
    </div>
  );
}
