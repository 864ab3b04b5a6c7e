// The dashboard (issue 13): the figures the owner and the heads look at to see whether improvement pays, as the
// main-service computes them for a period and a scope (`GET /companies/{companyId}/dashboard?from=&to=
// &departmentId=`), and as the device keeps the last answer for offline reading. Also who sees which scope, the
// period presets of the date picker, and the financial director's EBITDA entry. Pure, no I/O; shared by the
// server and the client.
//
// What it guarantees:
// - `dashboardScopeOf` is the one rule of who sees what: the company's leaders and finance see the whole company
//   (and may narrow it to any department); a head of departments sees only those; anyone else sees their own
//   department, or nothing when they have none.
// - Money is integer minor units per currency (never summed across currencies); ratios are basis points
//   (`ratioBasisPoints` of src/domain/registry.ts), null where the denominator is 0.
// - `periodPreset` gives calendar dates 'YYYY-MM-DD' (from and to both inclusive) of the month, quarter or year
//   holding `today`; `monthsOf` lists the 'YYYY-MM' months a period touches.

import { type Infer, array, enums, integer, nullable, number, object, optional, record, refine, string, type } from 'superstruct';
import { hasAnyRole, type MemberView } from './permissions';
import { GOAL_STATUSES } from './goal';
import { PROJECT_STATUSES } from './project';
import { CURRENCIES, Uuid } from './suggestion';
import { CalendarDate, isCalendarDate } from './validation';
import type { CompanyRole } from './auth';

/** Roles that see the whole company's dashboard (and may narrow it to any department). */
export const DASHBOARD_COMPANY_ROLES: readonly CompanyRole[] = [
  'OWNER',
  'CEO',
  'TOP_MANAGER',
  'FINANCIAL_DIRECTOR',
  'FINANCIAL_SPECIALIST',
  'DIRECTION_MANAGER',
];

export type DashboardScope =
  | { kind: 'company' }
  /** Only these departments (a head's; or the member's own). */
  | { kind: 'departments'; departmentIds: readonly string[] }
  | { kind: 'none' };

/** What `member` may see: the company, their headed departments, their own department, or nothing. */
export function dashboardScopeOf(member: MemberView, ownDepartmentId: string | null): DashboardScope {
  if (hasAnyRole(member.roles, DASHBOARD_COMPANY_ROLES)) return { kind: 'company' };
  if (member.headOfDepartmentIds.length > 0) return { kind: 'departments', departmentIds: [...member.headOfDepartmentIds] };
  if (ownDepartmentId !== null) return { kind: 'departments', departmentIds: [ownDepartmentId] };
  return { kind: 'none' };
}

/** The longest period one dashboard covers: 5 years (the effect-by-month chart has one bar group per month). */
export const DASHBOARD_MAX_DAYS = 5 * 366;

const dayNumber = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;

/**
 * Query of `GET /companies/{companyId}/dashboard`: `from` <= `to` (both inclusive), at most DASHBOARD_MAX_DAYS.
 * superstruct runs a refinement even when a field failed its own struct, so the period rule first makes sure both
 * dates are dates (those fields already carry their own `invalid`).
 */
export const DashboardQuery = refine(
  type({ from: CalendarDate, to: CalendarDate, departmentId: optional(Uuid) }),
  'period',
  (query) => {
    if (!isCalendarDate(query.from) || !isCalendarDate(query.to)) return true;
    const days = dayNumber(query.to) - dayNumber(query.from);
    return days >= 0 && days <= DASHBOARD_MAX_DAYS ? true : { path: ['to'], key: 'to', refinement: 'period', message: 'period' };
  },
);
export type DashboardQuery = Infer<typeof DashboardQuery>;

export const DASHBOARD_PRESETS = ['month', 'quarter', 'year'] as const;
export type DashboardPreset = (typeof DASHBOARD_PRESETS)[number];

const pad = (value: number): string => String(value).padStart(2, '0');
const lastDay = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The month, quarter or year holding `today` ('YYYY-MM-DD'), as from and to, both inclusive. */
export function periodPreset(preset: DashboardPreset, today: string): { from: string; to: string } {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const first = preset === 'month' ? month : preset === 'quarter' ? month - ((month - 1) % 3) : 1;
  const last = preset === 'month' ? month : preset === 'quarter' ? first + 2 : 12;
  return { from: `${year}-${pad(first)}-01`, to: `${year}-${pad(last)}-${pad(lastDay(year, last))}` };
}

