import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function ProjectCreateSuccessPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.createSuccess.title" defaultMessage="Project created" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="projects.createSuccess.planned"
          defaultMessage="After a project is created, this page will confirm it; the project then goes to a financial specialist for calculation."
        />
      </p>
    </PlannedPage>
  );
}
