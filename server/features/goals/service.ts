// Goals (docs/api.md, "Goals"): set, edit, act on, list, read. Every call runs after the company access check
// (server/operation.ts, server/route.ts); the rules are those of src/domain/goal.ts, which the client reads too.
// What it guarantees:
//   - a goal is set only by OWNER, CEO or TOP_MANAGER (canCreateGoal) for an active employee of the company as
//     its business customer, with an indicator unit of type BASE_INDICATOR; edited only by the owner while NEW
//     or CLARIFICATION (canEditGoal); moved only along GOAL_TRANSITIONS by one of the row's parties;
//   - every write locks the row first (FOR UPDATE), so of two concurrent acts the second sees the first's
//     outcome and is refused with 409 naming it (the status, who moved it there and when): nothing is
//     overwritten silently;
//   - every write stores the row, its history entry and the notifications of the people concerned (never the
//     actor) in the caller's transaction, or nothing;
//   - another company's goal, a missing id and a malformed one are all simply not found (404);
//   - the list pages by an exact keyset (end_date, then the id as a uuid), so no row is skipped or repeated.

import { randomUUID } from 'node:crypto';
import { sql, type Updateable } from 'kysely';
import {
  canCreateGoal,
  canEditGoal,
  GOAL_EDIT_ROLES,
  goalTransition,
  type Goal,
  type GoalAction,
  type GoalActionInput,
  type GoalHistoryEntry,
  type GoalInput,
  type GoalStatus,
} from '../../../src/domain/goal';
import { hasAnyRole } from '../../../src/domain/permissions';
import type { NotificationKind } from '../../../src/domain/notification';
import { isUuid } from '../../../src/domain/suggestion';
import type { Membership } from '../../auth/access';
import { fullNameOf, type UserRow } from '../../auth/users';
import { isUniqueViolation, type Queryable } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError, type AppErrorExtras } from '../../errors';
import type { Once } from '../../operation';
import { notify } from '../notifications/service';
import { BASE_INDICATOR_UNITS } from '../../../src/domain/user';
import { selectGoals, toGoal, type GoalRow } from './rows';

/** What a write answers: the goal as it now stands and the id of the message saying what happened. */
export interface GoalOutcome {
  goal: Goal;
  /** A `mail.notice.*` id. */
  message: string;
}

/** The title of a goal in notifications: its direction and scope. */
export function goalTitleOf(goal: { direction: string; scope: string }): string {
  return `${goal.direction} — ${goal.scope}`;
}

