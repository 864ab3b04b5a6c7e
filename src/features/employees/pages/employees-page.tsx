import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function EmployeesPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="employees.list.title" defaultMessage="Employees" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="employees.list.planned"
          defaultMessage="The company’s staff list with search: name, position, e-mail, service number, and whether each person is active or imported."
        />
      </p>
    </PlannedPage>
  );
}
