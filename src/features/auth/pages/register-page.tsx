import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { RegisterForm } from '../components/register-form';
import { useRegister, useWithNext } from '../hooks';
import '../auth.css';

export default function RegisterPage() {
  const register = useRegister();
  const withNext = useWithNext();
  return (
    <section className="auth-page" aria-labelledby="register-title">
      <h1 className="auth-page__title" id="register-title">
        <FormattedMessage id="auth.register.title" defaultMessage="Registration" />
      </h1>
      <p className="auth-page__lead">
        <FormattedMessage
          id="auth.register.lead"
          defaultMessage="Register your company on the platform. We will send a letter to confirm your e-mail."
        />
      </p>
      <RegisterForm onSubmit={register} />
      <p className="auth-page__links">
        <span>
          <FormattedMessage
            id="auth.register.haveAccount"
            defaultMessage="Already have an account? <link>Sign in</link>"
            values={{ link: (chunks) => <Link href={withNext(paths.auth.login)}>{chunks}</Link> }}
          />
        </span>
      </p>
    </section>
  );
}
