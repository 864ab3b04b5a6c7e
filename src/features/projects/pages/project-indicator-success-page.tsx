import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function ProjectIndicatorSuccessPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.indicatorSuccess.title" defaultMessage="Report filed" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="projects.indicatorSuccess.planned"
          defaultMessage="After an indicator report is filed, this page will confirm it and show when the next one is due."
        />
      </p>
    </PlannedPage>
  );
}
