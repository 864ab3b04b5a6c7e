// Creating, editing, reading and listing projects (docs/api.md, "Projects"); the moves are in transitions.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../../../src/domain/project';
import { createManualClock } from '../../clock';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { addEmployee, addGoal, createCompany, employeeIdOf, projectBody, proposal, signUpMember, uploadImage, type Fixture, type Login } from './fixtures';

const clock = createManualClock(new Date('2026-11-20T09:00:00.000Z'));

let t: TestApp;
let head: Login;
let headB: Login;
let pm: Login;
let author: Login;
let employee: Login;
let hr: Login;
let finspec: Login;
let direction: Login;
let owner: Login;
let ceo: Login;
let top: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;
let pmEmployee: string;
let worker: string;
let customer: string;
let goal: string;
let rivalEmployee: string;
let rivalGoal: string;
let inactive: string;
let rivalDepartment: string;

beforeAll(async () => {
  t = await createTestApp({}, undefined, { clock });
  const member = (lastName: string) => signUpMember(t, { lastName });
  [head, headB, pm, author, employee, hr, finspec, direction, owner, ceo, top, outsider] = await Promise.all([
    member('Головин'),
    member('Бобров'),
    member('Менеджеров'),
    member('Автор'),
    member('Рядовой'),
    member('Кадрова'),
    member('Счётов'),
    member('Направленцев'),
    member('Хозяинов'),
    member('Царёв'),
    member('Верхов'),
    member('Чужой'),
  ]);
  acme = await createCompany(
    t.db,
    'Acme',
    {
      [head.id]: ['MIDDLE_MANAGER'],
      [headB.id]: ['MIDDLE_MANAGER'],
      [pm.id]: ['EMPLOYEE'],
      [author.id]: ['EMPLOYEE'],
      [employee.id]: ['EMPLOYEE'],
      [hr.id]: ['HR'],
      [finspec.id]: ['FINANCIAL_SPECIALIST'],
      [direction.id]: ['DIRECTION_MANAGER'],
      [owner.id]: ['OWNER'],
      [ceo.id]: ['CEO'],
      [top.id]: ['TOP_MANAGER'],
    },
    { A: head.id, B: headB.id },
  );
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
  pmEmployee = await employeeIdOf(t.db, acme.companyId, pm.id);
  worker = await addEmployee(t.db, acme.companyId, { lastName: 'Токарев', firstName: 'Иван', middleName: 'Петрович', serviceNumber: 'T-17' });
  customer = await employeeIdOf(t.db, acme.companyId, owner.id);
  inactive = await addEmployee(t.db, acme.companyId, { lastName: 'Ушедший', active: false });
  goal = await addGoal(t.db, acme.companyId, customer);
  rivalEmployee = await employeeIdOf(t.db, rival.companyId, outsider.id);
  rivalGoal = await addGoal(t.db, rival.companyId, rivalEmployee);
  rivalDepartment = rival.departments.A ?? '';
});
afterAll(() => t.close());

interface Answer {
  data: Project;
  message: string;
  errors?: Record<string, string>;
}

