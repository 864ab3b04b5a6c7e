import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function SuggestionSuccessPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="suggestions.success.title" defaultMessage="Proposal updated" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="suggestions.success.planned"
          defaultMessage="After a proposal is approved, rejected or passed on, this page will confirm what was done."
        />
      </p>
    </PlannedPage>
  );
}
