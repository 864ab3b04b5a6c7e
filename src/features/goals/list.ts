// The goals list's filters (status, direction, business customer, search), kept in the URL query so a reload
// or the back button brings the same list back, and the rule that picks and orders the goals, the server's
// (GET .../goals: direction exact, search a case-insensitive substring of direction, scope, description and
// process with ё read as е, ordered by end date then id). Pure: no I/O.
import { GOAL_STATUSES, type Goal, type GoalStatus } from '../../domain/goal';
import type { EmployeeRow } from '../../domain/suggestion';
import { normalizeSearchText } from '../../lib/db/database';

export interface GoalFilters {
  status: GoalStatus | null;
  direction: string | null;
  businessCustomerEmployeeId: string | null;
  query: string;
}

export const NO_GOAL_FILTERS: GoalFilters = { status: null, direction: null, businessCustomerEmployeeId: null, query: '' };

/** The filters a query string holds; anything unknown is ignored. */
export function goalFiltersFromQuery(search: string): GoalFilters {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const direction = params.get('direction')?.trim() ?? '';
  const customer = params.get('customer')?.trim() ?? '';
  return {
    status: GOAL_STATUSES.find((known) => known === status) ?? null,
    direction: direction === '' ? null : direction,
    businessCustomerEmployeeId: customer === '' ? null : customer,
    query: params.get('q')?.trim() ?? '',
  };
}

/** The query string of `filters` ('' or '?...'), the same filters `goalFiltersFromQuery` reads back. */
export function queryFromGoalFilters(filters: GoalFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.direction) params.set('direction', filters.direction);
  if (filters.businessCustomerEmployeeId) params.set('customer', filters.businessCustomerEmployeeId);
  if (filters.query.trim() !== '') params.set('q', filters.query.trim());
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

function matchesQuery(goal: Goal, query: string): boolean {
  if (query === '') return true;
  return [goal.direction, goal.scope, goal.description, goal.process].some((text) => normalizeSearchText(text).includes(query));
}

/** The goals that pass `filters`, by end date then id. */
export function filterGoals(goals: readonly Goal[], filters: GoalFilters): Goal[] {
  const query = normalizeSearchText(filters.query.trim());
  return goals
    .filter(
      (goal) =>
        (filters.status === null || goal.status === filters.status) &&
        (filters.direction === null || goal.direction === filters.direction) &&
        (filters.businessCustomerEmployeeId === null || goal.businessCustomerEmployeeId === filters.businessCustomerEmployeeId) &&
        matchesQuery(goal, query),
    )
    .sort((a, b) => a.endDate.localeCompare(b.endDate) || a.id.localeCompare(b.id));
}

/** The directions the company's goals have, each once, in alphabetical order (the direction filter's options). */
export function directionsOf(goals: readonly Goal[]): string[] {
  return [...new Set(goals.map((goal) => goal.direction))].sort((a, b) => a.localeCompare(b));
}

/** "Ivanov Ivan Ivanovich": how a business customer is named on the goal screens. */
export function employeeNameOf(employee: Pick<EmployeeRow, 'lastName' | 'firstName' | 'middleName'>): string {
  return [employee.lastName, employee.firstName, employee.middleName]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' ');
}

/** "Direction — scope", a goal's one-line title, from a goal or a stored body (untrusted: checked). */
export function goalTitleOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const { direction, scope } = value as Record<string, unknown>;
  return [direction, scope]
    .map((part) => (typeof part === 'string' ? part.trim() : ''))
    .filter((part) => part !== '')
    .join(' — ');
}
