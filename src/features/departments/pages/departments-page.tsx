import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function DepartmentsPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="departments.list.title" defaultMessage="Departments" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="departments.list.planned"
          defaultMessage="Here HR and the owner will create, rename and remove the company’s departments. Proposals are reviewed by the head of each department."
        />
      </p>
    </PlannedPage>
  );
}
