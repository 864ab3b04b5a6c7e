import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function ProjectApproveResultPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.approveResult.title" defaultMessage="Decision on the project" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="projects.approveResult.planned"
          defaultMessage="After the direction manager approves a project or returns it for revision, this page will confirm the decision. An approved project enters the registry."
        />
      </p>
    </PlannedPage>
  );
}
