import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../domain/paths';
import './not-found-page.css';

export default function NotFoundPage() {
  return (
    <section className="not-found" data-screen="not-found">
      <h1 className="not-found__title">
        <FormattedMessage id="app.notFound.title" defaultMessage="404 Page Not Found" />
      </h1>
      <p className="not-found__text">
        <FormattedMessage id="app.notFound.text" defaultMessage="The address may be mistyped, or the page has moved." />
      </p>
      <Link href={paths.dashboard} className="not-found__link">
        <FormattedMessage id="app.notFound.home" defaultMessage="Go to the home page" />
      </Link>
    </section>
  );
}
