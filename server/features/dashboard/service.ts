// The dashboard (docs/api.md, "Dashboard"): `GET /companies/{companyId}/dashboard?from=&to=&departmentId=`, the
// figures of a period for the caller's scope, computed by the database on every call (nothing is cached on the
// server; the device keeps the last answer for offline reading).
//
// What it guarantees:
// - Scope (dashboardScopeOf of src/domain/dashboard.ts, the caller's own department being their employee row's):
//   the company's leaders see the whole company and may narrow it to any department of the company (another
//   company's or an unknown department: 400 `departmentId: invalid`); a head sees their departments together or
//   one of them; any other member sees their own department; a department outside the scope is 403
//   `dashboard.department`, no scope at all 403 `dashboard.noScope`. `departmentId` in the answer is the one
//   department the figures are of, null when they are not of one department (the whole company, or a head's
//   several departments together).
//   What a department's scope holds: proposals by `suggestions.department_id`, projects by `projects.department_id`,
//   employees by their department, items of approved registries by their `departmentId`.
// - Period: `from`..`to`, calendar dates, both inclusive, read in UTC: an instant (approved_at, created_at,
//   decided_at) is in the period when from 00:00 UTC <= it < the day after `to` 00:00 UTC; a calendar date
//   (actual completion, next report due) when from <= it <= to; a month when it is one of monthsOf(from, to).
// - The figures, exactly (money in integer minor units per currency, sums exact, never across currencies):
//   - money, per currency, in CURRENCIES order, a currency listed when any of its figures is not 0 or it has
//     EBITDA entered:
//     expectedEffect12mMinor: the expected 12-month effect of the projects approved (approved_at) in the period;
//     actualEffect12mMinor: the actual 12-month effect of the projects completed (actual_completion_date) in it;
//     costsMinor: the final costs of the projects approved in the period: the owner's adjusted cost of an
//       APPROVED registry holding the project (its item's finalCostMinor, else the item's estimated costs), the
//       project's own estimated costs otherwise (not sent, or only SENT);
//     efficiencyBasisPoints: ratioBasisPoints(expected, costs) (null without costs);
//     ebitdaMinor: the EBITDA entered for the period's months, company-wide even for a department (null when none);
//     ebitdaShareBasisPoints: ratioBasisPoints(expected, EBITDA) when EBITDA > 0, else null;
//     estimatedRemunerationMinor: remunerationOf (src/domain/money.ts: min(floor(effect x bp / 10000), cap)) of
//       each project approved in the period, summed;
//     approvedRemunerationMinor: the items' remuneration of the registries the owner APPROVED (decided_at) in it.
//   - effectByMonth: every month of the period x every currency of `money`: the expected effect by approval month,
//     the actual effect by completion month (UTC).
//   - goals: byStatus (every goal status): the company's goals, or for a department the goals its proposals
//     (goal_id) or its projects (goal_ids) serve, whatever their dates; indicators: those goals with their target,
//     unit and progress as the goal page shows it (goalIndicatorProgress of src/domain/project.ts over ALL the
//     goal's projects: the improvement of each project's latest report over its baseline, in the goal's unit),
//     achievedValue null while no project has reported, progressBasisPoints = achieved / target rounded to the
//     nearest basis point (null with no report or a target of 0); ordered by direction.
//   - projects.byStatus (every project status): the scope's projects created on or before `to`.
//   - proposals: submitted = created in the period; approved / rejected = decided (decided_at, status APPROVED /
//     REJECTED) in the period, whenever submitted; overdue = of those submitted in the period, the ones still
//     UNDER_CONSIDERATION past their due date now (a proposal waiting on its author's clarification is not);
//     medianDecisionHours = median of decided_at - created_at in hours of those decided in the period (to 0.01 h).
//   - funnel: of the proposals submitted in the period: how many, how many became a project, how many of those
//     projects are APPROVED or COMPLETED, how many COMPLETED.
//   - involvement: activeEmployees = the scope's active employees; involvedEmployees = those of them who authored
//     a proposal (any department's) created in the period, or manage or are on the team of a project (any
//     department's) active in the period (created on or before `to`, not completed before `from`);
//     shareBasisPoints = ratioBasisPoints(involved, active); byDepartment: every department of the scope by name.
//   - reports: due = the scope's projects whose next report is due in the period and not flagged overdue;
//     late = the scope's projects flagged overdue (now).
// - Read-only, every figure of one snapshot (one REPEATABLE READ transaction); `computedAt` is the request's now (the
//   server clock).

