// Proposals: submit, list, read (docs/api.md, "Proposals"). Every call runs after requireMember; the
// visibility rule is canSeeSuggestion of src/domain/permissions.ts, written here once as a query condition
// (`visibleTo`), which the sync pull applies too. What it guarantees: a member reads only the proposals that
// rule lets them see (any other id, a malformed one included, is simply not found); a submit stores the
// proposal, its images (the caller's own, not yet attached, locked until the commit) and its history in the
// caller's transaction, or nothing; the list pages by an exact keyset (created_at to the microsecond, then the
// id as a uuid), so no row is skipped or repeated between pages.

import { randomUUID } from 'node:crypto';
import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { canSeeAllSuggestions, canSubmitSuggestion, hasAnyRole, SUGGESTION_REVIEW_OVERRIDE_ROLES } from '../../../src/domain/permissions';
import {
  dueDateOf,
  isUuid,
  SUGGESTION_SCOPES,
  type Currency,
  type Suggestion,
  type SuggestionHistoryEntry,
  type SuggestionInput,
  type SuggestionStatus,
} from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { fullNameOf, type UserRow } from '../../auth/users';
import { imageLinkOf } from '../files/routes';
import type { ImageType } from '../files/detect';
import type { Membership } from '../../auth/access';
import type { Once } from '../../operation';
import { notify } from '../notifications/service';
import { holdersOf } from './holders';

/** An image of a proposal, in its position. */
interface ProposalImage {
  id: string;
  contentType: ImageType;
  name: string;
}

/**
 * Columns whose values the schema keeps narrower than its types say: status and effect_currency by their
 * CHECK constraints, history as only this module writes it (an image's content type, by files' CHECK, is
 * narrowed the same way where images are read).
 */
interface Narrowed {
  status: SuggestionStatus;
  effect_currency: Currency | null;
  history: SuggestionHistoryEntry[];
}

/** A `suggestions` row with its images (null: none), as the reads below return it. */
export type SuggestionRow = Omit<Selectable<DB['suggestions']>, keyof Narrowed> &
  Narrowed & {
    images: ProposalImage[] | null;
  };

/** The proposals of the queries below, under the alias `s`. */
type Proposals = { s: DB['suggestions'] };

/**
 * Every column of a proposal (`s`) with its images in their order and `created_key`, created_at to the
 * microsecond (a Date keeps milliseconds): what the list's cursor compares.
 */
