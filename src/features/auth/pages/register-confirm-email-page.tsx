import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import type { EmailInput } from '../../../domain/auth';
import { paths } from '../../../domain/paths';
import { Button, buttonClassName } from '../../../ui/button';
import { ResendForm } from '../components/resend-form';
import { usePendingEmail, useResendVerification, useSignOut, useWithNext } from '../hooks';
import '../auth.css';

export default function RegisterConfirmEmailPage() {
  const { email, isSignedIn, isLoading } = usePendingEmail();
  const resend = useResendVerification();
  const signOut = useSignOut();
  const withNext = useWithNext();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [isSigningOut, setSigningOut] = useState(false);

  async function resendTo(input: EmailInput) {
    await resend(input);
    setSentTo(input.email);
  }

  return (
    <section className="auth-page" aria-labelledby="confirm-email-title" aria-busy={isLoading}>
      <h1 className="auth-page__title" id="confirm-email-title">
        <FormattedMessage id="auth.confirmEmail.title" defaultMessage="Confirm your e-mail" />
      </h1>
      {!isLoading && (
        <>
          <p className="auth-page__text">
            {email ? (
              <FormattedMessage
                id="auth.confirmEmail.textWithEmail"
                defaultMessage="We sent a letter to {email}. Open the link in it to confirm the address."
                values={{ email: <strong>{email}</strong> }}
              />
            ) : (
              <FormattedMessage
                id="auth.confirmEmail.textNoEmail"
                defaultMessage="We sent you a letter with a link to confirm the address. No letter? Enter your e-mail and we will send it again."
              />
            )}
          </p>
          {email && (
            <p className="auth-page__lead">
              <FormattedMessage id="auth.confirmEmail.noLetter" defaultMessage="No letter? Check the spam folder or send it again." />
            </p>
          )}
          {sentTo !== null && (
            <p className="auth-page__status" role="status">
              <FormattedMessage
                id="auth.confirmEmail.sent"
                defaultMessage="If {email} is waiting for confirmation, a new letter is on its way to it."
                values={{ email: sentTo }}
              />
            </p>
          )}
          <ResendForm email={email} onSubmit={resendTo} />
          <div className="auth-page__actions">
            {isSignedIn ? (
              <>
                <Link className={buttonClassName('primary', { block: true })} href={paths.dashboard}>
                  <FormattedMessage id="auth.confirmEmail.continue" defaultMessage="I have confirmed it, continue" />
                </Link>
                <Button
                  variant="secondary"
                  block
                  data-action="sign-out"
                  loading={isSigningOut}
                  onClick={() => {
                    setSigningOut(true);
                    void signOut();
                  }}
                >
                  <FormattedMessage id="auth.confirmEmail.signOut" defaultMessage="Sign out" />
                </Button>
              </>
            ) : (
              <Link className={buttonClassName('primary', { block: true })} href={withNext(paths.auth.login)}>
                <FormattedMessage id="auth.confirmEmail.signIn" defaultMessage="Sign in" />
              </Link>
            )}
          </div>
        </>
      )}
    </section>
  );
}
