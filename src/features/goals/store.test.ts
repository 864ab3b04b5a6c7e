import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Goal, GoalInput } from '../../domain/goal';
import { AppDatabase } from '../../lib/db/database';
import { enqueue, entityKeyOf, writeWithOutbox } from '../../lib/outbox/outbox';
import { goalActionOutboxKind, goalCreateOutboxKind, goalOutboxKinds } from './outbox-kind';
import { GOAL_ACTION_KIND, GOAL_CREATE_KIND, GOAL_EDIT_KIND, GoalRefusedError, actOnGoal, createGoal, editGoal, storeSentGoal, type GoalContext } from './store';
import { employeeRow, goalRow } from '../../../tests/fixtures/rows';

const OWNER = '00000000-0000-4000-8000-0000000000a1';
const CUSTOMER = '00000000-0000-4000-8000-0000000000a2';
const WORKER = '00000000-0000-4000-8000-0000000000a3';
const COMPANY = 'c1';
const CUSTOMER_EMPLOYEE = '00000000-0000-4000-8000-0000000000e2';
const GOAL = '00000000-0000-4000-8000-0000000000f1';
const NOW = new Date('2026-03-10T09:00:00.000Z');

const opened: AppDatabase[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`goal-store-${Math.random()}`);
  opened.push(db);
  return db;
}

const people = {
  owner: { actor: { id: OWNER, fullName: 'Собственников Олег' }, roles: ['OWNER'] },
  customer: { actor: { id: CUSTOMER, fullName: 'Заказчиков Иван' }, roles: ['MIDDLE_MANAGER'] },
  worker: { actor: { id: WORKER, fullName: 'Рабочий Пётр' }, roles: ['EMPLOYEE'] },
};

function contextOf(db: AppDatabase, who: keyof typeof people): GoalContext {
  const { actor, roles } = people[who];
  return { db, actor, member: { userId: actor.id, roles }, now: () => NOW };
}

async function seed(db: AppDatabase, ownerUserId: string, fields: Partial<Goal> = {}): Promise<void> {
  await db.employees.bulkPut([
    { ...employeeRow(CUSTOMER_EMPLOYEE, { userId: CUSTOMER, lastName: 'Заказчиков' }), ownerUserId },
    { ...employeeRow('e-gone', { active: false }), ownerUserId },
    { ...employeeRow('e-other', { companyId: 'c2' }), ownerUserId },
  ]);
  await db.goals.put({ ...goalRow(GOAL, { businessCustomerEmployeeId: CUSTOMER_EMPLOYEE, businessCustomerUserId: CUSTOMER, ...fields }), ownerUserId });
}

function input(fields: Partial<GoalInput> = {}): GoalInput {
  return {
    direction: 'Производство',
    scope: 'Переналадка линии',
    description: 'Переналадка занимает 40 минут',
    expectedResult: 'Переналадка за 20 минут',
    indicator: { value: 20, unitId: 'MINUTES' },
    ownerGoal: 'Больше выпуска',
    startDate: '2026-04-01',
    endDate: '2026-12-31',
    businessCustomerEmployeeId: CUSTOMER_EMPLOYEE,
    process: 'Переналадка',
    ...fields,
  };
}

async function refusal(promise: Promise<unknown>): Promise<GoalRefusedError> {
  const error: unknown = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  if (!(error instanceof GoalRefusedError)) throw new Error(`expected a GoalRefusedError, got ${String(error)}`);
  return error;
}

