import { FormattedMessage } from 'react-intl';
import { Link, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { isSignedIn, useVerifyEmail } from '../hooks';
import '../auth.css';

export default function RegisterVerifiedPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  const verification = useVerifyEmail(token);

  if (verification.status === 'pending') {
    return (
      <section className="auth-page" aria-labelledby="verified-title" aria-busy="true">
        <h1 className="auth-page__title" id="verified-title">
          <FormattedMessage id="auth.verified.pendingTitle" defaultMessage="Confirming your e-mail…" />
        </h1>
        <p className="auth-page__lead" role="status">
          <FormattedMessage id="auth.verified.pendingText" defaultMessage="This takes a moment." />
        </p>
      </section>
    );
  }

  if (verification.status === 'failed') {
    return (
      <section className="auth-page" aria-labelledby="verified-title">
        <h1 className="auth-page__title" id="verified-title">
          <FormattedMessage id="auth.verified.failedTitle" defaultMessage="The link is invalid or has expired" />
        </h1>
        <p className="auth-page__text">
          <FormattedMessage
            id="auth.verified.failedText"
            defaultMessage="A confirmation link works once and for 24 hours. Ask for a new letter and open the link from it."
          />
        </p>
        <div className="auth-page__actions">
          <Link className={buttonClassName('primary', { block: true })} href={paths.auth.registerConfirmEmail}>
            <FormattedMessage id="auth.verified.resend" defaultMessage="Send a new letter" />
          </Link>
          <Link className={buttonClassName('secondary', { block: true })} href={paths.auth.login}>
            <FormattedMessage id="auth.verified.signIn" defaultMessage="Sign in" />
          </Link>
        </div>
      </section>
    );
  }

  const signedIn = isSignedIn();
  return (
    <section className="auth-page" aria-labelledby="verified-title">
      <h1 className="auth-page__title" id="verified-title">
        <FormattedMessage id="auth.verified.title" defaultMessage="Your e-mail is confirmed" />
      </h1>
      <p className="auth-page__text" role="status">
        {verification.email ? (
          <FormattedMessage
            id="auth.verified.textWithEmail"
            defaultMessage="The address {email} is confirmed. You can now use the platform."
            values={{ email: <strong>{verification.email}</strong> }}
          />
        ) : (
          <FormattedMessage id="auth.verified.text" defaultMessage="Your address is confirmed. You can now use the platform." />
        )}
      </p>
      <div className="auth-page__actions">
        {signedIn ? (
          <Link className={buttonClassName('primary', { block: true })} href={paths.dashboard}>
            <FormattedMessage id="auth.verified.toDashboard" defaultMessage="Go to the dashboard" />
          </Link>
        ) : (
          <Link className={buttonClassName('primary', { block: true })} href={paths.auth.login}>
            <FormattedMessage id="auth.verified.signIn" defaultMessage="Sign in" />
          </Link>
        )}
      </div>
    </section>
  );
}
