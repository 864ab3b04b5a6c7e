import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function ProjectsPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.list.title" defaultMessage="Projects" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="projects.list.planned"
          defaultMessage="The company’s improvement projects, filtered by state: all, new, being calculated, approved, for revision."
        />
      </p>
    </PlannedPage>
  );
}
