import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function ProjectCreatePage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.create.title" defaultMessage="New project" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="projects.create.planned"
          defaultMessage="Here an approved proposal will become a project: name, problem, photos, goals, baseline and target metrics, dates, reporting frequency and the team."
        />
      </p>
    </PlannedPage>
  );
}
