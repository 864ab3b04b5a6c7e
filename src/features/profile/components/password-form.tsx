import { useState } from 'react';
import { FormattedMessage, defineMessages, useIntl } from 'react-intl';
import { object, refine, string } from 'superstruct';
import { PasswordChangeInput } from '../../../domain/auth';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';

/** The current password and the new one typed twice; the new one follows the registration rule (Password). */
export const PasswordChangeStruct = refine(
  object({
    currentPassword: PasswordChangeInput.schema.currentPassword,
    newPassword: PasswordChangeInput.schema.newPassword,
    newPasswordRepeat: string(),
  }),
  'passwordMismatch',
  (value) => (value.newPassword === value.newPasswordRepeat ? true : { path: ['newPasswordRepeat'], message: 'passwordMismatch' }),
);

const messages = defineMessages({
  passwordMismatch: { id: 'profile.password.mismatch', defaultMessage: 'The passwords do not match.' },
});

export interface PasswordFormProps {
  onSubmit: (input: PasswordChangeInput) => Promise<void>;
}

function Fields({ onSubmit, onChanged }: PasswordFormProps & { onChanged: () => void }) {
  const intl = useIntl();
  const form = useForm({ struct: PasswordChangeStruct, initialValues: { currentPassword: '', newPassword: '', newPasswordRepeat: '' }, messages });
  const submit = form.handleSubmit(async (value) => {
    await onSubmit({ currentPassword: value.currentPassword, newPassword: value.newPassword });
    onChanged();
  });
  return (
    <form className="profile-form" noValidate onSubmit={submit} data-form="password">
      <TextField
        {...form.textField('currentPassword', intl.formatMessage({ id: 'profile.password.current', defaultMessage: 'Current password' }))}
        type="password"
        autoComplete="current-password"
      />
      <div className="profile-form__row">
        <TextField
          {...form.textField('newPassword', intl.formatMessage({ id: 'profile.password.new', defaultMessage: 'New password' }))}
          type="password"
          autoComplete="new-password"
          tip={<FormattedMessage id="profile.password.tip" defaultMessage="8 to 128 characters." />}
        />
        <TextField
          {...form.textField('newPasswordRepeat', intl.formatMessage({ id: 'profile.password.repeat', defaultMessage: 'Repeat the new password' }))}
          required
          type="password"
          autoComplete="new-password"
        />
      </div>
      <div className="profile-form__actions">
        <Button type="submit" loading={form.isSubmitting} data-action="change-password">
          <FormattedMessage id="profile.password.submit" defaultMessage="Change the password" />
        </Button>
      </div>
    </form>
  );
}

/** The password change; after a change the fields are emptied and the user is told. */
export function PasswordForm({ onSubmit }: PasswordFormProps) {
  const [changes, setChanges] = useState(0);
  return (
    <>
      <Fields key={changes} onSubmit={onSubmit} onChanged={() => setChanges((count) => count + 1)} />
      {changes > 0 && (
        <p className="profile-form__saved" role="status">
          <FormattedMessage id="profile.password.changed" defaultMessage="The password has been changed. Your other devices have been signed out." />
        </p>
      )}
    </>
  );
}
