import { useId, useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { object } from 'superstruct';
import { COMPANY_ROLES } from '../../../domain/auth';
import { INVITATION_TTL_DAYS, InvitationInput } from '../../../domain/company';
import { canGrantRoles, LEADER_ROLES } from '../../../domain/permissions';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { FormError, useForm } from '../../../ui/form';
import type { SelectOption } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { RolesFieldStruct, RolesSelect, splitRoles } from './roles-select';

/** The form's struct: the invitation call's rule for the address; roles as the select's comma-separated ids. */
const InviteFormStruct = object({
  email: InvitationInput.schema.email,
  roles: RolesFieldStruct,
});

export interface InviteFormProps {
  /** Who is invited, as the confirmation names them. */
  fullName: string;
  companyName: string;
  /** The address on the employee's card, if any. */
  initialEmail: string | null;
  /** The roles the invitation starts with (the card's, else Employee). */
  initialRoles: readonly string[];
  /** The signed-in user's roles in the company: only the roles they may grant are offered (`canGrantRoles`). */
  granterRoles: readonly string[];
  roleTitle: (role: string) => string;
  /** False when the server is out of reach: the form says inviting needs a connection and sends nothing. */
  isOnline: boolean;
  /** Sends the invitation after the confirmation; a `FormError` it throws is shown on the form. */
  onSend: (invitation: { email: string; roles: string[] }) => Promise<void>;
  onCancel: () => void;
}

/**
 * "Invite by e-mail" on an employee's card: the address (validated as the server does) and the roles, then a
 * confirmation naming who is invited, where the link goes and as what; only then is the invitation sent.
 */
export function InviteForm({ fullName, companyName, initialEmail, initialRoles, granterRoles, roleTitle, isOnline, onSend, onCancel }: InviteFormProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const titleId = useId();
  const form = useForm({ struct: InviteFormStruct, initialValues: { email: initialEmail ?? '', roles: initialRoles.join(',') } });

  const roleOptions: SelectOption[] = useMemo(
    () => COMPANY_ROLES.filter((role) => canGrantRoles(granterRoles, [role])).map((role) => ({ id: role, title: roleTitle(role) })),
    [granterRoles, roleTitle],
  );
  const isLimited = !canGrantRoles(granterRoles, LEADER_ROLES);

  const label = {
    email: intl.formatMessage({ id: 'employees.form.email', defaultMessage: 'E-mail' }),
    roles: intl.formatMessage({ id: 'employees.form.roles', defaultMessage: 'Roles' }),
  };
  const rolesField = form.selectField('roles', label.roles);

  const submit = form.handleSubmit(async (value) => {
    if (!isOnline) throw new FormError({ isOffline: true });
    const email = value.email.trim();
    const roles = splitRoles(value.roles);
    const isConfirmed = await dialog.confirm({
      title: intl.formatMessage({ id: 'employees.invite.confirm.title', defaultMessage: 'Send the invitation?' }),
      content: intl.formatMessage(
        {
          id: 'employees.invite.confirm.text',
          defaultMessage: '{name} is invited to {company} {count, plural, =1 {as {roles}} other {with the roles {roles}}}. The link goes to {email} and works for {days, plural, one {# day} other {# days}}.',
        },
        { name: fullName, company: companyName, count: roles.length, roles: intl.formatList(roles.map(roleTitle), { type: 'conjunction' }), email, days: INVITATION_TTL_DAYS },
      ),
      confirmText: intl.formatMessage({ id: 'employees.invite.confirm.send', defaultMessage: 'Send the invitation' }),
      closeText: intl.formatMessage({ id: 'employees.invite.confirm.back', defaultMessage: 'Back' }),
    });
    if (!isConfirmed) return;
    await onSend({ email, roles });
  });

  return (
    <form className="people-card invite-form" noValidate onSubmit={submit} data-form="invite" aria-labelledby={titleId}>
      <h2 className="people-card__title" id={titleId}>
        <FormattedMessage id="employees.invite.form.title" defaultMessage="Invite by e-mail" />
      </h2>
      <p className="people-note">
        <FormattedMessage
          id="employees.invite.form.text"
          defaultMessage="{name} gets a link to join {company} and sets a password (or signs in) there."
          values={{ name: fullName, company: companyName }}
        />
      </p>
      <TextField {...form.textField('email', label.email)} type="email" inputMode="email" autoComplete="off" maxLength={254} />
      <RolesSelect field={rolesField} options={roleOptions} isLimited={isLimited} />
      {!isOnline && (
        <p className="people-note people-note--warning" data-offline="" role="status">
          <FormattedMessage
            id="employees.invite.form.offline"
            defaultMessage="Inviting needs a connection: the server sends the invitation, nothing is kept on this device. Connect and try again; what you entered stays here."
          />
        </p>
      )}
      <div className="invite-form__actions">
        <Button type="submit" loading={form.isSubmitting} data-action="invite-continue">
          <FormattedMessage id="employees.invite.form.continue" defaultMessage="Continue" />
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={form.isSubmitting} data-action="invite-cancel">
          <FormattedMessage id="employees.invite.form.cancel" defaultMessage="Cancel" />
        </Button>
      </div>
    </form>
  );
}
