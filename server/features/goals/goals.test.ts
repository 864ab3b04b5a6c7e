import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Goal, type GoalAction, type GoalStatus } from '../../../src/domain/goal';
import { createManualClock } from '../../clock';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';
import { addEmployee, employeeIdOf, goalBody } from './fixtures';

const DAY = 24 * 60 * 60 * 1000;
const clock = createManualClock(new Date('2026-11-20T09:00:00.000Z'));

let t: TestApp;
let owner: Login;
let coOwner: Login;
let ceo: Login;
let top: Login;
let customer: Login;
let employee: Login;
let hr: Login;
let finspec: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;
/** Employee records of Acme. */
let customerEmployee: string;
let employeeEmployee: string;
let ownerEmployee: string;
let accountless: string;
let inactive: string;
let rivalEmployee: string;

const nameOf = (lastName: string) => `${lastName} Иван Сергеевич`;

beforeAll(async () => {
  t = await createTestApp({}, undefined, { clock });
  const member = (lastName: string) => signUpMember(t, { lastName });
  [owner, coOwner, ceo, top, customer, employee, hr, finspec, outsider] = await Promise.all([
    member('Хозяинов'),
    member('Совладельцев'),
    member('Царёв'),
    member('Верхов'),
    member('Заказчиков'),
    member('Рядовой'),
    member('Кадрова'),
    member('Счётова'),
    member('Чужой'),
  ]);
  acme = await createCompany(t.db, 'Acme', {
    [owner.id]: ['OWNER'],
    [coOwner.id]: ['OWNER'],
    [ceo.id]: ['CEO'],
    [top.id]: ['TOP_MANAGER'],
    [customer.id]: ['EMPLOYEE'],
    [employee.id]: ['EMPLOYEE'],
    [hr.id]: ['HR'],
    [finspec.id]: ['FINANCIAL_SPECIALIST'],
  });
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
  customerEmployee = await employeeIdOf(t.db, acme.companyId, customer.id);
  employeeEmployee = await employeeIdOf(t.db, acme.companyId, employee.id);
  ownerEmployee = await employeeIdOf(t.db, acme.companyId, owner.id);
  accountless = await addEmployee(t.db, acme.companyId);
  inactive = await addEmployee(t.db, acme.companyId, { active: false });
  rivalEmployee = await employeeIdOf(t.db, rival.companyId, outsider.id);
});
afterAll(() => t.close());

interface Answer {
  data: Goal;
  message: string;
  errors?: Record<string, string>;
}
type Response = Awaited<ReturnType<TestApp['app']['inject']>>;

