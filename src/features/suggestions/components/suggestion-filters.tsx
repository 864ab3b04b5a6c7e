// The review list's filters: status, department, goal, overdue only and search. They hold no state of their
// own but the search text being typed: the page keeps the filters in the URL, and the search reaches it a
// moment after the last keystroke, so typing stays fluid over 50,000 proposals.
import { defineMessages, useIntl } from 'react-intl';
import { SUGGESTION_STATUSES, type SuggestionStatus } from '../../../domain/suggestion';
import { FilterSelect, SearchFilter } from '../../../ui/filters';
import type { ListFilters } from '../list';

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

export function SuggestionFilters({ filters, onChange, departments, goals }: SuggestionFiltersProps) {
  const intl = useIntl();
  const statusOptions = SUGGESTION_STATUSES.map((status) => ({ id: status, title: intl.formatMessage(LIST_STATUS_MESSAGES[status]) }));
  const departmentOptions = departments.map((department) => ({ id: department.id, title: department.name }));
  const goalOptions = goals.map((goal) => ({ id: goal.id, title: goal.title }));
  return (
    <div className="suggestion-filters" role="search">
      <SearchFilter
        label={intl.formatMessage({ id: 'suggestions.list.filter.search', defaultMessage: 'Search' })}
        placeholder={intl.formatMessage({ id: 'suggestions.list.filter.searchPlaceholder', defaultMessage: 'Words of the title or problem' })}
        value={filters.query}
        onCommit={(query) => onChange({ query })}
      />
      {filters.tab !== 'review' && (
        <FilterSelect
          label={intl.formatMessage({ id: 'suggestions.list.filter.status', defaultMessage: 'Status' })}
          name="status"
          value={filters.status}
          onChange={(value) => onChange({ status: SUGGESTION_STATUSES.find((status) => status === value) ?? null })}
          options={statusOptions}
          placeholder={intl.formatMessage({ id: 'suggestions.list.filter.anyStatus', defaultMessage: 'Any status' })}
        />
      )}
      <FilterSelect
        label={intl.formatMessage({ id: 'suggestions.list.filter.department', defaultMessage: 'Department' })}
        name="department"
        value={filters.departmentId}
        onChange={(departmentId) => onChange({ departmentId })}
        options={departmentOptions}
        placeholder={intl.formatMessage({ id: 'suggestions.list.filter.anyDepartment', defaultMessage: 'All departments' })}
      />
      {goalOptions.length > 0 && (
        <FilterSelect
          label={intl.formatMessage({ id: 'suggestions.list.filter.goal', defaultMessage: 'Goal' })}
          name="goal"
          value={filters.goalId}
          onChange={(goalId) => onChange({ goalId })}
          options={goalOptions}
          placeholder={intl.formatMessage({ id: 'suggestions.list.filter.anyGoal', defaultMessage: 'Any goal' })}
        />
      )}
      <label className="suggestion-filters__check">
        <input type="checkbox" name="overdue" checked={filters.isOverdueOnly} onChange={(event) => onChange({ isOverdueOnly: event.target.checked })} />
        <span>{intl.formatMessage({ id: 'suggestions.list.filter.overdue', defaultMessage: 'Overdue only' })}</span>
      </label>
    </div>
  );
}
