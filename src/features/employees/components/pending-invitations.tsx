import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import type { Invitation } from '../../../domain/company';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { Spinner } from '../../../ui/spinner';
import { failureMessage, useInvitationActions, useIsOnline, usePendingInvitations, useRoleTitle } from '../hooks';

/**
 * The company's pending invitations (people managers only): asked of the server, so online only; resend and
 * revoke after a confirmation.
 */
export function PendingInvitations({ companyId }: { companyId: string }) {
  const intl = useIntl();
  const dialog = useDialog();
  const isOnline = useIsOnline();
  const { state, reload } = usePendingInvitations(companyId, true);
  const actions = useInvitationActions(companyId);
  const roleTitle = useRoleTitle();
  const [busyId, setBusyId] = useState<string | null>(null);

  async function run(invitation: Invitation, kind: 'resend' | 'revoke') {
    const confirmed = await dialog.confirm(
      kind === 'resend'
        ? {
            title: intl.formatMessage({ id: 'invitations.resend.title', defaultMessage: 'Send the invitation again?' }),
            content: intl.formatMessage(
              { id: 'invitations.resend.text', defaultMessage: '{email} gets a new link; the link sent before stops working.' },
              { email: invitation.email },
            ),
            confirmText: intl.formatMessage({ id: 'invitations.resend.confirm', defaultMessage: 'Send again' }),
          }
        : {
            title: intl.formatMessage({ id: 'invitations.revoke.title', defaultMessage: 'Revoke the invitation?' }),
            content: intl.formatMessage(
              { id: 'invitations.revoke.text', defaultMessage: 'The link sent to {email} stops working. You can invite {name} again later.' },
              { email: invitation.email, name: invitation.fullName },
            ),
            confirmText: intl.formatMessage({ id: 'invitations.revoke.confirm', defaultMessage: 'Revoke' }),
          },
    );
    if (!confirmed) return;
    setBusyId(invitation.id);
    try {
      if (kind === 'resend') {
        await actions.resend(invitation.id);
        await dialog.alert({
          content: intl.formatMessage({ id: 'invitations.resend.done', defaultMessage: 'A new invitation has been sent to {email}.' }, { email: invitation.email }),
        });
      } else {
        await actions.revoke(invitation);
      }
      reload();
    } catch (error) {
      await dialog.error({ content: failureMessage(intl, error) });
    } finally {
      setBusyId(null);
    }
  }

  let body;
  if (state.status === 'offline') {
    body = (
      <p className="people-note" data-offline="">
        <FormattedMessage id="invitations.offline" defaultMessage="You are offline: pending invitations will show when the device is back online." />
      </p>
    );
  } else if (state.status === 'loading') {
    body = <Spinner size="small" />;
  } else if (state.status === 'failed') {
    body = (
      <div className="people-note">
        <p>{state.message}</p>
        <Button variant="secondary" onClick={reload}>
          <FormattedMessage id="invitations.retry" defaultMessage="Try again" />
        </Button>
      </div>
    );
  } else if (state.invitations.length === 0) {
    body = (
      <p className="people-note">
        <FormattedMessage id="invitations.empty" defaultMessage="No invitations are waiting for an answer." />
      </p>
    );
  } else {
    body = (
      <ul className="invitation-list">
        {state.invitations.map((invitation) => (
          <li key={invitation.id} className="invitation-list__item" data-invitation={invitation.id}>
            <div className="invitation-list__who">
              <span className="invitation-list__name">{invitation.fullName}</span>
              <span className="invitation-list__email">{invitation.email}</span>
              <span className="invitation-list__meta">
                <span>{invitation.roles.map(roleTitle).join(', ')}</span>
                <FormattedMessage
                  id="invitations.sent"
                  defaultMessage="Sent {date}, valid until {until}{count, plural, =1 {} other {. Sent # times}}"
                  values={{
                    date: <FormattedDate value={invitation.lastSentAt} dateStyle="medium" />,
                    count: invitation.sentCount,
                    until: <FormattedDate value={invitation.expiresAt} dateStyle="medium" />,
                  }}
                />
              </span>
            </div>
            <div className="invitation-list__actions">
              <Button variant="secondary" disabled={!isOnline} loading={busyId === invitation.id} onClick={() => void run(invitation, 'resend')}>
                <FormattedMessage id="invitations.resend" defaultMessage="Resend" />
              </Button>
              <Button variant="danger" disabled={!isOnline || busyId === invitation.id} onClick={() => void run(invitation, 'revoke')}>
                <FormattedMessage id="invitations.revoke" defaultMessage="Revoke" />
              </Button>
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="people-card" aria-labelledby="pending-invitations-title" data-section="invitations">
      <h2 className="people-card__title" id="pending-invitations-title">
        <FormattedMessage id="invitations.title" defaultMessage="Pending invitations" />
      </h2>
      {body}
    </section>
  );
}