const headers = (who: Login, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who.access}`, Language: 'en', ...extra });
const projectsPath = (companyId = acme.companyId) => api(`/companies/${companyId}/projects`);

function post(who: Login, body: Record<string, unknown>, extra: Record<string, string> = {}, companyId = acme.companyId) {
  return t.app.inject({ method: 'POST', url: projectsPath(companyId), headers: headers(who, extra), payload: body });
}

function patch(who: Login, id: string, body: Record<string, unknown>, extra: Record<string, string> = {}, companyId = acme.companyId) {
  return t.app.inject({ method: 'PATCH', url: `${projectsPath(companyId)}/${id}`, headers: headers(who, extra), payload: body });
}

function move(who: Login, id: string, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: `${projectsPath()}/${id}/transitions`, headers: headers(who), payload: body });
}

function get(who: Login, suffix = '', companyId = acme.companyId) {
  return t.app.inject({ method: 'GET', url: `${projectsPath(companyId)}${suffix}`, headers: headers(who) });
}

async function create(overrides: Record<string, unknown> = {}, who: Login = head): Promise<Project> {
  const res = await post(who, projectBody(pmEmployee, overrides));
  expect(res.statusCode, res.body).toBe(201);
  const body = json<Answer>(res);
  expect(Project.is(body.data)).toBe(true);
  return body.data;
}

function errorsOf(res: Awaited<ReturnType<typeof post>>, status = 400): Record<string, string> {
  expect(res.statusCode, res.body).toBe(status);
  return json<Answer>(res).errors ?? {};
}

async function notificationsOf(projectId: string): Promise<{ user_id: string; kind: string; params: Record<string, string | null> }[]> {
  return t.db.query('SELECT user_id, kind, params FROM notifications WHERE project_id = $1 ORDER BY created_at, kind, user_id', [projectId]);
}

const department = (name: 'A' | 'B') => acme.departments[name] ?? '';
const nameOf = (lastName: string) => `${lastName} Иван Сергеевич`;
const count = async () => Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM projects WHERE company_id = $1', [acme.companyId]))?.n);

describe('POST /companies/{companyId}/projects', () => {
  it('creates a project directly: the head is its author, their department its department, the manager is told', async () => {
    const res = await post(head, projectBody(pmEmployee, { team: [{ employeeId: worker, role: ' Наладчик ' }], goalIds: [goal], businessCustomerEmployeeId: customer }), { Language: 'ru' });
    expect(res.statusCode, res.body).toBe(201);
    const { data, message } = json<Answer>(res);
    expect(message).toBe('Проект создан.');
    expect(data).toMatchObject({
      companyId: acme.companyId,
      status: 'NEW',
      suggestionId: null,
      departmentId: acme.departments.A,
      authorUserId: head.id,
      authorName: nameOf('Головин'),
      projectManagerEmployeeId: pmEmployee,
      projectManagerUserId: pm.id,
      businessCustomerEmployeeId: customer,
      goalIds: [goal],
      team: [{ employeeId: worker, name: 'Токарев Иван Петрович', serviceNumber: 'T-17', role: 'Наладчик' }],
      remunerationMinor: null,
      payments: [],
      images: [],
      nextReportDue: null,
      createdBy: head.id,
    });
    expect(data.history).toEqual([{ at: clock.now().toISOString(), action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: head.id, byName: nameOf('Головин'), comment: null }]);
    expect(await notificationsOf(data.id)).toEqual([{ user_id: pm.id, kind: 'PROJECT_CREATED', params: { title: 'Быстрая переналадка', byName: nameOf('Головин'), comment: null } }]);
    // The reader gets the same project.
    expect(json<Answer>(await get(employee, `/${data.id}`)).data).toEqual(data);
  });

  it('takes the id made on the device; a project made by a role has no department', async () => {
    const id = randomUUID();
    const p = await create({ id }, ceo);
    expect(p).toMatchObject({ id, departmentId: null, authorUserId: ceo.id });
    const taken = await post(owner, projectBody(pmEmployee, { id }));
    expect(taken.statusCode).toBe(409);
    expect(json<Answer>(taken).message).toBe('A project with this id already exists.');
  });

  it('lets every creating role create and refuses the others with 403, creating nothing', async () => {
    for (const who of [owner, ceo, top, direction, headB]) await create({}, who);
    const before = await count();
    for (const who of [employee, hr, finspec, pm]) expect((await post(who, projectBody(pmEmployee))).statusCode).toBe(403);
    expect(await count()).toBe(before);
  });

  it("answers 404 for another company's path, and 409 while the company may not start", async () => {
    expect((await post(outsider, projectBody(pmEmployee))).statusCode).toBe(404);
    expect((await post(head, projectBody(pmEmployee), {}, rival.companyId)).statusCode).toBe(404);
    const lone = await signUpMember(t, { lastName: 'Одинокий' });
    const early = await createCompany(t.db, 'Early', { [lone.id]: ['OWNER'] }, {}, { ready: false });
    const res = await post(lone, projectBody(await employeeIdOf(t.db, early.companyId, lone.id)), {}, early.companyId);
    expect(res.statusCode).toBe(409);
    expect(json<Answer>(res).message).toMatch(/^The company cannot start its improvement work yet/);
  });

  it('refuses bad input per field with 400', async () => {
    expect(Object.keys(errorsOf(await post(head, projectBody(pmEmployee, { name: '  ', completionDate: '2026-02-30', profitBasisPoints: 10001 }))))).toEqual(
      expect.arrayContaining(['name', 'completionDate', 'profitBasisPoints']),
    );
    expect(errorsOf(await post(head, { ...projectBody(pmEmployee), type: 'MAGIC' }))).toHaveProperty('type');
    expect(errorsOf(await post(head, projectBody(pmEmployee, { imageIds: Array.from({ length: 9 }, () => randomUUID()) })))).toHaveProperty('imageIds');
    // Metrics are measured in the units of `GET /units`, as a goal's indicator is.
    expect(errorsOf(await post(head, projectBody(pmEmployee, { baselineMetric: { value: 40, unitId: 'PARSECS' } })))).toEqual({ 'baselineMetric.unitId': expect.any(String) });
  });

  it("refuses another company's goals, employees and inactive employees, naming the field", async () => {
    expect(errorsOf(await post(head, projectBody(pmEmployee, { goalIds: [goal, rivalGoal] })))).toEqual({ goalIds: 'goalIds is not valid.' });
    expect(errorsOf(await post(head, projectBody(pmEmployee, { goalIds: [randomUUID()] })))).toHaveProperty('goalIds');
    expect(errorsOf(await post(head, projectBody(rivalEmployee)))).toEqual({ projectManagerEmployeeId: 'Choose an active employee of the company.' });
    expect(errorsOf(await post(head, projectBody(pmEmployee, { businessCustomerEmployeeId: rivalEmployee })))).toHaveProperty('businessCustomerEmployeeId');
    expect(errorsOf(await post(head, projectBody(pmEmployee, { team: [{ employeeId: worker, role: 'A' }, { employeeId: inactive, role: 'B' }] })))).toEqual({
      'team.1.employeeId': 'Choose an active employee of the company.',
    });
    expect(errorsOf(await post(head, projectBody(pmEmployee, { team: [{ employeeId: worker, role: 'A' }, { employeeId: worker, role: 'B' }] })))).toHaveProperty(['team.1.employeeId']);
  });

  it('refuses payments on creation: to someone outside the team, and above the remuneration (none before the effect is known)', async () => {
    expect(errorsOf(await post(head, projectBody(pmEmployee, { payments: [{ employeeId: worker, amountMinor: 0 }] })))).toEqual({
      'payments.0.employeeId': 'Payments go only to the project manager and the team members.',
    });
    expect(errorsOf(await post(head, projectBody(pmEmployee, { payments: [{ employeeId: pmEmployee, amountMinor: 1 }] })))).toEqual({
      payments: 'The payments add up to more than the remuneration of the project.',
    });
    const zero = await create({ payments: [{ employeeId: pmEmployee, amountMinor: 0 }] });
    expect(zero.payments).toEqual([{ employeeId: pmEmployee, amountMinor: 0 }]);
  });

  it("attaches the caller's fresh uploads; refuses someone else's, an attached one and an unknown one", async () => {
    const mine = await uploadImage(t, head);
    const p = await create({ imageIds: [mine, mine] });
    expect(p.images.map((i) => i.imageId)).toEqual([mine]);
    const theirs = await uploadImage(t, employee);
    const rivals = await uploadImage(t, outsider);
    for (const imageIds of [[theirs], [rivals], [mine], [randomUUID()]]) expect(errorsOf(await post(head, projectBody(pmEmployee, { imageIds })))).toEqual({ imageIds: 'imageIds is not valid.' });
    // Every member of the company sees the photo; an outsider does not, not even its uploader once it left.
    expect((await t.app.inject({ method: 'GET', url: api(`/uploads/${mine}`), headers: headers(employee) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: api(`/uploads/${mine}`), headers: headers(outsider) })).statusCode).toBe(404);
  });
});

describe('a project from a proposal', () => {
  it("carries the proposal's department, author and photos (the proposal's first), and the proposal becomes at most one project", async () => {
    const photos = [await uploadImage(t, author), await uploadImage(t, author)];
    const suggestionId = await proposal(t, acme.companyId, department('B'), author, headB, photos);
    const extra = await uploadImage(t, headB);
    const res = await post(headB, projectBody(pmEmployee, { suggestionId, imageIds: [photos[1], extra] }));
    expect(res.statusCode, res.body).toBe(201);
    const p = json<Answer>(res).data;
    expect(p).toMatchObject({ suggestionId, departmentId: department('B'), authorUserId: author.id, authorName: nameOf('Автор') });
    expect(p.images.map((i) => i.imageId)).toEqual([...photos, extra]);
    // Whoever sees the project sees its photos, the proposal's included.
    expect((await t.app.inject({ method: 'GET', url: api(`/uploads/${photos[0]}`), headers: headers(employee) })).statusCode).toBe(200);

    const again = await post(ceo, projectBody(pmEmployee, { suggestionId }));
    expect(again.statusCode).toBe(409);
    expect(json<Answer>(again).message).toBe('This proposal has already become the project “Быстрая переналадка”.');
    const ru = await post(ceo, projectBody(pmEmployee, { suggestionId }), { Language: 'ru' });
    expect(json<Answer>(ru).message).toBe('По этому предложению уже создан проект «Быстрая переналадка».');
  });

  it('lets only one of two concurrent creations from one proposal through', async () => {
    const suggestionId = await proposal(t, acme.companyId, department('A'), author, head);
    const answers = await Promise.all([post(head, projectBody(pmEmployee, { suggestionId })), post(ceo, projectBody(pmEmployee, { suggestionId }))]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it("refuses a proposal not approved (409), another company's (404), and a caller who may not turn it (403)", async () => {
    const open = await proposal(t, acme.companyId, department('A'), author, head, [], false);
    const notApproved = await post(head, projectBody(pmEmployee, { suggestionId: open }));
    expect(notApproved.statusCode).toBe(409);
    expect(json<Answer>(notApproved).message).toBe('Only an approved proposal can become a project.');
    const rivalsOwn = await proposal(t, rival.companyId, rivalDepartment, outsider, outsider);
    expect((await post(head, projectBody(pmEmployee, { suggestionId: rivalsOwn }))).statusCode).toBe(404);
    expect((await post(head, projectBody(pmEmployee, { suggestionId: randomUUID() }))).statusCode).toBe(404);
    const approved = await proposal(t, acme.companyId, department('A'), author, head);
    // The head of another department may create projects, but not from A's proposal.
    expect((await post(headB, projectBody(pmEmployee, { suggestionId: approved }))).statusCode).toBe(403);
    expect((await post(employee, projectBody(pmEmployee, { suggestionId: approved }))).statusCode).toBe(403);
    expect((await post(direction, projectBody(pmEmployee, { suggestionId: approved }))).statusCode).toBe(201);
  });
});

describe('PATCH /companies/{companyId}/projects/{projectId}', () => {
  it('lets the manager and the head of its department edit every field while NEW, with a history entry', async () => {
    const p = await create();
    const photo = await uploadImage(t, pm);
    const res = await patch(pm, p.id, projectBody(pmEmployee, { name: 'Переналадка за 10 минут', imageIds: [photo], team: [{ employeeId: worker, role: 'Наладчик' }], suggestionId: randomUUID(), id: randomUUID() }));
    expect(res.statusCode, res.body).toBe(200);
    const { data, message } = json<Answer>(res);
    expect(message).toBe('The project has been saved.');
    expect(data).toMatchObject({ id: p.id, name: 'Переналадка за 10 минут', suggestionId: null, authorUserId: head.id, team: [{ employeeId: worker, name: 'Токарев Иван Петрович' }] });
    expect(data.images.map((i) => i.imageId)).toEqual([photo]);
    expect(data.history.at(-1)).toMatchObject({ action: 'EDITED', fromStatus: 'NEW', toStatus: 'NEW', byUserId: pm.id });
    // The head removes the photo again.
    const edited = json<Answer>(await patch(head, p.id, projectBody(pmEmployee, { name: 'Переналадка за 10 минут' }))).data;
    expect(edited.images).toEqual([]);
  });

  it('refuses whoever is not the manager or the head of its department (403), and the same checks as on creation (400)', async () => {
    const p = await create();
    for (const who of [employee, headB, owner, ceo, direction, finspec]) expect((await patch(who, p.id, projectBody(pmEmployee))).statusCode).toBe(403);
    expect(errorsOf(await patch(pm, p.id, projectBody(pmEmployee, { goalIds: [rivalGoal] })))).toHaveProperty('goalIds');
    expect(errorsOf(await patch(pm, p.id, projectBody(rivalEmployee)))).toHaveProperty('projectManagerEmployeeId');
    expect(errorsOf(await patch(pm, p.id, projectBody(pmEmployee, { payments: [{ employeeId: pmEmployee, amountMinor: 100 }] })))).toEqual({
      payments: 'The payments add up to more than the remuneration of the project.',
    });
    expect((await t.db.one<{ history: unknown[] }>('SELECT history FROM projects WHERE id = $1', [p.id]))?.history).toHaveLength(1);
  });

  it("answers 404 for another company's project, a missing and a malformed id", async () => {
    const p = await create();
    expect((await patch(outsider, p.id, projectBody(rivalEmployee), {}, rival.companyId)).statusCode).toBe(404);
    expect((await patch(pm, randomUUID(), projectBody(pmEmployee))).statusCode).toBe(404);
    expect((await patch(pm, 'nope', projectBody(pmEmployee))).statusCode).toBe(404);
    expect((await get(outsider, `/${p.id}`, rival.companyId)).statusCode).toBe(404);
  });

  it('while CALCULATED only the payments change, within the remuneration; other fields and other states are refused with 409', async () => {
    const p = await create({ team: [{ employeeId: worker, role: 'Наладчик' }], profitBasisPoints: 1250, maxPerProjectMinor: 10_000 });
    const body = (overrides: Record<string, unknown> = {}) => projectBody(pmEmployee, { team: [{ employeeId: worker, role: 'Наладчик' }], profitBasisPoints: 1250, maxPerProjectMinor: 10_000, ...overrides });
    expect((await move(pm, p.id, { to: 'CALCULATING' })).statusCode).toBe(200);
    const calculating = await patch(pm, p.id, body());
    expect(calculating.statusCode).toBe(409);
    expect(json<Answer>(calculating).message).toBe('The project cannot be changed now: it is being calculated by finance.');
    const calculated = json<Answer>(await move(finspec, p.id, { to: 'CALCULATED', estimatedCostsMinor: 50_000, expectedEffect12mMinor: 100_001 })).data;
    // 12.5 % of 1,000.01 is 125.00 (rounded down), and the cap of 100.00 applies.
    expect(calculated.remunerationMinor).toBe(10_000);
    const payments = [
      { employeeId: pmEmployee, amountMinor: 6_000 },
      { employeeId: worker, amountMinor: 4_000 },
    ];
    const saved = await patch(pm, p.id, body({ payments }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json<Answer>(saved).data).toMatchObject({ payments, status: 'CALCULATED' });
    expect(errorsOf(await patch(pm, p.id, body({ payments: [{ employeeId: pmEmployee, amountMinor: 10_001 }] })))).toHaveProperty('payments');
    const renamed = await patch(pm, p.id, body({ name: 'Другое имя', payments }));
    expect(renamed.statusCode).toBe(409);
    expect(json<Answer>(renamed).message).toBe('The project cannot be changed now: it is calculated, only the payments may still change.');
    expect((await patch(pm, p.id, body({ maxPerProjectMinor: 20_000, payments }))).statusCode).toBe(409);
  });
});

describe('GET /companies/{companyId}/projects', () => {
  it('lists every project of the company to any member, newest change first, by filter, status and goal, page by page', async () => {
    const goal2 = await addGoal(t.db, acme.companyId, customer);
    const a = await create({ goalIds: [goal2] });
    const b = await create({ goalIds: [goal2] });
    const c = await create({ goalIds: [goal2] });
    expect((await move(pm, b.id, { to: 'CALCULATING' })).statusCode).toBe(200);
    const list = (query: string, who: Login = employee) => get(who, `?${query}`);
    const page = (res: Awaited<ReturnType<typeof get>>) => {
      expect(res.statusCode, res.body).toBe(200);
      return json<{ data: { items: Project[]; nextCursor: string | null } }>(res).data;
    };
    expect(page(await list(`goalId=${goal2}`)).items.map((p) => p.id)).toEqual([b.id, c.id, a.id]);
    expect(page(await list(`goalId=${goal2}&filter=calculating`)).items.map((p) => p.id)).toEqual([b.id]);
    expect(page(await list(`goalId=${goal2}&filter=new`)).items.map((p) => p.id)).toEqual([c.id, a.id]);
    expect(page(await list(`goalId=${goal2}&status=NEW&filter=calculating`)).items).toEqual([]);
    const first = page(await list(`goalId=${goal2}&limit=2`));
    expect(first.items.map((p) => p.id)).toEqual([b.id, c.id]);
    const second = page(await list(`goalId=${goal2}&limit=2&cursor=${first.nextCursor ?? ''}`));
    expect(second).toEqual({ items: [expect.objectContaining({ id: a.id })], nextCursor: null });
    const all = page(await list('limit=200'));
    expect(all.items.every((p) => p.companyId === acme.companyId)).toBe(true);
    for (const bad of ['filter=mine', 'status=DONE', 'cursor=garbage', 'limit=0', 'goalId=nope']) expect((await list(bad)).statusCode, bad).toBe(400);
    expect(page(await get(outsider, '', rival.companyId)).items).toEqual([]);
    expect((await get(outsider, '')).statusCode).toBe(404);
  });
});
