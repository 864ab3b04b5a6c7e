import { describe, expect, it } from 'vitest';
import type { DashboardScope } from '../../domain/dashboard';
import { allowedDepartmentId, choosableDepartmentIds, queryFromView, queryOf, viewFromQuery } from './period';
import { recentMonths } from './components/ebitda-form';
import { LOGISTICS, PRODUCTION } from './test-fixtures';

const TODAY = '2026-05-14';
const company: DashboardScope = { kind: 'company' };
const headOfTwo: DashboardScope = { kind: 'departments', departmentIds: [PRODUCTION, LOGISTICS] };
const headOfOne: DashboardScope = { kind: 'departments', departmentIds: [PRODUCTION] };
const none: DashboardScope = { kind: 'none' };

describe('the period and department in the URL', () => {
  it('defaults to this year of the device, and reads back what it writes', () => {
    expect(viewFromQuery('', TODAY)).toEqual({ from: '2026-01-01', to: '2026-12-31', departmentId: null });
    const view = { from: '2026-04-01', to: '2026-06-30', departmentId: PRODUCTION };
    expect(queryFromView(view)).toBe(`?from=2026-04-01&to=2026-06-30&departmentId=${PRODUCTION}`);
    expect(viewFromQuery(queryFromView(view).slice(1), TODAY)).toEqual(view);
  });

  it('falls back to this year for a period the server would refuse, and drops a department id that is no UUID', () => {
    expect(viewFromQuery('from=2026-06-01&to=2026-01-01', TODAY)).toMatchObject({ from: '2026-01-01', to: '2026-12-31' });
    expect(viewFromQuery('from=2015-01-01&to=2026-01-01', TODAY)).toMatchObject({ from: '2026-01-01', to: '2026-12-31' });
    expect(viewFromQuery('from=2026-02-30&to=2026-03-01', TODAY)).toMatchObject({ from: '2026-01-01' });
    expect(viewFromQuery('from=2026-02-01&to=2026-02-28&departmentId=<script>', TODAY)).toEqual({ from: '2026-02-01', to: '2026-02-28', departmentId: null });
  });

  it('offers whole-company viewers every department, a head of several theirs, and nobody else a choice', () => {
    expect(choosableDepartmentIds(company, [LOGISTICS, PRODUCTION])).toEqual([LOGISTICS, PRODUCTION]);
    expect(choosableDepartmentIds(headOfTwo, [LOGISTICS, PRODUCTION])).toEqual([PRODUCTION, LOGISTICS]);
    expect(choosableDepartmentIds(headOfOne, [LOGISTICS, PRODUCTION])).toBeNull();
    expect(choosableDepartmentIds(none, [LOGISTICS])).toBeNull();
    expect(choosableDepartmentIds(undefined, [LOGISTICS])).toBeNull();
  });

  it('asks for a department only when the scope lets the viewer choose it', () => {
    expect(allowedDepartmentId(PRODUCTION, company)).toBe(PRODUCTION);
    expect(allowedDepartmentId(LOGISTICS, headOfTwo)).toBe(LOGISTICS);
    const elsewhere = '00000000-0000-4000-8000-0000000000d9';
    expect(allowedDepartmentId(elsewhere, headOfTwo)).toBeNull();
    expect(allowedDepartmentId(PRODUCTION, headOfOne)).toBeNull();
    expect(allowedDepartmentId(PRODUCTION, none)).toBeNull();
    expect(queryOf({ from: '2026-01-01', to: '2026-03-31', departmentId: elsewhere }, headOfTwo)).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(queryOf({ from: '2026-01-01', to: '2026-03-31', departmentId: PRODUCTION }, company)).toEqual({ from: '2026-01-01', to: '2026-03-31', departmentId: PRODUCTION });
  });

  it('lists the EBITDA months up to this one, newest first, across a year', () => {
    expect(recentMonths('2026-02-10', 4)).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
  });
});