import { sql, type RawBuilder } from 'kysely';
import {
  DASHBOARD_GOAL_STATUSES,
  DASHBOARD_PROJECT_STATUSES,
  dashboardScopeOf,
  monthsOf,
  type Dashboard,
  type DashboardGoalIndicator,
  type DashboardMoney,
  type DashboardMonth,
  type DashboardQuery,
} from '../../../src/domain/dashboard';
import { BASIS_POINTS_PER_WHOLE } from '../../../src/domain/money';
import { goalIndicatorProgress, type ProjectIndicatorReport, type ProjectMetric } from '../../../src/domain/project';
import { ratioBasisPoints } from '../../../src/domain/registry';
import { CURRENCIES, type Currency } from '../../../src/domain/suggestion';
import type { Membership } from '../../auth/access';
import type { Database, Queryable } from '../../db/database';
import { AppError } from '../../errors';

// ---------------------------------------------------------------------------------------------------
// Scope.

/** What the figures are of: `departmentIds` null for the whole company; `departmentId` as the answer names it. */
export interface DashboardFilter {
  departmentIds: readonly string[] | null;
  departmentId: string | null;
}

/** The department of the caller's employee row in the company (null without one). */
async function ownDepartmentOf(db: Queryable, member: Membership): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('employees')
    .select('department_id')
    .where('company_id', '=', member.companyId)
    .where('user_id', '=', member.userId)
    .executeTakeFirst();
  return row?.department_id ?? null;
}

async function isCompanyDepartment(db: Queryable, companyId: string, departmentId: string): Promise<boolean> {
  const row = await db.kysely.selectFrom('departments').select('id').where('company_id', '=', companyId).where('id', '=', departmentId).executeTakeFirst();
  return row !== undefined;
}

/** The caller's scope narrowed to `requested` (a lower-case id) when given; refusals as the header says. */
export async function dashboardFilterOf(db: Queryable, member: Membership, requested: string | undefined): Promise<DashboardFilter> {
  const scope = dashboardScopeOf(member, await ownDepartmentOf(db, member));
  if (scope.kind === 'none') throw new AppError('dashboard.noScope', 403);
  if (scope.kind === 'company') {
    if (requested === undefined) return { departmentIds: null, departmentId: null };
    if (!(await isCompanyDepartment(db, member.companyId, requested))) throw new AppError('validation', 400, { fieldErrors: { departmentId: 'invalid' } });
    return { departmentIds: [requested], departmentId: requested };
  }
  if (requested !== undefined) {
    if (!scope.departmentIds.includes(requested)) throw new AppError('dashboard.department', 403);
    return { departmentIds: [requested], departmentId: requested };
  }
  const only = scope.departmentIds.length === 1 ? (scope.departmentIds[0] ?? null) : null;
  return { departmentIds: [...scope.departmentIds], departmentId: only };
}

// ---------------------------------------------------------------------------------------------------
// SQL pieces.

interface Span {
  companyId: string;
  from: string;
  to: string;
  /** from 00:00 UTC, and the day after `to` 00:00 UTC (exclusive). */
  start: () => RawBuilder<Date>;
  end: () => RawBuilder<Date>;
  departmentIds: readonly string[] | null;
  now: Date;
}

function spanOf(companyId: string, query: { from: string; to: string }, filter: DashboardFilter, now: Date): Span {
  return {
    companyId,
    from: query.from,
    to: query.to,
    // Built in SQL from the calendar dates, whatever the session's time zone.
    start: () => sql<Date>`((${query.from}::date)::timestamp AT TIME ZONE 'UTC')`,
    end: () => sql<Date>`(((${query.to}::date) + 1)::timestamp AT TIME ZONE 'UTC')`,
    departmentIds: filter.departmentIds,
    now,
  };
}

/** `column` in the scope's departments (always true for the whole company). */
function inScope(w: Span, column: RawBuilder<unknown>): RawBuilder<boolean> {
  return w.departmentIds === null ? sql<boolean>`true` : sql<boolean>`${column} = ANY(${[...w.departmentIds]}::uuid[])`;
}

