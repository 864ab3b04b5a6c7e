import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { withoutStopAfterDate } from '../../../lib/sentence';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { useCompanyPeople, useSuggestion } from '../hooks';
import { holderOf } from '../people';
import '../suggestions.css';

/**
 * After a proposal was passed on: where it went, who decides it now and by when ("Passed to Logistics.
 * Ivanov I. decides it by 29 Nov."), from the mirror, and whether the change still waits to be sent.
 */
export default function SuggestionSuccessPage() {
  const intl = useIntl();
  const { companyId = '', suggestionId = '' } = useParams<{ companyId: string; suggestionId: string }>();
  const view = useSuggestion(companyId, suggestionId);
  const people = useCompanyPeople(companyId);
  if (view === undefined || people === undefined) return <PageSpinner />;

  const links = (
    <div className="suggestions-page__actions">
      <Link href={paths.company.suggestion(companyId, suggestionId)} className={buttonClassName('primary')}>
        <FormattedMessage id="suggestions.result.open" defaultMessage="Open the proposal" />
      </Link>
      <Link href={paths.company.suggestions(companyId)} className={buttonClassName('secondary')}>
        <FormattedMessage id="suggestions.success.toList" defaultMessage="To the proposals" />
      </Link>
      {view?.unsent && (
        <Link href={paths.unsent} className={buttonClassName('secondary')}>
          <FormattedMessage id="suggestions.result.unsent" defaultMessage="Unsent" />
        </Link>
      )}
    </div>
  );
  if (view === null) {
    return (
      <section className="suggestions-page suggestions-result" aria-labelledby="suggestion-success-title">
        <h1 className="suggestions-page__title" id="suggestion-success-title">
          <FormattedMessage id="suggestions.view.missing" defaultMessage="This proposal is not on this device" />
        </h1>
        {links}
      </section>
    );
  }

  const { suggestion, unsent } = view;
  const department = people.departments.find((item) => item.id === suggestion.departmentId)?.name ?? '—';
  const holder = holderOf(suggestion.departmentId, suggestion.escalationLevel, people.departments, people.members);
  const due = intl.formatDate(suggestion.dueAt, { day: 'numeric', month: 'short' });
  const passedTo =
    holder.names.length > 0
      ? intl.formatMessage(
          { id: 'suggestions.success.passedTo', defaultMessage: 'Passed to {department}. {names} decides it by {due}.' },
          { department, names: intl.formatList(holder.names, { type: 'conjunction' }), due },
        )
      : intl.formatMessage({ id: 'suggestions.success.passedToDue', defaultMessage: 'Passed to {department}. It is to be decided by {due}.' }, { department, due });
  return (
    <section className="suggestions-page suggestions-result" aria-labelledby="suggestion-success-title" data-state={unsent ? 'waiting' : 'sent'}>
      <h1 className="suggestions-page__title" id="suggestion-success-title">
        <FormattedMessage id="suggestions.success.title" defaultMessage="Proposal passed on" />
      </h1>
      <p role="status" className="suggestions-success__text">
        {withoutStopAfterDate(passedTo, due)}
      </p>
      {unsent && (
        <p className="suggestions-page__note">
          <FormattedMessage
            id="suggestions.success.waiting"
            defaultMessage="The change is kept on this device and will be sent by itself as soon as there is a connection."
          />
        </p>
      )}
      {links}
    </section>
  );
}