describe('setting a goal on the device', () => {
  it('stores the NEW goal and its goal.create row in one transaction', async () => {
    const db = openDb();
    await seed(db, OWNER);
    const id = await createGoal(contextOf(db, 'owner'), COMPANY, input({ direction: '  Производство ' }));
    const stored = await db.goals.get([OWNER, id]);
    expect(stored).toMatchObject({
      id,
      companyId: COMPANY,
      direction: 'Производство',
      status: 'NEW',
      businessCustomerUserId: CUSTOMER,
      createdBy: OWNER,
      history: [{ action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: OWNER, byName: 'Собственников Олег', comment: null, at: NOW.toISOString() }],
    });
    const rows = await db.outbox.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: GOAL_CREATE_KIND,
      method: 'POST',
      path: `/api/v1/companies/${COMPANY}/goals`,
      entityKey: entityKeyOf('goals', id),
      body: { ...input(), id },
      ownerUserId: OWNER,
    });
  });

  it.each([
    ['an employee', 'worker' as const, input(), 'notAllowed', {}],
    ['an end before the start', 'owner' as const, input({ startDate: '2026-05-01', endDate: '2026-04-30' }), 'invalid', { endDate: 'afterStart' }],
    ['an empty direction', 'owner' as const, input({ direction: '   ' }), 'invalid', { direction: 'required' }],
    ['a negative indicator', 'owner' as const, input({ indicator: { value: -1, unitId: 'MINUTES' } }), 'invalid', { 'indicator.value': 'invalid' }],
    ['an inactive business customer', 'owner' as const, input({ businessCustomerEmployeeId: '00000000-0000-4000-8000-00000000dead' }), 'invalid', { businessCustomerEmployeeId: 'invalid' }],
  ])('refuses %s and stores nothing', async (_case, who, body, reason, fieldErrors) => {
    const db = openDb();
    await seed(db, people[who].actor.id);
    const error = await refusal(createGoal(contextOf(db, who), COMPANY, body));
    expect(error.reason).toBe(reason);
    expect(error.fieldErrors).toMatchObject(fieldErrors);
    expect(await db.goals.count()).toBe(1);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('acting on a goal on the device', () => {
  it("applies the business customer's 'to work' at once and queues goal.action", async () => {
    const db = openDb();
    await seed(db, CUSTOMER);
    await actOnGoal(contextOf(db, 'customer'), COMPANY, GOAL, { action: 'TO_WORK' });
    const stored = await db.goals.get([CUSTOMER, GOAL]);
    expect(stored?.status).toBe('TO_WORK');
    expect(stored?.history.at(-1)).toEqual({ at: NOW.toISOString(), action: 'TO_WORK', fromStatus: 'NEW', toStatus: 'TO_WORK', byUserId: CUSTOMER, byName: 'Заказчиков Иван', comment: null });
    const rows = await db.outbox.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: GOAL_ACTION_KIND, method: 'POST', path: `/api/v1/companies/${COMPANY}/goals/${GOAL}/actions`, body: { action: 'TO_WORK' }, entityKey: `goals:${GOAL}` });
  });

  it('keeps the trimmed clarification comment in the history and the body', async () => {
    const db = openDb();
    await seed(db, CUSTOMER);
    await actOnGoal(contextOf(db, 'customer'), COMPANY, GOAL, { action: 'CLARIFICATION', comment: '  Какая линия?  ' });
    expect((await db.goals.get([CUSTOMER, GOAL]))?.status).toBe('CLARIFICATION');
    expect((await db.goals.get([CUSTOMER, GOAL]))?.history.at(-1)?.comment).toBe('Какая линия?');
    expect((await db.outbox.toArray())[0]?.body).toEqual({ action: 'CLARIFICATION', comment: 'Какая линия?' });
  });

  it.each([
    ['an employee taking it to work', 'worker' as const, 'NEW' as const, { action: 'TO_WORK' as const }, 'notAllowed', {}],
    ['the owner approving a NEW goal (wrong state)', 'owner' as const, 'NEW' as const, { action: 'APPROVE' as const }, 'notOpen', {}],
    ['the business customer taking an approved goal to work', 'customer' as const, 'APPROVED' as const, { action: 'TO_WORK' as const }, 'notOpen', {}],
    ['a clarification without a comment', 'customer' as const, 'NEW' as const, { action: 'CLARIFICATION' as const, comment: '  ' }, 'invalid', { comment: 'required' }],
  ])('refuses %s and stores nothing', async (_case, who, status, body, reason, fieldErrors) => {
    const db = openDb();
    const owner = people[who].actor.id;
    await seed(db, owner, { status });
    const error = await refusal(actOnGoal(contextOf(db, who), COMPANY, GOAL, body));
    expect(error.reason).toBe(reason);
    expect(error.fieldErrors).toMatchObject(fieldErrors);
    expect((await db.goals.get([owner, GOAL]))?.status).toBe(status);
    expect(await db.outbox.count()).toBe(0);
  });

  it('refuses a goal of another company as missing', async () => {
    const db = openDb();
    await seed(db, CUSTOMER);
    expect((await refusal(actOnGoal(contextOf(db, 'customer'), 'c2', GOAL, { action: 'TO_WORK' }))).reason).toBe('missing');
  });

  it("lets the owner approve a goal taken to work, and resend a clarified one", async () => {
    const db = openDb();
    await seed(db, OWNER, { status: 'TO_WORK' });
    await actOnGoal(contextOf(db, 'owner'), COMPANY, GOAL, { action: 'APPROVE' });
    expect((await db.goals.get([OWNER, GOAL]))?.status).toBe('APPROVED');
    await db.goals.update([OWNER, GOAL], { status: 'CLARIFICATION' });
    await actOnGoal(contextOf(db, 'owner'), COMPANY, GOAL, { action: 'RESEND' });
    expect((await db.goals.get([OWNER, GOAL]))?.status).toBe('NEW');
    expect((await db.outbox.toArray()).map((row) => row.body)).toEqual([{ action: 'APPROVE' }, { action: 'RESEND' }]);
  });
});

