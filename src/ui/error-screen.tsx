import { useContext } from 'react';
import { FormattedMessage } from 'react-intl';
import { brokenReasonOf } from './broken-reason';
import { ScreenMessage, reasonText, reasonTitle } from './broken-screen';
import { CaughtErrorContext } from './caught-error';
import './screen.css';

/**
 * The error screen (spec section 8) under an error boundary: 'Oops...' and 'An unknown error occurred' for a
 * screen that failed by itself; when what the boundary caught was a request or a lazily loaded part of the
 * app that got no answer or a refusal, the words of that cause instead (no connection is not a bug).
 */
export function ErrorScreen({ onReload }: { onReload?: () => void }) {
  const reason = brokenReasonOf(useContext(CaughtErrorContext));
  if (reason !== 'unknown') {
    return <ScreenMessage screen="error" reason={reason} title={reasonTitle(reason)} text={reasonText(reason)} onReload={onReload} />;
  }
  return (
    <ScreenMessage
      screen="error"
      reason={reason}
      title={<FormattedMessage id="app.error.title" defaultMessage="Oops..." />}
      text={<FormattedMessage id="app.error.text" defaultMessage="An unknown error occurred" />}
      onReload={onReload}
    />
  );
}
