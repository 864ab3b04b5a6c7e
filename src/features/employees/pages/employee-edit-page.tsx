import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function EmployeeEditPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="employees.edit.title" defaultMessage="Add or edit an employee" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="employees.edit.planned"
          defaultMessage="Here you will enter an employee’s last, first and middle name, position, e-mail and service number, and invite them to the platform."
        />
      </p>
    </PlannedPage>
  );
}
