import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';

/** A company the device does not hold: not loaded yet, or not one of the user's companies. */
export function CompanyMissing() {
  return (
    <section className="companies-page" aria-labelledby="company-missing-title">
      <h1 className="companies-page__title" id="company-missing-title">
        <FormattedMessage id="companies.missing.title" defaultMessage="This company is not on this device" />
      </h1>
      <p>
        <FormattedMessage
          id="companies.missing.text"
          defaultMessage="It may not have loaded yet: connect to the network and open it again. If it is not one of your companies, you cannot see it."
        />
      </p>
      <p>
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
    </section>
  );
}
