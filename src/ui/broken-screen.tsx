import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import './screen.css';

export interface BrokenScreenProps {
  /** Defaults to 'unknown error'. */
  title?: ReactNode;
  text?: ReactNode;
  /** What the button does; reloads the page by default. */
  onReload?: () => void;
}

/** Shown when the app cannot go on (spec section 8): title, optional text and a reload button. */
export function BrokenScreen({ title, text, onReload }: BrokenScreenProps) {
  const reload = onReload ?? (() => window.location.reload());
  return (
    <section className="screen-message" role="alert" data-screen="broken">
      <div className="screen-message__icon" aria-hidden="true">
        <WarningIcon />
      </div>
      <h1 className="screen-message__title">
        {title ?? <FormattedMessage id="app.broken.defaultTitle" defaultMessage="unknown error" />}
      </h1>
      {text !== undefined && text !== null && <p className="screen-message__text">{text}</p>}
      <button type="button" className="screen-message__button" data-action="reload" onClick={reload}>
        <FormattedMessage id="app.broken.reload" defaultMessage="Reload" />
      </button>
    </section>
  );
}

/** A circled exclamation mark in the current text colour. */
export function WarningIcon() {
  return (
    <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7.5v5.5" />
      <path d="M12 16.5h.01" />
    </svg>
  );
}
