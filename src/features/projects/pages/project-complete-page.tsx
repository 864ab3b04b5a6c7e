import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function ProjectCompletePage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.complete.title" defaultMessage="Complete the project" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="projects.complete.planned"
          defaultMessage="Here the project manager will enter the actual completion date and the actual economic effect over 12 months."
        />
      </p>
    </PlannedPage>
  );
}
