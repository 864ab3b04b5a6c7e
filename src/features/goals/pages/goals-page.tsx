// The company's goals: filters (status, direction, business customer, search) live in the URL query, so a
// reload or the back button brings the same list back. Reads only the mirror (works offline); a company has
// tens of goals, not thousands, so the list is a plain one.
import { useMemo } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { GOAL_STATUSES, canCreateGoal } from '../../../domain/goal';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { FilterSelect, SearchFilter } from '../../../ui/filters';
import { PageSpinner } from '../../../ui/spinner';
import { GOAL_STATUS_MESSAGES, GoalStatusText, GoalUnsentMark } from '../components/goal-texts';
import { useMemberRoles } from '../../../lib/member-view';
import { useFirstPullPending } from '../../../lib/sync/use-first-pull';
import { useCompanyGoals } from '../hooks';
import { directionsOf, employeeNameOf, filterGoals, goalTitleOf, goalFiltersFromQuery, queryFromGoalFilters, type GoalFilters } from '../list';
import '../goals.css';

/** The URL keeps the search trimmed (list.ts), so a trailing space typed is not a new search. */
const trimmed = (text: string): string => text.trim();

export default function GoalsPage() {
  const intl = useIntl();
  const { companyId = '' } = useParams<{ companyId: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const member = useMemberRoles(companyId);
  const data = useCompanyGoals(companyId);
  const firstPullPending = useFirstPullPending(member.userId, companyId);
  const filters = useMemo(() => goalFiltersFromQuery(search), [search]);

  const change = (changes: Partial<GoalFilters>) => {
    navigate(`${paths.company.goals(companyId)}${queryFromGoalFilters({ ...filters, ...changes })}`, { replace: true });
  };

  const goals = useMemo(() => (data ? filterGoals(data.items.map((item) => item.goal), filters) : []), [data, filters]);
  if (!data) return <PageSpinner />;
  // No goals yet while the company's first pull is on its way: the list is loading, not empty (nor counted).
  const isLoading = data.items.length === 0 && firstPullPending !== false;
  const unsent = new Map(data.items.map((item) => [item.goal.id, item.unsent]));
  const directions = directionsOf(data.items.map((item) => item.goal)).map((direction) => ({ id: direction, title: direction }));
  const customers = [...new Set(data.items.map((item) => item.goal.businessCustomerEmployeeId))]
    .map((id) => {
      const employee = data.customers.get(id);
      return { id, title: employee ? employeeNameOf(employee) : intl.formatMessage({ id: 'goals.unknownEmployee', defaultMessage: 'Not on this device yet' }) };
    })
    .sort((a, b) => a.title.localeCompare(b.title));
  const statusOptions = GOAL_STATUSES.map((status) => ({ id: status, title: intl.formatMessage(GOAL_STATUS_MESSAGES[status]) }));

  return (
    <section className="goals-page" aria-labelledby="goals-title">
      <p className="goals-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <div className="goals-page__head">
        <h1 className="goals-page__title" id="goals-title">
          <FormattedMessage id="goals.list.title" defaultMessage="Company goals" />
        </h1>
        {canCreateGoal(member.roles) && (
          <Link href={paths.company.goalsCreate(companyId)} className={buttonClassName('primary')} data-action="goal-new">
            <FormattedMessage id="goals.list.new" defaultMessage="New goal" />
          </Link>
        )}
      </div>
      <div className="goal-filters" role="search">
        <SearchFilter
          label={intl.formatMessage({ id: 'goals.list.filter.search', defaultMessage: 'Search' })}
          placeholder={intl.formatMessage({ id: 'goals.list.filter.searchPlaceholder', defaultMessage: 'Words of the direction, scope, description or process' })}
          value={filters.query}
          onCommit={(query) => change({ query })}
          normalize={trimmed}
        />
        <FilterSelect
          label={intl.formatMessage({ id: 'goals.list.filter.status', defaultMessage: 'Status' })}
          name="status"
          value={filters.status}
          onChange={(value) => change({ status: GOAL_STATUSES.find((status) => status === value) ?? null })}
          options={statusOptions}
          placeholder={intl.formatMessage({ id: 'goals.list.filter.anyStatus', defaultMessage: 'Any status' })}
        />
        <FilterSelect
          label={intl.formatMessage({ id: 'goals.list.filter.direction', defaultMessage: 'Direction' })}
          name="direction"
          value={filters.direction}
          onChange={(direction) => change({ direction })}
          options={directions}
          placeholder={intl.formatMessage({ id: 'goals.list.filter.anyDirection', defaultMessage: 'Any direction' })}
        />
        <FilterSelect
          label={intl.formatMessage({ id: 'goals.list.filter.customer', defaultMessage: 'Business customer' })}
          name="customer"
          value={filters.businessCustomerEmployeeId}
          onChange={(businessCustomerEmployeeId) => change({ businessCustomerEmployeeId })}
          options={customers}
          placeholder={intl.formatMessage({ id: 'goals.list.filter.anyCustomer', defaultMessage: 'Any business customer' })}
        />
      </div>
      {isLoading ? null : (
        <p className="goals-page__count" aria-live="polite" data-count={goals.length}>
          <FormattedMessage id="goals.list.count" defaultMessage="{count, plural, one {# goal} other {# goals}}" values={{ count: goals.length }} />
        </p>
      )}
      {isLoading ? (
        <p className="goals-page__empty" data-empty="loading" aria-live="polite">
          <FormattedMessage id="goals.list.loading" defaultMessage="The company's goals are loading…" />
        </p>
      ) : goals.length === 0 ? (
        <p className="goals-page__empty" data-empty="">
          <FormattedMessage id="goals.list.empty" defaultMessage="No goals match. If you expect some, connect once so the list can load." />
        </p>
      ) : (
        <ul className="goal-list">
          {goals.map((goal) => {
            const customer = data.customers.get(goal.businessCustomerEmployeeId);
            const state = unsent.get(goal.id) ?? null;
            return (
              <li key={goal.id} className="goal-list__item" data-goal-row={goal.id} data-status={goal.status} data-unsent={state ?? undefined}>
                <Link href={paths.company.goal(companyId, goal.id)} className="goal-list__link">
                  <span className="goal-list__title">
                    {goalTitleOf(goal)}
                  </span>
                  <span className="goal-list__meta">
                    <FormattedMessage id="goals.list.customer" defaultMessage="Business customer: {name}" values={{ name: customer ? employeeNameOf(customer) : '—' }} />
                  </span>
                  <span className="goal-list__meta">
                    <FormattedMessage
                      id="goals.list.dates"
                      defaultMessage="{start} – {end}"
                      values={{ start: <FormattedDate value={`${goal.startDate}T00:00:00`} dateStyle="medium" />, end: <FormattedDate value={`${goal.endDate}T00:00:00`} dateStyle="medium" /> }}
                    />
                  </span>
                  <span className="goal-list__state">
                    <GoalStatusText status={goal.status} />
                    {state && <GoalUnsentMark state={state} />}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
