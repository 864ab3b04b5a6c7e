// The dashboard (docs/api.md, "Dashboard"): every figure of GET /companies/{c}/dashboard against numbers worked out
// by hand from the fixture company of fixtures.ts (its header lists every row), for the whole company and for each
// department; who sees which scope; the owner's adjusted final cost; the period's validation.
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dashboard, type DashboardMonth } from '../../../src/domain/dashboard';
import { remunerationOf } from '../../../src/domain/money';
import { ratioBasisPoints } from '../../../src/domain/registry';
import { createManualClock } from '../../clock';
import { api, json, testAppPerFile } from '../../test-support';
import { createCompany, NOW, PERIOD, seedDashboardCompany, signUpDashboardPeople, signUpMember, type DashboardCompany, type DashboardPeople, type Login } from './fixtures';

const clock = createManualClock(NOW);
const t = testAppPerFile({ clock });

let people: DashboardPeople;
let acme: DashboardCompany;
/** The same company without the approved registry R1 (P1 and P4 in no registry); headA heads A and B there. */
let plain: DashboardCompany;
let outsider: Login;
let rivalDepartment: string;

beforeAll(async () => {
  people = await signUpDashboardPeople(t);
  acme = await seedDashboardCompany(t.db, people);
  plain = await seedDashboardCompany(t.db, people, { name: 'Без реестра', approvedRegistry: false });
  await t.db.query('UPDATE departments SET head_user_id = $2 WHERE company_id = $1', [plain.companyId, people.headA.id]);
  outsider = await signUpMember(t, { lastName: 'Чужой' });
  const rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
  rivalDepartment = rival.departments.A!;
});
afterAll(() => clock.set(NOW));

interface Answer {
  data: Dashboard;
  message: string;
  errors?: Record<string, string>;
}

async function dashboard(who: Login, companyId: string, query: Record<string, string> = PERIOD, language = 'en') {
  const search = new URLSearchParams(query).toString();
  return t.app.inject({ method: 'GET', url: api(`/companies/${companyId}/dashboard?${search}`), headers: { authorization: `Bearer ${who.access}`, Language: language } });
}

async function figures(who: Login, companyId: string, query: Record<string, string> = PERIOD): Promise<Dashboard> {
  const response = await dashboard(who, companyId, query);
  expect(response.statusCode, response.body).toBe(200);
  const { data } = json<Answer>(response);
  expect(is(data, Dashboard)).toBe(true);
  return data;
}

const MONTHS = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];

/** Every month of the period for `currencies`, zero but where `figures` ('month|currency' -> [expected, actual]) says. */
function byMonth(currencies: readonly DashboardMonth['currency'][], figures: Record<string, [number, number]>): DashboardMonth[] {
  return MONTHS.flatMap((month) =>
    currencies.map((currency) => {
      const [expected, actual] = figures[`${month}|${currency}`] ?? [0, 0];
      return { month, currency, expectedEffect12mMinor: expected, actualEffect12mMinor: actual };
    }),
  );
}

const goalStatuses = (counts: Partial<Record<'NEW' | 'TO_WORK' | 'CLARIFICATION' | 'APPROVED', number>>) => ({ NEW: 0, TO_WORK: 0, CLARIFICATION: 0, APPROVED: 0, ...counts });
const projectStatuses = (counts: Partial<Record<'NEW' | 'CALCULATING' | 'CALCULATED' | 'APPROVED' | 'FOR_REVISION' | 'COMPLETED', number>>) => ({
  NEW: 0,
  CALCULATING: 0,
  CALCULATED: 0,
  APPROVED: 0,
  FOR_REVISION: 0,
  COMPLETED: 0,
  ...counts,
});

/** G1's indicator, the same in every scope: worked out over all of G1's projects, as the goal page does. */
const g1 = () => ({
  goalId: acme.goals.G1,
  direction: 'Качество',
  status: 'TO_WORK',
  targetValue: 30,
  unitId: 'MINUTES',
  // P1: baseline 40, latest report (by date: 04-01, though filed first in the list) 25 -> 40 - 25 = 15;
  // P8: baseline 100, latest 97 -> 3; P4 measures in HOURS, not G1's MINUTES -> nothing. 15 + 3 = 18.
  achievedValue: 18,
  // 18 / 30 = 0.6 -> 6000 bp.
  progressBasisPoints: 6000,
});
const g2 = () => ({ goalId: acme.goals.G2, direction: 'Безопасность', status: 'NEW', targetValue: 10, unitId: 'HOURS', achievedValue: null, progressBasisPoints: null });
const g3 = () => ({ goalId: acme.goals.G3, direction: 'Затраты', status: 'APPROVED', targetValue: 0, unitId: 'DAYS', achievedValue: null, progressBasisPoints: null });

