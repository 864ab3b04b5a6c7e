import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function GoalPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="goals.view.title" defaultMessage="Goal" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="goals.view.planned"
          defaultMessage="Here you will see a goal in full. Its business customer will take it to work or ask for clarification, and the owner will approve it."
        />
      </p>
    </PlannedPage>
  );
}
