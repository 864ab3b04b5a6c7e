import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { EmailInput } from '../../../domain/auth';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { useFieldVisits } from '../field-visits';
import { useRequestRecovery, useWithNext } from '../hooks';
import '../auth.css';

export default function RecoveryPasswordPage() {
  const intl = useIntl();
  const requestRecovery = useRequestRecovery();
  const withNext = useWithNext();
  const visits = useFieldVisits();
  const form = useForm({ struct: EmailInput, initialValues: { email: '' } });

  return (
    <section className="auth-page" aria-labelledby="recovery-title">
      <h1 className="auth-page__title" id="recovery-title">
        <FormattedMessage id="auth.recovery.title" defaultMessage="Password recovery" />
      </h1>
      <p className="auth-page__lead">
        <FormattedMessage
          id="auth.recovery.lead"
          defaultMessage="Enter the e-mail you registered with and we will send a link to set a new password."
        />
      </p>
      <form className="auth-form" noValidate onSubmit={form.handleSubmit(requestRecovery)} onBlurCapture={visits.onBlurCapture}>
        <TextField
          {...visits.field(form.textField('email', intl.formatMessage({ id: 'auth.recovery.email', defaultMessage: 'E-mail' })))}
          type="email"
          mask="email"
          autoComplete="email"
          autoFocus
        />
        <Button type="submit" block loading={form.isSubmitting}>
          <FormattedMessage id="auth.recovery.submit" defaultMessage="Send the link" />
        </Button>
      </form>
      <p className="auth-page__links">
        <Link href={withNext(paths.auth.login)}>
          <FormattedMessage id="auth.recovery.backToLogin" defaultMessage="Back to sign-in" />
        </Link>
      </p>
    </section>
  );
}
