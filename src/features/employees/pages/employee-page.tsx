import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function EmployeePage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="employees.view.title" defaultMessage="Employee" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="employees.view.planned"
          defaultMessage="Here you will see an employee’s data, department and role, with their proposals and projects."
        />
      </p>
    </PlannedPage>
  );
}
