import type { ButtonHTMLAttributes, ReactNode } from 'react';
import './field.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger';

/** Class names of the button look, for links that must look like buttons (router links stay links). */
export function buttonClassName(variant: ButtonVariant = 'primary', options: { block?: boolean } = {}): string {
  return ['button', `button--${variant}`, options.block ? 'button--block' : ''].filter(Boolean).join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** While true the button shows a spinner, is busy and ignores clicks. */
  loading?: boolean;
  /** Full width (phones). */
  block?: boolean;
  children: ReactNode;
}

export function Button({ variant = 'primary', loading = false, block = false, type = 'button', disabled, className, children, ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={[buttonClassName(variant, { block }), loading ? 'button--loading' : '', className ?? ''].filter(Boolean).join(' ')}
      disabled={disabled === true || loading}
      aria-busy={loading || undefined}
    >
      {loading && <span className="button__spinner" aria-hidden="true" />}
      <span className="button__label">{children}</span>
    </button>
  );
}
