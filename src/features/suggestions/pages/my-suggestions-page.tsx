import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function MySuggestionsPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="suggestions.mine.title" defaultMessage="My proposals" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="suggestions.mine.planned"
          defaultMessage="Your improvement proposals and what became of each: under consideration, approved or rejected."
        />
      </p>
    </PlannedPage>
  );
}
