import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { useIsEntityUnsent } from '../../../lib/entity-unsent';
import '../suggestions.css';

/** After submitting: says whether the proposal is already on the server or waits on this device. */
export default function SuggestionCreateResultPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const search = new URLSearchParams(useSearch());
  const id = search.get('id') ?? '';
  const isEvictable = search.get('evictable') === '1';
  const isUnsent = useIsEntityUnsent('suggestions', id);
  if (isUnsent === undefined) return <PageSpinner />;

  return (
    <section className="suggestions-page suggestions-result" aria-labelledby="suggestion-result-title" data-state={isUnsent ? 'waiting' : 'sent'}>
      <h1 className="suggestions-page__title" id="suggestion-result-title">
        {isUnsent ? (
          <FormattedMessage id="suggestions.result.waitingTitle" defaultMessage="Saved, waiting to send" />
        ) : (
          <FormattedMessage id="suggestions.result.sentTitle" defaultMessage="Proposal sent" />
        )}
      </h1>
      <p role="status">
        {isUnsent ? (
          <FormattedMessage
            id="suggestions.result.waitingText"
            defaultMessage="Your proposal is kept on this device and will be sent by itself as soon as there is a connection. You can follow it on the “Unsent” screen."
          />
        ) : (
          <FormattedMessage id="suggestions.result.sentText" defaultMessage="The department head has received your proposal and will review it within 5 days." />
        )}
      </p>
      {isUnsent && isEvictable && (
        <p className="suggestions-page__warning" role="note">
          <FormattedMessage
            id="suggestions.result.evictable"
            defaultMessage="This browser did not allow permanent storage: if the device runs short of space, unsent work could be deleted. Connect soon so it gets sent."
          />
        </p>
      )}
      <div className="suggestions-page__actions">
        {id !== '' && (
          <Link href={paths.company.suggestion(companyId, id)} className={buttonClassName('primary')}>
            <FormattedMessage id="suggestions.result.open" defaultMessage="Open the proposal" />
          </Link>
        )}
        <Link href={paths.company.mySuggestions(companyId)} className={buttonClassName('secondary')}>
          <FormattedMessage id="suggestions.backToMine" defaultMessage="My proposals" />
        </Link>
        {isUnsent && (
          <Link href={paths.unsent} className={buttonClassName('secondary')}>
            <FormattedMessage id="suggestions.result.unsent" defaultMessage="Unsent" />
          </Link>
        )}
      </div>
    </section>
  );
}