describe("the owner's edit", () => {
  it('changes the goal, adds EDITED and queues a PATCH', async () => {
    const db = openDb();
    await seed(db, OWNER, { status: 'CLARIFICATION' });
    await editGoal(contextOf(db, 'owner'), COMPANY, GOAL, input({ scope: 'Переналадка пресса' }));
    const stored = await db.goals.get([OWNER, GOAL]);
    expect(stored).toMatchObject({ scope: 'Переналадка пресса', status: 'CLARIFICATION' });
    expect(stored?.history.at(-1)).toMatchObject({ action: 'EDITED', fromStatus: 'CLARIFICATION', toStatus: 'CLARIFICATION', byUserId: OWNER });
    expect((await db.outbox.toArray())[0]).toMatchObject({ kind: GOAL_EDIT_KIND, method: 'PATCH', path: `/api/v1/companies/${COMPANY}/goals/${GOAL}` });
  });

  it('is refused once the goal was taken to work, and for anyone but the owner', async () => {
    const db = openDb();
    await seed(db, OWNER, { status: 'TO_WORK' });
    expect((await refusal(editGoal(contextOf(db, 'owner'), COMPANY, GOAL, input()))).reason).toBe('notOpen');
    const other = openDb();
    await seed(other, CUSTOMER);
    expect((await refusal(editGoal(contextOf(other, 'customer'), COMPANY, GOAL, input()))).reason).toBe('notAllowed');
    expect(await db.outbox.count()).toBe(0);
    expect(await other.outbox.count()).toBe(0);
  });

  it('revises a create the server refused instead of queueing an edit of a goal it never had', async () => {
    const db = openDb();
    await seed(db, OWNER);
    const id = await createGoal(contextOf(db, 'owner'), COMPANY, input());
    const [row] = await db.outbox.toArray();
    await db.outbox.update(row?.seq ?? 0, { status: 'failed', lastError: { status: 400, message: 'bad' } });
    await editGoal(contextOf(db, 'owner'), COMPANY, id, input({ process: 'Смена оснастки' }));
    const rows = await db.outbox.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: GOAL_CREATE_KIND, status: 'pending', body: { id, process: 'Смена оснастки' } });
    expect(rows[0]?.id).not.toBe(row?.id);
  });
});