/** A registry item's department (jsonb text) in the scope's departments. */
function itemInScope(w: Span): RawBuilder<boolean> {
  return w.departmentIds === null ? sql<boolean>`true` : sql<boolean>`(item ->> 'departmentId') = ANY(${[...w.departmentIds]}::text[])`;
}

/** An instant column in the period. */
function instantIn(w: Span, column: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${column} >= ${w.start()} AND ${column} < ${w.end()})`;
}

/** A 'YYYY-MM-DD' text column in the period (byte order: the dates' own). */
function dateIn(w: Span, column: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${column} COLLATE "C" BETWEEN ${w.from} AND ${w.to})`;
}

const ref = (name: string) => sql.ref(name);

/** A sum or count as the database answers it (numeric and bigint come as text), as a safe integer. */
function integerOf(value: string | number | null | undefined): number {
  const number = Number(value ?? 0);
  if (!Number.isSafeInteger(number)) throw new RangeError(`a dashboard figure beyond 2^53: ${String(value)}`);
  return number;
}

// ---------------------------------------------------------------------------------------------------
// Money.

interface ProjectMoneyRow {
  kind: 'approved' | 'completed';
  currency: Currency;
  month: string;
  expected: string;
  costs: string;
  remuneration: string;
  actual: string;
}

/**
 * Per currency and month: the projects approved in the period (effect, final costs, remuneration) and those
 * completed in it (actual effect). The final cost of a project in an APPROVED registry is its item's; the
 * remuneration is remunerationOf's formula in exact numeric arithmetic (floor of a non-negative quotient, then the
 * cap; LEAST ignores a null cap), 0 for a project without an expected effect.
 */
function projectMoney(db: Queryable, w: Span): Promise<ProjectMoneyRow[]> {
  const scope = inScope(w, ref('p.department_id'));
  // The final costs come from the items of the approved registries holding the period's projects, each registry's
  // items read once (a lateral lookup per project would read a registry's whole item list again for each of them).
  return sql<ProjectMoneyRow>`
    WITH approved AS (
      SELECT p.id, p.registry_id, p.currency, p.approved_at, p.estimated_costs_minor, p.expected_effect_12m_minor, p.profit_basis_points,
             p.max_per_project_minor
        FROM projects p
       WHERE p.company_id = ${w.companyId} AND ${instantIn(w, ref('p.approved_at'))} AND ${scope}
    ), final_costs AS (
      SELECT r.id AS registry_id, item ->> 'projectId' AS project_id,
             coalesce((item ->> 'finalCostMinor')::bigint, (item ->> 'estimatedCostsMinor')::bigint) AS final_cost
        FROM registries r CROSS JOIN LATERAL jsonb_array_elements(r.items) AS item
       WHERE r.company_id = ${w.companyId} AND r.status = 'APPROVED' AND r.id IN (SELECT registry_id FROM approved)
    )
    SELECT 'approved' AS kind, a.currency, to_char(a.approved_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
           coalesce(sum(a.expected_effect_12m_minor), 0)::text AS expected,
           coalesce(sum(coalesce(fc.final_cost, a.estimated_costs_minor)), 0)::text AS costs,
           coalesce(sum(CASE WHEN a.expected_effect_12m_minor IS NOT NULL
             THEN least(div(a.expected_effect_12m_minor::numeric * a.profit_basis_points, ${BASIS_POINTS_PER_WHOLE}), a.max_per_project_minor) END), 0)::text AS remuneration,
           '0' AS actual
      FROM approved a
      LEFT JOIN final_costs fc ON fc.registry_id = a.registry_id AND fc.project_id = a.id::text
     GROUP BY 2, 3
    UNION ALL
    SELECT 'completed', p.currency, substr(p.actual_completion_date, 1, 7), '0', '0', '0', coalesce(sum(p.actual_effect_12m_minor), 0)::text
      FROM projects p
     WHERE p.company_id = ${w.companyId} AND ${dateIn(w, ref('p.actual_completion_date'))} AND ${scope}
     GROUP BY 2, 3`
    .execute(db.kysely)
    .then((result) => result.rows);
}

