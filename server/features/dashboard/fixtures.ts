// Test fixtures of the dashboard: a company whose figures are known by hand (dashboard.test.ts works them out in
// its comments), written straight to the tables with fixed times, so every figure of GET .../dashboard can be
// asserted exactly. The period the figures are worked out for is 2026-01-01..2026-06-30 (PERIOD), seen on
// 2026-07-10 09:00 UTC (NOW).
//
// People (members sign in; the others are staff without an account), departments A and B:
//   owner (OWNER), ceo (CEO), findir (FINANCIAL_DIRECTOR), loner (EMPLOYEE): no department;
//   headA (MIDDLE_MANAGER, head of A) in A, with a1, a2 (active) and a3 (inactive);
//   employeeB (EMPLOYEE) in B, with b1 and b2 (active).
// Goals: G1 Качество TO_WORK 30 MINUTES, G2 Безопасность NEW 10 HOURS, G3 Затраты APPROVED 0 DAYS.
// Proposals (created, status, decided, department, author, goal):
//   S1 01-10 08:00 APPROVED 01-12 08:00 (48 h) A headA G1      S2 02-01 REJECTED 02-02 (24 h) A ceo
//   S3 03-01 APPROVED 03-01 12:00 (12 h) B employeeB           S4 06-20 UNDER_CONSIDERATION due 06-25 B employeeB
//   S5 06-29 CLARIFICATION due 07-04 A headA                   S6 2025-12-20 APPROVED 2026-01-05 (384 h) A headA
//   S7 07-02 UNDER_CONSIDERATION due 07-07 B owner              S8 05-01 REJECTED 07-05 B ceo
//   S9 01-02 APPROVED 01-03 06:00 (30 h) A headA
// Projects (department, currency, status, created, approved_at, figures, people, goals, reports):
//   P1 from S1, A, RUB, APPROVED, created 01-15, approved 02-10 10:00; costs 100,000,000, effect 500,000,000, 10 %,
//      no cap; in the APPROVED registry R1 with its final cost adjusted to 120,000,000; PM a1, team a2; G1;
//      baseline 40 MINUTES, reports 04-01: 25 and 03-01: 30; next report due 06-30.
//   P2 from S9, A, USD, COMPLETED 05-15 (actual 800,000), created 01-06, approved 01-20; costs 200,000, effect
//      1,000,000, 5 %, cap 30,000; PM headA; next report 08-15, flagged overdue.
//   P3 from S3, B, RUB, CALCULATED, created 03-05; costs 300,000, effect 900,000; PM employeeB; G2, baseline 8 HOURS.
//   P4 direct, B, RUB, COMPLETED 03-31 (actual 250,000,000), created 2025-06-01, approved 2025-07-01; costs
//      50,000,000, effect 200,000,000, 10 %, cap 10,000,000; in R1 (not adjusted); PM employeeB, team a3; G1 with a
//      baseline in HOURS (another unit than G1's); next report 09-30.
//   P5 direct, B, AUD, APPROVED, created 04-01, approved 04-15; costs 400,000, effect 1,200,001, 12.5 %, no cap; in
//      the SENT registry R2; PM employeeB, team b1; next report 05-15, flagged overdue.
//   P6 direct, A, RUB, NEW, created 07-05; PM b2.
//   P7 direct, no department, RUB, FOR_REVISION, created 02-01; PM loner.
//   P8 direct, A, RUB, APPROVED, created 06-01, approved 06-30 23:30; costs 1,000,000, effect 2,000,000, 0 %; PM a1;
//      G1, baseline 100 MINUTES, report 06-30: 97; next report 07-30.
//   P9 direct, A, RUB, APPROVED, created 06-15, approved 07-01 00:00; effect 7,777,700; PM a1; next report 08-01.
//   P10 direct, B, RUB, COMPLETED 2025-12-31, created 2025-01-01, approved 2025-02-01; in R0; PM findir.
// Registries: R0 APPROVED 2025-11-01 (P10, remuneration 5,000,000); R1 APPROVED 2026-03-10 12:00 (P1 remuneration
//   50,000,000, adjusted; P4 remuneration 10,000,000); R2 SENT 2026-05-01 (P5). Without `approvedRegistry`, R1 is
//   not there and P1 and P4 are in no registry.
// EBITDA: RUB 2026-01 1,000,000,000, 2026-02 1,500,000,000, 2026-07 9,000,000,000; USD 2026-03 -50,000;
//   AUD 2025-12 100.
// (Money in minor units throughout.)

