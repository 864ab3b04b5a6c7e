import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { enums, object } from 'superstruct';
import { COMPANY_ROLES, type CompanyRole } from '../../../domain/auth';
import { EmployeeInput, InvitationInput } from '../../../domain/company';
import { Button } from '../../../ui/button';
import { FormError, useForm } from '../../../ui/form';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';

const InviteLeaderStruct = object({
  lastName: EmployeeInput.schema.lastName,
  firstName: EmployeeInput.schema.firstName,
  email: InvitationInput.schema.email,
  role: enums(COMPANY_ROLES),
});

export interface InviteLeaderFormProps {
  /** The roles offered (those the signed-in user may grant for this requirement). */
  roles: readonly CompanyRole[];
  roleTitle: (role: string) => string;
  isOnline: boolean;
  /** Sends the invitation; a `FormError` it throws is shown on the form. */
  onSubmit: (input: InvitationInput) => Promise<void>;
  onCancel: () => void;
}

/** "Invite a leader" of the setup checklist: name, e-mail and role; the person gets a link to join. */
export function InviteLeaderForm({ roles, roleTitle, isOnline, onSubmit, onCancel }: InviteLeaderFormProps) {
  const intl = useIntl();
  const form = useForm({ struct: InviteLeaderStruct, initialValues: { lastName: '', firstName: '', email: '', role: roles[0] ?? '' } });
  const roleOptions = useMemo(() => roles.map((role) => ({ id: role, title: roleTitle(role) })), [roles, roleTitle]);
  const submit = form.handleSubmit(async (value) => {
    if (!isOnline) throw new FormError({ isOffline: true });
    await onSubmit({ email: value.email, roles: [value.role], lastName: value.lastName.trim(), firstName: value.firstName.trim() });
  });
  return (
    <form className="invite-leader" noValidate onSubmit={submit} data-form="invite-leader">
      <div className="invite-leader__row">
        <TextField {...form.textField('lastName', intl.formatMessage({ id: 'dashboard.setup.invite.lastName', defaultMessage: 'Last name' }))} autoComplete="off" maxLength={100} />
        <TextField {...form.textField('firstName', intl.formatMessage({ id: 'dashboard.setup.invite.firstName', defaultMessage: 'First name' }))} autoComplete="off" maxLength={100} />
      </div>
      <TextField
        {...form.textField('email', intl.formatMessage({ id: 'dashboard.setup.invite.email', defaultMessage: 'E-mail' }))}
        type="email"
        inputMode="email"
        autoComplete="off"
        maxLength={254}
      />
      <Select {...form.selectField('role', intl.formatMessage({ id: 'dashboard.setup.invite.role', defaultMessage: 'Role' }))} options={roleOptions} />
      {!isOnline && (
        <p className="dashboard__note" data-offline="">
          <FormattedMessage id="dashboard.setup.invite.offline" defaultMessage="You are offline: invitations can be sent once the connection is back." />
        </p>
      )}
      <div className="invite-leader__actions">
        <Button type="submit" loading={form.isSubmitting}>
          <FormattedMessage id="dashboard.setup.invite.send" defaultMessage="Send the invitation" />
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={form.isSubmitting}>
          <FormattedMessage id="dashboard.setup.invite.cancel" defaultMessage="Cancel" />
        </Button>
      </div>
    </form>
  );
}
