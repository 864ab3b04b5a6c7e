import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function EmployeesImportReportPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="employees.importReport.title" defaultMessage="Import report" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="employees.importReport.planned"
          defaultMessage="After an import, this page will show which employees were added and which rows have errors, and why."
        />
      </p>
    </PlannedPage>
  );
}