/** A comment as stored: trimmed, an empty one none at all. */
function commentOf(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

const fieldError = (field: string, code: string) => new AppError('validation', 400, { fieldErrors: { [field]: code } });

/**
 * The business customer `employeeId` as an active employee of the company (with the user account it has, if
 * any), else 400 `errors.businessCustomerEmployeeId` `activeEmployee`.
 */
async function businessCustomerOf(tx: Queryable, companyId: string, employeeId: string, once: Once): Promise<{ id: string; userId: string | null }> {
  if (!isUuid(employeeId)) throw fieldError('businessCustomerEmployeeId', 'activeEmployee');
  const id = employeeId.toLowerCase();
  const row = await once(`goal-employee:${companyId}:${id}`, () =>
    tx.kysely.selectFrom('employees').select(['id', 'user_id']).where('company_id', '=', companyId).where('id', '=', id).where('active', '=', true).executeTakeFirst(),
  );
  if (!row) throw fieldError('businessCustomerEmployeeId', 'activeEmployee');
  return { id: row.id, userId: row.user_id };
}

/** 400 `errors['indicator.unitId']` `indicatorUnit` unless the unit is one of `GET /units`' BASE_INDICATOR units. */
function requireIndicatorUnit(unitId: string): void {
  if (!(BASE_INDICATOR_UNITS as readonly string[]).includes(unitId)) throw fieldError('indicator.unitId', 'indicatorUnit');
}

/** The columns a create or an edit writes from a `GoalInput`. */
function columnsOf(input: GoalInput, businessCustomerEmployeeId: string) {
  return {
    direction: input.direction,
    scope: input.scope,
    description: input.description,
    expected_result: input.expectedResult,
    indicator_value: input.indicator.value,
    indicator_unit: input.indicator.unitId,
    owner_goal: input.ownerGoal,
    start_date: input.startDate,
    end_date: input.endDate,
    business_customer_employee_id: businessCustomerEmployeeId,
    process: input.process,
  };
}

export interface CreateGoalOptions {
  now: Date;
  /** Shares the employee check between the operations of one push batch (see Once). */
  once?: Once;
}

/** `POST /companies/{companyId}/goals`: a new goal (NEW), its CREATED entry, and the business customer told. */
export async function createGoal(tx: Queryable, member: Membership, user: UserRow, input: GoalInput, options: CreateGoalOptions): Promise<Goal> {
  const { now } = options;
  const once: Once = options.once ?? ((_key, read) => read());
  if (!canCreateGoal(member.roles)) throw new AppError('forbidden', 403);
  requireIndicatorUnit(input.indicator.unitId);
  const customer = await businessCustomerOf(tx, member.companyId, input.businessCustomerEmployeeId, once);
  const id = input.id?.toLowerCase() ?? randomUUID();
  const byName = fullNameOf(user);
  const history: GoalHistoryEntry[] = [{ at: now.toISOString(), action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: user.id, byName, comment: null }];
  let inserted;
  try {
    inserted = await tx.kysely
      .insertInto('goals')
      .values({
        company_id: member.companyId,
        id,
        ...columnsOf(input, customer.id),
        status: 'NEW',
        history: JSON.stringify(history),
        created_by: user.id,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .$narrowType<{ status: GoalStatus; history: GoalHistoryEntry[] }>()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('goalExists', 409);
    throw error;
  }
  const goal = toGoal({ ...inserted, business_customer_user_id: customer.userId });
  await tell(tx, member, user, goal, now, { userIds: [customer.userId], kind: 'GOAL_ASSIGNED', params: { title: goalTitleOf(goal), byName, comment: null } });
  return goal;
}

/** The goal `id` of the member's company, locked for the rest of the transaction; 404 when there is none. */
async function lockGoal(tx: Queryable, member: Membership, id: string): Promise<GoalRow> {
  // A push batch hands the path's id over as written: one that is no uuid names nothing.
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const row = await selectGoals(tx).where('g.company_id', '=', member.companyId).where('g.id', '=', id.toLowerCase()).forUpdate(['g']).executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  return row;
}

/** The columns a write sets on a goal; the history entry and updated_at are added by `saveGoal`. */
type GoalChanges = Omit<Updateable<DB['goals']>, 'company_id' | 'id' | 'history' | 'updated_at' | 'created_at' | 'created_by' | 'change_seq'>;

/** Writes `changes` and `entry` to the locked goal `row`, and answers it as the API shows it. */
async function saveGoal(tx: Queryable, row: GoalRow, changes: GoalChanges, entry: GoalHistoryEntry, businessCustomerUserId: string | null, now: Date): Promise<Goal> {
  const updated = await tx.kysely
    .updateTable('goals')
    .set({ ...changes, history: JSON.stringify([...row.history, entry]), updated_at: now })
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .returningAll()
    .$narrowType<{ status: GoalStatus; history: GoalHistoryEntry[] }>()
    .executeTakeFirstOrThrow();
  return toGoal({ ...updated, business_customer_user_id: businessCustomerUserId });
}

/**
 * Who moved the goal into the status it is in, and when: the last history entry that did (its creation, an
 * action), for a message naming them; "another user" for entries written without a name.
 */
function lastMove(row: GoalRow): Pick<AppErrorExtras, 'values' | 'valueIds'> {
  const entry = row.history.findLast((e) => e.toStatus === row.status && (e.fromStatus !== e.toStatus || e.action === 'CREATED'));
  const at = entry && !Number.isNaN(Date.parse(entry.at)) ? new Date(entry.at) : row.updated_at;
  const name = entry?.byName ?? null;
  return name ? { values: { status: row.status, name, at } } : { values: { status: row.status, at }, valueIds: { name: ['error.goalSomeone'] } };
}

/**
 * `PATCH /companies/{companyId}/goals/{goalId}`: the owner's edit while NEW or CLARIFICATION (the status stays;
 * a clarified goal goes back by the RESEND action). A new business customer is told.
 */
export async function editGoal(tx: Queryable, member: Membership, user: UserRow, id: string, input: GoalInput, now: Date): Promise<GoalOutcome> {
  const row = await lockGoal(tx, member, id);
  if (!hasAnyRole(member.roles, GOAL_EDIT_ROLES)) throw new AppError('forbidden', 403);
  if (!canEditGoal(member.roles, { status: row.status })) throw new AppError('goalNotEditable', 409, lastMove(row));
  requireIndicatorUnit(input.indicator.unitId);
  const customer = await businessCustomerOf(tx, member.companyId, input.businessCustomerEmployeeId, (_key, read) => read());
  const byName = fullNameOf(user);
  const entry: GoalHistoryEntry = { at: now.toISOString(), action: 'EDITED', fromStatus: row.status, toStatus: row.status, byUserId: user.id, byName, comment: null };
  const goal = await saveGoal(tx, row, columnsOf(input, customer.id), entry, customer.userId, now);
  if (customer.id !== row.business_customer_employee_id) {
    await tell(tx, member, user, goal, now, { userIds: [customer.userId], kind: 'GOAL_ASSIGNED', params: { title: goalTitleOf(goal), byName, comment: null } });
  }
  return { goal, message: 'mail.notice.goalEdited' };
}

const MESSAGE_OF: Record<GoalAction, string> = {
  TO_WORK: 'mail.notice.goalTakenToWork',
  CLARIFICATION: 'mail.notice.goalClarificationRequested',
  RESEND: 'mail.notice.goalResent',
  APPROVE: 'mail.notice.goalApproved',
};

/** The active owners of the company: who is told that a goal waits on them. */
async function ownersOf(tx: Queryable, companyId: string): Promise<string[]> {
  const rows = await tx.kysely
    .selectFrom('company_members')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('active', '=', true)
    .where((eb) => eb(eb.val('OWNER'), '=', eb.fn.any('roles')))
    .orderBy('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * `POST /companies/{companyId}/goals/{goalId}/actions`: the business customer takes the goal to work or asks for
 * clarification (comment), the owner resends a clarified goal or approves one taken to work.
 */
export async function actOnGoal(tx: Queryable, member: Membership, user: UserRow, id: string, input: GoalActionInput, now: Date): Promise<GoalOutcome> {
  const row = await lockGoal(tx, member, id);
  const result = goalTransition(input.action, { status: row.status, businessCustomerUserId: row.business_customer_user_id ?? null }, member, input);
  if (!result.ok) {
    if (result.code === 'forbidden') throw new AppError('forbidden', 403);
    if (result.code === 'wrongState') throw new AppError('goalActionWrongState', 409, lastMove(row));
    throw fieldError('comment', 'required');
  }
  const comment = commentOf(input.comment);
  const byName = fullNameOf(user);
  const entry: GoalHistoryEntry = { at: now.toISOString(), action: input.action, fromStatus: result.from, toStatus: result.to, byUserId: user.id, byName, comment };
  const goal = await saveGoal(tx, row, { status: result.to }, entry, row.business_customer_user_id ?? null, now);
  const params = { title: goalTitleOf(goal), byName, comment };
  const customer = goal.businessCustomerUserId;
  switch (input.action) {
    case 'TO_WORK':
      await tell(tx, member, user, goal, now, { userIds: await ownersOf(tx, member.companyId), kind: 'GOAL_TO_WORK', params });
      break;
    case 'CLARIFICATION':
      await tell(tx, member, user, goal, now, { userIds: await ownersOf(tx, member.companyId), kind: 'GOAL_CLARIFICATION', params });
      break;
    case 'RESEND':
      await tell(tx, member, user, goal, now, { userIds: [customer], kind: 'GOAL_ASSIGNED', params });
      break;
    case 'APPROVE':
      await tell(tx, member, user, goal, now, { userIds: [customer, row.created_by], kind: 'GOAL_APPROVED', params });
      break;
  }
  return { goal, message: MESSAGE_OF[input.action] };
}

interface NoticeTo {
  userIds: readonly (string | null)[];
  kind: NotificationKind;
  params: Record<string, string | null>;
}

async function tell(tx: Queryable, member: Membership, user: UserRow, goal: Goal, now: Date, notice: NoticeTo): Promise<void> {
  await notify(tx, { companyId: member.companyId, userIds: notice.userIds, actorId: user.id, kind: notice.kind, suggestionId: null, goalId: goal.id, params: notice.params }, now);
}

/** `GET /companies/{companyId}/goals/{goalId}`: any member; 404 for a missing, malformed or foreign id. */
export async function readGoal(db: Queryable, member: Membership, id: string): Promise<Goal> {
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const row = await selectGoals(db).where('g.company_id', '=', member.companyId).where('g.id', '=', id.toLowerCase()).executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  return toGoal(row);
}

export interface GoalListOptions {
  status?: GoalStatus | undefined;
  /** Exactly this direction. */
  direction?: string | undefined;
  /** Lower-case uuid. */
  businessCustomerEmployeeId?: string | undefined;
  /** Direction, scope, description or process contains it, case-insensitively, ё read as е, taken literally. */
  q?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** A list cursor: the last row's end date, then its id. */
interface ListCursor {
  e: string;
  i: string;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

function encodeCursor(row: { end_date: string; id: string }): string {
  return Buffer.from(JSON.stringify({ e: row.end_date, i: row.id } satisfies ListCursor)).toString('base64url');
}

/** A cursor this list made, or 400 `errors.cursor` (never a value the query would choke on). */
function decodeCursor(raw: string): ListCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && 'e' in value && 'i' in value) {
      const { e, i } = value;
      if (typeof e === 'string' && CALENDAR_DATE.test(e) && isUuid(i)) return { e, i: i.toLowerCase() };
    }
  } catch {
    // falls through to the 400 below
  }
  throw fieldError('cursor', 'invalid');
}

/** `text` for LIKE, matched literally: the escape character and both wildcards escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `GET /companies/{companyId}/goals`: any member, every goal of the company, by end date then id. */
export async function listGoals(db: Queryable, member: Membership, options: GoalListOptions): Promise<{ items: Goal[]; nextCursor: string | null }> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  let query = selectGoals(db).where('g.company_id', '=', member.companyId);
  if (options.status) query = query.where('g.status', '=', options.status);
  if (options.direction !== undefined && options.direction.trim() !== '') query = query.where('g.direction', '=', options.direction.trim());
  if (options.businessCustomerEmployeeId) query = query.where('g.business_customer_employee_id', '=', options.businessCustomerEmployeeId);
  if (options.q !== undefined && options.q.trim() !== '') {
    const pattern = `%${likeLiteral(options.q.trim().replace(/ё/g, 'е').replace(/Ё/g, 'Е'))}%`;
    const folded = (column: 'g.direction' | 'g.scope' | 'g.description' | 'g.process') => sql<string>`translate(${sql.ref(column)}, 'Ёё', 'Ее')`;
    query = query.where((eb) =>
      eb.or([eb(folded('g.direction'), 'ilike', pattern), eb(folded('g.scope'), 'ilike', pattern), eb(folded('g.description'), 'ilike', pattern), eb(folded('g.process'), 'ilike', pattern)]),
    );
  }
  if (cursor) {
    query = query.where((eb) => eb(eb.refTuple('g.end_date', 'g.id'), '>', eb.tuple(eb.val(cursor.e), eb.cast<string>(eb.val(cursor.i), 'uuid'))));
  }
  const rows = await query.orderBy('g.end_date', 'asc').orderBy('g.id', 'asc').limit(options.limit + 1).execute();
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return { items: page.map(toGoal), nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null };
}
