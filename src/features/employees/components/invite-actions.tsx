import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { employeeStateOf } from '../../../domain/company';
import { canGrantRoles } from '../../../domain/permissions';
import type { EmployeeRow } from '../../../domain/suggestion';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { companyRolesOf } from '../drafts';
import { failureMessage, useInvitationActions, useIsOnline, useMyCompanyRoles } from '../hooks';

/**
 * "Invite by e-mail" (an employee without an account) or "Send the invitation again" (one invited already),
 * for people managers. Uses the employee's e-mail and roles; the server's refusals (403 for a role only the
 * owner may give, 409 already a member or already invited) are shown as they come.
 */
export function InviteActions({ employee }: { employee: EmployeeRow }) {
  const intl = useIntl();
  const dialog = useDialog();
  const isOnline = useIsOnline();
  const granterRoles = useMyCompanyRoles(employee.companyId);
  const actions = useInvitationActions(employee.companyId);
  const [isBusy, setBusy] = useState(false);
  const state = employeeStateOf(employee);

  if (state === 'active' || state === 'inactive') return null;
  if (!employee.email) {
    return (
      <p className="people-note" data-invite="no-email">
        <FormattedMessage id="employees.invite.noEmail" defaultMessage="Add an e-mail address to invite this person to the platform." />
      </p>
    );
  }
  if (!canGrantRoles(granterRoles, employee.roles)) {
    return (
      <p className="people-note" data-invite="not-allowed">
        <FormattedMessage id="employees.invite.notAllowed" defaultMessage="Only the owner (or the CEO) may invite a person with these roles." />
      </p>
    );
  }
  const email = employee.email;

  async function invite() {
    setBusy(true);
    try {
      if (state === 'invited') {
        const pending = await actions.findPending(employee.id);
        if (!pending) {
          await dialog.alert({
            content: intl.formatMessage({ id: 'employees.invite.gone', defaultMessage: 'This invitation is no longer pending. Reload the page to see the current state.' }),
          });
          return;
        }
        await actions.resend(pending.id);
      } else {
        await actions.invite({ email, roles: companyRolesOf(employee.roles), employeeId: employee.id });
      }
      await dialog.alert({
        content: intl.formatMessage({ id: 'employees.invite.sent', defaultMessage: 'The invitation has been sent to {email}. The link works for 14 days.' }, { email }),
      });
    } catch (error) {
      await dialog.error({ content: failureMessage(intl, error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Button variant={state === 'invited' ? 'secondary' : 'primary'} loading={isBusy} disabled={!isOnline} onClick={() => void invite()} data-action="invite">
        {state === 'invited' ? (
          <FormattedMessage id="employees.invite.resend" defaultMessage="Send the invitation again" />
        ) : (
          <FormattedMessage id="employees.invite.send" defaultMessage="Invite by e-mail" />
        )}
      </Button>
      {!isOnline && (
        <p className="people-note" data-offline="">
          <FormattedMessage id="employees.invite.offline" defaultMessage="You are offline: an invitation can be sent once the device is back online." />
        </p>
      )}
    </>
  );
}