export function selectSuggestions(db: Queryable) {
  return db.kysely
    .selectFrom('suggestions as s')
    .selectAll('s')
    .select((eb) => [
      eb
        .fn<string>('to_char', [eb.fn('timezone', [sql.lit('UTC'), 's.created_at']), sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"')])
        .as('created_key'),
      eb
        .selectFrom('suggestion_images as si')
        .innerJoin('files as f', 'f.id', 'si.file_id')
        .whereRef('si.company_id', '=', 's.company_id')
        .whereRef('si.suggestion_id', '=', 's.id')
        .select((agg) =>
          agg.fn
            .jsonAgg(jsonBuildObject({ id: agg.ref('f.id'), contentType: agg.ref('f.content_type'), name: agg.ref('f.name') }))
            .orderBy('si.position')
            .as('images'),
        )
        .as('images'),
    ])
    .$narrowType<Narrowed & { images: ProposalImage[] | null }>();
}

/**
 * The condition "the proposal `s` is visible to the member" (canSeeSuggestion): their own, every one for a
 * company-wide role, those of the departments they head. The headed departments are compared as uuids (they
 * come from the database), so the department index can serve them.
 */
export function visibleTo(member: Membership): Expression<SqlBool> {
  const eb = expressionBuilder<Proposals, 's'>();
  if (canSeeAllSuggestions(member.roles)) return eb.lit(true);
  const own = eb('s.author_id', '=', member.userId);
  if (member.headOfDepartmentIds.length === 0) return own;
  return eb.or([own, eb('s.department_id', '=', eb.fn.any(eb.val([...member.headOfDepartmentIds])))]);
}

export function toSuggestion(row: SuggestionRow): Suggestion {
  return {
    id: row.id,
    companyId: row.company_id,
    title: row.title,
    problem: row.problem,
    solution: row.solution,
    expectedEffect: row.expected_effect,
    effectEstimate:
      row.effect_amount_minor !== null && row.effect_currency !== null
        ? { amountMinor: Number(row.effect_amount_minor), currency: row.effect_currency }
        : null,
    departmentId: row.department_id,
    goalId: row.goal_id,
    images: (row.images ?? []).map((f) => ({ imageId: f.id, imageLink: imageLinkOf(f), name: f.name })),
    authorId: row.author_id,
    authorName: row.author_name,
    status: row.status,
    dueAt: row.due_at.toISOString(),
    submittedAt: row.submitted_at.toISOString(),
    receivedAt: row.received_at.toISOString(),
    reviewComment: row.review_comment,
    history: row.history,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    decidedById: row.decided_by,
    decidedByName: row.decided_by_name,
    decidedAt: row.decided_at?.toISOString() ?? null,
    clarificationAt: row.clarification_at?.toISOString() ?? null,
    escalationLevel: row.escalation_level,
    overdueAt: row.overdue_at?.toISOString() ?? null,
  };
}

export async function readSuggestion(db: Queryable, member: Membership, id: string): Promise<Suggestion> {
  // Compared as a uuid, so the primary key finds the row: a text comparison scans the company's proposals,
  // which made every submit slower as the company grew. A malformed id is simply not found.
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const row = await selectSuggestions(db)
    .where('s.company_id', '=', member.companyId)
    .where('s.id', '=', id.toLowerCase())
    .where(visibleTo(member))
    .executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  return toSuggestion(row);
}

export interface CreateSuggestionOptions {
  now?: Date;
  /** Shares the department check between the operations of one push batch (see Once). */
  once?: Once;
}

const invalidField = (field: 'departmentId' | 'goalId' | 'imageIds') => new AppError('validation', 400, { fieldErrors: { [field]: 'invalid' } });

export async function createSuggestion(tx: Queryable, member: Membership, user: UserRow, input: SuggestionInput, options: CreateSuggestionOptions = {}): Promise<Suggestion> {
  const now = options.now ?? new Date();
  const once: Once = options.once ?? ((_key, read) => read());
  if (!canSubmitSuggestion(member.roles)) throw new AppError('forbidden', 403);
  // Any non-empty text passes the body's struct; one that is not a uuid names no department.
  if (!isUuid(input.departmentId)) throw invalidField('departmentId');
  const departmentId = input.departmentId.toLowerCase();
  const department = await once(`department:${member.companyId}:${departmentId}`, () =>
    tx.kysely.selectFrom('departments').select(['id', 'name']).where('company_id', '=', member.companyId).where('id', '=', departmentId).executeTakeFirst(),
  );
  if (!department) throw invalidField('departmentId');
  // A proposal may serve one of the company's goals (issue 12): one of another company, or none, names nothing.
  const goalId = input.goalId?.toLowerCase() ?? null;
  if (goalId !== null) {
    const goal = await once(`goal:${member.companyId}:${goalId}`, () =>
      tx.kysely.selectFrom('goals').select('id').where('company_id', '=', member.companyId).where('id', '=', goalId).executeTakeFirst(),
    );
    if (!goal) throw invalidField('goalId');
  }

  const imageIds = input.imageIds.map((i) => i.toLowerCase());
  let images: ProposalImage[] = [];
  if (new Set(imageIds).size !== imageIds.length) throw invalidField('imageIds');
  if (imageIds.length > 0) {
    // The caller's own uploads not yet attached to anything, locked so a concurrent submit cannot take them too.
    const usable = await tx.kysely
      .selectFrom('files as f')
      .select(['f.id', 'f.content_type', 'f.name'])
      .where('f.id', '=', (eb) => eb.fn.any(eb.val(imageIds)))
      .where('f.owner_id', '=', user.id)
      .where('f.company_id', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('suggestion_images as si').select('si.file_id').whereRef('si.file_id', '=', 'f.id'))))
      .forUpdate()
      .$narrowType<{ content_type: ImageType }>()
      .execute();
    if (usable.length !== imageIds.length) throw invalidField('imageIds');
    const byId = new Map(usable.map((f) => [f.id, f]));
    images = imageIds.flatMap((fileId) => {
      const file = byId.get(fileId);
      return file ? [{ id: file.id, contentType: file.content_type, name: file.name }] : [];
    });
  }

  const id = input.id?.toLowerCase() ?? randomUUID();
  const received = now;
  const submitted = input.submittedAt && Date.parse(input.submittedAt) < now.getTime() ? new Date(input.submittedAt) : now;
  const history: SuggestionHistoryEntry[] = [{ at: submitted.toISOString(), kind: 'SUBMITTED', byUserId: user.id, comment: null }];
  let inserted: Omit<SuggestionRow, 'images'> | undefined;
  try {
    // The row comes back from the insert itself (no second read), and created_at is the insert's own clock,
    // so proposals created in one transaction (a push batch) still list in the order they were written.
    inserted = await tx.kysely
      .insertInto('suggestions')
      .values((eb) => ({
        company_id: member.companyId,
        id,
        title: input.title,
        problem: input.problem,
        solution: input.solution,
        expected_effect: input.expectedEffect,
        effect_amount_minor: input.effectEstimate ? String(input.effectEstimate.amountMinor) : null,
        effect_currency: input.effectEstimate?.currency ?? null,
        department_id: departmentId,
        goal_id: goalId,
        author_id: user.id,
        author_name: fullNameOf(user),
        due_at: dueDateOf(received.toISOString()),
        submitted_at: submitted.toISOString(),
        received_at: received.toISOString(),
        history: JSON.stringify(history),
        created_at: eb.fn<Date>('clock_timestamp'),
        updated_at: eb.fn<Date>('clock_timestamp'),
      }))
      .returningAll()
      .$narrowType<Narrowed>()
      .executeTakeFirst();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('suggestionExists', 409);
    throw error;
  }
  if (imageIds.length > 0) {
    await tx.kysely
      .insertInto('suggestion_images')
      .values(imageIds.map((fileId, position) => ({ company_id: member.companyId, suggestion_id: id, file_id: fileId, position })))
      .execute();
    await tx.kysely.updateTable('files').set({ company_id: member.companyId }).where('id', '=', (eb) => eb.fn.any(eb.val(imageIds))).execute();
  }
  if (!inserted) throw new Error('the insert returned no proposal');
  // Whoever decides it now is told (not the author, should they head the department themselves).
  const holders = await once(`holders:${member.companyId}:${departmentId}:0`, () => holdersOf(tx, member.companyId, departmentId, 0));
  await notify(
    tx,
    {
      companyId: member.companyId,
      userIds: holders.userIds,
      actorId: user.id,
      kind: 'SUGGESTION_SUBMITTED',
      suggestionId: id,
      params: { title: inserted.title, byName: inserted.author_name, departmentName: department.name, dueAt: inserted.due_at.toISOString() },
    },
    now,
  );
  return toSuggestion({ ...inserted, images });
}

