import { assert, is } from 'superstruct';
import { Goal, GOAL_STATUSES } from '../../../src/domain/goal';
import { checkPayments } from '../../../src/domain/money';
import { availableProjectTransitions, Project, PROJECT_REPORTING_STATUSES, PROJECT_STATUSES } from '../../../src/domain/project';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOverdue, SUGGESTION_STATUSES, type SuggestionStatus } from '../../../src/domain/suggestion';
import { CurrentUser } from '../../../src/domain/user';
import { missingForStart } from '../../../src/domain/company';
import { api, clientAddress, createTestApp, json, type TestApp } from '../../test-support';
import { selectGoals, toGoal } from '../goals/rows';
import { selectProjects, toProject } from '../projects/rows';
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
                OR EXISTS (SELECT 1 FROM projects p WHERE p.company_id = n.company_id AND p.id = n.project_id) AS linked
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

  it('is seeded once: seeding again changes no count', async () => {
    const before = await counts();
    expect(before.departments).toBe(5);
    expect(await seedDemo(t.db, t.config.passwordScryptLogN)).toBe(0);
    expect(await seedDemo(t.db, t.config.passwordScryptLogN)).toBe(0);
    expect(await counts()).toEqual(before);
  });
});
