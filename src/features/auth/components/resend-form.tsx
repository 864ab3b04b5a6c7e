import { FormattedMessage, useIntl } from 'react-intl';
import { EmailInput } from '../../../domain/auth';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { useFieldVisits } from '../field-visits';

export interface ResendFormProps {
  /** The address the letter goes to; when unknown the form asks for it. */
  email: string | null;
  onSubmit: (input: EmailInput) => Promise<void>;
}

/** Sends the confirmation letter again, to the known address or to the one typed in. */
export function ResendForm({ email, onSubmit }: ResendFormProps) {
  const intl = useIntl();
  const visits = useFieldVisits();
  const form = useForm({ struct: EmailInput, initialValues: { email: email ?? '' } });
  return (
    <form className="auth-form" noValidate onSubmit={form.handleSubmit(onSubmit)} onBlurCapture={visits.onBlurCapture}>
      {email === null && (
        <TextField
          {...visits.field(form.textField('email', intl.formatMessage({ id: 'auth.confirmEmail.email', defaultMessage: 'E-mail' })))}
          type="email"
          mask="email"
          autoComplete="email"
        />
      )}
      <Button type="submit" variant={email === null ? 'primary' : 'secondary'} block loading={form.isSubmitting}>
        <FormattedMessage id="auth.confirmEmail.resend" defaultMessage="Send the letter again" />
      </Button>
    </form>
  );
}
