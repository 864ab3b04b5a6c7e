import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { usePendingEmail, useWithNext } from '../hooks';
import '../auth.css';

export default function RegisterHrSuccessPage() {
  const { email } = usePendingEmail();
  const withNext = useWithNext();
  return (
    <section className="auth-page" aria-labelledby="register-hr-success-title">
      <h1 className="auth-page__title" id="register-hr-success-title">
        <FormattedMessage id="auth.registerHrSuccess.title" defaultMessage="The HR account is created" />
      </h1>
      <p className="auth-page__text">
        {email ? (
          <FormattedMessage
            id="auth.registerHrSuccess.textWithEmail"
            defaultMessage="We sent a letter to {email}. Open the link in it to confirm your e-mail, then sign in."
            values={{ email: <strong>{email}</strong> }}
          />
        ) : (
          <FormattedMessage
            id="auth.registerHrSuccess.text"
            defaultMessage="We sent you a letter. Open the link in it to confirm your e-mail, then sign in."
          />
        )}
      </p>
      <p className="auth-page__lead">
        <FormattedMessage
          id="auth.registerHrSuccess.noLetter"
          defaultMessage="No letter? Check the spam folder or send it again."
        />
      </p>
      <div className="auth-page__actions">
        <Link className={buttonClassName('primary', { block: true })} href={withNext(paths.auth.login)}>
          <FormattedMessage id="auth.registerHrSuccess.signIn" defaultMessage="Sign in" />
        </Link>
        <Link className={buttonClassName('secondary', { block: true })} href={withNext(paths.auth.registerConfirmEmail)}>
          <FormattedMessage id="auth.registerHrSuccess.resend" defaultMessage="Send the letter again" />
        </Link>
      </div>
    </section>
  );
}
