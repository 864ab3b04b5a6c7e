import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { employeeStateOf } from '../../../domain/company';
import { canGrantRoles } from '../../../domain/permissions';
import type { EmployeeRow } from '../../../domain/suggestion';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { fullNameOf } from '../directory';
import { companyRolesOf } from '../drafts';
import { failureMessage, toFormError, useCompanyName, useInvitationActions, useIsOnline, useMyCompanyRoles, useRoleTitle } from '../hooks';
import { InviteForm } from './invite-form';

/** An employee with no roles on the card is invited as a plain employee. */
const DEFAULT_ROLES = ['EMPLOYEE'];

/**
 * "Invite by e-mail" (an employee without an account) or "Send the invitation again" (one invited already),
 * for people managers. Inviting opens a form (address and roles) that confirms before it sends; sending again
 * confirms too. Invitations are online-only: offline, the button waits and says why. The server's refusals
 * (a role only the owner may give, already a member or already invited, an address another employee has)
 * are shown beside the fields or in the error dialog, in the user's language.
 */
export function InviteActions({ employee }: { employee: EmployeeRow }) {
  const intl = useIntl();
  const dialog = useDialog();
  const isOnline = useIsOnline();
  const granterRoles = useMyCompanyRoles(employee.companyId);
  const companyName = useCompanyName(employee.companyId);
  const roleTitle = useRoleTitle();
  const actions = useInvitationActions(employee.companyId);
  const [isFormOpen, setFormOpen] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const state = employeeStateOf(employee);

  if (state === 'active' || state === 'inactive') return null;
  if (!canGrantRoles(granterRoles, employee.roles)) {
    return (
      <p className="people-note" data-invite="not-allowed">
        <FormattedMessage id="employees.invite.notAllowed" defaultMessage="Only the owner (or the CEO) may invite a person with these roles." />
      </p>
    );
  }
  const fullName = fullNameOf(employee);

  async function send(invitation: { email: string; roles: string[] }) {
    try {
      await actions.invite({ email: invitation.email, roles: companyRolesOf(invitation.roles), employeeId: employee.id });
    } catch (error) {
      throw toFormError(error);
    }
    setFormOpen(false);
    await dialog.alert({
      content: intl.formatMessage({ id: 'employees.invite.sent', defaultMessage: 'The invitation has been sent to {email}. The link works for 14 days.' }, { email: invitation.email }),
    });
  }

  async function resend() {
    setBusy(true);
    try {
      const pending = await actions.findPending(employee.id);
      if (!pending) {
        await dialog.alert({
          content: intl.formatMessage({ id: 'employees.invite.gone', defaultMessage: 'This invitation is no longer pending. Reload the page to see the current state.' }),
        });
        return;
      }
      const isConfirmed = await dialog.confirm({
        title: intl.formatMessage({ id: 'invitations.resend.title', defaultMessage: 'Send the invitation again?' }),
        content: intl.formatMessage({ id: 'invitations.resend.text', defaultMessage: '{email} gets a new link; the link sent before stops working.' }, { email: pending.email }),
        confirmText: intl.formatMessage({ id: 'invitations.resend.confirm', defaultMessage: 'Send again' }),
      });
      if (!isConfirmed) return;
      await actions.resend(pending.id);
      await dialog.alert({
        content: intl.formatMessage({ id: 'invitations.resend.done', defaultMessage: 'A new invitation has been sent to {email}.' }, { email: pending.email }),
      });
    } catch (error) {
      await dialog.error({ content: failureMessage(intl, error) });
    } finally {
      setBusy(false);
    }
  }

  if (isFormOpen) {
    return (
      <InviteForm
        fullName={fullName}
        companyName={companyName}
        initialEmail={employee.email}
        initialRoles={employee.roles.length > 0 ? employee.roles : DEFAULT_ROLES}
        granterRoles={granterRoles}
        roleTitle={roleTitle}
        isOnline={isOnline}
        onSend={send}
        onCancel={() => setFormOpen(false)}
      />
    );
  }

  return (
    <>
      {state === 'invited' ? (
        <Button variant="secondary" loading={isBusy} disabled={!isOnline} onClick={() => void resend()} data-action="invite">
          <FormattedMessage id="employees.invite.resend" defaultMessage="Send the invitation again" />
        </Button>
      ) : (
        <Button variant="primary" disabled={!isOnline} onClick={() => setFormOpen(true)} data-action="invite">
          <FormattedMessage id="employees.invite.send" defaultMessage="Invite by e-mail" />
        </Button>
      )}
      {!isOnline && (
        <p className="people-note people-note--warning" data-offline="">
          <FormattedMessage
            id="employees.invite.offline"
            defaultMessage="Inviting needs a connection: invitations are sent by the server and are not kept on this device. Connect to the internet to invite."
          />
        </p>
      )}
    </>
  );
}
