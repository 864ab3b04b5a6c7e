import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function SuggestionCreateResultPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="suggestions.createResult.title" defaultMessage="Proposal sent" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="suggestions.createResult.planned"
          defaultMessage="After a proposal is sent, this page will confirm it. The department head reviews it within 5 days."
        />
      </p>
    </PlannedPage>
  );
}
