// Moving projects along PROJECT_TRANSITIONS, completing them and filing indicator reports (docs/api.md, "Projects").
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remunerationOf } from '../../../src/domain/money';
import { PROJECT_TRANSITIONS, Project, type ProjectStatus } from '../../../src/domain/project';
import { createManualClock } from '../../clock';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, employeeIdOf, projectBody, signUpMember, type Fixture, type Login } from './fixtures';

const DAY = 24 * 60 * 60 * 1000;
const START = new Date('2026-11-20T09:00:00.000Z');
const clock = createManualClock(START);

let t: TestApp;
let head: Login;
let headB: Login;
let pm: Login;
let employee: Login;
let hr: Login;
let finspec: Login;
let findir: Login;
let direction: Login;
let direction2: Login;
let owner: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;
let pmEmployee: string;

beforeAll(async () => {
  t = await createTestApp({}, undefined, { clock });
  const member = (lastName: string) => signUpMember(t, { lastName });
  [head, headB, pm, employee, hr, finspec, findir, direction, direction2, owner, outsider] = await Promise.all([
    member('Головин'),
    member('Бобров'),
    member('Менеджеров'),
    member('Рядовой'),
    member('Кадрова'),
    member('Счётов'),
    member('Финансов'),
    member('Направленцев'),
    member('Второвой'),
    member('Хозяинов'),
    member('Чужой'),
  ]);
  acme = await createCompany(
    t.db,
    'Acme',
    {
      [head.id]: ['MIDDLE_MANAGER'],
      [headB.id]: ['MIDDLE_MANAGER'],
      [pm.id]: ['EMPLOYEE'],
      [employee.id]: ['EMPLOYEE'],
      [hr.id]: ['HR'],
      [finspec.id]: ['FINANCIAL_SPECIALIST'],
      [findir.id]: ['FINANCIAL_DIRECTOR'],
      [direction.id]: ['DIRECTION_MANAGER'],
      [direction2.id]: ['DIRECTION_MANAGER'],
      [owner.id]: ['OWNER'],
    },
    { A: head.id, B: headB.id },
  );
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
  pmEmployee = await employeeIdOf(t.db, acme.companyId, pm.id);
});
afterAll(() => t.close());

interface Answer {
  data: Project;
  message: string;
  errors?: Record<string, string>;
}

type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