/** The months ('YYYY-MM') from `from`'s month to `to`'s, in order. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7));
  const end = to.slice(0, 7);
  for (;;) {
    const current = `${year}-${pad(month)}`;
    if (current > end) return months;
    months.push(current);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// The answer.

/** Money figures of the period in one currency. */
export const DashboardMoney = type({
  currency: enums(CURRENCIES),
  /** Expected 12-month effect of the projects approved in the period. */
  expectedEffect12mMinor: integer(),
  /** Actual 12-month effect of the projects completed in the period. */
  actualEffect12mMinor: integer(),
  /** Costs of the projects approved in the period: the owner's final cost where an approved registry adjusted it. */
  costsMinor: integer(),
  /** expected effect / costs, basis points; null without costs. */
  efficiencyBasisPoints: nullable(integer()),
  /** The EBITDA entered for the period's months; null when none was entered. */
  ebitdaMinor: nullable(integer()),
  /** expected effect / EBITDA, basis points; null without (positive) EBITDA. */
  ebitdaShareBasisPoints: nullable(integer()),
  /** Remuneration of the projects approved in the period (the estimate). */
  estimatedRemunerationMinor: integer(),
  /** Remuneration in the registries the owner approved in the period (of record). */
  approvedRemunerationMinor: integer(),
});
export type DashboardMoney = Infer<typeof DashboardMoney>;

export const DashboardMonth = type({
  month: string(),
  currency: enums(CURRENCIES),
  expectedEffect12mMinor: integer(),
  actualEffect12mMinor: integer(),
});
export type DashboardMonth = Infer<typeof DashboardMonth>;

export const DashboardGoalIndicator = type({
  goalId: string(),
  direction: string(),
  status: enums(GOAL_STATUSES),
  targetValue: number(),
  unitId: string(),
  /** What the goal's projects achieved so far, as the goal page counts it (goalIndicatorProgress); null with no report yet. */
  achievedValue: nullable(number()),
  /** achieved / target, basis points (may pass 10000); null with no report or a target of 0. */
  progressBasisPoints: nullable(integer()),
});
export type DashboardGoalIndicator = Infer<typeof DashboardGoalIndicator>;

export const DashboardDepartmentInvolvement = type({
  departmentId: string(),
  name: string(),
  activeEmployees: integer(),
  involvedEmployees: integer(),
});

/**
 * The dashboard of one period and scope, as the server answers it and the device keeps it (with `computedAt`, the
 * date shown offline). Counts are of the scope (a department: its proposals, the projects of its proposals or
 * made in it, its employees).
 */
export const Dashboard = type({
  companyId: string(),
  /** The department narrowed to, null for the whole company. */
  departmentId: nullable(string()),
  from: string(),
  to: string(),
  computedAt: string(),
  money: array(DashboardMoney),
  effectByMonth: array(DashboardMonth),
  goals: type({
    /** Goals by state (every status present, 0 where none). */
    byStatus: record(string(), integer()),
    indicators: array(DashboardGoalIndicator),
  }),
  /** Projects by state (every status present, 0 where none): the projects created up to the period's end. */
  projects: type({ byStatus: record(string(), integer()) }),
  proposals: type({
    /** Submitted in the period. */
    submitted: integer(),
    /** Decided in the period. */
    approved: integer(),
    rejected: integer(),
    /** Still undecided past their due date (as of now), of those submitted in the period. */
    overdue: integer(),
    /** Median hours from submission to decision of those decided in the period; null when none was. */
    medianDecisionHours: nullable(number()),
  }),
  /** proposals submitted -> projects made of them -> approved -> completed (of the proposals submitted in the period). */
  funnel: type({ proposals: integer(), projects: integer(), approved: integer(), completed: integer() }),
  involvement: type({
    activeEmployees: integer(),
    /** Active employees who submitted a proposal in the period or are on the team of a project active in it. */
    involvedEmployees: integer(),
    shareBasisPoints: nullable(integer()),
    byDepartment: array(DashboardDepartmentInvolvement),
  }),
  /** Indicator reports: due in the period (not yet filed) and late (flagged overdue). */
  reports: type({ due: integer(), late: integer() }),
});
export type Dashboard = Infer<typeof Dashboard>;

/** The statuses every `byStatus` lists. */
export const DASHBOARD_GOAL_STATUSES = GOAL_STATUSES;
export const DASHBOARD_PROJECT_STATUSES = PROJECT_STATUSES;

// ---------------------------------------------------------------------------------------------------
// EBITDA, entered by the financial director per month and currency.

export const Month = refine(string(), 'invalid', (value) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value));

/** A signed amount in minor units (EBITDA may be negative). */
export const SignedMinorAmount = refine(integer(), 'invalid', (value) => Number.isSafeInteger(value));

/** Body of `PUT /companies/{companyId}/ebitda`: one month's EBITDA in one currency (null clears it). */
export const EbitdaInput = object({
  month: Month,
  currency: enums(CURRENCIES),
  amountMinor: nullable(SignedMinorAmount),
});
export type EbitdaInput = Infer<typeof EbitdaInput>;

export const EbitdaRow = type({ month: string(), currency: enums(CURRENCIES), amountMinor: integer(), updatedAt: string() });
export type EbitdaRow = Infer<typeof EbitdaRow>;