/** The remuneration of the items of the registries approved in the period, per currency. */
function approvedRemuneration(db: Queryable, w: Span): Promise<{ currency: Currency; remuneration: string }[]> {
  return sql<{ currency: Currency; remuneration: string }>`
    SELECT item ->> 'currency' AS currency, coalesce(sum((item ->> 'remunerationMinor')::bigint), 0)::text AS remuneration
      FROM registries r CROSS JOIN LATERAL jsonb_array_elements(r.items) AS item
     WHERE r.company_id = ${w.companyId} AND r.status = 'APPROVED' AND ${instantIn(w, ref('r.decided_at'))} AND ${itemInScope(w)}
     GROUP BY 1`
    .execute(db.kysely)
    .then((result) => result.rows);
}

/** The EBITDA of the period's months, per currency (company-wide). */
function ebitdaOf(db: Queryable, w: Span): Promise<{ currency: Currency; amount: string }[]> {
  return sql<{ currency: Currency; amount: string }>`
    SELECT currency, sum(amount_minor)::text AS amount
      FROM company_ebitda
     WHERE company_id = ${w.companyId} AND month COLLATE "C" BETWEEN ${w.from.slice(0, 7)} AND ${w.to.slice(0, 7)}
     GROUP BY currency`
    .execute(db.kysely)
    .then((result) => result.rows);
}

interface MoneySums {
  expected: bigint;
  actual: bigint;
  costs: bigint;
  remuneration: bigint;
  approvedRemuneration: bigint;
  ebitda: bigint | null;
}

const safe = (value: bigint): number => integerOf(value.toString());

/** `money` and `effectByMonth` from the rows of the three queries above. */
function moneyFigures(
  months: readonly string[],
  projects: readonly ProjectMoneyRow[],
  registries: readonly { currency: Currency; remuneration: string }[],
  ebitda: readonly { currency: Currency; amount: string }[],
): { money: DashboardMoney[]; effectByMonth: DashboardMonth[] } {
  const sums = new Map<Currency, MoneySums>();
  const sumOf = (currency: Currency): MoneySums => {
    let sum = sums.get(currency);
    if (!sum) {
      sum = { expected: 0n, actual: 0n, costs: 0n, remuneration: 0n, approvedRemuneration: 0n, ebitda: null };
      sums.set(currency, sum);
    }
    return sum;
  };
  const byMonth = new Map<string, { expected: bigint; actual: bigint }>();
  for (const row of projects) {
    const sum = sumOf(row.currency);
    sum.expected += BigInt(row.expected);
    sum.actual += BigInt(row.actual);
    sum.costs += BigInt(row.costs);
    sum.remuneration += BigInt(row.remuneration);
    const key = `${row.month}|${row.currency}`;
    const month = byMonth.get(key) ?? { expected: 0n, actual: 0n };
    month.expected += BigInt(row.expected);
    month.actual += BigInt(row.actual);
    byMonth.set(key, month);
  }
  for (const row of registries) sumOf(row.currency).approvedRemuneration += BigInt(row.remuneration);
  for (const row of ebitda) sumOf(row.currency).ebitda = BigInt(row.amount);

  const money = CURRENCIES.flatMap((currency): DashboardMoney[] => {
    const sum = sums.get(currency);
    if (!sum) return [];
    const figures = [sum.expected, sum.actual, sum.costs, sum.remuneration, sum.approvedRemuneration];
    if (sum.ebitda === null && figures.every((figure) => figure === 0n)) return [];
    const expected = safe(sum.expected);
    const costs = safe(sum.costs);
    const ebitda = sum.ebitda === null ? null : safe(sum.ebitda);
    return [
      {
        currency,
        expectedEffect12mMinor: expected,
        actualEffect12mMinor: safe(sum.actual),
        costsMinor: costs,
        efficiencyBasisPoints: ratioBasisPoints(expected, costs),
        ebitdaMinor: ebitda,
        ebitdaShareBasisPoints: ebitda !== null && ebitda > 0 ? ratioBasisPoints(expected, ebitda) : null,
        estimatedRemunerationMinor: safe(sum.remuneration),
        approvedRemunerationMinor: safe(sum.approvedRemuneration),
      },
    ];
  });
  const effectByMonth = months.flatMap((month) =>
    money.map(({ currency }) => {
      const figures = byMonth.get(`${month}|${currency}`);
      return { month, currency, expectedEffect12mMinor: safe(figures?.expected ?? 0n), actualEffect12mMinor: safe(figures?.actual ?? 0n) };
    }),
  );
  return { money, effectByMonth };
}

