import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { NewPasswordForm } from '../components/new-password-form';
import { useConfirmRecovery, useWithNext } from '../hooks';
import '../auth.css';

export default function RecoveryPasswordConfirmPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  const confirmRecovery = useConfirmRecovery();
  const withNext = useWithNext();
  const [isLinkInvalid, setLinkInvalid] = useState(false);

  if (isLinkInvalid) {
    return (
      <section className="auth-page" aria-labelledby="recovery-confirm-title">
        <h1 className="auth-page__title" id="recovery-confirm-title">
          <FormattedMessage id="auth.recoveryConfirm.invalidTitle" defaultMessage="The link is invalid or has expired" />
        </h1>
        <p className="auth-page__text">
          <FormattedMessage
            id="auth.recoveryConfirm.invalidText"
            defaultMessage="A password link works once and for one hour. Ask for a new one and open it from the letter."
          />
        </p>
        <div className="auth-page__actions">
          <Link className={buttonClassName('primary', { block: true })} href={paths.auth.recoveryPassword}>
            <FormattedMessage id="auth.recoveryConfirm.again" defaultMessage="Ask for a new link" />
          </Link>
        </div>
      </section>
    );
  }

  if (!token) {
    return (
      <section className="auth-page" aria-labelledby="recovery-confirm-title">
        <h1 className="auth-page__title" id="recovery-confirm-title">
          <FormattedMessage id="auth.recoveryConfirm.sentTitle" defaultMessage="Check your mail" />
        </h1>
        <p className="auth-page__text">
          <FormattedMessage
            id="auth.recoveryConfirm.sentText"
            defaultMessage="If this address is registered, we have sent a letter with a link to set a new password. The link works for one hour."
          />
        </p>
        <p className="auth-page__lead">
          <FormattedMessage id="auth.recoveryConfirm.noLetter" defaultMessage="No letter? Check the spam folder or ask again." />
        </p>
        <p className="auth-page__links">
          <Link href={withNext(paths.auth.recoveryPassword)}>
            <FormattedMessage id="auth.recoveryConfirm.again" defaultMessage="Ask for a new link" />
          </Link>
          <Link href={withNext(paths.auth.login)}>
            <FormattedMessage id="auth.recoveryConfirm.backToLogin" defaultMessage="Back to sign-in" />
          </Link>
        </p>
      </section>
    );
  }

  return (
    <section className="auth-page" aria-labelledby="recovery-confirm-title">
      <h1 className="auth-page__title" id="recovery-confirm-title">
        <FormattedMessage id="auth.recoveryConfirm.title" defaultMessage="A new password" />
      </h1>
      <p className="auth-page__lead">
        <FormattedMessage id="auth.recoveryConfirm.lead" defaultMessage="Enter the new password twice." />
      </p>
      <NewPasswordForm
        onSubmit={async (password) => {
          if ((await confirmRecovery({ token, password })) === 'link-invalid') setLinkInvalid(true);
        }}
      />
    </section>
  );
}