const headers = (who: Login, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who.access}`, Language: 'en', ...extra });
const projectPath = (id: string, action = '', companyId = acme.companyId) => api(`/companies/${companyId}/projects/${id}${action}`);

async function create(overrides: Record<string, unknown> = {}): Promise<Project> {
  const res = await t.app.inject({ method: 'POST', url: api(`/companies/${acme.companyId}/projects`), headers: headers(head), payload: projectBody(pmEmployee, overrides) });
  expect(res.statusCode, res.body).toBe(201);
  return json<Answer>(res).data;
}

function move(who: Login, id: string, body: Record<string, unknown>, extra: Record<string, string> = {}, companyId = acme.companyId) {
  return t.app.inject({ method: 'POST', url: projectPath(id, '/transitions', companyId), headers: headers(who, extra), payload: body });
}

function complete(who: Login, id: string, body: Record<string, unknown>, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: projectPath(id, '/complete'), headers: headers(who, extra), payload: body });
}

function report(who: Login, id: string, body: Record<string, unknown>, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: projectPath(id, '/indicators'), headers: headers(who, extra), payload: body });
}

function ok(res: Response): Answer {
  expect(res.statusCode, res.body).toBe(200);
  const body = json<Answer>(res);
  expect(Project.is(body.data)).toBe(true);
  return body;
}

const CALCULATION = { estimatedCostsMinor: 5_000_000, expectedEffect12mMinor: 100_000_000 };
const today = () => clock.now().toISOString().slice(0, 10);

/** The body that makes the move to `to` from its row's state, by the row's first party. */
const STEP: Record<ProjectStatus, { who: () => Login; body: Record<string, unknown> }> = {
  NEW: { who: () => pm, body: {} },
  CALCULATING: { who: () => pm, body: { to: 'CALCULATING' } },
  CALCULATED: { who: () => finspec, body: { to: 'CALCULATED', ...CALCULATION } },
  APPROVED: { who: () => direction, body: { to: 'APPROVED' } },
  FOR_REVISION: { who: () => direction, body: { to: 'FOR_REVISION', comment: 'Пересчитайте эффект' } },
  COMPLETED: { who: () => pm, body: { to: 'COMPLETED', actualCompletionDate: '2026-11-01', actualEffect12mMinor: 90_000_000 } },
};

const PATH_TO: Record<ProjectStatus, ProjectStatus[]> = {
  NEW: [],
  CALCULATING: ['CALCULATING'],
  CALCULATED: ['CALCULATING', 'CALCULATED'],
  APPROVED: ['CALCULATING', 'CALCULATED', 'APPROVED'],
  FOR_REVISION: ['CALCULATING', 'CALCULATED', 'FOR_REVISION'],
  COMPLETED: ['CALCULATING', 'CALCULATED', 'APPROVED', 'COMPLETED'],
};

/** A new project moved to `status` by the parties of each step. */
async function projectIn(status: ProjectStatus, overrides: Record<string, unknown> = {}): Promise<Project> {
  let project = await create(overrides);
  for (const to of PATH_TO[status]) project = ok(await move(STEP[to].who(), project.id, STEP[to].body)).data;
  expect(project.status).toBe(status);
  return project;
}

async function notificationsOf(projectId: string): Promise<{ user_id: string; kind: string; params: Record<string, string | null> }[]> {
  return t.db.query('SELECT user_id, kind, params FROM notifications WHERE project_id = $1 ORDER BY created_at, kind, user_id', [projectId]);
}

const nameOf = (lastName: string) => `${lastName} Иван Сергеевич`;
const sorted = (ids: string[]) => [...ids].sort();

describe('the whole chain', () => {
  it('NEW -> CALCULATING -> CALCULATED -> FOR_REVISION -> CALCULATING -> CALCULATED -> APPROVED -> report -> COMPLETED, telling the right people', async () => {
    clock.set(START);
    const p = await create({ profitBasisPoints: 1250, maxPerProjectMinor: 10_000_000 });
    const title = 'Быстрая переналадка';
    /** The notifications of `kind` so far, as 'kind:user' (one clock instant: their order is not theirs to keep). */
    const seen = async (kind: string) => sorted((await notificationsOf(p.id)).filter((n) => n.kind === kind).map((n) => `${n.kind}:${n.user_id}`));

    const sent = ok(await move(pm, p.id, { to: 'CALCULATING' }, { Language: 'ru' }));
    expect(sent.message).toBe('Проект отправлен на расчёт.');
    expect(sent.data.history.at(-1)).toEqual({ at: clock.now().toISOString(), action: 'TRANSITION', fromStatus: 'NEW', toStatus: 'CALCULATING', byUserId: pm.id, byName: nameOf('Менеджеров'), comment: null });
    expect(await seen('PROJECT_CREATED')).toEqual([`PROJECT_CREATED:${pm.id}`]);
    expect(await seen('PROJECT_CALCULATING')).toEqual(sorted([`PROJECT_CALCULATING:${finspec.id}`, `PROJECT_CALCULATING:${findir.id}`]));

    const calculated = ok(await move(finspec, p.id, { to: 'CALCULATED', estimatedCostsMinor: 1_000_000, expectedEffect12mMinor: 100_000_001 }));
    expect(calculated.data).toMatchObject({ status: 'CALCULATED', estimatedCostsMinor: 1_000_000, expectedEffect12mMinor: 100_000_001 });
    expect(calculated.data.remunerationMinor).toBe(remunerationOf({ profitBasisPoints: 1250, expectedEffect12mMinor: 100_000_001, maxPerProjectMinor: 10_000_000 }));
    expect(calculated.data.remunerationMinor).toBe(10_000_000);
    expect(await seen('PROJECT_CALCULATED')).toEqual(sorted([`PROJECT_CALCULATED:${direction.id}`, `PROJECT_CALCULATED:${direction2.id}`]));

    const returned = ok(await move(direction, p.id, { to: 'FOR_REVISION', comment: '  Уточните эффект  ' }));
    expect(returned.data.history.at(-1)).toMatchObject({ fromStatus: 'CALCULATED', toStatus: 'FOR_REVISION', comment: 'Уточните эффект' });
    expect((await notificationsOf(p.id)).filter((n) => n.kind === 'PROJECT_FOR_REVISION')).toEqual([
      { user_id: pm.id, kind: 'PROJECT_FOR_REVISION', params: { title, byName: nameOf('Направленцев'), comment: 'Уточните эффект' } },
    ]);

    ok(await move(pm, p.id, { to: 'CALCULATING' }));
    const recalculated = ok(await move(findir, p.id, { to: 'CALCULATED', estimatedCostsMinor: 2_000_000, expectedEffect12mMinor: 40_000_000 }));
    expect(recalculated.data.remunerationMinor).toBe(5_000_000);

    clock.advance(DAY);
    const approved = ok(await move(direction2, p.id, { to: 'APPROVED', comment: 'Хорошо' }));
    expect(approved.message).toBe('The project has been approved and entered the registry.');
    expect(approved.data).toMatchObject({ status: 'APPROVED', nextReportDue: '2026-12-21', reportOverdueAt: null });
    const approvedNotes = (await notificationsOf(p.id)).filter((n) => n.kind === 'PROJECT_APPROVED');
    expect(approvedNotes).toEqual([{ user_id: pm.id, kind: 'PROJECT_APPROVED', params: { title, byName: nameOf('Второвой'), comment: 'Хорошо' } }]);

    clock.set(new Date('2026-12-25T09:00:00.000Z'));
    const reported = ok(await report(pm, p.id, { id: randomUUID(), date: '2026-12-24', value: 25, comment: 'Уже 25 минут' }));
    expect(reported.message).toBe('The indicator report has been filed.');
    expect(reported.data.indicatorReports).toEqual([expect.objectContaining({ date: '2026-12-24', value: 25, comment: 'Уже 25 минут', at: clock.now().toISOString(), byUserId: pm.id, byName: nameOf('Менеджеров') })]);
    expect(reported.data.nextReportDue).toBe('2027-01-21');
    expect(reported.data.history.at(-1)).toMatchObject({ action: 'INDICATOR_REPORTED', fromStatus: 'APPROVED', toStatus: 'APPROVED' });

    const done = ok(await complete(pm, p.id, { actualCompletionDate: '2026-12-20', actualEffect12mMinor: 45_000_000 }));
    expect(done.message).toBe('The project has been completed.');
    // Post-monitoring quarterly from the actual completion.
    expect(done.data).toMatchObject({ status: 'COMPLETED', actualCompletionDate: '2026-12-20', actualEffect12mMinor: 45_000_000, nextReportDue: '2027-03-20', reportOverdueAt: null });
    expect(done.data.history.map((h) => h.toStatus)).toEqual(['NEW', 'CALCULATING', 'CALCULATED', 'FOR_REVISION', 'CALCULATING', 'CALCULATED', 'APPROVED', 'APPROVED', 'COMPLETED']);
    // Each of the two rounds told finance and the direction managers; nobody is told of the report or the completion.
    const kinds = (await notificationsOf(p.id)).map((n) => n.kind);
    expect(Object.fromEntries([...new Set(kinds)].map((kind) => [kind, kinds.filter((k) => k === kind).length]))).toEqual({
      PROJECT_CREATED: 1,
      PROJECT_CALCULATING: 4,
      PROJECT_CALCULATED: 4,
      PROJECT_FOR_REVISION: 1,
      PROJECT_APPROVED: 1,
    });
    // Reports go on after completion, on the post-monitoring schedule.
    const after = ok(await report(head, p.id, { id: randomUUID(), date: '2026-12-25', value: 14 }));
    expect(after.data.nextReportDue).toBe('2027-06-20');
    clock.set(START);
  });
});

describe('POST .../projects/{projectId}/transitions refusals', () => {
  it.each(PROJECT_TRANSITIONS.map((rule) => [rule.from, rule.to] as const))('%s -> %s: 403 for the wrong role, 409 from a wrong state', async (from, to) => {
    const project = await projectIn(from);
    const body = STEP[to].body;
    for (const who of [employee, hr, owner, headB]) {
      const res = await move(who, project.id, body);
      expect(res.statusCode, `${who.email} ${res.body}`).toBe(403);
    }
    // The right party, from a state it does not leave that way.
    const wrong: ProjectStatus = from === 'NEW' || from === 'FOR_REVISION' ? 'CALCULATING' : from === 'CALCULATING' ? 'APPROVED' : from === 'CALCULATED' ? 'NEW' : 'CALCULATED';
    const elsewhere = await projectIn(wrong);
    const refused = await move(STEP[to].who(), elsewhere.id, body);
    expect(refused.statusCode, refused.body).toBe(409);
    const stored = await t.db.one<{ status: string; history: unknown[] }>('SELECT status, history FROM projects WHERE id = $1', [elsewhere.id]);
    expect(stored?.status).toBe(wrong);
    expect(stored?.history).toHaveLength(PATH_TO[wrong].length + 1);
  });

  it('names the current status, who set it and when, in the request language', async () => {
    const p = await projectIn('CALCULATED');
    const en = await move(finspec, p.id, STEP.CALCULATED.body);
    expect(json<Answer>(en).message).toMatch(new RegExp(`^This project was already calculated by ${nameOf('Счётов')} on [A-Z][a-z]{2} \\d{1,2}, \\d{4}\\.$`));
    const ru = await move(pm, p.id, { to: 'CALCULATING' }, { Language: 'ru' });
    expect(ru.statusCode).toBe(409);
    expect(json<Answer>(ru).message).toMatch(new RegExp(`^Этот проект уже рассчитан: ${nameOf('Счётов')}, \\d{2}\\.\\d{2}\\.\\d{4}\\.$`));
    const fresh = await create();
    expect(json<Answer>(await move(direction, fresh.id, { to: 'APPROVED' })).message).toMatch(new RegExp(`^This project is new: ${nameOf('Головин')} created it on `));
  });

  it('asks for the input a move needs (400 per field), and lets the head of the department send it', async () => {
    const p = await projectIn('CALCULATING');
    const missing = await move(finspec, p.id, { to: 'CALCULATED', estimatedCostsMinor: 100 });
    expect(missing.statusCode).toBe(400);
    expect(json<Answer>(missing).errors).toEqual({ expectedEffect12mMinor: 'Fill in this field.' });
    const calculated = await projectIn('CALCULATED');
    expect(json<Answer>(await move(direction, calculated.id, { to: 'FOR_REVISION', comment: '   ' })).errors).toEqual({ comment: 'Fill in this field.' });
    expect((await move(direction, calculated.id, { to: 'DONE' })).statusCode).toBe(400);
    const fresh = await create();
    expect(ok(await move(head, fresh.id, { to: 'CALCULATING' })).data.status).toBe('CALCULATING');
  });

  it("answers 404 for another company's project, a missing and a malformed id", async () => {
    const p = await create();
    expect((await move(outsider, p.id, { to: 'CALCULATING' }, {}, rival.companyId)).statusCode).toBe(404);
    expect((await move(outsider, p.id, { to: 'CALCULATING' })).statusCode).toBe(404);
    expect((await move(pm, randomUUID(), { to: 'CALCULATING' })).statusCode).toBe(404);
    expect((await move(pm, 'nope', { to: 'CALCULATING' })).statusCode).toBe(404);
  });

  it('lets only one of two concurrent decisions through', async () => {
    const p = await projectIn('CALCULATED');
    const answers = await Promise.all([move(direction, p.id, { to: 'APPROVED' }), move(direction2, p.id, { to: 'FOR_REVISION', comment: 'Нет' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('refuses a calculation whose remuneration is below the payments already set', async () => {
    const p = await projectIn('CALCULATED', { profitBasisPoints: 1000 });
    // 10 % of 1,000,000.00: a remuneration of 100,000.00; 80,000.00 paid out.
    const payments = [{ employeeId: pmEmployee, amountMinor: 8_000_000 }];
    const saved = await t.app.inject({ method: 'PATCH', url: projectPath(p.id), headers: headers(pm), payload: projectBody(pmEmployee, { profitBasisPoints: 1000, payments }) });
    expect(saved.statusCode, saved.body).toBe(200);
    ok(await move(direction, p.id, STEP.FOR_REVISION.body));
    ok(await move(pm, p.id, { to: 'CALCULATING' }));
    const lower = await move(finspec, p.id, { to: 'CALCULATED', estimatedCostsMinor: 0, expectedEffect12mMinor: 50_000_000 });
    expect(lower.statusCode).toBe(400);
    expect(json<Answer>(lower).errors).toEqual({ expectedEffect12mMinor: 'With this effect the remuneration would be less than the payments already set: lower the payments first.' });
    expect(ok(await move(finspec, p.id, { to: 'CALCULATED', estimatedCostsMinor: 0, expectedEffect12mMinor: 80_000_000 })).data.remunerationMinor).toBe(8_000_000);
  });
});

describe('POST .../projects/{projectId}/complete', () => {
  it('only by the project manager, only when APPROVED, never with a date in the future', async () => {
    const p = await projectIn('APPROVED');
    const body = { actualCompletionDate: today(), actualEffect12mMinor: 1 };
    for (const who of [head, direction, owner, employee]) expect((await complete(who, p.id, body)).statusCode).toBe(403);
    const future = await complete(pm, p.id, { ...body, actualCompletionDate: '2026-11-21' });
    expect(future.statusCode).toBe(400);
    expect(json<Answer>(future).errors).toEqual({ actualCompletionDate: 'The date cannot be in the future.' });
    expect((await complete(pm, p.id, { actualCompletionDate: today() })).statusCode).toBe(400);
    const calculated = await projectIn('CALCULATED');
    expect((await complete(pm, calculated.id, body)).statusCode).toBe(409);
    const done = ok(await complete(pm, p.id, body)).data;
    expect(done).toMatchObject({ status: 'COMPLETED', nextReportDue: '2027-02-20' });
    expect((await complete(pm, p.id, body)).statusCode).toBe(409);
  });

  it('sets no due date when the first post-monitoring report would fall past the 12 months', async () => {
    const p = await projectIn('APPROVED', { postMonitoringPeriodicity: 'HALF_YEARLY' });
    const done = ok(await complete(pm, p.id, { actualCompletionDate: '2025-01-10', actualEffect12mMinor: 1 })).data;
    expect(done.nextReportDue).toBe('2025-07-10');
    const late = await projectIn('APPROVED');
    // Through the transitions call too.
    const moved = ok(await move(pm, late.id, { to: 'COMPLETED', actualCompletionDate: '2026-11-20', actualEffect12mMinor: 5 })).data;
    expect(moved.nextReportDue).toBe('2027-02-20');
  });
});

describe('POST .../projects/{projectId}/indicators', () => {
  it('by the manager or the head of its department, while APPROVED or COMPLETED, for a date not after today', async () => {
    const fresh = await create();
    const body = () => ({ id: randomUUID(), date: today(), value: 10 });
    const notYet = await report(pm, fresh.id, body());
    expect(notYet.statusCode).toBe(409);
    expect(json<Answer>(notYet).message).toBe('Indicator reports are filed only for approved or completed projects; this one is new.');
    const p = await projectIn('APPROVED');
    for (const who of [employee, owner, direction, finspec, headB]) expect((await report(who, p.id, body())).statusCode).toBe(403);
    const future = await report(pm, p.id, { ...body(), date: '2026-11-21' });
    expect(future.statusCode).toBe(400);
    expect(json<Answer>(future).errors).toEqual({ date: 'The date cannot be in the future.' });
    expect((await report(pm, p.id, { ...body(), value: -1 })).statusCode).toBe(400);
    expect(ok(await report(head, p.id, body())).data.indicatorReports).toHaveLength(1);
  });

  it('files a report once: the same report id again answers 200 with the project unchanged', async () => {
    const p = await projectIn('APPROVED');
    await t.db.query("UPDATE projects SET report_overdue_at = now() WHERE id = $1", [p.id]);
    const body = { id: randomUUID(), date: today(), value: 12 };
    const first = ok(await report(pm, p.id, body)).data;
    expect(first.reportOverdueAt).toBeNull();
    expect(first.nextReportDue).toBe('2027-01-20');
    const again = ok(await report(pm, p.id, body)).data;
    expect(again).toEqual(first);
  });

  it('moves a late report past its own date, on the schedule of the current due date', async () => {
    const p = await projectIn('APPROVED', { reportingFrequency: 'WEEKLY' });
    expect(p.nextReportDue).toBe('2026-11-27');
    clock.set(new Date('2026-12-15T09:00:00.000Z'));
    const late = ok(await report(pm, p.id, { id: randomUUID(), date: '2026-12-12', value: 3 })).data;
    expect(late.nextReportDue).toBe('2026-12-18');
    clock.set(START);
  });
});

describe('replays', () => {
  it.each([
    ['CALCULATING', 'NEW'],
    ['CALCULATED', 'CALCULATING'],
    ['APPROVED', 'CALCULATED'],
    ['FOR_REVISION', 'CALCULATED'],
  ] as const)('a move to %s sent again under its Idempotency-Key: the same answer, one history entry, one notification', async (to, from) => {
    const p = await projectIn(from);
    const key = randomUUID();
    const before = (await notificationsOf(p.id)).length;
    const first = await move(STEP[to].who(), p.id, STEP[to].body, { 'Idempotency-Key': key });
    expect(first.statusCode, first.body).toBe(200);
    clock.advance(60_000);
    const again = await move(STEP[to].who(), p.id, STEP[to].body, { 'Idempotency-Key': key });
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual(json(first));
    expect(json<Answer>(first).data.history).toHaveLength(PATH_TO[from].length + 2);
    expect((await t.db.one<{ history: unknown[] }>('SELECT history FROM projects WHERE id = $1', [p.id]))?.history).toHaveLength(PATH_TO[from].length + 2);
    const notes = (await notificationsOf(p.id)).length - before;
    expect(notes).toBe(to === 'CALCULATING' ? 2 : to === 'CALCULATED' ? 2 : 1);
    expect((await move(STEP[to].who(), p.id, { ...STEP[to].body, comment: 'другое' }, { 'Idempotency-Key': key })).statusCode).toBe(422);
  });

  it('a creation, an edit, a completion and a report sent again under their keys apply once', async () => {
    const key = randomUUID();
    const id = randomUUID();
    const send = () => t.app.inject({ method: 'POST', url: api(`/companies/${acme.companyId}/projects`), headers: headers(head, { 'Idempotency-Key': key }), payload: projectBody(pmEmployee, { id }) });
    const created = await send();
    expect(created.statusCode).toBe(201);
    expect(json(await send())).toEqual(json(created));
    expect(await notificationsOf(id)).toHaveLength(1);

    const editKey = randomUUID();
    const edit = () => t.app.inject({ method: 'PATCH', url: projectPath(id), headers: headers(pm, { 'Idempotency-Key': editKey }), payload: projectBody(pmEmployee, { name: 'Новое имя' }) });
    expect((await edit()).statusCode).toBe(200);
    expect((await edit()).statusCode).toBe(200);

    const p = await projectIn('APPROVED');
    const reportKey = randomUUID();
    const body = { id: randomUUID(), date: today(), value: 1 };
    expect((await report(pm, p.id, body, { 'Idempotency-Key': reportKey })).statusCode).toBe(200);
    expect((await report(pm, p.id, body, { 'Idempotency-Key': reportKey })).statusCode).toBe(200);
    const completeKey = randomUUID();
    const done = { actualCompletionDate: today(), actualEffect12mMinor: 7 };
    expect((await complete(pm, p.id, done, { 'Idempotency-Key': completeKey })).statusCode).toBe(200);
    expect((await complete(pm, p.id, done, { 'Idempotency-Key': completeKey })).statusCode).toBe(200);
    const stored = await t.db.one<{ history: { action: string }[]; indicator_reports: unknown[] }>('SELECT history, indicator_reports FROM projects WHERE id = $1', [p.id]);
    expect(stored?.indicator_reports).toHaveLength(1);
    expect(stored?.history.map((h) => h.action)).toEqual(['CREATED', 'TRANSITION', 'TRANSITION', 'TRANSITION', 'INDICATOR_REPORTED', 'TRANSITION']);
    const edited = await t.db.one<{ history: unknown[] }>('SELECT history FROM projects WHERE id = $1', [id]);
    expect(edited?.history).toHaveLength(2);
  });

  it('a decision made offline arrives through POST /sync/push and answers as its direct call', async () => {
    const p = await projectIn('CALCULATED');
    const operation = { id: randomUUID(), method: 'POST', path: `/api/v1/companies/${acme.companyId}/projects/${p.id}/transitions`, body: { to: 'APPROVED' } };
    const pushed = await t.app.inject({ method: 'POST', url: api('/sync/push'), headers: headers(direction), payload: { operations: [operation] } });
    expect(pushed.statusCode, pushed.body).toBe(200);
    const [result] = json<{ data: { results: { id: string; status: number; body: Answer }[] } }>(pushed).data.results;
    expect(result?.status).toBe(200);
    expect(result?.body.data.status).toBe('APPROVED');
    expect(result?.body.message).toBe('The project has been approved and entered the registry.');
    // The same row sent again directly under the operation's id replays.
    const direct = await move(direction, p.id, { to: 'APPROVED' }, { 'Idempotency-Key': operation.id });
    expect(direct.statusCode).toBe(200);
    expect((await notificationsOf(p.id)).filter((n) => n.kind === 'PROJECT_APPROVED')).toHaveLength(1);
    // A refused operation in a batch answers as the direct call would.
    const second = { id: randomUUID(), method: 'POST', path: `/api/v1/companies/${acme.companyId}/projects/${p.id}/transitions`, body: { to: 'FOR_REVISION', comment: 'Нет' } };
    const refused = await t.app.inject({ method: 'POST', url: api('/sync/push'), headers: headers(direction2), payload: { operations: [second] } });
    expect(json<{ data: { results: { status: number }[] } }>(refused).data.results[0]?.status).toBe(409);
  });
});

describe('approved_at', () => {
  it('is stamped with the moment of the move to APPROVED (the dashboard reads it), and kept on completion', async () => {
    const approvedAt = async (id: string) => (await t.db.one<{ approved_at: Date | null }>('SELECT approved_at FROM projects WHERE id = $1', [id]))?.approved_at;
    const p = await projectIn('CALCULATED');
    expect(await approvedAt(p.id)).toBeNull();
    clock.set(new Date('2026-11-22T10:30:00.000Z'));
    ok(await move(direction, p.id, { to: 'APPROVED' }));
    expect(await approvedAt(p.id)).toEqual(new Date('2026-11-22T10:30:00.000Z'));
    clock.advance(DAY);
    ok(await complete(pm, p.id, { actualCompletionDate: today(), actualEffect12mMinor: 1 }));
    expect(await approvedAt(p.id)).toEqual(new Date('2026-11-22T10:30:00.000Z'));
    const returned = await projectIn('FOR_REVISION');
    expect(await approvedAt(returned.id)).toBeNull();
    clock.set(START);
  });
});