describe('the figures of a period', () => {
  it('gives the whole company every figure as worked out by hand', async () => {
    const data = await figures(people.owner, acme.companyId);
    expect(data).toEqual({
      companyId: acme.companyId,
      departmentId: null,
      from: '2026-01-01',
      to: '2026-06-30',
      computedAt: NOW.toISOString(),
      money: [
        {
          currency: 'RUB',
          // Approved in the period: P1 (02-10) 500,000,000 + P8 (06-30 23:30 UTC, the last half hour) 2,000,000.
          // P9 (approved 07-01 00:00 UTC) and P4 (2025) are outside.
          expectedEffect12mMinor: 502_000_000,
          // Completed in the period: P4 (03-31) 250,000,000; P10 completed 2025-12-31.
          actualEffect12mMinor: 250_000_000,
          // P1's final cost adjusted by the owner in R1 120,000,000 (not its 100,000,000) + P8 1,000,000.
          costsMinor: 121_000_000,
          // floor(502,000,000 x 10,000 / 121,000,000) = floor(41,487.6) = 41,487.
          efficiencyBasisPoints: 41_487,
          // 2026-01 1,000,000,000 + 2026-02 1,500,000,000 (2026-07 is outside).
          ebitdaMinor: 2_500_000_000,
          // floor(502,000,000 x 10,000 / 2,500,000,000) = 2,008.
          ebitdaShareBasisPoints: 2_008,
          // P1: floor(500,000,000 x 1,000 / 10,000) = 50,000,000, no cap; P8: 0 %.
          estimatedRemunerationMinor: 50_000_000,
          // R1 (approved 03-10): P1 50,000,000 + P4 10,000,000; R0 was approved in 2025.
          approvedRemunerationMinor: 60_000_000,
        },
        {
          currency: 'USD',
          // P2, approved 01-20 and completed 05-15.
          expectedEffect12mMinor: 1_000_000,
          actualEffect12mMinor: 800_000,
          costsMinor: 200_000,
          // 1,000,000 x 10,000 / 200,000 = 50,000.
          efficiencyBasisPoints: 50_000,
          // 2026-03: -50,000; a negative EBITDA gives no share.
          ebitdaMinor: -50_000,
          ebitdaShareBasisPoints: null,
          // min(floor(1,000,000 x 500 / 10,000) = 50,000, cap 30,000) = 30,000.
          estimatedRemunerationMinor: 30_000,
          approvedRemunerationMinor: 0,
        },
        {
          currency: 'AUD',
          // P5, approved 04-15.
          expectedEffect12mMinor: 1_200_001,
          actualEffect12mMinor: 0,
          // P5 is in R2, which is only SENT: its own estimated costs.
          costsMinor: 400_000,
          // floor(1,200,001 x 10,000 / 400,000) = floor(30,000.025) = 30,000.
          efficiencyBasisPoints: 30_000,
          // The only AUD EBITDA is of 2025-12.
          ebitdaMinor: null,
          ebitdaShareBasisPoints: null,
          // floor(1,200,001 x 1,250 / 10,000) = floor(150,000.125) = 150,000.
          estimatedRemunerationMinor: 150_000,
          approvedRemunerationMinor: 0,
        },
      ],
      effectByMonth: byMonth(['RUB', 'USD', 'AUD'], {
        '2026-01|USD': [1_000_000, 0], // P2 approved
        '2026-02|RUB': [500_000_000, 0], // P1 approved
        '2026-03|RUB': [0, 250_000_000], // P4 completed
        '2026-04|AUD': [1_200_001, 0], // P5 approved
        '2026-05|USD': [0, 800_000], // P2 completed
        '2026-06|RUB': [2_000_000, 0], // P8 approved (06-30 23:30 UTC)
      }),
      goals: {
        // Every goal of the company, whatever its dates.
        byStatus: goalStatuses({ NEW: 1, TO_WORK: 1, APPROVED: 1 }),
        // By direction: Безопасность, Затраты, Качество. G2: P3 has a baseline but no report; G3: no project.
        indicators: [g2(), g3(), g1()],
      },
      // Created by 06-30: P1, P5, P8, P9 APPROVED; P2, P4, P10 COMPLETED; P3 CALCULATED; P7 FOR_REVISION. P6 (07-05) not.
      projects: { byStatus: projectStatuses({ APPROVED: 4, COMPLETED: 3, CALCULATED: 1, FOR_REVISION: 1 }) },
      proposals: {
        // Created in the period: S1, S2, S3, S4, S5, S8, S9 (S6 in 2025, S7 on 07-02).
        submitted: 7,
        // Decided in the period: S1 (01-12), S3 (03-01), S6 (01-05, submitted in 2025), S9 (01-03).
        approved: 4,
        // S2 (02-02); S8 was rejected on 07-05.
        rejected: 1,
        // S4 (due 06-25, now 07-10); S5 waits on its author's clarification; S7 was submitted after the period.
        overdue: 1,
        // Hours to a decision: S3 12, S2 24, S9 30, S1 48, S6 384 -> the middle one, 30.
        medianDecisionHours: 30,
      },
      // Of the 7 submitted: S1 -> P1 (APPROVED), S3 -> P3 (CALCULATED), S9 -> P2 (COMPLETED).
      funnel: { proposals: 7, projects: 3, approved: 2, completed: 1 },
      involvement: {
        // Active: owner, ceo, findir, loner (no department), headA, a1, a2 (A; a3 is inactive), employeeB, b1, b2 (B).
        activeEmployees: 10,
        // Authors in the period: headA, ceo, employeeB. Projects active in it: P1 (a1, team a2), P2 (headA), P3, P4, P5
        // (employeeB, team b1; P4's a3 is inactive), P7 (loner), P8, P9 (a1). Not: P6 (created 07-05: b2), P10
        // (completed 2025: findir); the owner's S7 is after the period. Involved: headA, ceo, employeeB, a1, a2, b1, loner.
        involvedEmployees: 7,
        shareBasisPoints: 7_000,
        byDepartment: [
          { departmentId: acme.departments.A, name: 'A', activeEmployees: 3, involvedEmployees: 3 },
          { departmentId: acme.departments.B, name: 'B', activeEmployees: 3, involvedEmployees: 2 },
        ],
      },
      // Due: P1 (06-30, the period's last day). Late: P2 and P5 (flagged overdue).
      reports: { due: 1, late: 2 },
    });
  });

  it('gives the head of department A the figures of A alone', async () => {
    const data = await figures(people.headA, acme.companyId);
    expect(data).toEqual({
      companyId: acme.companyId,
      departmentId: acme.departments.A,
      from: '2026-01-01',
      to: '2026-06-30',
      computedAt: NOW.toISOString(),
      money: [
        {
          currency: 'RUB',
          // P1 + P8, as for the company (both are A's); P4's completion is B's.
          expectedEffect12mMinor: 502_000_000,
          actualEffect12mMinor: 0,
          costsMinor: 121_000_000,
          efficiencyBasisPoints: 41_487,
          // EBITDA is company-wide, also for a department.
          ebitdaMinor: 2_500_000_000,
          ebitdaShareBasisPoints: 2_008,
          estimatedRemunerationMinor: 50_000_000,
          // Of R1's items only P1 is A's.
          approvedRemunerationMinor: 50_000_000,
        },
        {
          currency: 'USD',
          expectedEffect12mMinor: 1_000_000,
          actualEffect12mMinor: 800_000,
          costsMinor: 200_000,
          efficiencyBasisPoints: 50_000,
          ebitdaMinor: -50_000,
          ebitdaShareBasisPoints: null,
          estimatedRemunerationMinor: 30_000,
          approvedRemunerationMinor: 0,
        },
        // No AUD: nothing of A is in AUD and no AUD EBITDA was entered for the period.
      ],
      effectByMonth: byMonth(['RUB', 'USD'], {
        '2026-01|USD': [1_000_000, 0],
        '2026-02|RUB': [500_000_000, 0],
        '2026-05|USD': [0, 800_000],
        '2026-06|RUB': [2_000_000, 0],
      }),
      // A's proposals serve G1 (S1), A's projects G1 (P1, P8).
      goals: { byStatus: goalStatuses({ TO_WORK: 1 }), indicators: [g1()] },
      // P1, P8, P9 APPROVED; P2 COMPLETED (P6 was created after the period).
      projects: { byStatus: projectStatuses({ APPROVED: 3, COMPLETED: 1 }) },
      // Submitted: S1, S2, S5, S9; approved: S1, S6, S9; rejected: S2; hours: 24, 30, 48, 384 -> (30 + 48) / 2 = 39.
      proposals: { submitted: 4, approved: 3, rejected: 1, overdue: 0, medianDecisionHours: 39 },
      // S1 -> P1 (APPROVED), S9 -> P2 (COMPLETED).
      funnel: { proposals: 4, projects: 2, approved: 2, completed: 1 },
      // headA (author), a1 (manages P1), a2 (P1's team) of 3 active.
      involvement: {
        activeEmployees: 3,
        involvedEmployees: 3,
        shareBasisPoints: 10_000,
        byDepartment: [{ departmentId: acme.departments.A, name: 'A', activeEmployees: 3, involvedEmployees: 3 }],
      },
      reports: { due: 1, late: 1 },
    });
  });

  it('gives an employee of department B the figures of B', async () => {
    const data = await figures(people.employeeB, acme.companyId);
    expect(data).toEqual({
      companyId: acme.companyId,
      departmentId: acme.departments.B,
      from: '2026-01-01',
      to: '2026-06-30',
      computedAt: NOW.toISOString(),
      money: [
        {
          currency: 'RUB',
          // Nothing of B approved in the period in RUB; P4 completed on 03-31.
          expectedEffect12mMinor: 0,
          actualEffect12mMinor: 250_000_000,
          costsMinor: 0,
          efficiencyBasisPoints: null,
          ebitdaMinor: 2_500_000_000,
          // floor(0 x 10,000 / 2,500,000,000) = 0.
          ebitdaShareBasisPoints: 0,
          estimatedRemunerationMinor: 0,
          // R1's P4 item.
          approvedRemunerationMinor: 10_000_000,
        },
        {
          // Listed for its EBITDA alone.
          currency: 'USD',
          expectedEffect12mMinor: 0,
          actualEffect12mMinor: 0,
          costsMinor: 0,
          efficiencyBasisPoints: null,
          ebitdaMinor: -50_000,
          ebitdaShareBasisPoints: null,
          estimatedRemunerationMinor: 0,
          approvedRemunerationMinor: 0,
        },
        {
          currency: 'AUD',
          expectedEffect12mMinor: 1_200_001,
          actualEffect12mMinor: 0,
          costsMinor: 400_000,
          efficiencyBasisPoints: 30_000,
          ebitdaMinor: null,
          ebitdaShareBasisPoints: null,
          estimatedRemunerationMinor: 150_000,
          approvedRemunerationMinor: 0,
        },
      ],
      effectByMonth: byMonth(['RUB', 'USD', 'AUD'], { '2026-03|RUB': [0, 250_000_000], '2026-04|AUD': [1_200_001, 0] }),
      // No proposal of B names a goal; B's projects serve G2 (P3) and G1 (P4).
      goals: { byStatus: goalStatuses({ NEW: 1, TO_WORK: 1 }), indicators: [g2(), g1()] },
      // P3 CALCULATED, P5 APPROVED, P4 and P10 COMPLETED.
      projects: { byStatus: projectStatuses({ CALCULATED: 1, APPROVED: 1, COMPLETED: 2 }) },
      // Submitted: S3, S4, S8; approved: S3 (12 h); S8 rejected after the period; S4 overdue.
      proposals: { submitted: 3, approved: 1, rejected: 0, overdue: 1, medianDecisionHours: 12 },
      funnel: { proposals: 3, projects: 1, approved: 0, completed: 0 },
      // employeeB (author, manager) and b1 (P5's team) of employeeB, b1, b2: floor(2 x 10,000 / 3) = 6,666.
      involvement: {
        activeEmployees: 3,
        involvedEmployees: 2,
        shareBasisPoints: 6_666,
        byDepartment: [{ departmentId: acme.departments.B, name: 'B', activeEmployees: 3, involvedEmployees: 2 }],
      },
      // P5 is flagged overdue; P4's next report is due 09-30.
      reports: { due: 0, late: 1 },
    });
  });

  it('counts the costs the owner adjusted in an approved registry, and the calculated costs without one', async () => {
    const adjusted = await figures(people.owner, acme.companyId);
    const calculated = await figures(people.owner, plain.companyId);
    const rub = (data: Dashboard) => data.money.find((row) => row.currency === 'RUB');
    // Without R1: P1's calculated 100,000,000 + P8's 1,000,000.
    expect(rub(calculated)).toMatchObject({ costsMinor: 101_000_000, efficiencyBasisPoints: 49_702, approvedRemunerationMinor: 0 });
    // floor(502,000,000 x 10,000 / 101,000,000) = floor(49,702.97) = 49,702; with R1: 121,000,000 and 41,487.
    expect(rub(adjusted)).toMatchObject({ costsMinor: 121_000_000, efficiencyBasisPoints: 41_487, approvedRemunerationMinor: 60_000_000 });
    // Nothing else moves.
    const rest = (data: Dashboard) => ({ ...data, companyId: null, money: data.money.filter((row) => row.currency !== 'RUB'), goals: data.goals.byStatus, involvement: data.involvement.activeEmployees });
    expect(rest(calculated)).toEqual(rest(adjusted));
    expect(rub(calculated)).toEqual({ ...rub(adjusted), costsMinor: 101_000_000, efficiencyBasisPoints: 49_702, approvedRemunerationMinor: 0 });
  });

  it('answers the same figures to the owner narrowing to a department as to its head', async () => {
    const narrowed = await figures(people.owner, acme.companyId, { ...PERIOD, departmentId: acme.departments.A });
    expect(narrowed).toEqual(await figures(people.headA, acme.companyId));
    const upper = await figures(people.ceo, acme.companyId, { ...PERIOD, departmentId: acme.departments.B.toUpperCase() });
    expect(upper).toEqual(await figures(people.employeeB, acme.companyId));
  });

  it('computes the figures as of the server clock', async () => {
    clock.set(new Date('2026-06-24T00:00:00.000Z'));
    try {
      const data = await figures(people.owner, acme.companyId);
      expect(data.computedAt).toBe('2026-06-24T00:00:00.000Z');
      // S4 is due on 06-25: not overdue yet.
      expect(data.proposals.overdue).toBe(0);
    } finally {
      clock.set(NOW);
    }
  });

  it('gives a head of several departments all of them together, or one of them', async () => {
    const together = await figures(people.headA, plain.companyId);
    expect(together.departmentId).toBeNull();
    expect(together.involvement.byDepartment.map((row) => row.departmentId)).toEqual([plain.departments.A, plain.departments.B]);
    // A's 3 and B's 3: the employees without a department (owner, ceo, findir, loner) are the company's only.
    expect(together.involvement.activeEmployees).toBe(6);
    // Without P7 (no department): P1, P5, P8, P9 APPROVED; P2, P4, P10 COMPLETED; P3 CALCULATED.
    expect(together.projects.byStatus).toEqual(projectStatuses({ APPROVED: 4, COMPLETED: 3, CALCULATED: 1 }));
    const onlyB = await figures(people.headA, plain.companyId, { ...PERIOD, departmentId: plain.departments.B });
    expect(onlyB.departmentId).toBe(plain.departments.B);
    expect(onlyB.proposals).toEqual({ submitted: 3, approved: 1, rejected: 0, overdue: 1, medianDecisionHours: 12 });
  });

  it('answers a period with no data with no money, and counts what still runs in it', async () => {
    const empty = await figures(people.owner, acme.companyId, { from: '2030-01-15', to: '2030-03-02' });
    expect(empty).toMatchObject({
      money: [],
      effectByMonth: [],
      proposals: { submitted: 0, approved: 0, rejected: 0, overdue: 0, medianDecisionHours: null },
      funnel: { proposals: 0, projects: 0, approved: 0, completed: 0 },
      // Projects still running in 2030 (never completed): P1 (a1, a2), P3 and P5 (employeeB, b1), P6 (b2), P7
      // (loner), P8 and P9 (a1): 6 of the 10 active employees; nobody submitted anything.
      involvement: { activeEmployees: 10, involvedEmployees: 6, shareBasisPoints: 6_000 },
      // Nothing due in 2030; P2 and P5 are still flagged overdue.
      reports: { due: 0, late: 2 },
    });
    // Every project was created before the period ends.
    expect(empty.projects.byStatus).toEqual(projectStatuses({ NEW: 1, APPROVED: 4, COMPLETED: 3, CALCULATED: 1, FOR_REVISION: 1 }));
  });
});

