import { useState } from 'react';
import { FormattedDate, FormattedMessage, defineMessages, useIntl } from 'react-intl';
import { Link, useSearch } from 'wouter';
import type { InvitationPreview } from '../../../domain/company';
import { paths } from '../../../domain/paths';
import { Button, buttonClassName } from '../../../ui/button';
import { FormError } from '../../../ui/form';
import { useDialog } from '../../../ui/dialog';
import { Spinner } from '../../../ui/spinner';
import { InvitationPasswordForm } from '../components/invitation-password-form';
import { isSignedIn, useSignOut } from '../hooks';
import { rememberPendingInvitation, useAcceptInvitation, useInvitationPreview, useSignedInEmail } from '../invitation-hooks';
import '../auth.css';

/** Role titles as the app config names them (`enum.role.*`): the sign-in pages have no app config. */
const ROLE_TITLES = defineMessages({
  OWNER: { id: 'auth.invitation.role.owner', defaultMessage: 'Owner' },
  CEO: { id: 'auth.invitation.role.ceo', defaultMessage: 'CEO' },
  TOP_MANAGER: { id: 'auth.invitation.role.topManager', defaultMessage: 'Top manager' },
  MIDDLE_MANAGER: { id: 'auth.invitation.role.middleManager', defaultMessage: 'Middle manager' },
  FIRST_LINE_MANAGER: { id: 'auth.invitation.role.firstLineManager', defaultMessage: 'First-line manager' },
  FINANCIAL_DIRECTOR: { id: 'auth.invitation.role.financialDirector', defaultMessage: 'Financial director' },
  FINANCIAL_SPECIALIST: { id: 'auth.invitation.role.financialSpecialist', defaultMessage: 'Financial specialist' },
  DIRECTION_MANAGER: { id: 'auth.invitation.role.directionManager', defaultMessage: 'Direction manager' },
  HR: { id: 'auth.invitation.role.hr', defaultMessage: 'HR' },
  EMPLOYEE: { id: 'auth.invitation.role.employee', defaultMessage: 'Employee' },
});

function isKnownRole(role: string): role is keyof typeof ROLE_TITLES {
  return Object.hasOwn(ROLE_TITLES, role);
}

function InvalidLink() {
  return (
    <section className="auth-page" aria-labelledby="invitation-title" data-invitation="invalid">
      <h1 className="auth-page__title" id="invitation-title">
        <FormattedMessage id="auth.invitation.invalidTitle" defaultMessage="This invitation link does not work" />
      </h1>
      <p className="auth-page__text">
        <FormattedMessage
          id="auth.invitation.invalidText"
          defaultMessage="It has expired, was revoked or has already been used. Ask the person who invited you to send a new invitation."
        />
      </p>
      <p className="auth-page__links">
        {/* Someone who already accepted it (and is signed in) opens the link again: the way on is the app. */}
        {isSignedIn() ? (
          <Link href={paths.dashboard}>
            <FormattedMessage id="auth.invitation.toDashboard" defaultMessage="Go to the dashboard" />
          </Link>
        ) : (
          <Link href={paths.auth.login}>
            <FormattedMessage id="auth.invitation.toLogin" defaultMessage="Sign in" />
          </Link>
        )}
      </p>
    </section>
  );
}

export default function InvitationAcceptPage() {
  const intl = useIntl();
  const token = new URLSearchParams(useSearch()).get('token');
  const { state, reload } = useInvitationPreview(token);
  const [isLinkInvalid, setLinkInvalid] = useState(false);

  if (!token || isLinkInvalid || state.status === 'invalid') return <InvalidLink />;
  if (state.status === 'loading') {
    return (
      <section className="auth-page" aria-labelledby="invitation-title" aria-busy="true">
        <h1 className="auth-page__title" id="invitation-title">
          <FormattedMessage id="auth.invitation.loadingTitle" defaultMessage="Opening the invitation…" />
        </h1>
        <Spinner />
      </section>
    );
  }
  if (state.status === 'offline' || state.status === 'failed') {
    return (
      <section className="auth-page" aria-labelledby="invitation-title">
        <h1 className="auth-page__title" id="invitation-title">
          <FormattedMessage id="auth.invitation.failedTitle" defaultMessage="The invitation could not be opened" />
        </h1>
        <p className="auth-page__text">
          {state.status === 'offline' ? (
            <FormattedMessage id="auth.invitation.offline" defaultMessage="The server cannot be reached. Check the connection and try again." />
          ) : (
            (state.message ?? <FormattedMessage id="auth.invitation.failed" defaultMessage="Something went wrong. Try again in a moment." />)
          )}
        </p>
        <div className="auth-page__actions">
          <Button block onClick={reload}>
            <FormattedMessage id="auth.invitation.retry" defaultMessage="Try again" />
          </Button>
        </div>
      </section>
    );
  }

  const { preview } = state;
  const roles = preview.roles.map((role) => (isKnownRole(role) ? intl.formatMessage(ROLE_TITLES[role]) : role)).join(', ');
  return (
    <section className="auth-page" aria-labelledby="invitation-title" data-invitation={preview.hasAccount ? 'existing' : 'new'}>
      <h1 className="auth-page__title" id="invitation-title">
        <FormattedMessage id="auth.invitation.title" defaultMessage="Invitation to {company}" values={{ company: preview.companyName }} />
      </h1>
      <p className="auth-page__text">
        <FormattedMessage
          id="auth.invitation.text"
          defaultMessage="{name}, you are invited to join {company} on the improvement platform as {roles}."
          values={{ name: <strong>{preview.fullName}</strong>, company: <strong>{preview.companyName}</strong>, roles: <strong>{roles}</strong> }}
        />
      </p>
      <p className="auth-page__lead">
        <FormattedMessage
          id="auth.invitation.expires"
          defaultMessage="The invitation is valid until {date}."
          values={{ date: <FormattedDate value={preview.expiresAt} dateStyle="long" /> }}
        />
      </p>
      {preview.hasAccount ? (
        <ExistingAccount token={token} preview={preview} onLinkInvalid={() => setLinkInvalid(true)} />
      ) : (
        <NewAccount token={token} preview={preview} onLinkInvalid={() => setLinkInvalid(true)} />
      )}
    </section>
  );
}

