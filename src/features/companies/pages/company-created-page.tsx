import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function CompanyCreatedPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="companies.created.title" defaultMessage="Company added" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="companies.created.planned"
          defaultMessage="Once a company is added, this page will confirm it and lead on to its verification and to setting up departments and staff."
        />
      </p>
    </PlannedPage>
  );
}
