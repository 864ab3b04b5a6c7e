import { assert, is } from 'superstruct';
import { Goal, GOAL_STATUSES } from '../../../src/domain/goal';
import { checkPayments } from '../../../src/domain/money';
import { availableProjectTransitions, Project, PROJECT_REPORTING_STATUSES, PROJECT_STATUSES } from '../../../src/domain/project';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableRegistryActions, isInOpenRegistry, Registry, registryTotals } from '../../../src/domain/registry';
import { isOverdue, SUGGESTION_STATUSES, SyncPage, type SuggestionStatus } from '../../../src/domain/suggestion';
import { CurrentUser } from '../../../src/domain/user';
import { missingForStart } from '../../../src/domain/company';
import { api, clientAddress, createTestApp, json, type TestApp } from '../../test-support';
import { selectGoals, toGoal } from '../goals/rows';
import { selectProjects, toProject } from '../projects/rows';
import { selectRegistries, toRegistry } from '../registry/rows';
import { DEMO_COMPANY, DEMO_LOGINS, DEMO_PASSWORD, listDemoLogins, seedDemo } from './seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo data', () => {
  it('creates one verified login per role of DESIGN.md, and nothing more on a second run', async () => {
    expect(await seedDemo(t.db, t.config.passwordScryptLogN)).toBe(DEMO_LOGINS.length);
    expect(await seedDemo(t.db, t.config.passwordScryptLogN)).toBe(0);
    expect((await listDemoLogins(t.db)).map((l) => l.email)).toEqual([
      'owner@demo.local',
      'ceo@demo.local',
      'findir@demo.local',
      'finspec@demo.local',
      'direction@demo.local',
      'head@demo.local',
      'hr@demo.local',
      'employee@demo.local',
      'admin@demo.local',
    ]);
  });

  it('lets every demo login sign in with demo1234 and see its role', async () => {
    const expected: Record<string, [string, string]> = {
      'owner@demo.local': ['OWNER', 'ROLE_OWNER'],
      'findir@demo.local': ['FINANCIAL_DIRECTOR', 'ROLE_FINANCIAL_DIRECTOR'],
      'hr@demo.local': ['HR', 'ROLE_HR'],
      'admin@demo.local': ['ADMIN', 'ROLE_ADMIN'],
    };
    for (const [email, [role, authority]] of Object.entries(expected)) {
      const login = await t.app.inject({ method: 'POST', url: api('/auth/login'), remoteAddress: clientAddress(), payload: { email, password: DEMO_PASSWORD } });
      expect(login.statusCode, email).toBe(200);
      const user = await t.app.inject({ method: 'GET', url: api('/user'), headers: { authorization: `Bearer ${json(login).access_token as string}` } });
      const { data } = json<{ data: unknown }>(user);
      assert(data, CurrentUser);
      expect(data).toMatchObject({ role, authorities: [{ authority }], emailVerified: true, company: DEMO_COMPANY });
      expect(data.fullName).toMatch(/^[А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+$/);
    }
  });

  it('leaves a changed demo account as it is', async () => {
    await t.db.query(`UPDATE users SET first_name = 'Изменено' WHERE email = 'ceo@demo.local'`);
    await seedDemo(t.db, t.config.passwordScryptLogN);
    expect(await t.db.one(`SELECT first_name FROM users WHERE email = 'ceo@demo.local'`)).toEqual({ first_name: 'Изменено' });
  });
});

