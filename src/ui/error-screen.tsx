import { FormattedMessage } from 'react-intl';
import { WarningIcon } from './broken-screen';
import './screen.css';

/** The generic error screen (spec section 8): 'Oops...' and 'An unknown error occurred'. */
export function ErrorScreen({ onReload }: { onReload?: () => void }) {
  const reload = onReload ?? (() => window.location.reload());
  return (
    <section className="screen-message" role="alert" data-screen="error">
      <div className="screen-message__icon" aria-hidden="true">
        <WarningIcon />
      </div>
      <h1 className="screen-message__title">
        <FormattedMessage id="app.error.title" defaultMessage="Oops..." />
      </h1>
      <p className="screen-message__text">
        <FormattedMessage id="app.error.text" defaultMessage="An unknown error occurred" />
      </p>
      <button type="button" className="screen-message__button" data-action="reload" onClick={reload}>
        <FormattedMessage id="app.broken.reload" defaultMessage="Reload" />
      </button>
    </section>
  );
}
