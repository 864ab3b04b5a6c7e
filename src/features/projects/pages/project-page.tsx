import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function ProjectPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.view.title" defaultMessage="Project" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="projects.view.planned"
          defaultMessage="Here you will see a project in full: the team, costs, the economic effect over 12 months, indicator reports and the estimated remuneration."
        />
      </p>
    </PlannedPage>
  );
}
