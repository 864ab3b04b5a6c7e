import { FormattedMessage, defineMessages, useIntl } from 'react-intl';
import { object, refine, string } from 'superstruct';
import { Password } from '../../../domain/auth';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { useFieldVisits } from '../field-visits';

/** The new account's password, typed twice; only the first goes to the server (AcceptInvitationInput). */
const InvitationPasswordInput = refine(object({ password: Password, passwordRepeat: string() }), 'passwordMismatch', (value) =>
  value.password === value.passwordRepeat ? true : { path: ['passwordRepeat'], message: 'passwordMismatch' },
);

const messages = defineMessages({
  passwordMismatch: { id: 'auth.invitation.mismatch', defaultMessage: 'The passwords do not match.' },
});

export interface InvitationPasswordFormProps {
  email: string;
  submitText: string;
  onSubmit: (password: string) => Promise<void>;
}

export function InvitationPasswordForm({ email, submitText, onSubmit }: InvitationPasswordFormProps) {
  const intl = useIntl();
  const visits = useFieldVisits();
  const form = useForm({ struct: InvitationPasswordInput, initialValues: { password: '', passwordRepeat: '' }, messages });
  return (
    <form className="auth-form" noValidate onSubmit={form.handleSubmit((value) => onSubmit(value.password))} onBlurCapture={visits.onBlurCapture}>
      {/* The address the account gets, for password managers. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <TextField
        {...visits.field(form.textField('password', intl.formatMessage({ id: 'auth.invitation.password', defaultMessage: 'Password' })))}
        type="password"
        autoComplete="new-password"
        autoFocus
        tip={<FormattedMessage id="auth.invitation.passwordTip" defaultMessage="8 to 128 characters." />}
      />
      <TextField
        {...visits.field(form.textField('passwordRepeat', intl.formatMessage({ id: 'auth.invitation.passwordRepeat', defaultMessage: 'Repeat the password' })))}
        required
        type="password"
        autoComplete="new-password"
      />
      <Button type="submit" block loading={form.isSubmitting}>
        {submitText}
      </Button>
    </form>
  );
}