import { randomUUID } from 'node:crypto';
import { registryTotals, type RegistryItem } from '../../../src/domain/registry';
import type { Database } from '../../db/database';
import type { TestApp } from '../../test-support';
import { createCompany, signUpMember, type Login } from '../suggestions/fixtures';

export { createCompany, signUpMember, type Login } from '../suggestions/fixtures';

export const PERIOD = { from: '2026-01-01', to: '2026-06-30' } as const;
export const NOW = new Date('2026-07-10T09:00:00.000Z');

export interface DashboardPeople {
  owner: Login;
  ceo: Login;
  findir: Login;
  headA: Login;
  employeeB: Login;
  loner: Login;
}

/** The members of the fixture company (one set of accounts may be a member of several fixture companies). */
export async function signUpDashboardPeople(t: Pick<TestApp, 'app' | 'db'>): Promise<DashboardPeople> {
  const member = (lastName: string) => signUpMember(t, { lastName });
  const [owner, ceo, findir, headA, employeeB, loner] = await Promise.all([
    member('Хозяинов'),
    member('Директоров'),
    member('Финансов'),
    member('Головин'),
    member('Бобров'),
    member('Одинокий'),
  ]);
  return { owner, ceo, findir, headA, employeeB, loner };
}

export interface DashboardCompany {
  companyId: string;
  departments: { A: string; B: string };
  employees: Record<'owner' | 'ceo' | 'findir' | 'loner' | 'headA' | 'a1' | 'a2' | 'a3' | 'employeeB' | 'b1' | 'b2', string>;
  goals: { G1: string; G2: string; G3: string };
  projects: Record<'P1' | 'P2' | 'P3' | 'P4' | 'P5' | 'P6' | 'P7' | 'P8' | 'P9' | 'P10', string>;
}

const at = (iso: string) => new Date(iso);

async function employeeOf(db: Database, companyId: string, userId: string): Promise<string> {
  const row = await db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2', [companyId, userId]);
  if (!row) throw new Error(`no employee for ${userId}`);
  return row.id;
}

async function addStaff(db: Database, companyId: string, departmentId: string, lastName: string, active = true): Promise<string> {
  const row = await db.one<{ id: string }>(
    `INSERT INTO employees (company_id, department_id, last_name, first_name, active) VALUES ($1, $2, $3, 'Иван', $4) RETURNING id`,
    [companyId, departmentId, lastName, active],
  );
  return row!.id;
}

