import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function ProjectCompleteSuccessPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.completeSuccess.title" defaultMessage="Project completed" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="projects.completeSuccess.planned"
          defaultMessage="After a project is completed, this page will confirm it."
        />
      </p>
    </PlannedPage>
  );
}
