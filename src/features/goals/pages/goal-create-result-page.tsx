import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function GoalCreateResultPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="goals.createResult.title" defaultMessage="Goal created" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="goals.createResult.planned"
          defaultMessage="After a goal is created, this page will confirm it and lead to the goal."
        />
      </p>
    </PlannedPage>
  );
}