describe('the money arithmetic', () => {
  it('works the remuneration out exactly as remunerationOf, also near 2^53', async () => {
    const company = await createCompany(t.db, 'Точность', { [people.owner.id]: ['OWNER'], [people.ceo.id]: ['CEO'], [people.findir.id]: ['FINANCIAL_DIRECTOR'] });
    const manager = await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2', [company.companyId, people.owner.id]);
    const cases = [
      // A product beyond bigint (9.0e15 x 9,999 > 9.2e18): the database must not overflow nor round.
      { currency: 'RUB', effect: Number.MAX_SAFE_INTEGER, bp: 9_999, cap: null, costs: 3 },
      // floor(1,234,567 x 3,333 / 10,000) = 411,481 above the cap of 41,000.
      { currency: 'USD', effect: 1_234_567, bp: 3_333, cap: 41_000, costs: 0 },
      // floor(999,999 x 1 / 10,000) = 99.
      { currency: 'AUD', effect: 999_999, bp: 1, cap: null, costs: 7 },
    ] as const;
    for (const row of cases) {
      await t.db.query(
        `INSERT INTO projects (company_id, id, name, problem, type, author_name, completion_date, reporting_frequency, post_monitoring_periodicity,
           project_manager_employee_id, currency, profit_basis_points, max_per_project_minor, estimated_costs_minor, expected_effect_12m_minor,
           effect_repeatability, status, approved_at)
         VALUES ($1, gen_random_uuid(), 'Проект', 'Проблема', 'TECHNICAL', 'Автор', '2026-12-31', 'MONTHLY', 'MONTHLY', $2, $3, $4, $5, $6, $7,
           'ONE_TIME', 'APPROVED', '2026-03-03T03:03:03Z')`,
        [company.companyId, manager!.id, row.currency, row.bp, row.cap, row.costs, row.effect],
      );
    }
    const data = await figures(people.owner, company.companyId);
    expect(data.money.map((row) => [row.currency, row.estimatedRemunerationMinor, row.efficiencyBasisPoints])).toEqual(
      cases.map((row) => [
        row.currency,
        remunerationOf({ profitBasisPoints: row.bp, expectedEffect12mMinor: row.effect, maxPerProjectMinor: row.cap }),
        ratioBasisPoints(row.effect, row.costs),
      ]),
    );
    // The first: floor((2^53 - 1) x 9,999 / 10,000), worked out in BigInt; no costs: no efficiency.
    expect(data.money[0]?.estimatedRemunerationMinor).toBe(Number((BigInt(Number.MAX_SAFE_INTEGER) * 9_999n) / 10_000n));
    expect(data.money[1]).toMatchObject({ estimatedRemunerationMinor: 41_000, efficiencyBasisPoints: null });
    expect(data.money[2]?.estimatedRemunerationMinor).toBe(99);
  });
});

