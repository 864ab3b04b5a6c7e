import { useId, type ReactNode } from 'react';
import './field.css';

export interface SelectOption {
  id: string;
  title: string;
}

export interface SelectProps {
  label: ReactNode;
  /** The field's name in the model; also the select's `name`. */
  name: string;
  value: string;
  options: readonly SelectOption[];
  /** A committed choice (the DOM `change` event of a select); forms validate here. */
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Shown while nothing is chosen; it cannot be chosen back. */
  placeholder?: string;
  error?: ReactNode;
  tip?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  autoComplete?: string;
}

/** A native select styled like the text field: the phone's own picker, labelled, with tip or error. */
export function Select({
  label,
  name,
  value,
  options,
  onChange,
  onBlur,
  placeholder,
  error,
  tip,
  required = false,
  disabled = false,
  autoComplete,
}: SelectProps) {
  const id = `${name}-${useId()}`;
  const hasError = error !== undefined && error !== null && error !== false && error !== '';
  const hasTip = !hasError && tip !== undefined && tip !== null;
  const describedBy = hasError ? `${id}-error` : hasTip ? `${id}-tip` : undefined;
  const classes = ['field', 'select', value !== '' ? 'field--active' : '', hasError ? 'field--invalid' : '', disabled ? 'field--disabled' : '']
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
        <select
          id={id}
          className={['field__input', 'select__input', value === '' ? 'select__input--placeholder' : ''].filter(Boolean).join(' ')}
          name={name}
          value={value}
          disabled={disabled}
          autoComplete={autoComplete}
          aria-required={required || undefined}
          aria-invalid={hasError || undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.currentTarget.value)}
          onBlur={onBlur}
        >
          {(placeholder !== undefined || value === '') && (
            <option value="" disabled>
              {placeholder}
            </option>
          )}
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.title}
            </option>
          ))}
        </select>
        <span className="select__chevron" aria-hidden="true" />
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
