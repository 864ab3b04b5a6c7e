// The review list's filters: status, department, goal, overdue only and search. They hold no state of their
// own but the search text being typed: the page keeps the filters in the URL, and the search reaches it a
// moment after the last keystroke, so typing stays fluid over 50,000 proposals.
import { useEffect, useRef, useState } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import { SUGGESTION_STATUSES, type SuggestionStatus } from '../../../domain/suggestion';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import type { ListFilters } from '../list';

/** The search reaches the URL (and the query) this long after the last keystroke. */
export const LIST_SEARCH_DELAY_MS = 200;

/** Every status by name, CLARIFICATION included (the list shows it and filters by it). */
export const LIST_STATUS_MESSAGES = defineMessages({
  UNDER_CONSIDERATION: { id: 'suggestions.list.status.underConsideration', defaultMessage: 'Under consideration' },
  CLARIFICATION: { id: 'suggestions.list.status.clarification', defaultMessage: 'Clarification asked' },
  APPROVED: { id: 'suggestions.list.status.approved', defaultMessage: 'Approved' },
  REJECTED: { id: 'suggestions.list.status.rejected', defaultMessage: 'Rejected' },
}) satisfies Record<SuggestionStatus, unknown>;

export interface SuggestionFiltersProps {
  filters: ListFilters;
  onChange: (changes: Partial<ListFilters>) => void;
  departments: readonly { id: string; name: string }[];
  goals: readonly { id: string; title: string }[];
}

const ALL = '';

export function SuggestionFilters({ filters, onChange, departments, goals }: SuggestionFiltersProps) {
  const intl = useIntl();
  const statusOptions = SUGGESTION_STATUSES.map((status) => ({ id: status, title: intl.formatMessage(LIST_STATUS_MESSAGES[status]) }));
  const departmentOptions = departments.map((department) => ({ id: department.id, title: department.name }));
  const goalOptions = goals.map((goal) => ({ id: goal.id, title: goal.title }));
  return (
    <div className="suggestion-filters" role="search">
      <SearchField value={filters.query} onCommit={(query) => onChange({ query })} />
      {filters.tab !== 'review' && (
        <Select
          label={intl.formatMessage({ id: 'suggestions.list.filter.status', defaultMessage: 'Status' })}
          name="status"
          value={filters.status ?? ALL}
          onChange={(value) => onChange({ status: SUGGESTION_STATUSES.find((status) => status === value) ?? null })}
          options={statusOptions}
          placeholder={intl.formatMessage({ id: 'suggestions.list.filter.anyStatus', defaultMessage: 'Any status' })}
        />
      )}
      <Select
        label={intl.formatMessage({ id: 'suggestions.list.filter.department', defaultMessage: 'Department' })}
        name="department"
        value={filters.departmentId ?? ALL}
        onChange={(value) => onChange({ departmentId: value === ALL ? null : value })}
        options={departmentOptions}
        placeholder={intl.formatMessage({ id: 'suggestions.list.filter.anyDepartment', defaultMessage: 'All departments' })}
        searchable={departmentOptions.length > 8}
      />
      {goalOptions.length > 0 && (
        <Select
          label={intl.formatMessage({ id: 'suggestions.list.filter.goal', defaultMessage: 'Goal' })}
          name="goal"
          value={filters.goalId ?? ALL}
          onChange={(value) => onChange({ goalId: value === ALL ? null : value })}
          options={goalOptions}
          placeholder={intl.formatMessage({ id: 'suggestions.list.filter.anyGoal', defaultMessage: 'Any goal' })}
          searchable={goalOptions.length > 8}
        />
      )}
      <label className="suggestion-filters__check">
        <input type="checkbox" name="overdue" checked={filters.isOverdueOnly} onChange={(event) => onChange({ isOverdueOnly: event.target.checked })} />
        <span>{intl.formatMessage({ id: 'suggestions.list.filter.overdue', defaultMessage: 'Overdue only' })}</span>
      </label>
    </div>
  );
}

/** The search box: what is typed shows at once, reaches the filters after a pause; a new URL value replaces it. */
function SearchField({ value, onCommit }: { value: string; onCommit: (query: string) => void }) {
  const intl = useIntl();
  const [draft, setDraft] = useState(value);
  const [committed, setCommitted] = useState(value);
  // The URL changed under the field (back, a link): show what it says.
  if (value !== committed) {
    setCommitted(value);
    setDraft(value);
  }
  // The latest callback, so a re-render of the page does not restart the pause.
  const commitRef = useRef(onCommit);
  useEffect(() => {
    commitRef.current = onCommit;
  }, [onCommit]);
  useEffect(() => {
    if (draft === committed) return;
    const timer = setTimeout(() => commitRef.current(draft), LIST_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, committed]);
  return (
    <TextField
      label={intl.formatMessage({ id: 'suggestions.list.filter.search', defaultMessage: 'Search' })}
      name="q"
      type="search"
      value={draft}
      onChange={setDraft}
      onSubmit={() => onCommit(draft)}
      inputMode="search"
      maxLength={200}
      placeholder={intl.formatMessage({ id: 'suggestions.list.filter.searchPlaceholder', defaultMessage: 'Words of the title or problem' })}
    />
  );
}