describe('who sees which dashboard', () => {
  it('refuses a member with no department and no company-wide role, in their language', async () => {
    const en = await dashboard(people.loner, acme.companyId);
    expect(en.statusCode).toBe(403);
    expect(json<Answer>(en).message).toBe("There is no dashboard for you here yet: you are in none of the company's departments. Ask HR to add you to your department.");
    const ru = await dashboard(people.loner, acme.companyId, PERIOD, 'ru');
    expect(ru.statusCode).toBe(403);
    expect(json<Answer>(ru).message).toBe('Для вас здесь пока нет панели показателей: вы не входите ни в один отдел компании. Попросите отдел кадров добавить вас в ваш отдел.');
  });

  it('refuses a department outside the scope with 403', async () => {
    for (const [who, departmentId] of [
      [people.headA, acme.departments.B],
      [people.employeeB, acme.departments.A],
      [people.headA, rivalDepartment],
    ] as const) {
      const response = await dashboard(who, acme.companyId, { ...PERIOD, departmentId });
      expect(response.statusCode).toBe(403);
      expect(json<Answer>(response).message).toBe('You can see the dashboard of your own departments only.');
    }
    const ru = await dashboard(people.headA, acme.companyId, { ...PERIOD, departmentId: acme.departments.B }, 'ru');
    expect(json<Answer>(ru).message).toBe('Вы можете смотреть показатели только своих отделов.');
  });

  it("refuses another company's department or an unknown one to the company-wide roles with 400", async () => {
    for (const departmentId of [rivalDepartment, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await dashboard(people.owner, acme.companyId, { ...PERIOD, departmentId });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(json<Answer>(response).errors ?? {})).toEqual(['departmentId']);
    }
  });

  it('takes an empty department as none', async () => {
    expect((await figures(people.findir, acme.companyId, { ...PERIOD, departmentId: '' })).departmentId).toBeNull();
  });

  it("answers 404 to a non-member and for another company's id", async () => {
    expect((await dashboard(outsider, acme.companyId)).statusCode).toBe(404);
    expect((await dashboard(people.owner, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('lets every company-wide role see the whole company', async () => {
    for (const who of [people.owner, people.ceo, people.findir]) {
      expect((await figures(who, acme.companyId)).departmentId).toBeNull();
    }
  });
});

describe('the period', () => {
  it('refuses a period that ends before it starts or is longer than 5 years, in the language of the request', async () => {
    const backwards = await dashboard(people.owner, acme.companyId, { from: '2026-06-30', to: '2026-06-29' });
    expect(backwards.statusCode).toBe(400);
    expect(json<Answer>(backwards).errors).toEqual({ to: 'The period cannot end before it starts and can be at most 5 years long.' });
    const long = await dashboard(people.owner, acme.companyId, { from: '2020-01-01', to: '2025-01-10' }, 'ru');
    expect(long.statusCode).toBe(400);
    expect(json<Answer>(long).errors).toEqual({ to: 'Период не может заканчиваться раньше, чем начинается, и может быть не длиннее 5 лет.' });
  });

  it('takes a single day and exactly 5 years', async () => {
    const day = await figures(people.owner, acme.companyId, { from: '2026-06-30', to: '2026-06-30' });
    // P8, approved at 23:30 UTC on the day.
    expect(day.money.map((row) => [row.currency, row.expectedEffect12mMinor, row.costsMinor, row.ebitdaMinor])).toEqual([['RUB', 2_000_000, 1_000_000, null]]);
    // June has no EBITDA entered and nothing in USD or AUD: one month, one currency.
    expect(day.effectByMonth).toEqual([{ month: '2026-06', currency: 'RUB', expectedEffect12mMinor: 2_000_000, actualEffect12mMinor: 0 }]);
    const years = await figures(people.owner, acme.companyId, { from: '2021-07-01', to: '2026-06-30' });
    expect(new Set(years.effectByMonth.map((row) => row.month)).size).toBe(60);
  });

  it('takes periods at the edges of the calendar', async () => {
    for (const query of [{ from: '9999-12-01', to: '9999-12-31' }, { from: '0100-01-01', to: '0100-02-28' }]) {
      const data = await figures(people.owner, acme.companyId, query);
      expect(data).toMatchObject({ from: query.from, to: query.to, money: [], proposals: { submitted: 0 } });
    }
  });

  it('refuses dates that are no calendar dates, a missing one and a malformed department', async () => {
    const queries: Record<string, string>[] = [
      { from: '2026-02-30', to: '2026-03-01' },
      { from: '2026-01-01', to: '2026-13-01' },
      { from: '2026-01-01' },
      { to: '2026-01-01' },
      { from: '01.01.2026', to: '2026-01-02' },
      // A malformed department with a missing date: the period rule must not read the missing date.
      { departmentId: 'csv' },
      { from: '2026-01-01', departmentId: 'csv' },
      { from: '2026-02-30', to: '2026-01-01', departmentId: 'csv' },
    ];
    for (const query of queries) {
      const response = await dashboard(people.owner, acme.companyId, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});
