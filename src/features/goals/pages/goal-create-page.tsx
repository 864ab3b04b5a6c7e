import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function GoalCreatePage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="goals.create.title" defaultMessage="New goal" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="goals.create.planned"
          defaultMessage="Here the owner will set a goal: direction, scope of improvement, description, expected result, a quantitative indicator with its unit, dates, the business customer and the process to improve."
        />
      </p>
    </PlannedPage>
  );
}