const headers = (who: Login, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who.access}`, Language: 'en', ...extra });
const goalsPath = (companyId = acme.companyId) => api(`/companies/${companyId}/goals`);
const goalPath = (id: string, companyId = acme.companyId) => `${goalsPath(companyId)}/${id}`;

function post(who: Login, body: Record<string, unknown>, extra: Record<string, string> = {}, companyId = acme.companyId) {
  return t.app.inject({ method: 'POST', url: goalsPath(companyId), headers: headers(who, extra), payload: body });
}

function patch(who: Login, id: string, body: Record<string, unknown>, extra: Record<string, string> = {}, companyId = acme.companyId) {
  return t.app.inject({ method: 'PATCH', url: goalPath(id, companyId), headers: headers(who, extra), payload: body });
}

function act(who: Login, id: string, action: GoalAction, comment?: string, extra: Record<string, string> = {}, companyId = acme.companyId) {
  return t.app.inject({ method: 'POST', url: `${goalPath(id, companyId)}/actions`, headers: headers(who, extra), payload: comment === undefined ? { action } : { action, comment } });
}

function get(who: Login, url: string) {
  return t.app.inject({ method: 'GET', url, headers: headers(who) });
}

function answer(response: Response, status = 200): Answer {
  expect(response.statusCode, response.body).toBe(status);
  const body = json<Answer>(response);
  expect(Goal.is(body.data), response.body).toBe(true);
  return body;
}

const messageOf = (response: Response) => json<{ message: string }>(response).message;
const errorsOf = (response: Response) => json<{ errors?: Record<string, string> }>(response).errors ?? {};

async function create(overrides: Record<string, unknown> = {}, who: Login = owner, companyId = acme.companyId): Promise<Goal> {
  return answer(await post(who, goalBody(customerEmployee, overrides), {}, companyId), 201).data;
}

/** A new goal of Acme (business customer `customer`, set by `owner`) moved to `status` through the API. */
async function goalIn(status: GoalStatus): Promise<Goal> {
  const goal = await create();
  if (status === 'TO_WORK' || status === 'APPROVED') answer(await act(customer, goal.id, 'TO_WORK'));
  if (status === 'APPROVED') answer(await act(owner, goal.id, 'APPROVE'));
  if (status === 'CLARIFICATION') answer(await act(customer, goal.id, 'CLARIFICATION', 'Which line?'));
  return { ...goal, status };
}

interface NotificationRow {
  user_id: string;
  kind: string;
  params: Record<string, string | null>;
}

async function notificationsOf(goalId: string, kind?: string): Promise<NotificationRow[]> {
  const rows = await t.db.query<NotificationRow>('SELECT user_id, kind, params FROM notifications WHERE goal_id = $1 ORDER BY created_at, kind, user_id', [goalId]);
  return kind ? rows.filter((r) => r.kind === kind) : rows;
}

async function stored(id: string): Promise<{ status: string; history: unknown[] }> {
  const row = await t.db.one<{ status: string; history: unknown[] }>('SELECT status, history FROM goals WHERE id = $1', [id]);
  if (!row) throw new Error('no goal');
  return row;
}

const sorted = (ids: readonly string[]) => [...ids].sort();

describe('setting a goal', () => {
  it('answers 201 with the goal, its CREATED entry and the notice, and tells the business customer', async () => {
    const id = randomUUID();
    const res = await post(ceo, goalBody(customerEmployee, { id, direction: '  Производство  ', indicator: { value: 12.5, unitId: 'HOURS' } }));
    const body = answer(res, 201);
    expect(body.message).toBe('The goal was set.');
    expect(body.data).toMatchObject({
      id,
      companyId: acme.companyId,
      direction: 'Производство',
      scope: 'Переналадка линии',
      indicator: { value: 12.5, unitId: 'HOURS' },
      startDate: '2026-12-01',
      endDate: '2027-03-31',
      businessCustomerEmployeeId: customerEmployee,
      businessCustomerUserId: customer.id,
      status: 'NEW',
      createdBy: ceo.id,
      createdAt: clock.now().toISOString(),
    });
    expect(body.data.history).toEqual([{ at: clock.now().toISOString(), action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: ceo.id, byName: nameOf('Царёв'), comment: null }]);
    expect(await notificationsOf(id)).toEqual([
      { user_id: customer.id, kind: 'GOAL_ASSIGNED', params: { title: 'Производство — Переналадка линии', byName: nameOf('Царёв'), comment: null } },
    ]);
    expect(answer(await get(employee, goalPath(id))).data).toEqual(body.data);
  });

  it('answers in Russian by default', async () => {
    const res = await t.app.inject({ method: 'POST', url: goalsPath(), headers: { authorization: `Bearer ${owner.access}` }, payload: goalBody(customerEmployee) });
    expect(res.statusCode).toBe(201);
    expect(messageOf(res)).toBe('Цель поставлена.');
  });

  it('tells nobody when the author is the business customer, and nobody when that employee has no account', async () => {
    const own = await create({ businessCustomerEmployeeId: ownerEmployee });
    expect(own.businessCustomerUserId).toBe(owner.id);
    expect(await notificationsOf(own.id)).toEqual([]);
    const nobody = await create({ businessCustomerEmployeeId: accountless });
    expect(nobody.businessCustomerUserId).toBeNull();
    expect(await notificationsOf(nobody.id)).toEqual([]);
  });

  it.each([
    ['OWNER', () => owner],
    ['CEO', () => ceo],
    ['TOP_MANAGER', () => top],
  ])('lets %s set a goal', async (_role, who) => {
    expect((await post(who(), goalBody(customerEmployee))).statusCode).toBe(201);
  });

  it.each([
    ['EMPLOYEE', () => employee],
    ['HR', () => hr],
    ['FINANCIAL_SPECIALIST', () => finspec],
  ])('refuses %s with 403 and stores nothing', async (_role, who) => {
    const id = randomUUID();
    const res = await post(who(), goalBody(customerEmployee, { id }));
    expect(res.statusCode).toBe(403);
    expect(messageOf(res)).toBe('You do not have the right to do this.');
    expect(await t.db.one('SELECT 1 FROM goals WHERE id = $1', [id])).toBeNull();
  });

  it("answers 404 to another company's member, and for a company that does not exist", async () => {
    expect((await post(outsider, goalBody(customerEmployee))).statusCode).toBe(404);
    expect((await post(owner, goalBody(customerEmployee), {}, rival.companyId)).statusCode).toBe(404);
    expect((await post(owner, goalBody(customerEmployee), {}, randomUUID())).statusCode).toBe(404);
  });

  const text = (n: number) => 'x'.repeat(n);
  it.each<[string, Record<string, unknown>, string, string]>([
    ['a blank direction', { direction: '   ' }, 'direction', 'Fill in this field.'],
    ['a missing scope', { scope: undefined }, 'scope', 'Fill in this field.'],
    ['a too long scope', { scope: text(201) }, 'scope', 'The value is too long.'],
    ['an empty description', { description: '' }, 'description', 'Fill in this field.'],
    ['an empty expected result', { expectedResult: '' }, 'expectedResult', 'Fill in this field.'],
    ['an empty owner goal', { ownerGoal: '' }, 'ownerGoal', 'Fill in this field.'],
    ['an empty process', { process: '' }, 'process', 'Fill in this field.'],
    ['no indicator', { indicator: undefined }, 'indicator', 'Fill in this field.'],
    ['a negative indicator', { indicator: { value: -1, unitId: 'MINUTES' } }, 'indicator.value', 'indicator.value is not valid.'],
    ['an indicator with no unit', { indicator: { value: 1, unitId: '' } }, 'indicator.unitId', 'Fill in this field.'],
    ['an unknown unit', { indicator: { value: 1, unitId: 'PARSECS' } }, 'indicator.unitId', 'Choose a unit of the indicator from the list (minutes, hours, days).'],
    ['a date that does not exist', { startDate: '2026-02-30' }, 'startDate', ''],
    ['no end date', { endDate: undefined }, 'endDate', 'Fill in this field.'],
    ['an end before the start', { startDate: '2027-01-10', endDate: '2027-01-09' }, 'endDate', 'The end date must be after the start date.'],
    ['an end on the start', { startDate: '2027-01-10', endDate: '2027-01-10' }, 'endDate', 'The end date must be after the start date.'],
    ['a malformed business customer', { businessCustomerEmployeeId: 'nobody' }, 'businessCustomerEmployeeId', ''],
    ['an unknown business customer', { businessCustomerEmployeeId: randomUUID() }, 'businessCustomerEmployeeId', 'Choose an active employee of the company.'],
    ['an employee of another company', { businessCustomerEmployeeId: 'rival' }, 'businessCustomerEmployeeId', 'Choose an active employee of the company.'],
    ['an inactive employee', { businessCustomerEmployeeId: 'inactive' }, 'businessCustomerEmployeeId', 'Choose an active employee of the company.'],
    ['a malformed id', { id: 'not-a-uuid' }, 'id', ''],
    ['an unknown field', { status: 'APPROVED' }, 'status', 'This field is not expected.'],
  ])('refuses %s with 400 on the field', async (_case, overrides, field, message) => {
    const named: Record<string, unknown> = { ...overrides };
    if (named.businessCustomerEmployeeId === 'rival') named.businessCustomerEmployeeId = rivalEmployee;
    if (named.businessCustomerEmployeeId === 'inactive') named.businessCustomerEmployeeId = inactive;
    const before = await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM goals');
    const res = await post(owner, goalBody(customerEmployee, named));
    expect(res.statusCode, res.body).toBe(400);
    expect(messageOf(res)).toBe('Check the highlighted fields.');
    expect(Object.keys(errorsOf(res))).toEqual([field]);
    if (message) expect(errorsOf(res)[field]).toBe(message);
    expect(await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM goals')).toEqual(before);
  });

  it('refuses a second goal with an id that exists with 409, and replays the same Idempotency-Key instead', async () => {
    const id = randomUUID();
    const key = randomUUID();
    const first = await post(owner, goalBody(customerEmployee, { id }), { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(201);
    clock.advance(60_000);
    const replay = await post(owner, goalBody(customerEmployee, { id }), { 'Idempotency-Key': key });
    expect(replay.statusCode).toBe(201);
    expect(json(replay)).toEqual(json(first));
    expect(await notificationsOf(id)).toHaveLength(1);
    expect((await stored(id)).history).toHaveLength(1);
    const again = await post(owner, goalBody(customerEmployee, { id }));
    expect(again.statusCode).toBe(409);
    expect(messageOf(again)).toBe('A goal with this id already exists.');
    const otherBody = await post(owner, goalBody(customerEmployee, { id, scope: 'Другое' }), { 'Idempotency-Key': key });
    expect(otherBody.statusCode).toBe(422);
  });

  it('is refused exactly as submitting a proposal is while the company may not start', async () => {
    const [lone, worker] = await Promise.all([signUpMember(t, { lastName: 'Одинокий' }), signUpMember(t)]);
    const early = await createCompany(t.db, 'Early', { [lone.id]: ['OWNER'], [worker.id]: ['EMPLOYEE'] }, {}, { ready: false });
    const self = await employeeIdOf(t.db, early.companyId, lone.id);
    const goal = await post(lone, goalBody(self), {}, early.companyId);
    const proposal = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${early.companyId}/suggestions`),
      headers: headers(lone),
      payload: { title: 'Idea', problem: 'P', solution: 'S', expectedEffect: 'E', departmentId: early.departments.A, imageIds: [] },
    });
    expect(proposal.statusCode).toBe(409);
    expect(goal.statusCode).toBe(409);
    expect(json(goal)).toEqual(json(proposal));
    expect(messageOf(goal)).toMatch(/^The company cannot start its improvement work yet/);
    // Whoever may never set a goal hears that first.
    expect((await post(worker, goalBody(self), {}, early.companyId)).statusCode).toBe(403);
  });
});

