import { FormattedMessage } from 'react-intl';
import type { SuggestionStatus } from '../../../domain/suggestion';

/** A proposal's status in words, including the state of waiting for the author's clarification. */
export function StatusText({ status }: { status: SuggestionStatus }) {
  switch (status) {
    case 'CLARIFICATION':
      return <FormattedMessage id="suggestions.status.clarification" defaultMessage="Waiting for the author's clarification" />;
    case 'APPROVED':
      return <FormattedMessage id="suggestions.status.approved" defaultMessage="Approved" />;
    case 'REJECTED':
      return <FormattedMessage id="suggestions.status.rejected" defaultMessage="Rejected" />;
    default:
      return <FormattedMessage id="suggestions.status.underConsideration" defaultMessage="Under consideration" />;
  }
}
