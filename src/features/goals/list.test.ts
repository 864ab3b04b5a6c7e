import { describe, expect, it } from 'vitest';
import { directionsOf, filterGoals, goalFiltersFromQuery, goalTitleOf, queryFromGoalFilters, NO_GOAL_FILTERS } from './list';
import { goalRow } from '../../../tests/fixtures/rows';

const goals = [
  goalRow('g3', { direction: 'Логистика', scope: 'Склад', endDate: '2026-10-01', status: 'TO_WORK', businessCustomerEmployeeId: 'e2', process: 'Приёмка' }),
  goalRow('g1', { direction: 'Производство', scope: 'Переналадка', endDate: '2026-12-31', status: 'NEW', description: 'Ёмкости для оснастки' }),
  goalRow('g2', { direction: 'Производство', scope: 'Брак', endDate: '2026-06-30', status: 'APPROVED' }),
];

describe('the goals list filters', () => {
  it('read back from the URL what they wrote there', () => {
    const filters = { status: 'TO_WORK' as const, direction: 'Логистика', businessCustomerEmployeeId: 'e2', query: 'склад' };
    expect(goalFiltersFromQuery(queryFromGoalFilters(filters))).toEqual(filters);
    expect(queryFromGoalFilters(NO_GOAL_FILTERS)).toBe('');
  });

  it('ignore an unknown status and empty values', () => {
    expect(goalFiltersFromQuery('?status=DONE&direction=&customer=%20&q=')).toEqual(NO_GOAL_FILTERS);
  });

  it('order the goals by end date, then id', () => {
    expect(filterGoals(goals, NO_GOAL_FILTERS).map((goal) => goal.id)).toEqual(['g2', 'g3', 'g1']);
  });

  it.each([
    ['status', { status: 'APPROVED' as const }, ['g2']],
    ['direction (exact)', { direction: 'Производство' }, ['g2', 'g1']],
    ['business customer', { businessCustomerEmployeeId: 'e2' }, ['g3']],
    ['search over the process, case-insensitive', { query: 'ПРИЁМ' }, ['g3']],
    ['search reading ё as е', { query: 'емкости' }, ['g1']],
    ['every filter at once', { direction: 'Производство', status: 'NEW' as const, query: 'перенал' }, ['g1']],
  ])('filter by %s', (_case, changes, ids) => {
    expect(filterGoals(goals, { ...NO_GOAL_FILTERS, ...changes }).map((goal) => goal.id)).toEqual(ids);
  });

  it('offer each direction once, in order', () => {
    expect(directionsOf(goals)).toEqual(['Логистика', 'Производство']);
  });

  it('title a goal by its direction and scope, whatever is stored', () => {
    expect(goalTitleOf(goals[0])).toBe('Логистика — Склад');
    expect(goalTitleOf({ direction: 'Склад', scope: 3 })).toBe('Склад');
    expect(goalTitleOf(null)).toBe('');
  });
});
