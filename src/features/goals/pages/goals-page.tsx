import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function GoalsPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="goals.list.title" defaultMessage="Company goals" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="goals.list.planned"
          defaultMessage="The goals the owner sets for the company: direction, what to improve, the expected result and dates, with the state of each goal."
        />
      </p>
    </PlannedPage>
  );
}