describe('reading', () => {
  it("answers any member, and 404 for another company's goal, a missing id and a malformed one", async () => {
    const goal = await create();
    for (const who of [employee, hr, finspec, customer]) expect(answer(await get(who, goalPath(goal.id))).data.id).toBe(goal.id);
    expect((await get(outsider, goalPath(goal.id))).statusCode).toBe(404);
    expect((await get(outsider, goalPath(goal.id, rival.companyId))).statusCode).toBe(404);
    expect((await get(owner, goalPath(goal.id, rival.companyId))).statusCode).toBe(404);
    expect((await get(owner, goalPath(randomUUID()))).statusCode).toBe(404);
    expect((await get(owner, goalPath('nope'))).statusCode).toBe(404);
  });
});

describe("the owner's edit", () => {
  it('saves the texts while NEW, keeps the status, appends EDITED and tells a new business customer only', async () => {
    const goal = await create();
    clock.advance(DAY);
    const same = answer(await patch(owner, goal.id, goalBody(customerEmployee, { scope: 'Переналадка пресса', id: randomUUID() })));
    expect(same.message).toBe('The goal was saved.');
    expect(same.data).toMatchObject({ id: goal.id, scope: 'Переналадка пресса', status: 'NEW', updatedAt: clock.now().toISOString() });
    expect(same.data.history.at(-1)).toEqual({ at: clock.now().toISOString(), action: 'EDITED', fromStatus: 'NEW', toStatus: 'NEW', byUserId: owner.id, byName: nameOf('Хозяинов'), comment: null });
    expect(await notificationsOf(goal.id, 'GOAL_ASSIGNED')).toHaveLength(1);
    const moved = answer(await patch(owner, goal.id, goalBody(employeeEmployee)));
    expect(moved.data).toMatchObject({ businessCustomerEmployeeId: employeeEmployee, businessCustomerUserId: employee.id });
    expect((await notificationsOf(goal.id, 'GOAL_ASSIGNED')).map((n) => n.user_id)).toEqual([customer.id, employee.id]);
  });

  it('edits a goal waiting on clarification; the status stays until the resend', async () => {
    const goal = await goalIn('CLARIFICATION');
    const edited = answer(await patch(owner, goal.id, goalBody(customerEmployee, { description: 'Линия 2, переналадка под новый профиль.' })));
    expect(edited.data.status).toBe('CLARIFICATION');
  });

  it.each<['TO_WORK' | 'APPROVED', RegExp]>([
    ['TO_WORK', /^This goal can no longer be edited: it was taken to work by Заказчиков Иван Сергеевич on Nov \d+, 2026\.$/],
    ['APPROVED', /^This goal can no longer be edited: it was approved by Хозяинов Иван Сергеевич on Nov \d+, 2026\.$/],
  ])('refuses with 409 once %s, naming who moved it', async (status, message) => {
    const goal = await goalIn(status);
    const before = await stored(goal.id);
    const res = await patch(owner, goal.id, goalBody(customerEmployee));
    expect(res.statusCode).toBe(409);
    expect(messageOf(res)).toMatch(message);
    expect(await stored(goal.id)).toEqual(before);
  });

  it("refuses anyone but the owner with 403, another company's goal with 404, and bad input with 400", async () => {
    const goal = await create();
    for (const who of [ceo, top, customer, hr]) expect((await patch(who, goal.id, goalBody(customerEmployee))).statusCode).toBe(403);
    expect((await patch(outsider, goal.id, goalBody(rivalEmployee), {}, rival.companyId)).statusCode).toBe(404);
    expect((await patch(owner, goal.id, goalBody(customerEmployee), {}, rival.companyId)).statusCode).toBe(404);
    expect((await patch(owner, randomUUID(), goalBody(customerEmployee))).statusCode).toBe(404);
    const bad = await patch(owner, goal.id, goalBody(inactive));
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(errorsOf(bad))).toEqual(['businessCustomerEmployeeId']);
    const unit = await patch(owner, goal.id, goalBody(customerEmployee, { indicator: { value: 3, unitId: 'WEEKS' } }));
    expect(Object.keys(errorsOf(unit))).toEqual(['indicator.unitId']);
    expect((await stored(goal.id)).history).toHaveLength(1);
  });
});