describe('the success handler', () => {
  it("stores the server's goal", async () => {
    const db = openDb();
    await seed(db, CUSTOMER);
    await actOnGoal(contextOf(db, 'customer'), COMPANY, GOAL, { action: 'TO_WORK' });
    const [row] = await db.outbox.toArray();
    if (!row) throw new Error('no row');
    const server = goalRow(GOAL, { status: 'TO_WORK', businessCustomerEmployeeId: CUSTOMER_EMPLOYEE, businessCustomerUserId: CUSTOMER, updatedAt: '2026-03-10T09:00:02.000Z' });
    await db.transaction('rw', db.tables, async () => {
      await db.outbox.delete(row.seq);
      await storeSentGoal({ db, row, data: server });
    });
    expect(await db.goals.get([CUSTOMER, GOAL])).toEqual({ ...server, ownerUserId: CUSTOMER });
  });

  it('keeps the local state and marks the goal stale while a later change waits, or when the answer is no goal', async () => {
    const db = openDb();
    await seed(db, OWNER, { status: 'TO_WORK' });
    await actOnGoal(contextOf(db, 'owner'), COMPANY, GOAL, { action: 'APPROVE' });
    const [row] = await db.outbox.toArray();
    if (!row) throw new Error('no row');
    // A second change of the same goal waits behind it.
    await writeWithOutbox(db, [], () => enqueue(db, { ownerUserId: OWNER, kind: GOAL_EDIT_KIND, method: 'PATCH', path: row.path, body: input(), entityKey: row.entityKey }));
    // As the replayer runs it: in the transaction that removes the sent row, over every table.
    const handle = (data: unknown) => db.transaction('rw', db.tables, () => storeSentGoal({ db, row, data }));
    await handle(goalRow(GOAL, { status: 'APPROVED' }));
    expect((await db.goals.get([OWNER, GOAL]))?.businessCustomerEmployeeId).toBe(CUSTOMER_EMPLOYEE);
    expect(await db.staleRows.where('[ownerUserId+entityKey]').equals([OWNER, `goals:${GOAL}`]).count()).toBe(1);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await db.staleRows.clear();
    await db.outbox.where('id').notEqual(row.id).delete();
    await handle({ nope: true });
    expect(await db.staleRows.count()).toBe(1);
  });

  it("names its rows so the Unsent screen's discard restores the goal", async () => {
    // src/features/outbox/store.ts: discarding a '<entity>.create' row removes the goal the server never had;
    // discarding any other row of a mirrored entity key marks that entity stale, so the next pull restores it.
    const db = openDb();
    await seed(db, OWNER, { status: 'TO_WORK' });
    const id = await createGoal(contextOf(db, 'owner'), COMPANY, input());
    await actOnGoal(contextOf(db, 'owner'), COMPANY, GOAL, { action: 'APPROVE' });
    const rows = await db.outbox.toArray();
    expect(rows.map((row) => [row.kind, row.entityKey])).toEqual([
      ['goal.create', `goals:${id}`],
      ['goal.action', `goals:${GOAL}`],
    ]);
  });
});

describe('the outbox kinds', () => {
  it('are pushable, name the goal and lead to it', async () => {
    const db = openDb();
    await seed(db, CUSTOMER);
    await actOnGoal(contextOf(db, 'customer'), COMPANY, GOAL, { action: 'CLARIFICATION', comment: 'Какая линия?' });
    const [row] = await db.outbox.toArray();
    if (!row) throw new Error('no row');
    expect(goalOutboxKinds.every((kind) => kind.pushable)).toBe(true);
    expect(goalActionOutboxKind.labelValues(row, goalRow(GOAL))).toEqual({
      title: 'Производство — Переналадка линии',
      hasTitle: 'yes',
      action: 'CLARIFICATION',
      comment: 'Какая линия?',
      hasComment: 'yes',
    });
    expect(goalActionOutboxKind.viewHref(row)).toBe(`/companies/${COMPANY}/goals/${GOAL}`);
    expect(goalActionOutboxKind.editHref()).toBeNull();
  });

  it('lead a refused create to the form that revises it', async () => {
    const db = openDb();
    await seed(db, OWNER);
    const id = await createGoal(contextOf(db, 'owner'), COMPANY, input());
    const [row] = await db.outbox.toArray();
    if (!row) throw new Error('no row');
    expect(goalCreateOutboxKind.labelValues(row)).toEqual({ title: 'Производство — Переналадка линии', hasTitle: 'yes' });
    expect(goalCreateOutboxKind.editHref(row)).toBe(`/companies/${COMPANY}/goals/create?edit=${id}`);
    expect(goalCreateOutboxKind.viewHref(row)).toBe(`/companies/${COMPANY}/goals/${id}`);
  });
});