/** The scopes of the list: those of the domain and `review`, the open proposals the caller may decide. */
export const SUGGESTION_LIST_SCOPES = [...SUGGESTION_SCOPES, 'review'] as const;
export type SuggestionListScope = (typeof SUGGESTION_LIST_SCOPES)[number];

export interface ListOptions {
  scope: SuggestionListScope;
  status: SuggestionStatus | undefined;
  cursor: string | undefined;
  limit: number;
  /** Only the proposals of this department / for this goal (lower-case uuids). */
  departmentId?: string | undefined;
  goalId?: string | undefined;
  /** true: under consideration and past the due date at `now`; false: every other one. */
  overdue?: boolean | undefined;
  /** Title or problem contains it, case-insensitively (taken literally: `%` and `_` are no wildcards). */
  q?: string | undefined;
  /** What `overdue` is measured against (default the system clock). */
  now?: Date;
}

/**
 * A list cursor: the last row's ordering key, to the microsecond (`c` created_at for the newest-first
 * scopes, `d` due_at for `review`), then its id. A cursor of the other ordering is refused like a forged one.
 */
interface ListCursor {
  k: 'c' | 'd';
  at: string;
  i: string;
}

function encodeCursor(kind: ListCursor['k'], at: string, id: string): string {
  // To the microsecond: proposals written within one millisecond (a push batch) must not fall between pages.
  return Buffer.from(JSON.stringify({ [kind]: at, i: id })).toString('base64url');
}

/** A UTC instant as the cursor writes it (`created_key`); earlier builds wrote milliseconds. */
const CURSOR_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?Z$/;

/**
 * Only an instant PostgreSQL reads as the same instant may reach the query: `Date.parse` takes strings such as
 * '1' or '2026-02-31' that timestamptz refuses (a 500) or reads differently.
 */
function isCursorInstant(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CURSOR_INSTANT.exec(value);
  if (!match) return false;
  const [, year, month, day, hour, minute, second] = match;
  const seconds = `${year}-${month}-${day}T${hour}:${minute}:${second}`;
  const parsed = new Date(`${seconds}Z`);
  return Number(year) >= 1 && !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === seconds;
}

/** A cursor this list made for ordering `kind`, or 400 `errors.cursor` (never a value the query would choke on). */
function decodeCursor(raw: string, kind: ListCursor['k']): ListCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && kind in value && 'i' in value) {
      const at: unknown = (value as Record<string, unknown>)[kind];
      const { i } = value;
      if (isCursorInstant(at) && isUuid(i)) return { k: kind, at, i: i.toLowerCase() };
    }
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('validation', 400, { fieldErrors: { cursor: 'invalid' } });
}

