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
import type * as InviteFormModule from './invite-form';

/** An employee with no roles on the card is invited as a plain employee. */
const DEFAULT_ROLES = ['EMPLOYEE'];

type InviteFormComponent = typeof InviteFormModule.InviteForm;

let inviteForm: InviteFormComponent | null = null;
let inviteFormLoad: Promise<InviteFormComponent> | null = null;

/**
 * The invitation form (with the text field, the roles select and the form kit: 8 KB gzipped) is loaded when
 * "Invite by e-mail" is pressed, not with the employee's card; a failed load is tried again by the next press.
 */
function loadInviteForm(): Promise<InviteFormComponent> {
  inviteFormLoad ??= import('./invite-form').then(
    (module) => (inviteForm = module.InviteForm),
    (error: unknown) => {
      inviteFormLoad = null;
      throw error;
    },
  );
  return inviteFormLoad;
}

// In development and in the tests (the Vite dev server, Vitest) the form loads with this module.
if (!import.meta.env.PROD) await loadInviteForm();

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
  const [isOpening, setOpening] = useState(false);
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

  /** Opens the form once it is loaded (the button spins meanwhile); a failed load says so and keeps the card. */
  async function openForm() {
    setOpening(true);
    try {
      await loadInviteForm();
      setFormOpen(true);
    } catch (error) {
      console.error('The invitation form could not be loaded', error);
      await dialog.error({
        content: intl.formatMessage({ id: 'employees.invite.formFailed', defaultMessage: 'The invitation form could not be loaded. Check the connection and try again.' }),
      });
    } finally {
      setOpening(false);
    }
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

  if (isFormOpen && inviteForm !== null) {
    const InviteForm = inviteForm;
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
        <Button variant="primary" loading={isOpening} disabled={!isOnline} onClick={() => void openForm()} data-action="invite">
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
