import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function GoalActionResultPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="goals.actionResult.title" defaultMessage="Goal updated" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="goals.actionResult.planned"
          defaultMessage="After an action on a goal (to work, for clarification, approve), this page will confirm what was done."
        />
      </p>
    </PlannedPage>
  );
}
