// Goals on the device (DESIGN.md, "Offline-first data flow"): setting a goal, the owner's edit, and the actions
// of its business customer and owner (to work, for clarification, approve, resend). What it stores and why:
// each write changes the mirrored goal at once (fields, status, a history entry) and queues its request in the
// outbox, in ONE Dexie transaction, so the screens show it offline ("waiting to send") and the device never
// holds the one without the other.
// Guarantees: every row of one goal has the entity key `goals:<id>`, so the replayer sends them in order (the
// create before an edit of it) and the pull does not overwrite the local change while it waits; the input is
// checked with the server's own structs and the goal's rules (src/domain/goal.ts) before anything is stored
// (a refusal stores nothing); an action the goal's state no longer allows on the device is not applied; the
// success handler stores the server's goal, unless a later change of it still waits (its local state stands
// until that one is answered); a 409 is parked by the replayer and shown on /unsent, and discarding it there
// marks the goal stale (src/features/outbox/store.ts), so the next pull brings the server's version back.
import type { Struct } from 'superstruct';
import {
  Goal,
  GoalActionInput,
  GoalInput,
  canCreateGoal,
  canEditGoal,
  goalTransition,
  type GoalHistoryEntry,
} from '../../domain/goal';
import type { MemberView } from '../../domain/permissions';
import { validate, type FieldErrors } from '../../domain/validation';
import type { AppDatabase, OutboxRow, StoredGoal } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { StoredOutboxRow, checkRows } from '../../lib/db/rows';
import { REVISABLE_STATUSES, enqueue, entityKeyOf, revise, writeWithOutbox } from '../../lib/outbox/outbox';
import type { SuccessHandler } from '../../lib/outbox/replayer';
import { markStale } from '../../lib/sync/stale-rows';

import { GOAL_ACTION_KIND, GOAL_CREATE_KIND, GOAL_EDIT_KIND } from './kind-names';

export { GOAL_ACTION_KIND, GOAL_CREATE_KIND, GOAL_EDIT_KIND };

/** Why a goal change was not stored. */
export type GoalRefusal =
  /** The goal is not on this device (or not in that company). */
  | 'missing'
  /** The user may not do this with it. */
  | 'notAllowed'
  /** Its state no longer allows this (it changed meanwhile). */
  | 'notOpen'
  /** The input breaks the server's rules: see `fieldErrors` (codes of src/domain/validation.ts). */
  | 'invalid';

export class GoalRefusedError extends Error {
  readonly reason: GoalRefusal;
  readonly fieldErrors: FieldErrors;

  constructor(reason: GoalRefusal, fieldErrors: FieldErrors = {}) {
    super(`The goal change was refused on the device: ${reason}`);
    this.name = 'GoalRefusedError';
    this.reason = reason;
    this.fieldErrors = fieldErrors;
  }
}

export interface GoalContext {
  db: AppDatabase;
  /** The signed-in user: the owner of the rows and who acts. */
  actor: { id: string; fullName: string };
  /** The user as the goal rules see them in the goal's company. */
  member: Pick<MemberView, 'userId' | 'roles'>;
  now?: () => Date;
  /** Told after the write committed (the app drains the outbox). */
  afterWrite?: () => void;
}

export function goalsPath(companyId: string): string {
  return `/api/v1/companies/${encodeURIComponent(companyId)}/goals`;
}

export function goalPath(companyId: string, goalId: string): string {
  return `${goalsPath(companyId)}/${encodeURIComponent(goalId)}`;
}

function checked<T, S>(struct: Struct<T, S>, input: unknown): T {
  const result = validate(struct, input);
  if (!result.ok) throw new GoalRefusedError('invalid', result.errors);
  return result.value;
}

function clockOf(context: GoalContext): Date {
  return (context.now ?? (() => new Date()))();
}

/** The body as the server gets it: texts trimmed (the struct checks them trimmed), no id unless given. */
function bodyOf(input: GoalInput, id?: string): GoalInput {
  return {
    ...(id === undefined ? {} : { id }),
    direction: input.direction.trim(),
    scope: input.scope.trim(),
    description: input.description.trim(),
    expectedResult: input.expectedResult.trim(),
    indicator: { value: input.indicator.value, unitId: input.indicator.unitId },
    ownerGoal: input.ownerGoal.trim(),
    startDate: input.startDate,
    endDate: input.endDate,
    businessCustomerEmployeeId: input.businessCustomerEmployeeId,
    process: input.process.trim(),
  };
}