// ---------------------------------------------------------------------------------------------------
// Goals.

interface GoalRow {
  id: string;
  direction: string;
  status: Dashboard['goals']['indicators'][number]['status'];
  indicator_value: number;
  indicator_unit: string;
}

/** The company's goals, or the goals the scope's proposals and projects serve. */
function scopeGoals(db: Queryable, w: Span): Promise<GoalRow[]> {
  const served =
    w.departmentIds === null
      ? sql<boolean>`true`
      : sql<boolean>`(g.id IN (SELECT s.goal_id FROM suggestions s WHERE s.company_id = g.company_id AND s.goal_id IS NOT NULL AND ${inScope(w, ref('s.department_id'))})
          OR g.id IN (SELECT unnest(p.goal_ids) FROM projects p WHERE p.company_id = g.company_id AND ${inScope(w, ref('p.department_id'))}))`;
  return sql<GoalRow>`
    SELECT g.id, g.direction, g.status, g.indicator_value, g.indicator_unit
      FROM goals g
     WHERE g.company_id = ${w.companyId} AND ${served}`
    .execute(db.kysely)
    .then((result) => result.rows);
}

interface GoalProjectRow {
  goal_ids: string[];
  baseline_metric: ProjectMetric;
  report: ProjectIndicatorReport;
}

/**
 * The projects of `goalIds` (any department's) that have a baseline and a report, each with its latest report only
 * (latest as goalIndicatorProgress picks it: by date, then by filing time, the first of a full tie), so a long
 * report history never leaves the database.
 */
async function goalProjects(db: Queryable, companyId: string, goalIds: readonly string[]): Promise<GoalProjectRow[]> {
  if (goalIds.length === 0) return [];
  const result = await sql<GoalProjectRow>`
    SELECT p.goal_ids, p.baseline_metric, latest.report
      FROM projects p
      CROSS JOIN LATERAL (
        SELECT r.value AS report
          FROM jsonb_array_elements(p.indicator_reports) WITH ORDINALITY AS r (value, position)
         ORDER BY r.value ->> 'date' COLLATE "C" DESC, r.value ->> 'at' COLLATE "C" DESC, r.position
         LIMIT 1
      ) latest
     WHERE p.company_id = ${companyId} AND p.goal_ids && ${[...goalIds]}::uuid[] AND p.baseline_metric IS NOT NULL`.execute(db.kysely);
  return result.rows;
}

function progressOf(goal: GoalRow, projects: readonly GoalProjectRow[]): Pick<DashboardGoalIndicator, 'achievedValue' | 'progressBasisPoints'> {
  const own = projects.filter((project) => project.goal_ids.includes(goal.id)).map((project) => ({ baselineMetric: project.baseline_metric, indicatorReports: [project.report] }));
  const progress = goalIndicatorProgress({ indicator: { value: goal.indicator_value, unitId: goal.indicator_unit } }, own);
  if (progress.reportingProjects === 0) return { achievedValue: null, progressBasisPoints: null };
  return { achievedValue: progress.achieved, progressBasisPoints: progress.share === null ? null : Math.round(progress.share * BASIS_POINTS_PER_WHOLE) };
}

async function goalFigures(db: Queryable, w: Span): Promise<Dashboard['goals']> {
  const goals = await scopeGoals(db, w);
  const projects = await goalProjects(
    db,
    w.companyId,
    goals.map((goal) => goal.id),
  );
  const byStatus: Record<string, number> = Object.fromEntries(DASHBOARD_GOAL_STATUSES.map((status) => [status, 0]));
  for (const goal of goals) byStatus[goal.status] = (byStatus[goal.status] ?? 0) + 1;
  const indicators = goals
    .map((goal) => ({
      goalId: goal.id,
      direction: goal.direction,
      status: goal.status,
      targetValue: goal.indicator_value,
      unitId: goal.indicator_unit,
      ...progressOf(goal, projects),
    }))
    .sort((a, b) => a.direction.localeCompare(b.direction, 'ru') || (a.goalId < b.goalId ? -1 : a.goalId > b.goalId ? 1 : 0));
  return { byStatus, indicators };
}