interface AcceptProps {
  token: string;
  preview: InvitationPreview;
  onLinkInvalid: () => void;
}

function NewAccount({ token, preview, onLinkInvalid }: AcceptProps) {
  const intl = useIntl();
  const accept = useAcceptInvitation(token);
  return (
    <>
      <p className="auth-page__text">
        <FormattedMessage
          id="auth.invitation.newAccount"
          defaultMessage="Choose a password for your account. You will sign in with {email}."
          values={{ email: <strong>{preview.email}</strong> }}
        />
      </p>
      <InvitationPasswordForm
        email={preview.email}
        submitText={intl.formatMessage({ id: 'auth.invitation.join', defaultMessage: 'Join the company' })}
        onSubmit={async (password) => {
          if ((await accept(password)) === 'link-invalid') onLinkInvalid();
        }}
      />
    </>
  );
}

function ExistingAccount({ token, preview, onLinkInvalid }: AcceptProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const accept = useAcceptInvitation(token);
  const signOut = useSignOut();
  const signedInEmail = useSignedInEmail();
  const [isAccepting, setAccepting] = useState(false);

  if (!isSignedIn()) {
    return (
      <>
        <p className="auth-page__text">
          <FormattedMessage
            id="auth.invitation.signInFirst"
            defaultMessage="You already have an account with {email}. Sign in with it, and you will be brought back here to accept the invitation."
            values={{ email: <strong>{preview.email}</strong> }}
          />
        </p>
        <div className="auth-page__actions">
          <Link className={buttonClassName('primary', { block: true })} href={paths.auth.login} onClick={() => rememberPendingInvitation(token)} data-action="sign-in-to-accept">
            <FormattedMessage id="auth.invitation.signIn" defaultMessage="Sign in" />
          </Link>
        </div>
      </>
    );
  }

  const isOtherAccount = signedInEmail !== null && signedInEmail.toLowerCase() !== preview.email.toLowerCase();
  async function acceptNow() {
    setAccepting(true);
    try {
      if ((await accept(null)) === 'link-invalid') onLinkInvalid();
    } catch (error) {
      const content =
        error instanceof FormError && error.isOffline
          ? intl.formatMessage({ id: 'auth.invitation.offline', defaultMessage: 'The server cannot be reached. Check the connection and try again.' })
          : error instanceof Error && error.message !== ''
            ? error.message
            : undefined;
      await dialog.error(content === undefined ? {} : { content });
    } finally {
      setAccepting(false);
    }
  }

  return (
    <>
      {isOtherAccount ? (
        <p className="auth-page__notice" role="status">
          <FormattedMessage
            id="auth.invitation.otherAccount"
            defaultMessage="You are signed in as {current}, but the invitation is for {email}. Sign out and sign in as {email} to accept it."
            values={{ current: <strong>{signedInEmail}</strong>, email: <strong>{preview.email}</strong> }}
          />
        </p>
      ) : (
        <p className="auth-page__text">
          <FormattedMessage
            id="auth.invitation.acceptAsSignedIn"
            defaultMessage="You are signed in as {email}. Accept to join the company with this account."
            values={{ email: <strong>{preview.email}</strong> }}
          />
        </p>
      )}
      <div className="auth-page__actions">
        {isOtherAccount ? (
          <Button
            block
            onClick={() => {
              rememberPendingInvitation(token);
              void signOut();
            }}
          >
            <FormattedMessage id="auth.invitation.signOut" defaultMessage="Sign out" />
          </Button>
        ) : (
          <Button block loading={isAccepting} onClick={() => void acceptNow()} data-action="accept-invitation">
            <FormattedMessage id="auth.invitation.accept" defaultMessage="Accept the invitation" />
          </Button>
        )}
      </div>
    </>
  );
}
