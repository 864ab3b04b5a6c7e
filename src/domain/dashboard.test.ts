import { describe, expect, it } from 'vitest';
import { DashboardQuery, dashboardScopeOf, monthsOf, periodPreset } from './dashboard';
import type { CompanyRole } from './auth';
import { validate } from './validation';

describe('DashboardQuery', () => {
  it('takes a period of at most five years, to not before from', () => {
    expect(validate(DashboardQuery, { from: '2026-01-01', to: '2026-12-31' }).ok).toBe(true);
    expect(validate(DashboardQuery, { from: '2026-01-01', to: '2026-01-01' }).ok).toBe(true);
    expect(validate(DashboardQuery, { from: '2026-02-01', to: '2026-01-31' })).toEqual({ ok: false, errors: { to: 'period' } });
    expect(validate(DashboardQuery, { from: '2020-01-01', to: '2026-01-01' })).toEqual({ ok: false, errors: { to: 'period' } });
  });

  it('refuses malformed fields as field errors, never by throwing', () => {
    for (const query of [{ departmentId: 'csv' }, { from: 5, to: null }, { from: '2026-13-01', to: '2026-01-01' }]) {
      expect(() => validate(DashboardQuery, query)).not.toThrow();
      expect(validate(DashboardQuery, query).ok).toBe(false);
    }
  });
});

describe('periods', () => {
  it('gives the month, quarter and year holding a day', () => {
    expect(periodPreset('month', '2026-02-14')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(periodPreset('month', '2028-02-14')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(periodPreset('quarter', '2026-11-24')).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(periodPreset('year', '2026-11-24')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });

  it('lists the months a period touches, across a year end', () => {
    expect(monthsOf('2025-11-30', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsOf('2026-03-05', '2026-03-06')).toEqual(['2026-03']);
  });
});

describe('dashboardScopeOf', () => {
  const member = (roles: CompanyRole[], headOf: string[] = []) => ({ userId: 'u', roles, headOfDepartmentIds: headOf });
  it('gives leaders and finance the company, heads their departments, others their own department or nothing', () => {
    expect(dashboardScopeOf(member(['OWNER']), null)).toEqual({ kind: 'company' });
    expect(dashboardScopeOf(member(['FINANCIAL_SPECIALIST']), 'd1')).toEqual({ kind: 'company' });
    expect(dashboardScopeOf(member(['EMPLOYEE'], ['d2', 'd3']), 'd1')).toEqual({ kind: 'departments', departmentIds: ['d2', 'd3'] });
    expect(dashboardScopeOf(member(['EMPLOYEE']), 'd1')).toEqual({ kind: 'departments', departmentIds: ['d1'] });
    expect(dashboardScopeOf(member(['HR']), null)).toEqual({ kind: 'none' });
  });
});
