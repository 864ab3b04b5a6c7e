import { FormattedMessage, defineMessages, useIntl } from 'react-intl';
import { object, refine, string } from 'superstruct';
import { Password } from '../../../domain/auth';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { useFieldVisits } from '../field-visits';

/** The new password, typed twice; only the first goes to the server (RecoveryConfirmInput). */
const NewPasswordInput = refine(object({ password: Password, passwordRepeat: string() }), 'passwordMismatch', (value) =>
  value.password === value.passwordRepeat ? true : { path: ['passwordRepeat'], message: 'passwordMismatch' },
);

const messages = defineMessages({
  passwordMismatch: { id: 'auth.recoveryConfirm.mismatch', defaultMessage: 'The passwords do not match.' },
});

export interface NewPasswordFormProps {
  onSubmit: (password: string) => Promise<void>;
}

export function NewPasswordForm({ onSubmit }: NewPasswordFormProps) {
  const intl = useIntl();
  const visits = useFieldVisits();
  const form = useForm({ struct: NewPasswordInput, initialValues: { password: '', passwordRepeat: '' }, messages });
  return (
    <form className="auth-form" noValidate onSubmit={form.handleSubmit((value) => onSubmit(value.password))} onBlurCapture={visits.onBlurCapture}>
      <TextField
        {...visits.field(form.textField('password', intl.formatMessage({ id: 'auth.recoveryConfirm.password', defaultMessage: 'New password' })))}
        type="password"
        autoComplete="new-password"
        autoFocus
        tip={<FormattedMessage id="auth.recoveryConfirm.passwordTip" defaultMessage="8 to 128 characters." />}
      />
      <TextField
        {...visits.field(form.textField('passwordRepeat', intl.formatMessage({ id: 'auth.recoveryConfirm.passwordRepeat', defaultMessage: 'Repeat the password' })))}
        required
        type="password"
        autoComplete="new-password"
      />
      <Button type="submit" block loading={form.isSubmitting}>
        <FormattedMessage id="auth.recoveryConfirm.submit" defaultMessage="Save the password" />
      </Button>
    </form>
  );
}
