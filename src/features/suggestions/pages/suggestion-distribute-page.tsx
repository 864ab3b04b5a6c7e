import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function SuggestionDistributePage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="suggestions.distribute.title" defaultMessage="Pass to departments" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="suggestions.distribute.planned"
          defaultMessage="Here a proposal will be passed to the departments that should review it."
        />
      </p>
    </PlannedPage>
  );
}
