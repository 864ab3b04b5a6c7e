import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { LoginForm } from '../components/login-form';
import { useLogin, useNextPath, useWithNext } from '../hooks';
import '../auth.css';

export default function LoginPage() {
  const login = useLogin();
  const withNext = useWithNext();
  // A link opened signed out brought the person here: say that the page follows the sign-in.
  const hasNext = useNextPath() !== null;
  return (
    <section className="auth-page" aria-labelledby="login-title">
      <h1 className="auth-page__title" id="login-title">
        <FormattedMessage id="auth.login.title" defaultMessage="Sign in" />
      </h1>
      {hasNext && (
        <p className="auth-page__lead">
          <FormattedMessage id="auth.login.nextLead" defaultMessage="Sign in to open the page you were going to." />
        </p>
      )}
      <LoginForm onSubmit={login} />
      <p className="auth-page__links">
        <span>
          <FormattedMessage
            id="auth.login.noAccount"
            defaultMessage="No account yet? <link>Register</link>"
            values={{ link: (chunks) => <Link href={withNext(paths.auth.register)}>{chunks}</Link> }}
          />
        </span>
      </p>
    </section>
  );
}