/** The account of the business customer, from the mirrored employee; refuses one not active in this company. */
async function businessCustomerUserIdOf(db: AppDatabase, ownerUserId: string, companyId: string, employeeId: string): Promise<string | null> {
  const stored = await db.employees.get([ownerUserId, employeeId]);
  const employee = stored ? checkRows(EmployeeRowCheck, [stored], 'employees').rows[0] : undefined;
  if (!employee || employee.companyId !== companyId || !employee.active) {
    throw new GoalRefusedError('invalid', { businessCustomerEmployeeId: 'invalid' });
  }
  return employee.userId;
}

/** The device's copy of the goal, checked; refuses when it is not there or belongs to another company. */
export async function localGoal(db: AppDatabase, ownerUserId: string, companyId: string, goalId: string): Promise<Goal> {
  const stored = await db.goals.get([ownerUserId, goalId]);
  const goal = stored ? checkRows(Goal, [stored], 'goals').rows[0] : undefined;
  if (!goal || goal.companyId !== companyId) throw new GoalRefusedError('missing');
  return goal;
}

async function rowsOf(db: AppDatabase, ownerUserId: string, goalId: string): Promise<OutboxRow[]> {
  const stored = await db.outbox.where('[ownerUserId+entityKey]').equals([ownerUserId, entityKeyOf('goals', goalId)]).toArray();
  return checkRows(StoredOutboxRow, stored, 'outbox').rows.sort((a, b) => a.seq - b.seq);
}

function historyEntry(
  at: string,
  action: GoalHistoryEntry['action'],
  from: GoalHistoryEntry['fromStatus'],
  to: GoalHistoryEntry['toStatus'],
  actor: GoalContext['actor'],
  comment: string | null,
): GoalHistoryEntry {
  return { at, action, fromStatus: from, toStatus: to, byUserId: actor.id, byName: actor.fullName, comment };
}