// ---------------------------------------------------------------------------------------------------
// Projects and their reports.

async function projectFigures(db: Queryable, w: Span): Promise<{ projects: Dashboard['projects']; reports: Dashboard['reports'] }> {
  const result = await sql<{ status: string; created: string; due: string; late: string }>`
    SELECT p.status,
           count(*) FILTER (WHERE p.created_at < ${w.end()})::text AS created,
           count(*) FILTER (WHERE p.report_overdue_at IS NULL AND ${dateIn(w, ref('p.next_report_due'))})::text AS due,
           count(*) FILTER (WHERE p.report_overdue_at IS NOT NULL)::text AS late
      FROM projects p
     WHERE p.company_id = ${w.companyId} AND ${inScope(w, ref('p.department_id'))}
     GROUP BY p.status`.execute(db.kysely);
  const byStatus: Record<string, number> = Object.fromEntries(DASHBOARD_PROJECT_STATUSES.map((status) => [status, 0]));
  let due = 0;
  let late = 0;
  for (const row of result.rows) {
    byStatus[row.status] = integerOf(row.created);
    due += integerOf(row.due);
    late += integerOf(row.late);
  }
  return { projects: { byStatus }, reports: { due, late } };
}

// ---------------------------------------------------------------------------------------------------
// Proposals and the funnel.

async function submittedFigures(db: Queryable, w: Span): Promise<{ submitted: number; overdue: number; funnel: Dashboard['funnel'] }> {
  const result = await sql<{ submitted: string; overdue: string; projects: string; approved: string; completed: string }>`
    SELECT count(*)::text AS submitted,
           count(*) FILTER (WHERE s.status = 'UNDER_CONSIDERATION' AND s.due_at < ${w.now})::text AS overdue,
           count(p.id)::text AS projects,
           count(p.id) FILTER (WHERE p.status IN ('APPROVED', 'COMPLETED'))::text AS approved,
           count(p.id) FILTER (WHERE p.status = 'COMPLETED')::text AS completed
      FROM suggestions s
      LEFT JOIN projects p ON p.company_id = s.company_id AND p.suggestion_id = s.id
     WHERE s.company_id = ${w.companyId} AND ${instantIn(w, ref('s.created_at'))} AND ${inScope(w, ref('s.department_id'))}`.execute(db.kysely);
  const row = result.rows[0];
  return {
    submitted: integerOf(row?.submitted),
    overdue: integerOf(row?.overdue),
    funnel: { proposals: integerOf(row?.submitted), projects: integerOf(row?.projects), approved: integerOf(row?.approved), completed: integerOf(row?.completed) },
  };
}

async function decidedFigures(db: Queryable, w: Span): Promise<{ approved: number; rejected: number; medianDecisionHours: number | null }> {
  const result = await sql<{ approved: string; rejected: string; median_hours: number | null }>`
    SELECT count(*) FILTER (WHERE s.status = 'APPROVED')::text AS approved,
           count(*) FILTER (WHERE s.status = 'REJECTED')::text AS rejected,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM s.decided_at - s.created_at)::float8 / 3600) AS median_hours
      FROM suggestions s
     WHERE s.company_id = ${w.companyId} AND s.status IN ('APPROVED', 'REJECTED') AND ${instantIn(w, ref('s.decided_at'))}
       AND ${inScope(w, ref('s.department_id'))}`.execute(db.kysely);
  const row = result.rows[0];
  const median = row?.median_hours ?? null;
  return {
    approved: integerOf(row?.approved),
    rejected: integerOf(row?.rejected),
    medianDecisionHours: median === null ? null : Math.round(Number(median) * 100) / 100,
  };
}

// ---------------------------------------------------------------------------------------------------
// Involvement.

