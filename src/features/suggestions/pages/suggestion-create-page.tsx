import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function SuggestionCreatePage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="suggestions.create.title" defaultMessage="New proposal" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="suggestions.create.planned"
          defaultMessage="Here you will describe a problem and how to solve it, attach up to 3 photos and send it, even without a connection: it goes out as soon as you are back online."
        />
      </p>
    </PlannedPage>
  );
}
