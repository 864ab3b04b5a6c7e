import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { brokenReasonOf, isRetryable, type BrokenReason } from './broken-reason';
import './screen.css';

export interface BrokenScreenProps {
  /**
   * What failed (an HTTP error, a failed request's outcome...): the words follow its cause, see
   * `brokenReasonOf`. Without it the screen knows no cause: 'unknown error', and `text` only if given.
   */
  error?: unknown;
  /** What could not be done; defaults to the cause's title. */
  title?: ReactNode;
  /** Defaults to what the cause asks of the user (check the connection, try again in a minute...). */
  text?: ReactNode;
  /** What the button does; reloads the page by default. */
  onReload?: () => void;
}

/** Shown when the app cannot go on (spec section 8): title, text and a reload button, worded by the cause. */
export function BrokenScreen({ error, title, text, onReload }: BrokenScreenProps) {
  const reason = error === undefined ? 'unknown' : brokenReasonOf(error);
  const shownText = text ?? reasonText(reason);
  return (
    <ScreenMessage screen="broken" reason={reason} title={title ?? reasonTitle(reason)} text={shownText} onReload={onReload} />
  );
}

/** The layout both full-page messages share; `reason` picks the button's words and is exposed for tests. */
export function ScreenMessage(props: { screen: 'broken' | 'error'; reason: BrokenReason; title: ReactNode; text: ReactNode; onReload: (() => void) | undefined }) {
  const { screen, reason, title, text, onReload } = props;
  const reload = onReload ?? (() => window.location.reload());
  return (
    <section className="screen-message" role="alert" data-screen={screen} data-reason={reason}>
      <div className="screen-message__icon" aria-hidden="true">
        <WarningIcon />
      </div>
      <h1 className="screen-message__title">{title}</h1>
      {text !== undefined && text !== null && <p className="screen-message__text">{text}</p>}
      <button type="button" className="screen-message__button" data-action="reload" onClick={reload}>
        {isRetryable(reason) ? (
          <FormattedMessage id="app.broken.retry" defaultMessage="Try again" />
        ) : (
          <FormattedMessage id="app.broken.reload" defaultMessage="Reload" />
        )}
      </button>
    </section>
  );
}

/** The title a cause gives a full-page message. */
export function reasonTitle(reason: BrokenReason): ReactNode {
  switch (reason) {
    case 'no-answer':
      return <FormattedMessage id="app.broken.noAnswer.title" defaultMessage="No connection to the server" />;
    case 'server':
      return <FormattedMessage id="app.broken.server.title" defaultMessage="Something went wrong on our side" />;
    case 'busy':
      return <FormattedMessage id="app.broken.busy.title" defaultMessage="Too many requests" />;
    case 'forbidden':
      return <FormattedMessage id="app.broken.forbidden.title" defaultMessage="No access" />;
    case 'not-found':
      return <FormattedMessage id="app.broken.notFound.title" defaultMessage="Not found" />;
    case 'refused':
      return <FormattedMessage id="app.broken.refused.title" defaultMessage="The request was not accepted" />;
    case 'unknown':
      return <FormattedMessage id="app.broken.defaultTitle" defaultMessage="unknown error" />;
  }
}

/** What a cause asks of the user; none for an unknown one. */
export function reasonText(reason: BrokenReason): ReactNode {
  switch (reason) {
    case 'no-answer':
      return <FormattedMessage id="app.broken.noAnswer.text" defaultMessage="Check your internet connection and try again." />;
    case 'server':
      return (
        <FormattedMessage id="app.broken.server.text" defaultMessage="We already know about it and are fixing it. Please try again in a minute." />
      );
    case 'busy':
      return <FormattedMessage id="app.broken.busy.text" defaultMessage="The server is getting too many requests right now. Wait a minute and try again." />;
    case 'forbidden':
      return (
        <FormattedMessage
          id="app.broken.forbidden.text"
          defaultMessage="You do not have access to this. If you need it, ask your company's owner or administrator."
        />
      );
    case 'not-found':
      return <FormattedMessage id="app.broken.notFound.text" defaultMessage="What you are looking for may have been deleted, or the link has a mistake in it." />;
    case 'refused':
      return (
        <FormattedMessage id="app.broken.refused.text" defaultMessage="Reload the page and try once more. If it happens again, write to support." />
      );
    case 'unknown':
      return null;
  }
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
