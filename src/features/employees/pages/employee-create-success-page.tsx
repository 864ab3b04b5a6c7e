import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function EmployeeCreateSuccessPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="employees.createSuccess.title" defaultMessage="Employee added" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="employees.createSuccess.planned"
          defaultMessage="After an employee is added, this page will confirm it and offer to add another one or go back to the list."
        />
      </p>
    </PlannedPage>
  );
}