async function addGoal(db: Database, companyId: string, customer: string, goal: { direction: string; status: string; value: number; unit: string }): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO goals (company_id, id, direction, scope, description, expected_result, indicator_value, indicator_unit, owner_goal,
       start_date, end_date, business_customer_employee_id, process, status)
     VALUES ($1, $2, $3, 'Цех', 'Описание', 'Результат', $4, $5, 'Цель', '2026-01-01', '2026-12-31', $6, 'Процесс', $7)`,
    [companyId, id, goal.direction, goal.value, goal.unit, customer, goal.status],
  );
  return id;
}

interface ProposalSpec {
  department: string;
  author: Login;
  created: string;
  status: 'UNDER_CONSIDERATION' | 'CLARIFICATION' | 'APPROVED' | 'REJECTED';
  decided?: string;
  due?: string;
  goal?: string;
}

async function addProposal(db: Database, companyId: string, spec: ProposalSpec): Promise<string> {
  const id = randomUUID();
  const created = at(spec.created);
  const due = spec.due ? at(spec.due) : new Date(created.getTime() + 5 * 24 * 3600 * 1000);
  await db.query(
    `INSERT INTO suggestions (company_id, id, title, problem, solution, expected_effect, department_id, goal_id, author_id, author_name,
       status, due_at, submitted_at, received_at, decided_at, created_at, updated_at)
     VALUES ($1, $2, 'Предложение', 'Проблема', 'Решение', 'Эффект', $3, $4, $5, 'Автор', $6, $7, $8, $8, $9, $8, $8)`,
    [companyId, id, spec.department, spec.goal ?? null, spec.author.id, spec.status, due, created, spec.decided ? at(spec.decided) : null],
  );
  return id;
}

interface ProjectSpec {
  id: string;
  department: string | null;
  currency: 'RUB' | 'USD' | 'AUD';
  status: 'NEW' | 'CALCULATING' | 'CALCULATED' | 'APPROVED' | 'FOR_REVISION' | 'COMPLETED';
  created: string;
  approved?: string;
  suggestion?: string;
  costs?: number;
  effect?: number;
  profitBasisPoints?: number;
  cap?: number;
  actualDate?: string;
  actualEffect?: number;
  manager: string;
  team?: string[];
  goals?: string[];
  baseline?: { value: number; unitId: string };
  reports?: { date: string; value: number }[];
  nextReportDue?: string;
  overdueAt?: string;
  registry?: string;
}

async function addProject(db: Database, companyId: string, spec: ProjectSpec): Promise<void> {
  const team = (spec.team ?? []).map((employeeId) => ({ employeeId, name: 'Участник', serviceNumber: null, role: 'Участник' }));
  const reports = (spec.reports ?? []).map((report) => ({ id: randomUUID(), date: report.date, value: report.value, comment: null, at: `${report.date}T12:00:00.000Z`, byUserId: null, byName: null }));
  await db.query(
    `INSERT INTO projects (company_id, id, name, problem, type, suggestion_id, department_id, author_name, goal_ids, baseline_metric,
       completion_date, actual_completion_date, reporting_frequency, post_monitoring_periodicity, project_manager_employee_id, team,
       currency, profit_basis_points, max_per_project_minor, estimated_costs_minor, expected_effect_12m_minor, actual_effect_12m_minor,
       effect_repeatability, status, indicator_reports, next_report_due, report_overdue_at, registry_id, approved_at, created_at, updated_at)
     VALUES ($1, $2, 'Проект', 'Проблема', 'ORGANIZATIONAL', $3, $4, 'Автор', $5, $6, '2026-12-31', $7, 'MONTHLY', 'QUARTERLY', $8, $9,
       $10, $11, $12, $13, $14, $15, 'RECURRING', $16, $17, $18, $19, $20, $21, $22, $22)`,
    [
      companyId,
      spec.id,
      spec.suggestion ?? null,
      spec.department,
      spec.goals ?? [],
      spec.baseline ? JSON.stringify(spec.baseline) : null,
      spec.actualDate ?? null,
      spec.manager,
      JSON.stringify(team),
      spec.currency,
      spec.profitBasisPoints ?? 1000,
      spec.cap ?? null,
      spec.costs ?? null,
      spec.effect ?? null,
      spec.actualEffect ?? null,
      spec.status,
      JSON.stringify(reports),
      spec.nextReportDue ?? null,
      spec.overdueAt ? at(spec.overdueAt) : null,
      spec.registry ?? null,
      spec.approved ? at(spec.approved) : null,
      at(spec.created),
    ],
  );
}

interface RegistrySpec {
  id: string;
  number: number;
  status: 'SENT' | 'APPROVED';
  sent: string;
  decided?: string;
  items: RegistryItem[];
  sender: Login;
}

async function addRegistry(db: Database, companyId: string, spec: RegistrySpec): Promise<void> {
  await db.query(
    `INSERT INTO registries (company_id, id, number, status, items, totals, sent_by, sent_by_name, sent_at, decided_by, decided_by_name, decided_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'Отправитель', $8, $9, $10, $11)`,
    [
      companyId,
      spec.id,
      spec.number,
      spec.status,
      JSON.stringify(spec.items),
      JSON.stringify(registryTotals(spec.items)),
      spec.sender.id,
      at(spec.sent),
      spec.decided ? spec.sender.id : null,
      spec.decided ? 'Хозяинов' : null,
      spec.decided ? at(spec.decided) : null,
    ],
  );
}

function item(projectId: string, departmentId: string, currency: RegistryItem['currency'], figures: { costs: number; effect: number; remuneration: number; finalCost?: number }): RegistryItem {
  return {
    projectId,
    name: 'Проект',
    departmentId,
    projectManagerName: 'Менеджер',
    currency,
    estimatedCostsMinor: figures.costs,
    expectedEffect12mMinor: figures.effect,
    remunerationMinor: figures.remuneration,
    finalCostMinor: figures.finalCost ?? null,
    adjustmentReason: figures.finalCost === undefined ? null : 'Подорожали материалы',
  };
}

/** The fixture company of the header; `approvedRegistry: false` leaves R1 out (P1 and P4 in no registry). */
export async function seedDashboardCompany(db: Database, people: DashboardPeople, options: { name?: string; approvedRegistry?: boolean } = {}): Promise<DashboardCompany> {
  const withRegistry = options.approvedRegistry ?? true;
  const { owner, ceo, findir, headA, employeeB, loner } = people;
  const fixture = await createCompany(
    db,
    options.name ?? 'Показатели',
    {
      [owner.id]: ['OWNER'],
      [ceo.id]: ['CEO'],
      [findir.id]: ['FINANCIAL_DIRECTOR'],
      [headA.id]: ['MIDDLE_MANAGER'],
      [employeeB.id]: ['EMPLOYEE'],
      [loner.id]: ['EMPLOYEE'],
    },
    { A: headA.id },
  );
  const { companyId } = fixture;
  const A = fixture.departments.A!;
  const B = fixture.departments.B!;
  const member = (login: Login) => employeeOf(db, companyId, login.id);
  const employees = {
    owner: await member(owner),
    ceo: await member(ceo),
    findir: await member(findir),
    loner: await member(loner),
    headA: await member(headA),
    employeeB: await member(employeeB),
    a1: await addStaff(db, companyId, A, 'Первый'),
    a2: await addStaff(db, companyId, A, 'Второй'),
    a3: await addStaff(db, companyId, A, 'Уволенный', false),
    b1: await addStaff(db, companyId, B, 'Третий'),
    b2: await addStaff(db, companyId, B, 'Четвёртый'),
  };
  await db.query('UPDATE employees SET department_id = $2 WHERE id = $1', [employees.headA, A]);
  await db.query('UPDATE employees SET department_id = $2 WHERE id = $1', [employees.employeeB, B]);

  const goals = {
    G1: await addGoal(db, companyId, employees.owner, { direction: 'Качество', status: 'TO_WORK', value: 30, unit: 'MINUTES' }),
    G2: await addGoal(db, companyId, employees.owner, { direction: 'Безопасность', status: 'NEW', value: 10, unit: 'HOURS' }),
    G3: await addGoal(db, companyId, employees.owner, { direction: 'Затраты', status: 'APPROVED', value: 0, unit: 'DAYS' }),
  };

  const proposal = (spec: ProposalSpec) => addProposal(db, companyId, spec);
  const S1 = await proposal({ department: A, author: headA, created: '2026-01-10T08:00:00Z', status: 'APPROVED', decided: '2026-01-12T08:00:00Z', goal: goals.G1 });
  await proposal({ department: A, author: ceo, created: '2026-02-01T00:00:00Z', status: 'REJECTED', decided: '2026-02-02T00:00:00Z' });
  const S3 = await proposal({ department: B, author: employeeB, created: '2026-03-01T00:00:00Z', status: 'APPROVED', decided: '2026-03-01T12:00:00Z' });
  await proposal({ department: B, author: employeeB, created: '2026-06-20T00:00:00Z', status: 'UNDER_CONSIDERATION', due: '2026-06-25T00:00:00Z' });
  await proposal({ department: A, author: headA, created: '2026-06-29T00:00:00Z', status: 'CLARIFICATION', due: '2026-07-04T00:00:00Z', decided: '2026-06-30T00:00:00Z' });
  await proposal({ department: A, author: headA, created: '2025-12-20T00:00:00Z', status: 'APPROVED', decided: '2026-01-05T00:00:00Z' });
  await proposal({ department: B, author: owner, created: '2026-07-02T00:00:00Z', status: 'UNDER_CONSIDERATION', due: '2026-07-07T00:00:00Z' });
  await proposal({ department: B, author: ceo, created: '2026-05-01T00:00:00Z', status: 'REJECTED', decided: '2026-07-05T00:00:00Z' });
  const S9 = await proposal({ department: A, author: headA, created: '2026-01-02T00:00:00Z', status: 'APPROVED', decided: '2026-01-03T06:00:00Z' });

  const projects = { P1: randomUUID(), P2: randomUUID(), P3: randomUUID(), P4: randomUUID(), P5: randomUUID(), P6: randomUUID(), P7: randomUUID(), P8: randomUUID(), P9: randomUUID(), P10: randomUUID() };
  const R0 = randomUUID();
  const R1 = randomUUID();
  const R2 = randomUUID();
  await addRegistry(db, companyId, { id: R0, number: 1, status: 'APPROVED', sent: '2025-10-20T00:00:00Z', decided: '2025-11-01T00:00:00Z', sender: findir, items: [item(projects.P10, B, 'RUB', { costs: 1_000_000, effect: 50_000_000, remuneration: 5_000_000 })] });
  if (withRegistry) {
    await addRegistry(db, companyId, {
      id: R1,
      number: 2,
      status: 'APPROVED',
      sent: '2026-03-01T00:00:00Z',
      decided: '2026-03-10T12:00:00Z',
      sender: findir,
      items: [
        item(projects.P1, A, 'RUB', { costs: 100_000_000, effect: 500_000_000, remuneration: 50_000_000, finalCost: 120_000_000 }),
        item(projects.P4, B, 'RUB', { costs: 50_000_000, effect: 200_000_000, remuneration: 10_000_000 }),
      ],
    });
  }
  await addRegistry(db, companyId, { id: R2, number: 3, status: 'SENT', sent: '2026-05-01T00:00:00Z', sender: findir, items: [item(projects.P5, B, 'AUD', { costs: 400_000, effect: 1_200_001, remuneration: 150_000 })] });
  const r1 = withRegistry ? R1 : undefined;

  const project = (spec: ProjectSpec) => addProject(db, companyId, spec);
  await project({
    id: projects.P1, suggestion: S1, department: A, currency: 'RUB', status: 'APPROVED', created: '2026-01-15T00:00:00Z', approved: '2026-02-10T10:00:00Z',
    costs: 100_000_000, effect: 500_000_000, profitBasisPoints: 1000, manager: employees.a1, team: [employees.a2], goals: [goals.G1],
    baseline: { value: 40, unitId: 'MINUTES' }, reports: [{ date: '2026-04-01', value: 25 }, { date: '2026-03-01', value: 30 }], nextReportDue: '2026-06-30', registry: r1,
  });
  await project({
    id: projects.P2, suggestion: S9, department: A, currency: 'USD', status: 'COMPLETED', created: '2026-01-06T00:00:00Z', approved: '2026-01-20T00:00:00Z',
    costs: 200_000, effect: 1_000_000, profitBasisPoints: 500, cap: 30_000, actualDate: '2026-05-15', actualEffect: 800_000, manager: employees.headA,
    nextReportDue: '2026-08-15', overdueAt: '2026-06-20T00:00:00Z',
  });
  await project({
    id: projects.P3, suggestion: S3, department: B, currency: 'RUB', status: 'CALCULATED', created: '2026-03-05T00:00:00Z',
    costs: 300_000, effect: 900_000, manager: employees.employeeB, goals: [goals.G2], baseline: { value: 8, unitId: 'HOURS' },
  });
  await project({
    id: projects.P4, department: B, currency: 'RUB', status: 'COMPLETED', created: '2025-06-01T00:00:00Z', approved: '2025-07-01T00:00:00Z',
    costs: 50_000_000, effect: 200_000_000, profitBasisPoints: 1000, cap: 10_000_000, actualDate: '2026-03-31', actualEffect: 250_000_000,
    manager: employees.employeeB, team: [employees.a3], goals: [goals.G1], baseline: { value: 10, unitId: 'HOURS' }, reports: [{ date: '2026-04-15', value: 2 }],
    nextReportDue: '2026-09-30', registry: r1,
  });
  await project({
    id: projects.P5, department: B, currency: 'AUD', status: 'APPROVED', created: '2026-04-01T00:00:00Z', approved: '2026-04-15T00:00:00Z',
    costs: 400_000, effect: 1_200_001, profitBasisPoints: 1250, manager: employees.employeeB, team: [employees.b1],
    nextReportDue: '2026-05-15', overdueAt: '2026-05-16T00:00:00Z', registry: R2,
  });
  await project({ id: projects.P6, department: A, currency: 'RUB', status: 'NEW', created: '2026-07-05T00:00:00Z', manager: employees.b2 });
  await project({ id: projects.P7, department: null, currency: 'RUB', status: 'FOR_REVISION', created: '2026-02-01T00:00:00Z', manager: employees.loner });
  await project({
    id: projects.P8, department: A, currency: 'RUB', status: 'APPROVED', created: '2026-06-01T00:00:00Z', approved: '2026-06-30T23:30:00Z',
    costs: 1_000_000, effect: 2_000_000, profitBasisPoints: 0, manager: employees.a1, goals: [goals.G1], baseline: { value: 100, unitId: 'MINUTES' },
    reports: [{ date: '2026-06-30', value: 97 }], nextReportDue: '2026-07-30',
  });
  await project({
    id: projects.P9, department: A, currency: 'RUB', status: 'APPROVED', created: '2026-06-15T00:00:00Z', approved: '2026-07-01T00:00:00Z',
    costs: 1_000_000, effect: 7_777_700, manager: employees.a1, nextReportDue: '2026-08-01',
  });
  await project({
    id: projects.P10, department: B, currency: 'RUB', status: 'COMPLETED', created: '2025-01-01T00:00:00Z', approved: '2025-02-01T00:00:00Z',
    costs: 1_000_000, effect: 50_000_000, actualDate: '2025-12-31', actualEffect: 40_000_000, manager: employees.findir, registry: R0,
  });

  for (const [month, currency, amount] of [
    ['2026-01', 'RUB', 1_000_000_000],
    ['2026-02', 'RUB', 1_500_000_000],
    ['2026-07', 'RUB', 9_000_000_000],
    ['2026-03', 'USD', -50_000],
    ['2025-12', 'AUD', 100],
  ] as const) {
    await db.query('INSERT INTO company_ebitda (company_id, month, currency, amount_minor, entered_by) VALUES ($1, $2, $3, $4, $5)', [companyId, month, currency, amount, findir.id]);
  }
  return { companyId, departments: { A, B }, employees, goals, projects };
}
