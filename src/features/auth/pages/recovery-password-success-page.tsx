import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import '../auth.css';

export default function RecoveryPasswordSuccessPage() {
  return (
    <section className="auth-page" aria-labelledby="recovery-success-title">
      <h1 className="auth-page__title" id="recovery-success-title">
        <FormattedMessage id="auth.recoverySuccess.title" defaultMessage="The password is changed" />
      </h1>
      <p className="auth-page__text">
        <FormattedMessage
          id="auth.recoverySuccess.text"
          defaultMessage="Sign in with the new password. For safety, other devices will have to sign in again."
        />
      </p>
      <div className="auth-page__actions">
        <Link className={buttonClassName('primary', { block: true })} href={paths.auth.login}>
          <FormattedMessage id="auth.recoverySuccess.signIn" defaultMessage="Sign in" />
        </Link>
      </div>
    </section>
  );
}
