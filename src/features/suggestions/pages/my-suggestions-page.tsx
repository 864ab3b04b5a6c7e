import { FormattedDate, FormattedMessage } from 'react-intl';
import { Link, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { StatusText } from '../components/status-text';
import { UnsentMark } from '../components/unsent-mark';
import { useMySuggestions } from '../hooks';
import '../suggestions.css';

export default function MySuggestionsPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const items = useMySuggestions(companyId);
  if (items === undefined) return <PageSpinner />;

  return (
    <section className="suggestions-page" aria-labelledby="my-suggestions-title">
      <p className="suggestions-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <div className="suggestions-page__head">
        <h1 className="suggestions-page__title" id="my-suggestions-title">
          <FormattedMessage id="suggestions.mine.title" defaultMessage="My proposals" />
        </h1>
        <Link href={paths.company.suggestionsCreate(companyId)} className={buttonClassName('primary')}>
          <FormattedMessage id="suggestions.mine.new" defaultMessage="New proposal" />
        </Link>
      </div>
      {items.length === 0 ? (
        <p className="suggestions-page__empty">
          <FormattedMessage id="suggestions.mine.empty" defaultMessage="You have not submitted any proposals in this company yet." />
        </p>
      ) : (
        <ul className="suggestion-list">
          {items.map(({ suggestion, unsent }) => (
            <li key={suggestion.id} className="suggestion-list__item" data-unsent={unsent ?? undefined}>
              <Link href={paths.company.suggestion(companyId, suggestion.id)} className="suggestion-list__link">
                <span className="suggestion-list__title">{suggestion.title}</span>
                <span className="suggestion-list__meta">
                  <span>
                    <FormattedDate value={suggestion.submittedAt} dateStyle="medium" />
                  </span>
                  <span>
                    <StatusText status={suggestion.status} />
                  </span>
                </span>
                {unsent && <UnsentMark state={unsent} />}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