/** `text` for LIKE, matched literally: the escape character and both wildcards escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** An instant to the microsecond in UTC, as the cursor carries it. */
const microsecondKey = (column: 's.created_at' | 's.due_at') => {
  const eb = expressionBuilder<Proposals, 's'>();
  return eb.fn<string>('to_char', [eb.fn('timezone', [sql.lit('UTC'), eb.ref(column)]), sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"')]);
};

/**
 * Scopes: `mine` the caller's own; `company` other members' proposals the caller may see (403 for a
 * member who may see none: neither a company-wide role nor a department head); `all` (default) both, newest
 * first. `review`: the proposals under consideration the caller may decide (canReviewSuggestion: those of
 * the departments they head, every one for OWNER and CEO; 403 for anyone else), soonest due first.
 * Filters narrow any scope.
 */
export async function listSuggestions(db: Queryable, member: Membership, options: ListOptions): Promise<{ items: Suggestion[]; nextCursor: string | null }> {
  const seesAll = canSeeAllSuggestions(member.roles);
  const reviewsAll = hasAnyRole(member.roles, SUGGESTION_REVIEW_OVERRIDE_ROLES);
  if (options.scope === 'company' && !seesAll && member.headOfDepartmentIds.length === 0) throw new AppError('forbidden', 403);
  if (options.scope === 'review' && !reviewsAll && member.headOfDepartmentIds.length === 0) throw new AppError('forbidden', 403);
  const byDue = options.scope === 'review';
  const cursor = options.cursor ? decodeCursor(options.cursor, byDue ? 'd' : 'c') : null;
  let query = selectSuggestions(db)
    .select(() => [microsecondKey('s.due_at').as('due_key')])
    .where('s.company_id', '=', member.companyId);
  if (options.scope === 'mine') query = query.where('s.author_id', '=', member.userId);
  else if (options.scope === 'company') {
    query = query.where('s.author_id', '<>', member.userId);
    if (!seesAll) query = query.where('s.department_id', '=', (eb) => eb.fn.any(eb.val([...member.headOfDepartmentIds])));
  } else if (options.scope === 'review') {
    query = query.where('s.status', '=', 'UNDER_CONSIDERATION');
    if (!reviewsAll) query = query.where('s.department_id', '=', (eb) => eb.fn.any(eb.val([...member.headOfDepartmentIds])));
  } else query = query.where(visibleTo(member));
  if (options.status) query = query.where('s.status', '=', options.status);
  if (options.departmentId) query = query.where('s.department_id', '=', options.departmentId);
  if (options.goalId) query = query.where('s.goal_id', '=', options.goalId);
  if (options.overdue !== undefined) {
    const now = options.now ?? new Date();
    const overdue = (eb: ExpressionBuilder<Proposals, 's'>) => eb.and([eb('s.status', '=', 'UNDER_CONSIDERATION'), eb('s.due_at', '<', now)]);
    query = query.where((eb) => (options.overdue ? overdue(eb) : eb.not(overdue(eb))));
  }
  if (options.q !== undefined && options.q.trim() !== '') {
    const pattern = `%${likeLiteral(options.q.trim())}%`;
    query = query.where((eb) => eb.or([eb('s.title', 'ilike', pattern), eb('s.problem', 'ilike', pattern)]));
  }
  if (cursor) {
    // Exact keyset: the ordering instant to the microsecond, then the id as a uuid, in the very order of the
    // ORDER BY (a uuid's order is its bytes'; as text it would also depend on the collation and bypass the index).
    query = byDue
      ? query.where((eb) => eb(eb.refTuple('s.due_at', 's.id'), '>', eb.tuple(eb.cast<Date>(eb.val(cursor.at), 'timestamptz'), eb.cast<string>(eb.val(cursor.i), 'uuid'))))
      : query.where((eb) => eb(eb.refTuple('s.created_at', 's.id'), '<', eb.tuple(eb.cast<Date>(eb.val(cursor.at), 'timestamptz'), eb.cast<string>(eb.val(cursor.i), 'uuid'))));
  }
  const ordered = byDue ? query.orderBy('s.due_at', 'asc').orderBy('s.id', 'asc') : query.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc');
  const rows = await ordered.limit(options.limit + 1).execute();
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > options.limit && last ? (byDue ? encodeCursor('d', last.due_key, last.id) : encodeCursor('c', last.created_key, last.id)) : null;
  return { items: page.map(toSuggestion), nextCursor };
}