function commentOf(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * Sets a new goal: stored on the device at once (status NEW, history CREATED, the id made here) with its
 * outbox row `goal.create`. Returns its id. Throws `GoalRefusedError` (nothing stored) or `StorageQuotaError`.
 */
export async function createGoal(context: GoalContext, companyId: string, raw: GoalInput): Promise<string> {
  const { db, actor, member } = context;
  if (!canCreateGoal(member.roles)) throw new GoalRefusedError('notAllowed');
  const id = crypto.randomUUID();
  const input = checked(GoalInput, { ...raw, id });
  const body = bodyOf(input, id);
  const now = clockOf(context);
  const at = now.toISOString();
  await writeWithOutbox(db, [db.goals, db.employees], async () => {
    const businessCustomerUserId = await businessCustomerUserIdOf(db, actor.id, companyId, body.businessCustomerEmployeeId);
    const goal: StoredGoal = {
      ...bodyOf(input),
      id,
      companyId,
      businessCustomerUserId,
      status: 'NEW',
      history: [historyEntry(at, 'CREATED', null, 'NEW', actor, null)],
      createdBy: actor.id,
      createdAt: at,
      updatedAt: at,
      ownerUserId: actor.id,
    };
    await db.goals.add(goal);
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: GOAL_CREATE_KIND,
      method: 'POST',
      path: goalsPath(companyId),
      body,
      entityKey: entityKeyOf('goals', id),
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
  return id;
}

/**
 * The owner's edit (while NEW or CLARIFICATION): the goal's fields change on the device at once (history
 * EDITED) and a `goal.edit` row is queued. When the server refused an earlier write of this goal that this
 * edit replaces (its create, or an edit), that row is revised instead (a new Idempotency-Key, same place in
 * the queue). Throws `GoalRefusedError` (nothing stored) or `StorageQuotaError`.
 */
export async function editGoal(context: GoalContext, companyId: string, goalId: string, raw: GoalInput): Promise<void> {
  const { db, actor, member } = context;
  const input = checked(GoalInput, raw);
  const now = clockOf(context);
  const at = now.toISOString();
  await writeWithOutbox(db, [db.goals, db.employees], async () => {
    const goal = await localGoal(db, actor.id, companyId, goalId);
    if (!canEditGoal(member.roles, goal)) throw new GoalRefusedError(canEditGoal(member.roles, { status: 'NEW' }) ? 'notOpen' : 'notAllowed');
    const businessCustomerUserId = await businessCustomerUserIdOf(db, actor.id, companyId, input.businessCustomerEmployeeId);
    const rows = await rowsOf(db, actor.id, goalId);
    const refusedCreate = rows.find((row) => row.kind === GOAL_CREATE_KIND && REVISABLE_STATUSES.includes(row.status));
    const refusedEdit = rows.find((row) => row.kind === GOAL_EDIT_KIND && REVISABLE_STATUSES.includes(row.status));
    const fields = bodyOf(input);
    const history = refusedCreate ? goal.history : [...goal.history, historyEntry(at, 'EDITED', goal.status, goal.status, actor, null)];
    await db.goals.put({ ...goal, ...fields, businessCustomerUserId, history, updatedAt: at, ownerUserId: actor.id });
    if (refusedCreate) {
      if ((await revise(db, refusedCreate.id, bodyOf(input, goalId), now.getTime())) === null) throw new GoalRefusedError('notOpen');
      return;
    }
    if (refusedEdit) {
      if ((await revise(db, refusedEdit.id, fields, now.getTime())) === null) throw new GoalRefusedError('notOpen');
      return;
    }
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: GOAL_EDIT_KIND,
      method: 'PATCH',
      path: goalPath(companyId, goalId),
      body: fields,
      entityKey: entityKeyOf('goals', goalId),
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
}

/** The goal after `input`, as the server will make it (the transition is already known to be allowed). */
export function applyGoalAction(goal: Goal, input: GoalActionInput, to: Goal['status'], actor: GoalContext['actor'], at: string): Goal {
  return {
    ...goal,
    status: to,
    updatedAt: at,
    history: [...goal.history, historyEntry(at, input.action, goal.status, to, actor, commentOf(input.comment))],
  };
}

/**
 * An action on a goal (to work, for clarification with its comment, approve, resend), decided by the goal's
 * rules on the device's copy: applied at once and queued as `goal.action`. Throws `GoalRefusedError`
 * (nothing stored) or `StorageQuotaError`.
 */
export async function actOnGoal(context: GoalContext, companyId: string, goalId: string, raw: GoalActionInput): Promise<void> {
  const { db, actor, member } = context;
  const input = checked(GoalActionInput, raw);
  const comment = commentOf(input.comment);
  const body: GoalActionInput = comment === null ? { action: input.action } : { action: input.action, comment };
  const now = clockOf(context);
  await writeWithOutbox(db, [db.goals], async () => {
    const goal = await localGoal(db, actor.id, companyId, goalId);
    const result = goalTransition(input.action, goal, member, body);
    if (!result.ok) {
      if (result.code === 'forbidden') throw new GoalRefusedError('notAllowed');
      if (result.code === 'wrongState') throw new GoalRefusedError('notOpen');
      throw new GoalRefusedError('invalid', { comment: 'required' });
    }
    await db.goals.put({ ...applyGoalAction(goal, body, result.to, actor, now.toISOString()), ownerUserId: actor.id });
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: GOAL_ACTION_KIND,
      method: 'POST',
      path: `${goalPath(companyId, goalId)}/actions`,
      body,
      entityKey: entityKeyOf('goals', goalId),
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
}

/**
 * The replayer's success handler of the goal kinds: the server's goal replaces the device's copy. While a
 * later change of the same goal still waits, the device's copy (which already shows that change) stays and
 * the goal is marked to be fetched again once its rows are gone; an answer that fails the struct is fetched
 * again too.
 */
export const storeSentGoal: SuccessHandler = async ({ db, row, data }) => {
  const later = await db.outbox
    .where('[ownerUserId+entityKey]')
    .equals([row.ownerUserId, row.entityKey])
    .filter((other) => other.seq !== row.seq)
    .count();
  const isGoal = Goal.is(data);
  if (!isGoal || later > 0) {
    if (!isGoal) console.warn('The server answered a goal that does not match its struct; the next pull fetches it again');
    await markStale(db, row.ownerUserId, [row.entityKey]);
    return;
  }
  await db.goals.put({ ...data, ownerUserId: row.ownerUserId });
};