describe('actions', () => {
  const STATUSES: GoalStatus[] = ['NEW', 'TO_WORK', 'CLARIFICATION', 'APPROVED'];
  const ACTORS = { customer: () => customer, owner: () => owner, ceo: () => ceo, employee: () => employee } as const;
  type Actor = keyof typeof ACTORS;
  /** The spec's table: who takes each action, from which state, to which. */
  const TABLE: Record<GoalAction, { by: Actor; from: GoalStatus; to: GoalStatus }> = {
    TO_WORK: { by: 'customer', from: 'NEW', to: 'TO_WORK' },
    CLARIFICATION: { by: 'customer', from: 'NEW', to: 'CLARIFICATION' },
    RESEND: { by: 'owner', from: 'CLARIFICATION', to: 'NEW' },
    APPROVE: { by: 'owner', from: 'TO_WORK', to: 'APPROVED' },
  };
  const cases = (Object.keys(TABLE) as GoalAction[]).flatMap((action) =>
    STATUSES.flatMap((status) =>
      (Object.keys(ACTORS) as Actor[]).map((actor) => {
        const rule = TABLE[action];
        const expected = rule.by !== actor ? 403 : rule.from !== status ? 409 : 200;
        return [action, status, actor, expected] as const;
      }),
    ),
  );

  it.each(cases)('%s on a %s goal by the %s answers %i', async (action, status, actor, expected) => {
    const goal = await goalIn(status);
    const before = await stored(goal.id);
    const res = await act(ACTORS[actor](), goal.id, action, action === 'CLARIFICATION' ? 'Which line?' : undefined);
    expect(res.statusCode, res.body).toBe(expected);
    if (expected === 200) {
      const body = answer(res);
      expect(body.data.status).toBe(TABLE[action].to);
      expect(body.data.history.at(-1)).toMatchObject({ action, fromStatus: status, toStatus: TABLE[action].to, byUserId: ACTORS[actor]().id });
      expect(body.data.history).toHaveLength(before.history.length + 1);
    } else {
      expect(await stored(goal.id)).toEqual(before);
    }
  });

  it('asks for clarification only with a comment, trimmed, and tells every owner', async () => {
    const goal = await create({}, ceo);
    const none = await act(customer, goal.id, 'CLARIFICATION');
    expect(none.statusCode).toBe(400);
    expect(errorsOf(none)).toEqual({ comment: 'Fill in this field.' });
    expect((await act(customer, goal.id, 'CLARIFICATION', '   ')).statusCode).toBe(400);
    const body = answer(await act(customer, goal.id, 'CLARIFICATION', '  Which line?  '));
    expect(body.message).toBe('The goal was sent for clarification.');
    expect(body.data.history.at(-1)).toEqual({
      at: clock.now().toISOString(),
      action: 'CLARIFICATION',
      fromStatus: 'NEW',
      toStatus: 'CLARIFICATION',
      byUserId: customer.id,
      byName: nameOf('Заказчиков'),
      comment: 'Which line?',
    });
    const params = { title: 'Производство — Переналадка линии', byName: nameOf('Заказчиков'), comment: 'Which line?' };
    expect(await notificationsOf(goal.id, 'GOAL_CLARIFICATION')).toEqual(
      sorted([owner.id, coOwner.id]).map((userId) => ({ user_id: userId, kind: 'GOAL_CLARIFICATION', params })),
    );
  });

  it('notifies the right people at every step: owners on to-work, the customer on resend, customer and creator on approval', async () => {
    const goal = await create({}, ceo);
    const asked = answer(await act(customer, goal.id, 'CLARIFICATION', 'Which line?'));
    expect(asked.data.status).toBe('CLARIFICATION');
    const resent = answer(await act(owner, goal.id, 'RESEND'));
    expect(resent.message).toBe('The goal was sent back to the business customer.');
    expect((await notificationsOf(goal.id, 'GOAL_ASSIGNED')).map((n) => n.user_id)).toEqual([customer.id, customer.id]);
    const taken = answer(await act(customer, goal.id, 'TO_WORK', 'Agreed'));
    expect(taken.message).toBe('The goal was taken to work.');
    expect(sorted((await notificationsOf(goal.id, 'GOAL_TO_WORK')).map((n) => n.user_id))).toEqual(sorted([owner.id, coOwner.id]));
    expect((await notificationsOf(goal.id, 'GOAL_TO_WORK'))[0]?.params).toEqual({ title: 'Производство — Переналадка линии', byName: nameOf('Заказчиков'), comment: 'Agreed' });
    const approved = answer(await act(coOwner, goal.id, 'APPROVE'));
    expect(approved.message).toBe('The goal was approved.');
    expect(sorted((await notificationsOf(goal.id, 'GOAL_APPROVED')).map((n) => n.user_id))).toEqual(sorted([customer.id, ceo.id]));
    expect(approved.data.history.map((h) => h.action)).toEqual(['CREATED', 'CLARIFICATION', 'RESEND', 'TO_WORK', 'APPROVE']);
    // Notices carry the goal, never a proposal.
    const rows = await t.db.query<{ suggestion_id: string | null }>('SELECT suggestion_id FROM notifications WHERE goal_id = $1', [goal.id]);
    expect(rows.every((r) => r.suggestion_id === null)).toBe(true);
  });

  it('never tells the actor: the owner approving their own goal tells the business customer only', async () => {
    const goal = await goalIn('TO_WORK');
    answer(await act(owner, goal.id, 'APPROVE'));
    expect((await notificationsOf(goal.id, 'GOAL_APPROVED')).map((n) => n.user_id)).toEqual([customer.id]);
    expect((await notificationsOf(goal.id, 'GOAL_TO_WORK')).map((n) => n.user_id)).toEqual([coOwner.id, owner.id].sort());
  });

  it('refuses a second decision with 409 naming the first (who, when), and changes nothing', async () => {
    const goal = await create();
    clock.advance(DAY);
    answer(await act(customer, goal.id, 'TO_WORK'));
    const late = await act(customer, goal.id, 'CLARIFICATION', 'Which line?');
    expect(late.statusCode).toBe(409);
    const on = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(clock.now());
    expect(messageOf(late)).toBe(`This goal was already taken to work by ${nameOf('Заказчиков')} on ${on}.`);
    answer(await act(owner, goal.id, 'APPROVE'));
    const twice = await act(coOwner, goal.id, 'APPROVE');
    expect(twice.statusCode).toBe(409);
    expect(messageOf(twice)).toBe(`This goal was already approved by ${nameOf('Хозяинов')} on ${on}.`);
    const ru = await t.app.inject({ method: 'POST', url: `${goalPath(goal.id)}/actions`, headers: { authorization: `Bearer ${coOwner.access}`, Language: 'ru' }, payload: { action: 'APPROVE' } });
    expect(messageOf(ru)).toMatch(new RegExp(`^Эта цель уже утверждена \\(${nameOf('Хозяинов')}, \\d{2}\\.\\d{2}\\.\\d{4}\\)\\.$`));
    expect((await stored(goal.id)).history).toHaveLength(3);
    expect(await notificationsOf(goal.id, 'GOAL_APPROVED')).toHaveLength(1);
  });

  it('lets nobody act as the business customer of an employee without an account', async () => {
    const goal = await create({ businessCustomerEmployeeId: accountless });
    for (const who of [customer, owner, ceo, employee]) expect((await act(who, goal.id, 'TO_WORK')).statusCode).toBe(403);
  });

  it("answers 404 for another company's goal, a missing id and a malformed one", async () => {
    const goal = await create();
    expect((await act(outsider, goal.id, 'TO_WORK', undefined, {}, rival.companyId)).statusCode).toBe(404);
    expect((await act(outsider, goal.id, 'TO_WORK')).statusCode).toBe(404);
    expect((await act(customer, goal.id, 'TO_WORK', undefined, {}, rival.companyId)).statusCode).toBe(404);
    expect((await act(customer, randomUUID(), 'TO_WORK')).statusCode).toBe(404);
    expect((await act(customer, 'nope', 'TO_WORK')).statusCode).toBe(404);
    expect((await stored(goal.id)).status).toBe('NEW');
  });

  it('refuses an unknown action with 400 on the field', async () => {
    const goal = await create();
    const res = await t.app.inject({ method: 'POST', url: `${goalPath(goal.id)}/actions`, headers: headers(customer), payload: { action: 'DELETE' } });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(errorsOf(res))).toEqual(['action']);
  });

  it.each<[GoalAction, GoalStatus, Actor, string | undefined, string]>([
    ['TO_WORK', 'NEW', 'customer', undefined, 'GOAL_TO_WORK'],
    ['CLARIFICATION', 'NEW', 'customer', 'Which line?', 'GOAL_CLARIFICATION'],
    ['RESEND', 'CLARIFICATION', 'owner', undefined, 'GOAL_ASSIGNED'],
    ['APPROVE', 'TO_WORK', 'owner', undefined, 'GOAL_APPROVED'],
  ])('replays %s under its Idempotency-Key: the same answer, one history entry, one notification', async (action, status, actor, comment, kind) => {
    const goal = await goalIn(status);
    const before = (await notificationsOf(goal.id, kind)).length;
    const key = randomUUID();
    const first = await act(ACTORS[actor](), goal.id, action, comment, { 'Idempotency-Key': key });
    expect(first.statusCode, first.body).toBe(200);
    clock.advance(60_000);
    const again = await act(ACTORS[actor](), goal.id, action, comment, { 'Idempotency-Key': key });
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual(json(first));
    expect((await stored(goal.id)).history).toHaveLength(json<Answer>(first).data.history.length);
    const notified = (await notificationsOf(goal.id, kind)).length;
    // Each recipient once (TO_WORK and CLARIFICATION tell both owners), and nothing more on the replay.
    expect(notified - before).toBe(action === 'TO_WORK' || action === 'CLARIFICATION' ? 2 : 1);
    const other = await act(ACTORS[actor](), goal.id, action, 'Another comment', { 'Idempotency-Key': key });
    expect(other.statusCode).toBe(422);
  });

  it('is refused while the company may no longer start, like every step of the flow', async () => {
    const [boss, client, money] = await Promise.all([signUpMember(t), signUpMember(t), signUpMember(t)]);
    const shaky = await createCompany(t.db, 'Shaky', { [boss.id]: ['OWNER', 'TOP_MANAGER'], [client.id]: ['EMPLOYEE'], [money.id]: ['FINANCIAL_DIRECTOR'] });
    const goal = answer(await post(boss, goalBody(await employeeIdOf(t.db, shaky.companyId, client.id)), {}, shaky.companyId), 201).data;
    await t.db.query('UPDATE company_members SET active = false WHERE company_id = $1 AND user_id = $2', [shaky.companyId, money.id]);
    const res = await act(client, goal.id, 'TO_WORK', undefined, {}, shaky.companyId);
    expect(res.statusCode).toBe(409);
    expect(messageOf(res)).toMatch(/^The company cannot start its improvement work yet: it still needs a financial director/);
    expect((await stored(goal.id)).status).toBe('NEW');
  });
});