describe('the demo company', () => {
  const companyId = async () => {
    const rows = await t.db.query<{ id: string; name: string }>('SELECT id, name FROM companies WHERE inn = $1', ['7712345671']);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toBe('ООО «Демо Завод»');
    return rows[0]!.id;
  };

  /** Every row the seed writes, counted. */
  async function counts(): Promise<Record<string, number>> {
    const id = await companyId();
    const n = async (sql: string, params: string[] = [id]) => Number((await t.db.one<{ n: string }>(`SELECT count(*)::text AS n FROM ${sql}`, params))?.n);
    return {
      users: await n('users', []),
      companies: await n('companies', []),
      departments: await n('departments WHERE company_id = $1'),
      employees: await n('employees WHERE company_id = $1'),
      members: await n('company_members WHERE company_id = $1'),
      suggestions: await n('suggestions WHERE company_id = $1'),
      notifications: await n('notifications WHERE company_id = $1'),
      goals: await n('goals WHERE company_id = $1'),
      projects: await n('projects WHERE company_id = $1'),
      registries: await n('registries WHERE company_id = $1'),
      ebitda: await n('company_ebitda WHERE company_id = $1'),
    };
  }

  it('is ООО «Демо Завод», INN 7712345671, with its five departments, Производство headed by head@demo.local', async () => {
    await seedDemo(t.db, t.config.passwordScryptLogN);
    const id = await companyId();
    const departments = await t.db.query<{ name: string; head: string | null }>(
      'SELECT d.name, lower(u.email) AS head FROM departments d LEFT JOIN users u ON u.id = d.head_user_id WHERE d.company_id = $1 ORDER BY d.name',
      [id],
    );
    expect(departments.map((d) => d.name).sort()).toEqual(['Бухгалтерия', 'Качество', 'Логистика', 'Отдел кадров', 'Производство'].sort());
    expect(departments.find((d) => d.name === 'Производство')?.head).toBe('head@demo.local');
  });

  it("has about 50 employees, none of them in another company's department", async () => {
    const id = await companyId();
    const employees = await t.db.query<{ department_id: string | null; in_company: boolean }>(
      `SELECT e.department_id, EXISTS (SELECT 1 FROM departments d WHERE d.id = e.department_id AND d.company_id = e.company_id) AS in_company
         FROM employees e WHERE e.company_id = $1`,
      [id],
    );
    expect(employees.length).toBeGreaterThanOrEqual(45);
    expect(employees.length).toBeLessThanOrEqual(55);
    expect(employees.filter((e) => e.department_id !== null && !e.in_company)).toEqual([]);
    expect(employees.filter((e) => e.department_id !== null).length).toBeGreaterThanOrEqual(45);
  });

  it('has every demo login but admin@demo.local as an active member with its role', async () => {
    const id = await companyId();
    const members = await t.db.query<{ email: string; roles: string[]; active: boolean }>(
      'SELECT lower(u.email) AS email, m.roles, m.active FROM company_members m JOIN users u ON u.id = m.user_id WHERE m.company_id = $1',
      [id],
    );
    const byEmail = new Map(members.map((m) => [m.email, m]));
    for (const login of DEMO_LOGINS) {
      if (login.email === 'admin@demo.local') expect(byEmail.has(login.email), login.email).toBe(false);
      else expect(byEmail.get(login.email), login.email).toEqual({ email: login.email, roles: [login.role], active: true });
    }
    expect(members).toHaveLength(DEMO_LOGINS.length - 1);
    // As the API tells the head of production.
    const login = await t.app.inject({ method: 'POST', url: api('/auth/login'), remoteAddress: clientAddress(), payload: { email: 'head@demo.local', password: DEMO_PASSWORD } });
    const user = await t.app.inject({ method: 'GET', url: api('/user'), headers: { authorization: `Bearer ${json(login).access_token as string}` } });
    expect(json<{ data: CurrentUser }>(user).data.companies).toEqual([{ id, name: DEMO_COMPANY.name, roles: ['MIDDLE_MANAGER'] }]);
  });

  it("gives each demo login's employee row the roles of its membership, and is ready to start", async () => {
    const id = await companyId();
    const rows = await t.db.query<{ email: string; employee_roles: string[]; member_roles: string[] }>(
      `SELECT lower(u.email) AS email, e.roles AS employee_roles, m.roles AS member_roles
         FROM employees e JOIN users u ON u.id = e.user_id JOIN company_members m ON m.company_id = e.company_id AND m.user_id = e.user_id
        WHERE e.company_id = $1`,
      [id],
    );
    expect(rows).toHaveLength(DEMO_LOGINS.length - 1);
    for (const row of rows) expect(row.employee_roles, row.email).toEqual(row.member_roles);
    // Their positions read in Russian, as the rest of the demo company does.
    const positions = await t.db.query<{ position: string }>('SELECT position FROM employees WHERE company_id = $1 AND user_id IS NOT NULL', [id]);
    for (const { position } of positions) expect(position).not.toMatch(/[A-Za-z]{3,}/);
    expect(missingForStart(rows.map((r) => r.member_roles))).toEqual([]);
  });

  it('has proposals in every status, at least one of them overdue', async () => {
    const id = await companyId();
    const rows = await t.db.query<{ status: SuggestionStatus; due_at: Date | string }>('SELECT status, due_at FROM suggestions WHERE company_id = $1', [id]);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(SUGGESTION_STATUSES));
    expect(SUGGESTION_STATUSES.every((status) => rows.some((r) => r.status === status))).toBe(true);
    const now = new Date();
    const overdue = rows.filter((r) => isOverdue({ status: r.status, dueAt: new Date(r.due_at).toISOString() }, now));
    expect(overdue.length).toBeGreaterThanOrEqual(1);
  });

  it('exercises the review loop: head@ has employee@ proposals due at different times, one escalated, one waiting on the author', async () => {
    const id = await companyId();
    const rows = await t.db.query<{
      title: string;
      status: SuggestionStatus;
      author: string;
      department: string;
      due_at: Date;
      escalation_level: number;
      overdue_at: Date | null;
      review_comment: string | null;
      decided_by: string | null;
      decided_by_name: string | null;
      decided_at: Date | null;
      clarification_at: Date | null;
      history: { kind: string }[];
    }>(
      `SELECT s.title, s.status, lower(u.email) AS author, d.name AS department, s.due_at, s.escalation_level, s.overdue_at, s.review_comment,
              s.decided_by, s.decided_by_name, s.decided_at, s.clarification_at, s.history
         FROM suggestions s JOIN users u ON u.id = s.author_id JOIN departments d ON d.id = s.department_id WHERE s.company_id = $1`,
      [id],
    );
    const now = Date.now();
    const waiting = rows.filter((r) => r.status === 'UNDER_CONSIDERATION' && r.author === 'employee@demo.local' && r.department === 'Производство');
    expect(waiting.length).toBeGreaterThanOrEqual(4);
    expect(new Set(waiting.map((r) => new Date(r.due_at).toISOString())).size).toBe(waiting.length);
    const escalated = waiting.filter((r) => new Date(r.due_at).getTime() < now && r.escalation_level === 1 && r.overdue_at !== null);
    expect(escalated.length).toBeGreaterThanOrEqual(1);
    expect(escalated[0]?.history.map((h) => h.kind)).toEqual(expect.arrayContaining(['OVERDUE', 'ESCALATED']));
    expect(waiting.some((r) => new Date(r.due_at).getTime() > now && new Date(r.due_at).getTime() <= now + 2 * 24 * 3600 * 1000)).toBe(true);
    const asked = rows.filter((r) => r.status === 'CLARIFICATION');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ author: 'employee@demo.local', decided_by_name: 'Новиков Сергей Иванович' });
    expect(asked[0]?.review_comment).toMatch(/\?$/);
    expect(asked[0]?.clarification_at).not.toBeNull();
    for (const decided of rows.filter((r) => r.status === 'APPROVED' || r.status === 'REJECTED')) {
      expect(decided.decided_by, decided.title).not.toBeNull();
      expect(decided.decided_by_name, decided.title).toMatch(/^[А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+$/);
      expect(decided.decided_at, decided.title).not.toBeNull();
      expect(decided.review_comment, decided.title).not.toBeNull();
    }
    // The head of production decided some of them.
    expect(rows.some((r) => r.status !== 'UNDER_CONSIDERATION' && r.decided_by_name === 'Новиков Сергей Иванович' && r.status !== 'CLARIFICATION')).toBe(true);
  });

  it('has unread notifications for employee@ and head@, about proposals, goals and projects of the company', async () => {
    const id = await companyId();
    const rows = await t.db.query<{ email: string; kind: string; unread: boolean; linked: boolean }>(
      `SELECT lower(u.email) AS email, n.kind, n.read_at IS NULL AS unread,
              EXISTS (SELECT 1 FROM suggestions s WHERE s.company_id = n.company_id AND s.id = n.suggestion_id)
                OR EXISTS (SELECT 1 FROM goals g WHERE g.company_id = n.company_id AND g.id = n.goal_id)
                OR EXISTS (SELECT 1 FROM projects p WHERE p.company_id = n.company_id AND p.id = n.project_id)
                OR EXISTS (SELECT 1 FROM registries r WHERE r.company_id = n.company_id AND r.id = n.registry_id) AS linked
         FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.company_id = $1`,
      [id],
    );
    for (const email of ['employee@demo.local', 'head@demo.local']) {
      expect(rows.filter((r) => r.email === email && r.unread).length, email).toBeGreaterThanOrEqual(2);
    }
    expect(rows.every((r) => r.linked)).toBe(true);
    // Who has a goal or a project waiting on them is told so.
    const told = (email: string) => rows.filter((r) => r.email === email).map((r) => r.kind);
    expect(told('head@demo.local')).toEqual(expect.arrayContaining(['GOAL_ASSIGNED', 'PROJECT_FOR_REVISION', 'PROJECT_REPORT_OVERDUE']));
    expect(told('ceo@demo.local')).toContain('GOAL_ASSIGNED');
    expect(told('owner@demo.local')).toEqual(expect.arrayContaining(['GOAL_TO_WORK', 'GOAL_CLARIFICATION']));
    expect(told('finspec@demo.local')).toContain('PROJECT_CALCULATING');
    expect(told('direction@demo.local')).toContain('PROJECT_CALCULATED');
  });

  /** The demo's goals and projects as the API reads them, with the e-mails of their people. */
  async function goalsAndProjects() {
    const id = await companyId();
    const emailOf = new Map(
      (await t.db.query<{ id: string; email: string }>('SELECT id, lower(email) AS email FROM users')).map((u) => [u.id, u.email]),
    );
    const employeeEmail = new Map(
      (await t.db.query<{ id: string; email: string | null }>('SELECT e.id, lower(u.email) AS email FROM employees e LEFT JOIN users u ON u.id = e.user_id WHERE e.company_id = $1', [id])).map((e) => [e.id, e.email]),
    );
    const goals = (await selectGoals(t.db).where('g.company_id', '=', id).execute()).map(toGoal);
    const projects = (await selectProjects(t.db).where('p.company_id', '=', id).execute()).map(toProject);
    return { id, goals, projects, emailOf, employeeEmail };
  }

  it('has goals in every state that read back as the API answers them, their history leading to their state', async () => {
    const { goals, employeeEmail } = await goalsAndProjects();
    for (const goal of goals) {
      expect(is(goal, Goal), goal.direction).toBe(true);
      expect(goal.endDate > goal.startDate).toBe(true);
      expect(goal.history[0]).toMatchObject({ action: 'CREATED', fromStatus: null, toStatus: 'NEW' });
      expect(goal.history.at(-1)?.toStatus, goal.direction).toBe(goal.status);
      for (const [index, entry] of goal.history.entries()) {
        if (index > 0) expect(entry.fromStatus, goal.direction).toBe(goal.history[index - 1]?.toStatus);
        if (entry.action === 'CLARIFICATION') expect(entry.comment, goal.direction).toMatch(/\?$/);
      }
    }
    expect(new Set(goals.map((goal) => goal.status))).toEqual(new Set(GOAL_STATUSES));
    const customerOf = (goal: Goal) => employeeEmail.get(goal.businessCustomerEmployeeId);
    // head@ can act on a NEW goal; the CEO has one too.
    expect(goals.some((goal) => goal.status === 'NEW' && customerOf(goal) === 'head@demo.local' && goal.businessCustomerUserId !== null)).toBe(true);
    expect(goals.some((goal) => goal.status === 'NEW' && customerOf(goal) === 'ceo@demo.local')).toBe(true);
  });

  it('has projects in every state that read back as the API answers them, paid within their remuneration', async () => {
    const { goals, projects, employeeEmail } = await goalsAndProjects();
    const goalIds = new Set(goals.map((goal) => goal.id));
    for (const project of projects) {
      expect(is(project, Project), project.name).toBe(true);
      expect(project.history[0]).toMatchObject({ action: 'CREATED', toStatus: 'NEW' });
      expect([...project.history].reverse().find((entry) => entry.action !== 'INDICATOR_REPORTED')?.toStatus, project.name).toBe(project.status);
      expect(project.goalIds.length, project.name).toBeGreaterThanOrEqual(1);
      for (const goalId of project.goalIds) expect(goalIds.has(goalId)).toBe(true);
      expect(checkPayments(project.payments, project.remunerationMinor ?? 0).ok, project.name).toBe(true);
      const calculated = project.status !== 'NEW' && project.status !== 'CALCULATING';
      expect(project.expectedEffect12mMinor !== null, project.name).toBe(calculated);
      expect(project.estimatedCostsMinor !== null, project.name).toBe(calculated);
      const payable = new Set([project.projectManagerEmployeeId, ...project.team.map((member) => member.employeeId)]);
      for (const payment of project.payments) expect(payable.has(payment.employeeId), project.name).toBe(true);
    }
    expect(new Set(projects.map((project) => project.status))).toEqual(new Set(PROJECT_STATUSES));
    const managedBy = (project: Project) => employeeEmail.get(project.projectManagerEmployeeId);
    expect(projects.some((project) => project.status === 'NEW' && managedBy(project) === 'head@demo.local')).toBe(true);
    expect(projects.some((project) => project.status === 'FOR_REVISION' && managedBy(project) === 'head@demo.local')).toBe(true);
    const revised = projects.find((project) => project.status === 'FOR_REVISION');
    expect(revised?.history.at(-1)?.comment).toBeTruthy();
    // finspec@ can calculate one, direction@ can decide one (as the shared rules say).
    const finspec = { userId: 'finspec', roles: ['FINANCIAL_SPECIALIST' as const], headOfDepartmentIds: [] };
    const direction = { userId: 'direction', roles: ['DIRECTION_MANAGER' as const], headOfDepartmentIds: [] };
    expect(projects.some((project) => availableProjectTransitions(project, finspec).includes('CALCULATED'))).toBe(true);
    expect(projects.some((project) => availableProjectTransitions(project, direction).includes('APPROVED'))).toBe(true);
  });

  it('makes projects of approved proposals, carrying their department and author, and leaves one of production for the head', async () => {
    const { id, projects } = await goalsAndProjects();
    const proposals = await t.db.query<{ id: string; status: string; department_id: string; author_id: string; department: string }>(
      'SELECT s.id, s.status, s.department_id, s.author_id, d.name AS department FROM suggestions s JOIN departments d ON d.id = s.department_id WHERE s.company_id = $1',
      [id],
    );
    const made = projects.filter((project) => project.suggestionId !== null);
    expect(made.length).toBeGreaterThanOrEqual(3);
    for (const project of made) {
      const proposal = proposals.find((s) => s.id === project.suggestionId);
      expect(proposal?.status, project.name).toBe('APPROVED');
      expect(project.departmentId).toBe(proposal?.department_id);
      expect(project.authorUserId).toBe(proposal?.author_id);
    }
    const withProject = new Set(made.map((project) => project.suggestionId));
    expect(proposals.some((s) => s.status === 'APPROVED' && s.department === 'Производство' && !withProject.has(s.id))).toBe(true);
  });

  it('has indicator reports on approved and completed projects, the next one due as the service counts it, and one overdue', async () => {
    const { projects } = await goalsAndProjects();
    const today = new Date().toISOString().slice(0, 10);
    const reporting = projects.filter((project) => PROJECT_REPORTING_STATUSES.includes(project.status));
    expect(reporting.length).toBeGreaterThanOrEqual(2);
    for (const project of reporting) {
      expect(project.indicatorReports.length, project.name).toBeGreaterThanOrEqual(1);
      expect(project.nextReportDue, project.name).not.toBeNull();
      for (const report of project.indicatorReports) {
        expect(report.date <= today).toBe(true);
        expect(report.date < (project.nextReportDue ?? '')).toBe(true);
      }
    }
    for (const project of projects.filter((p) => !PROJECT_REPORTING_STATUSES.includes(p.status))) expect(project.nextReportDue, project.name).toBeNull();
    const completed = projects.filter((project) => project.status === 'COMPLETED');
    for (const project of completed) expect(project.actualCompletionDate !== null && project.actualEffect12mMinor !== null).toBe(true);
    const overdue = reporting.filter((project) => project.reportOverdueAt !== null);
    expect(overdue).toHaveLength(1);
    expect((overdue[0]?.nextReportDue ?? '') < today).toBe(true);
    // The others are on time.
    for (const project of reporting.filter((p) => p.reportOverdueAt === null)) expect((project.nextReportDue ?? '') >= today, project.name).toBe(true);
  });

  /** The demo's sent registries as the API reads them, by number. */
  async function registries() {
    const id = await companyId();
    return (await selectRegistries(t.db).where('r.company_id', '=', id).orderBy('r.number').execute()).map(toRegistry);
  }

  const owner = { userId: 'owner', roles: ['OWNER' as const], headOfDepartmentIds: [] };
  const direction = { userId: 'direction', roles: ['DIRECTION_MANAGER' as const], headOfDepartmentIds: [] };

  it('has registries No. 1 approved, No. 2 returned and No. 3 sent, read back as the API answers them, with their totals', async () => {
    const { emailOf } = await goalsAndProjects();
    const rows = await registries();
    expect(rows.map((r) => [r.number, r.status])).toEqual([
      [1, 'APPROVED'],
      [2, 'RETURNED'],
      [3, 'SENT'],
    ]);
    const day = 24 * 3600 * 1000;
    for (const registry of rows) {
      expect(Registry.is(registry), `No. ${registry.number}`).toBe(true);
      expect(registry.items.length, `No. ${registry.number}`).toBeGreaterThanOrEqual(1);
      expect(registry.totals).toEqual(registryTotals(registry.items));
      expect(registry.history[0]).toMatchObject({ action: 'SEND', fromStatus: 'OPEN', toStatus: 'SENT', byUserId: registry.sentByUserId, byName: registry.sentByName, at: registry.sentAt });
      expect(registry.history.at(-1)?.toStatus).toBe(registry.status);
      expect(registry.sentByName).toMatch(/^[А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+$/);
      expect(Date.parse(registry.sentAt)).toBeLessThan(Date.now());
    }
    // Sent in the order of their numbers, each decided before the next was sent.
    for (const [index, registry] of rows.entries()) {
      const next = rows[index + 1];
      if (next) expect(Date.parse(registry.decidedAt ?? '')).toBeLessThan(Date.parse(next.sentAt));
    }
    const [approved, returned, sent] = rows;
    // No. 1: approved by owner@ some weeks ago, one final cost adjusted with its reason (kept in the item and the totals).
    expect(emailOf.get(approved?.decidedByUserId ?? '')).toBe('owner@demo.local');
    expect(Date.parse(approved?.decidedAt ?? '')).toBeLessThan(Date.now() - 14 * day);
    expect(approved?.history.at(-1)).toMatchObject({ action: 'APPROVE', fromStatus: 'SENT', byUserId: approved?.decidedByUserId });
    const adjusted = approved?.items.filter((item) => item.finalCostMinor !== null) ?? [];
    expect(adjusted).toHaveLength(1);
    expect(adjusted[0]?.adjustmentReason?.trim()).toBeTruthy();
    expect(adjusted[0]?.finalCostMinor).not.toBe(adjusted[0]?.estimatedCostsMinor);
    const rub = approved?.totals.find((total) => total.currency === 'RUB');
    expect(rub && rub.finalCostsMinor - rub.estimatedCostsMinor).toBe((adjusted[0]?.finalCostMinor ?? 0) - (adjusted[0]?.estimatedCostsMinor ?? 0));
    // No. 2: returned by owner@ with a comment, to the direction manager who sent it.
    expect(emailOf.get(returned?.decidedByUserId ?? '')).toBe('owner@demo.local');
    expect(emailOf.get(returned?.sentByUserId ?? '')).toBe('direction@demo.local');
    expect(returned?.comment?.trim()).toBeTruthy();
    expect(returned?.history.at(-1)).toMatchObject({ action: 'RETURN', comment: returned?.comment });
    expect(returned?.items.every((item) => item.finalCostMinor === null && item.adjustmentReason === null)).toBe(true);
    // No. 3: sent by direction@ recently, waiting on the owner, who may approve or return it.
    expect(emailOf.get(sent?.sentByUserId ?? '')).toBe('direction@demo.local');
    expect(Date.parse(sent?.sentAt ?? '')).toBeGreaterThan(Date.now() - 7 * day);
    expect(sent).toMatchObject({ decidedByUserId: null, decidedByName: null, decidedAt: null, comment: null });
    expect(sent?.items.length).toBeGreaterThanOrEqual(2);
    expect(availableRegistryActions({ status: 'SENT', projectCount: sent?.items.length ?? 0 }, owner.roles)).toEqual(['APPROVE', 'RETURN']);
    // More than one currency among the figures of record.
    expect(approved?.totals.map((total) => total.currency)).toEqual(['RUB', 'USD']);
  });

  it("snapshots in each registry's items seeded projects approved before it was sent, as toProject answers them", async () => {
    const { id, projects } = await goalsAndProjects();
    const byId = new Map(projects.map((project) => [project.id, project]));
    const managerNames = new Map(
      (await t.db.query<{ id: string; name: string }>(`SELECT id, concat_ws(' ', last_name, first_name, middle_name) AS name FROM employees WHERE company_id = $1`, [id])).map((e) => [e.id, e.name]),
    );
    const approvedAt = new Map(
      (await t.db.query<{ id: string; approved_at: Date | null }>('SELECT id, approved_at FROM projects WHERE company_id = $1', [id])).map((p) => [p.id, p.approved_at]),
    );
    const rows = await registries();
    for (const registry of rows) {
      for (const item of registry.items) {
        const project = byId.get(item.projectId);
        expect(project, item.name).toBeDefined();
        expect(item).toMatchObject({
          name: project?.name,
          departmentId: project?.departmentId,
          projectManagerName: managerNames.get(project?.projectManagerEmployeeId ?? ''),
          currency: project?.currency,
          estimatedCostsMinor: project?.estimatedCostsMinor,
          expectedEffect12mMinor: project?.expectedEffect12mMinor,
          remunerationMinor: project?.remunerationMinor,
        });
        expect(['APPROVED', 'COMPLETED']).toContain(project?.status);
        expect(new Date(approvedAt.get(item.projectId) ?? Infinity).getTime(), item.name).toBeLessThan(Date.parse(registry.sentAt));
      }
    }
    // A project is in at most one registry that still holds it (the returned one gave its projects back).
    const held = rows.filter((r) => r.status !== 'RETURNED').flatMap((r) => r.items.map((item) => item.projectId));
    expect(new Set(held).size).toBe(held.length);
  });

  it('files the projects of the sent and the approved registry under them, and leaves the returned one\'s in the open registry', async () => {
    const { projects } = await goalsAndProjects();
    const byId = new Map(projects.map((project) => [project.id, project]));
    const rows = await registries();
    for (const registry of rows) {
      const expected = registry.status === 'RETURNED' ? null : registry.id;
      for (const item of registry.items) expect(byId.get(item.projectId)?.registryId, `${item.name} of No. ${registry.number}`).toBe(expected);
    }
    const sent = rows.find((r) => r.status === 'SENT');
    expect(projects.filter((project) => project.registryId === sent?.id).length).toBeGreaterThanOrEqual(2);
    // Every project filed under a registry is one of its items.
    for (const project of projects.filter((p) => p.registryId !== null)) {
      expect(rows.find((r) => r.id === project.registryId)?.items.map((item) => item.projectId), project.name).toContain(project.id);
    }
    // The open registry: the returned registry's projects among them, ready for direction@ to send.
    const open = projects.filter(isInOpenRegistry);
    const returned = rows.find((r) => r.status === 'RETURNED');
    expect(open.map((project) => project.id).sort()).toEqual(expect.arrayContaining(returned?.items.map((item) => item.projectId) ?? ['none']));
    expect(open.length).toBeGreaterThanOrEqual(1);
    expect(availableRegistryActions({ status: 'OPEN', projectCount: open.length }, direction.roles)).toEqual(['SEND']);
    // Projects in RUB and in USD among the approved ones.
    expect(new Set(projects.filter((p) => p.status === 'APPROVED').map((p) => p.currency))).toEqual(new Set(['RUB', 'USD']));
  });

  it('sets approved_at of every approved and completed project from its audit trail, in several months', async () => {
    const id = await companyId();
    const rows = await t.db.query<{ name: string; status: string; approved_at: Date | null; history: { action: string; toStatus: string; at: string }[] }>(
      'SELECT name, status, approved_at, history FROM projects WHERE company_id = $1',
      [id],
    );
    const approved = rows.filter((r) => r.status === 'APPROVED' || r.status === 'COMPLETED');
    expect(approved.length).toBeGreaterThanOrEqual(6);
    for (const row of rows) {
      const entry = row.history.findLast((h) => h.action === 'TRANSITION' && h.toStatus === 'APPROVED');
      if (row.status === 'APPROVED' || row.status === 'COMPLETED') expect(row.approved_at && new Date(row.approved_at).toISOString(), row.name).toBe(entry?.at);
      else expect(row.approved_at, row.name).toBeNull();
    }
    // The dashboard's effect by month: approvals in at least four months of the last eight, one within the last month.
    const months = new Set(approved.map((r) => new Date(r.approved_at ?? 0).toISOString().slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(4);
    const day = 24 * 3600 * 1000;
    expect(approved.every((r) => new Date(r.approved_at ?? 0).getTime() > Date.now() - 245 * day)).toBe(true);
    expect(approved.some((r) => new Date(r.approved_at ?? 0).getTime() > Date.now() - 30 * day)).toBe(true);
  });

  it("tells owner@ of every sent registry and the sender of the owner's decision, linked to the registry", async () => {
    const id = await companyId();
    const notices = await t.db.query<{ email: string; kind: string; registry_id: string | null; params: Record<string, string | null>; unread: boolean }>(
      `SELECT lower(u.email) AS email, n.kind, n.registry_id, n.params, n.read_at IS NULL AS unread
         FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.company_id = $1 AND n.kind LIKE 'REGISTRY_%'`,
      [id],
    );
    const rows = await registries();
    const about = (registry: Registry) => notices.filter((n) => n.registry_id === registry.id);
    for (const registry of rows) {
      const told = about(registry);
      expect(told.find((n) => n.kind === 'REGISTRY_SENT'), `No. ${registry.number}`).toMatchObject({
        email: 'owner@demo.local',
        params: { number: String(registry.number), byName: registry.sentByName, comment: null },
        unread: registry.status === 'SENT',
      });
    }
    const [approved, returned] = rows;
    expect(about(approved!).find((n) => n.kind === 'REGISTRY_APPROVED')).toMatchObject({ email: 'findir@demo.local', params: { number: '1', byName: approved?.decidedByName } });
    expect(about(returned!).find((n) => n.kind === 'REGISTRY_RETURNED')).toMatchObject({ email: 'direction@demo.local', params: { number: '2', byName: returned?.decidedByName, comment: returned?.comment } });
    expect(notices).toHaveLength(rows.length + 2);
  });

  it('has twelve months of EBITDA in RUB up to this month, entered by findir@, between 8 and 15 million roubles each', async () => {
    const id = await companyId();
    const rows = await t.db.query<{ month: string; currency: string; amount_minor: string; email: string | null }>(
      'SELECT e.month, e.currency, e.amount_minor::text AS amount_minor, lower(u.email) AS email FROM company_ebitda e LEFT JOIN users u ON u.id = e.entered_by WHERE e.company_id = $1 ORDER BY e.month',
      [id],
    );
    expect(rows).toHaveLength(12);
    const now = new Date();
    const thisMonth = now.toISOString().slice(0, 7);
    const yearAgo = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)).toISOString().slice(0, 7);
    expect([rows[0]?.month, rows.at(-1)?.month]).toEqual([yearAgo, thisMonth]);
    for (const row of rows) {
      expect(row).toMatchObject({ currency: 'RUB', email: 'findir@demo.local' });
      expect(Number(row.amount_minor), row.month).toBeGreaterThanOrEqual(8_000_000_00);
      expect(Number(row.amount_minor), row.month).toBeLessThanOrEqual(15_000_000_00);
    }
  });

  it("reaches every member's device: the pull carries the registries and each project's registry", async () => {
    const id = await companyId();
    const login = await t.app.inject({ method: 'POST', url: api('/auth/login'), remoteAddress: clientAddress(), payload: { email: 'employee@demo.local', password: DEMO_PASSWORD } });
    const headers = { authorization: `Bearer ${json(login).access_token as string}` };
    const mirror = new Map<string, unknown>();
    let cursor = '';
    for (;;) {
      const res = await t.app.inject({ method: 'GET', url: api(`/sync/pull?companyId=${id}&limit=1000${cursor ? `&cursor=${cursor}` : ''}`), headers });
      expect(res.statusCode, res.body).toBe(200);
      const page = json<{ data: SyncPage }>(res).data;
      expect(SyncPage.is(page)).toBe(true);
      for (const change of page.changes) if (change.op === 'upsert') mirror.set(`${change.table}:${change.id}`, change.row);
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    const rows = await registries();
    for (const registry of rows) expect(mirror.get(`registries:${registry.id}`)).toEqual(registry);
    const { projects } = await goalsAndProjects();
    for (const project of projects) expect(mirror.get(`projects:${project.id}`), project.name).toMatchObject({ registryId: project.registryId });
  });

  it('is seeded once: seeding again changes no count', async () => {
    const before = await counts();
    expect(before.departments).toBe(5);
    expect(before.registries).toBe(3);
    expect(await seedDemo(t.db, t.config.passwordScryptLogN)).toBe(0);
    expect(await seedDemo(t.db, t.config.passwordScryptLogN)).toBe(0);
    expect(await counts()).toEqual(before);
  });
});
