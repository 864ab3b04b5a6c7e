import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function SuggestionPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="suggestions.view.title" defaultMessage="Proposal" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="suggestions.view.planned"
          defaultMessage="Here you will see a proposal with its photos and history; the department head will approve or reject it."
        />
      </p>
    </PlannedPage>
  );
}