describe('through POST /sync/push', () => {
  interface PushResult {
    id: string;
    status: number;
    body: Answer;
  }
  async function push(who: Login, operations: { id: string; method: string; path: string; body: unknown }[]): Promise<PushResult[]> {
    const res = await t.app.inject({ method: 'POST', url: api('/sync/push'), headers: headers(who), payload: { operations } });
    expect(res.statusCode, res.body).toBe(200);
    return json<{ data: { results: PushResult[] } }>(res).data.results;
  }
  const pushPath = (suffix: string) => `/api/v1/companies/${acme.companyId}/goals${suffix}`;

  it('sets a goal and takes actions exactly as the direct calls, and a direct call replays a pushed key', async () => {
    const id = randomUUID();
    const createKey = randomUUID();
    const [created] = await push(owner, [{ id: createKey, method: 'POST', path: pushPath(''), body: goalBody(customerEmployee, { id }) }]);
    expect(created?.status).toBe(201);
    expect(created?.body.message).toBe('The goal was set.');
    expect(created?.body.data.id).toBe(id);

    const direct = await create();
    const directAnswer = answer(await act(customer, direct.id, 'TO_WORK'));
    const key = randomUUID();
    const [result] = await push(customer, [{ id: key, method: 'POST', path: pushPath(`/${id}/actions`), body: { action: 'TO_WORK' } }]);
    expect(result?.status).toBe(200);
    const strip = (a: Answer) => ({ ...a, data: { ...a.data, id: '', createdAt: '', updatedAt: '', history: a.data.history.map((h) => h.action) } });
    expect(strip(result!.body)).toEqual(strip(directAnswer));
    expect(await notificationsOf(id, 'GOAL_TO_WORK')).toHaveLength(2);
    const replay = await act(customer, id, 'TO_WORK', undefined, { 'Idempotency-Key': key });
    expect(json(replay)).toEqual(result!.body);
    expect((await stored(id)).history).toHaveLength(2);

    // An edit and a conflict inside a batch: answered per operation, in order.
    const results = await push(owner, [
      { id: randomUUID(), method: 'PATCH', path: pushPath(`/${id}`), body: goalBody(customerEmployee) },
      { id: randomUUID(), method: 'POST', path: pushPath(`/${id}/actions`), body: { action: 'APPROVE' } },
      { id: randomUUID(), method: 'POST', path: pushPath(`/${id}/actions`), body: { action: 'APPROVE' } },
      { id: randomUUID(), method: 'POST', path: pushPath(`/nope/actions`), body: { action: 'APPROVE' } },
    ]);
    expect(results.map((r) => r.status)).toEqual([409, 200, 409, 404]);
    expect(results[0]?.body.message).toMatch(/^This goal can no longer be edited: it was taken to work by /);
    expect(results[2]?.body.message).toMatch(/^This goal was already approved by Хозяинов Иван Сергеевич on /);
  });
});

