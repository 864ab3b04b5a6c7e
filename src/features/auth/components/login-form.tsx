import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { LoginInput } from '../../../domain/auth';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { useFieldVisits } from '../field-visits';
import { useWithNext, type LoginRefusal } from '../hooks';

export interface LoginFormProps {
  /** Signs in; answers a refusal to show above the form (wrong credentials, too many attempts). */
  onSubmit: (input: LoginInput) => Promise<LoginRefusal | null>;
}

export function LoginForm({ onSubmit }: LoginFormProps) {
  const intl = useIntl();
  const form = useForm({ struct: LoginInput, initialValues: { email: '', password: '' } });
  const [refusal, setRefusal] = useState<string | null>(null);
  const visits = useFieldVisits();
  const withNext = useWithNext();

  const submit = form.handleSubmit(async (value) => {
    setRefusal(null);
    const outcome = await onSubmit(value);
    if (outcome) setRefusal(outcome.message);
  });

  return (
    <form className="auth-form" noValidate onSubmit={submit} onBlurCapture={visits.onBlurCapture}>
      {refusal !== null && (
        <p className="auth-page__notice" role="alert">
          {refusal}
        </p>
      )}
      <TextField
        {...visits.field(form.textField('email', intl.formatMessage({ id: 'auth.login.email', defaultMessage: 'E-mail' })))}
        type="email"
        mask="email"
        autoComplete="username"
        autoFocus
      />
      <TextField
        {...visits.field(form.textField('password', intl.formatMessage({ id: 'auth.login.password', defaultMessage: 'Password' })))}
        type="password"
        autoComplete="current-password"
      />
      <Link className="auth-form__forgot" href={withNext(paths.auth.recoveryPassword)}>
        <FormattedMessage id="auth.login.forgot" defaultMessage="Forgot your password?" />
      </Link>
      <Button type="submit" block loading={form.isSubmitting}>
        <FormattedMessage id="auth.login.submit" defaultMessage="Sign in" />
      </Button>
    </form>
  );
}
