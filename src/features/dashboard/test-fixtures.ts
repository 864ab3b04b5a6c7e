// A Dashboard answer with known figures, for the dashboard's tests (never imported by the app).
import type { Dashboard } from '../../domain/dashboard';

export const COMPANY = '00000000-0000-4000-8000-0000000000c1';
export const PRODUCTION = '00000000-0000-4000-8000-0000000000d1';
export const LOGISTICS = '00000000-0000-4000-8000-0000000000d2';
export const GOAL = '00000000-0000-4000-8000-0000000000b1';

/** The year 2026 of the whole company: two currencies, two departments, one goal with a report. */
export function dashboardOf(fields: Partial<Dashboard> = {}): Dashboard {
  return {
    companyId: COMPANY,
    departmentId: null,
    from: '2026-01-01',
    to: '2026-12-31',
    computedAt: '2026-03-15T09:30:00.000Z',
    money: [
      {
        currency: 'RUB',
        expectedEffect12mMinor: 125_000_050,
        actualEffect12mMinor: 30_000_000,
        costsMinor: 50_000_000,
        efficiencyBasisPoints: 25_000,
        ebitdaMinor: 1_000_000_000,
        ebitdaShareBasisPoints: 1_250,
        estimatedRemunerationMinor: 12_500_005,
        approvedRemunerationMinor: 4_000_000,
      },
      {
        currency: 'USD',
        expectedEffect12mMinor: 1_000_000,
        actualEffect12mMinor: 0,
        costsMinor: 0,
        efficiencyBasisPoints: null,
        ebitdaMinor: null,
        ebitdaShareBasisPoints: null,
        estimatedRemunerationMinor: 100_000,
        approvedRemunerationMinor: 0,
      },
    ],
    effectByMonth: [
      { month: '2026-01', currency: 'RUB', expectedEffect12mMinor: 100_000_000, actualEffect12mMinor: 0 },
      { month: '2026-02', currency: 'RUB', expectedEffect12mMinor: 25_000_050, actualEffect12mMinor: 30_000_000 },
      { month: '2026-01', currency: 'USD', expectedEffect12mMinor: 1_000_000, actualEffect12mMinor: 0 },
      { month: '2026-02', currency: 'USD', expectedEffect12mMinor: 0, actualEffect12mMinor: 0 },
    ],
    goals: {
      byStatus: { NEW: 1, TO_WORK: 2, CLARIFICATION: 0, APPROVED: 3 },
      indicators: [
        { goalId: GOAL, direction: '=Снижение простоев', status: 'APPROVED', targetValue: 120, unitId: 'MINUTES', achievedValue: 30, progressBasisPoints: 2_500 },
      ],
    },
    projects: { byStatus: { NEW: 1, CALCULATING: 1, CALCULATED: 0, APPROVED: 2, FOR_REVISION: 0, COMPLETED: 1 } },
    proposals: { submitted: 40, approved: 12, rejected: 5, overdue: 3, medianDecisionHours: 60 },
    funnel: { proposals: 40, projects: 8, approved: 3, completed: 1 },
    involvement: {
      activeEmployees: 50,
      involvedEmployees: 20,
      shareBasisPoints: 4_000,
      byDepartment: [
        { departmentId: LOGISTICS, name: 'Логистика', activeEmployees: 20, involvedEmployees: 5 },
        { departmentId: PRODUCTION, name: '+Производство', activeEmployees: 30, involvedEmployees: 15 },
      ],
    },
    reports: { due: 4, late: 2 },
    ...fields,
  };
}
