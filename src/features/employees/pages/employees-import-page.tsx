import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function EmployeesImportPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="employees.import.title" defaultMessage="Import employees" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="employees.import.planned"
          defaultMessage="Here you will upload a file with the staff list to add many employees at once."
        />
      </p>
    </PlannedPage>
  );
}
