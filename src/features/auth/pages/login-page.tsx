import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { LoginForm } from '../components/login-form';
import { useLogin } from '../hooks';
import '../auth.css';

export default function LoginPage() {
  const login = useLogin();
  return (
    <section className="auth-page" aria-labelledby="login-title">
      <h1 className="auth-page__title" id="login-title">
        <FormattedMessage id="auth.login.title" defaultMessage="Sign in" />
      </h1>
      <LoginForm onSubmit={login} />
      <p className="auth-page__links">
        <span>
          <FormattedMessage
            id="auth.login.noAccount"
            defaultMessage="No account yet? <link>Register</link>"
            values={{ link: (chunks) => <Link href={paths.auth.register}>{chunks}</Link> }}
          />
        </span>
      </p>
    </section>
  );
}
