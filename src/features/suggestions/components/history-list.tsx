import { FormattedDate, FormattedMessage } from 'react-intl';
import type { Suggestion, SuggestionHistoryEntry } from '../../../domain/suggestion';

export interface HistoryListProps {
  suggestion: Suggestion;
  /** Department names by id (a department removed since shows as unknown). */
  departmentNames: ReadonlyMap<string, string>;
  /** Names of people by user id, for entries written before names were recorded. */
  nameOfUser: (userId: string) => string | null;
}

function What({ entry, who, departmentNames }: { entry: SuggestionHistoryEntry; who: string; departmentNames: ReadonlyMap<string, string> }) {
  const unknown = '—';
  switch (entry.kind) {
    case 'SUBMITTED':
      return <FormattedMessage id="suggestions.history.submitted" defaultMessage="Submitted by {who}" values={{ who }} />;
    case 'DISTRIBUTED': {
      const from = entry.fromDepartmentId ? (departmentNames.get(entry.fromDepartmentId) ?? unknown) : unknown;
      const to = (entry.departmentIds ?? []).map((id) => departmentNames.get(id) ?? unknown).join(', ') || unknown;
      return <FormattedMessage id="suggestions.history.distributed" defaultMessage="{who} passed it from {from} to {to}" values={{ who, from, to }} />;
    }
    case 'APPROVED':
      return <FormattedMessage id="suggestions.history.approved" defaultMessage="Approved by {who}" values={{ who }} />;
    case 'REJECTED':
      return <FormattedMessage id="suggestions.history.rejected" defaultMessage="Rejected by {who}" values={{ who }} />;
    case 'CLARIFICATION_REQUESTED':
      return <FormattedMessage id="suggestions.history.clarification" defaultMessage="{who} asked the author for clarification" values={{ who }} />;
    case 'RESENT':
      return <FormattedMessage id="suggestions.history.resent" defaultMessage="{who} clarified it and sent it again" values={{ who }} />;
    case 'REMINDED':
      return <FormattedMessage id="suggestions.history.reminded" defaultMessage="Reminder: 2 days left to decide" />;
    case 'OVERDUE':
      return <FormattedMessage id="suggestions.history.overdue" defaultMessage="Not decided in time: overdue" />;
    case 'ESCALATED':
      return (
        <FormattedMessage
          id="suggestions.history.escalated"
          defaultMessage="Passed up to the {level, select, 1 {CEO} other {owner}}"
          values={{ level: String(entry.escalationLevel ?? 2) }}
        />
      );
  }
}

/** Every move of the proposal, oldest first, with who and when (and the comment that came with it). */
export function HistoryList({ suggestion, departmentNames, nameOfUser }: HistoryListProps) {
  const entries = suggestion.history.map((entry, index) => ({ entry, index })).sort((a, b) => a.entry.at.localeCompare(b.entry.at) || a.index - b.index);
  return (
    <ol className="suggestion-history">
      {entries.map(({ entry, index }) => {
        const who = entry.byName ?? (entry.byUserId ? nameOfUser(entry.byUserId) : null) ?? (entry.kind === 'SUBMITTED' ? suggestion.authorName : '—');
        return (
          <li key={`${entry.at}-${index}`} className="suggestion-history__item" data-kind={entry.kind}>
            <time className="suggestion-history__at" dateTime={entry.at}>
              <FormattedDate value={entry.at} dateStyle="medium" timeStyle="short" />
            </time>
            <span className="suggestion-history__what">
              <What entry={entry} who={who} departmentNames={departmentNames} />
            </span>
            {entry.comment && <p className="suggestion-history__comment">{entry.comment}</p>}
          </li>
        );
      })}
    </ol>
  );
}