describe('the list', () => {
  let lister: Login;
  let other: Login;
  let listCo: Fixture;
  let alpha: string;
  let beta: string;
  const made = new Map<string, Goal>();
  const g = (name: string) => {
    const goal = made.get(name);
    if (!goal) throw new Error(`no goal ${name}`);
    return goal;
  };

  beforeAll(async () => {
    [lister, other] = await Promise.all([signUpMember(t, { lastName: 'Списков' }), signUpMember(t, { lastName: 'Другов' })]);
    listCo = await createCompany(t.db, 'Lists', { [lister.id]: ['OWNER'], [other.id]: ['EMPLOYEE'] });
    alpha = await employeeIdOf(t.db, listCo.companyId, other.id);
    beta = await addEmployee(t.db, listCo.companyId, { lastName: 'Бета' });
    const make = async (name: string, overrides: Record<string, unknown>) => {
      const res = await post(lister, goalBody(alpha, { startDate: '2026-01-01', ...overrides }), {}, listCo.companyId);
      made.set(name, answer(res, 201).data);
    };
    await make('march', { direction: 'Качество', scope: 'Брак на линии 1', endDate: '2027-03-01' });
    await make('januaryA', { direction: 'Производство', scope: 'Ёмкости для смазки', endDate: '2027-01-01' });
    await make('januaryB', { direction: 'Производство', scope: 'Склад', description: 'Снизить 100% простоев', endDate: '2027-01-01', businessCustomerEmployeeId: beta });
    await make('may', { direction: 'Логистика', scope: 'Отгрузка', process: 'Погрузка_машин', endDate: '2027-05-01', businessCustomerEmployeeId: beta });
    answer(await act(other, g('march').id, 'TO_WORK', undefined, {}, listCo.companyId));
  });

  async function names(who: Login, query = '', companyId = (): string => listCo.companyId): Promise<string[]> {
    const res = await get(who, `${goalsPath(companyId())}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = json<{ data: { items: Goal[]; nextCursor: string | null } }>(res).data;
    return page.items.map((item) => [...made.entries()].find(([, goal]) => goal.id === item.id)?.[0] ?? item.id);
  }

  it('lists every goal of the company to any member, by end date then id', async () => {
    const januaries = ['januaryA', 'januaryB'].sort((a, b) => (g(a).id < g(b).id ? -1 : 1));
    expect(await names(other)).toEqual([...januaries, 'march', 'may']);
    expect(await names(lister)).toEqual([...januaries, 'march', 'may']);
  });

  it('pages with the cursor without skipping or repeating a row', async () => {
    const all = await names(lister);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(lister, `${goalsPath(listCo.companyId)}?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      const page = json<{ data: { items: Goal[]; nextCursor: string | null } }>(res).data;
      seen.push(...page.items.map((item) => [...made.entries()].find(([, goal]) => goal.id === item.id)?.[0] ?? item.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(all);
    expect(pages).toBe(4);
  });

  it('filters by status, direction, business customer and search', async () => {
    expect(await names(lister, '?status=TO_WORK')).toEqual(['march']);
    expect(await names(lister, '?status=APPROVED')).toEqual([]);
    expect(sorted(await names(lister, `?direction=${encodeURIComponent('Производство')}`))).toEqual(['januaryA', 'januaryB']);
    expect(await names(lister, `?direction=${encodeURIComponent('производство')}`)).toEqual([]);
    expect(await names(lister, `?businessCustomerEmployeeId=${beta}`)).toEqual(['januaryB', 'may'].sort((a, b) => g(a).endDate.localeCompare(g(b).endDate)));
    expect(await names(lister, `?businessCustomerEmployeeId=${beta}&direction=${encodeURIComponent('Логистика')}`)).toEqual(['may']);
    expect(await names(lister, `?q=${encodeURIComponent('БРАК')}`)).toEqual(['march']);
    expect(await names(lister, `?q=${encodeURIComponent('емкости')}`)).toEqual(['januaryA']);
    expect(await names(lister, `?q=${encodeURIComponent('ЁМКОСТИ')}`)).toEqual(['januaryA']);
    expect(await names(lister, `?q=${encodeURIComponent('100%')}`)).toEqual(['januaryB']);
    expect(await names(lister, `?q=${encodeURIComponent('%')}`)).toEqual(['januaryB']);
    expect(await names(lister, `?q=${encodeURIComponent('_машин')}`)).toEqual(['may']);
    expect(await names(lister, `?q=${encodeURIComponent('логист')}`)).toEqual(['may']);
    expect(await names(lister, `?status=TO_WORK&q=${encodeURIComponent('брак')}`)).toEqual(['march']);
    expect(await names(lister, `?status=NEW&q=${encodeURIComponent('брак')}`)).toEqual([]);
  });

  it("never lists another company's goals, and answers 404 to a non-member", async () => {
    expect(await names(owner, '', () => acme.companyId)).not.toContain('march');
    expect((await get(owner, goalsPath(listCo.companyId))).statusCode).toBe(404);
    expect((await get(outsider, goalsPath(listCo.companyId))).statusCode).toBe(404);
  });

  it('refuses bad filters with 400 on the field', async () => {
    for (const [query, field] of [
      ['?status=DONE', 'status'],
      ['?businessCustomerEmployeeId=nope', 'businessCustomerEmployeeId'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?cursor=garbage', 'cursor'],
      [`?cursor=${Buffer.from(JSON.stringify({ e: '2027-01-01', i: 'x' })).toString('base64url')}`, 'cursor'],
      [`?q=${'x'.repeat(201)}`, 'q'],
    ] as const) {
      const res = await get(lister, `${goalsPath(listCo.companyId)}${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(errorsOf(res)), query).toEqual([field]);
    }
  });
});