async function involvementFigures(db: Queryable, w: Span): Promise<Dashboard['involvement']> {
  const activeProject = sql<boolean>`p.company_id = ${w.companyId} AND p.created_at < ${w.end()}
    AND (p.actual_completion_date IS NULL OR p.actual_completion_date COLLATE "C" >= ${w.from})`;
  // The involved employees of the whole company (team members, managers, authors) as one set of ids, then joined
  // to the scope's active employees: one pass over each table, not a lookup per employee.
  const counts = await sql<{ department_id: string | null; active: string; involved: string }>`
    WITH involved AS (
      SELECT member ->> 'employeeId' AS employee_id
        FROM projects p CROSS JOIN LATERAL jsonb_array_elements(p.team) AS member
       WHERE ${activeProject}
      UNION
      SELECT p.project_manager_employee_id::text FROM projects p WHERE ${activeProject}
      UNION
      SELECT e.id::text
        FROM employees e
       WHERE e.company_id = ${w.companyId} AND e.user_id IN (
         SELECT s.author_id FROM suggestions s WHERE s.company_id = ${w.companyId} AND ${instantIn(w, ref('s.created_at'))})
    )
    SELECT e.department_id, count(*)::text AS active, count(i.employee_id)::text AS involved
      FROM employees e
      LEFT JOIN involved i ON i.employee_id = e.id::text
     WHERE e.company_id = ${w.companyId} AND e.active AND ${inScope(w, ref('e.department_id'))}
     GROUP BY e.department_id`.execute(db.kysely);
  const departments = await sql<{ id: string; name: string }>`
    SELECT d.id, d.name FROM departments d WHERE d.company_id = ${w.companyId} AND ${inScope(w, ref('d.id'))}`.execute(db.kysely);
  const byDepartmentId = new Map(counts.rows.map((row) => [row.department_id, row]));
  let active = 0;
  let involved = 0;
  for (const row of counts.rows) {
    active += integerOf(row.active);
    involved += integerOf(row.involved);
  }
  const byDepartment = departments.rows
    .map((department) => {
      const row = byDepartmentId.get(department.id);
      return { departmentId: department.id, name: department.name, activeEmployees: integerOf(row?.active), involvedEmployees: integerOf(row?.involved) };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'ru') || (a.departmentId < b.departmentId ? -1 : 1));
  return { activeEmployees: active, involvedEmployees: involved, shareBasisPoints: ratioBasisPoints(involved, active), byDepartment };
}

// ---------------------------------------------------------------------------------------------------
// The answer.

/** What the dashboard reads through: a database that opens transactions (server/db/database.ts). */
export type DashboardDatabase = Pick<Database, 'transaction'>;

/**
 * One read-only transaction on one snapshot, so every figure sees the same data. JIT compilation is off in it:
 * PostgreSQL compiles a statement whose estimated cost passes jit_above_cost, and the planner takes every jsonb
 * list (a team, a registry's items) for 100 elements, so the involvement's statement looks a hundred times bigger
 * than it is and would spend about 100 ms compiling what then runs in a few.
 */
async function readSnapshot<T>(db: DashboardDatabase, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(tx.kysely);
    await sql`SET LOCAL jit = off`.execute(tx.kysely);
    return work(tx);
  });
}

/** `GET /companies/{companyId}/dashboard`: the figures of `query`'s period for the caller's scope, as of `now`. */
export async function computeDashboard(db: DashboardDatabase, member: Membership, query: DashboardQuery, now: Date): Promise<Dashboard> {
  return readSnapshot(db, async (tx) => {
    const filter = await dashboardFilterOf(tx, member, query.departmentId?.toLowerCase());
    const w = spanOf(member.companyId, query, filter, now);
    // One after the other: a transaction is one connection, which runs one statement at a time.
    const projectRows = await projectMoney(tx, w);
    const registryRows = await approvedRemuneration(tx, w);
    const ebitdaRows = await ebitdaOf(tx, w);
    const goals = await goalFigures(tx, w);
    const projects = await projectFigures(tx, w);
    const submitted = await submittedFigures(tx, w);
    const decided = await decidedFigures(tx, w);
    const involvement = await involvementFigures(tx, w);
    const { money, effectByMonth } = moneyFigures(monthsOf(query.from, query.to), projectRows, registryRows, ebitdaRows);
    return {
      companyId: member.companyId,
      departmentId: filter.departmentId,
      from: query.from,
      to: query.to,
      computedAt: now.toISOString(),
      money,
      effectByMonth,
      goals,
      projects: projects.projects,
      proposals: {
        submitted: submitted.submitted,
        approved: decided.approved,
        rejected: decided.rejected,
        overdue: submitted.overdue,
        medianDecisionHours: decided.medianDecisionHours,
      },
      funnel: submitted.funnel,
      involvement,
      reports: projects.reports,
    };
  });
}
