import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function CompanyCreatePage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="companies.create.title" defaultMessage="Add a company" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="companies.create.planned"
          defaultMessage="Here you will add your company: a legal entity or an individual entrepreneur, with its taxpayer number, the tax code (KPP) for Russian legal entities, website, number of employees and logo."
        />
      </p>
    </PlannedPage>
  );
}
