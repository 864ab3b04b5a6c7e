import { FormattedMessage } from 'react-intl';
import type { SuggestionStatus } from '../../../domain/suggestion';

export function StatusText({ status }: { status: SuggestionStatus }) {
  switch (status) {
    case 'APPROVED':
      return <FormattedMessage id="suggestions.status.approved" defaultMessage="Approved" />;
    case 'REJECTED':
      return <FormattedMessage id="suggestions.status.rejected" defaultMessage="Rejected" />;
    default:
      return <FormattedMessage id="suggestions.status.underConsideration" defaultMessage="Under consideration" />;
  }
}
