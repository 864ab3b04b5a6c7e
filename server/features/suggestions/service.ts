// Proposals: submit, list, read (docs/api.md, "Proposals"). Every call runs after requireMember; the
// visibility rule is canSeeSuggestion of src/domain/permissions.ts, written here once as SQL.

import { randomUUID } from 'node:crypto';
import { canSeeAllSuggestions, canSubmitSuggestion } from '../../../src/domain/permissions';
import {
  dueDateOf,
  isUuid,
  type Suggestion,
  type SuggestionHistoryEntry,
  type SuggestionInput,
  type SuggestionScope,
  type SuggestionStatus,
} from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import { AppError } from '../../errors';
import { fullNameOf, type UserRow } from '../../auth/users';
import { imageLinkOf } from '../files/routes';
import type { ImageType } from '../files/detect';
import type { Membership } from '../../auth/access';
import type { Once } from '../../operation';

export interface SuggestionRow {
  company_id: string;
  id: string;
  title: string;
  problem: string;
  solution: string;
  expected_effect: string;
  effect_amount_minor: string | number | null;
  effect_currency: 'RUB' | 'USD' | 'AUD' | null;
  department_id: string;
  goal_id: string | null;
  author_id: string;
  author_name: string;
  status: SuggestionStatus;
  due_at: Date;
  submitted_at: Date;
  received_at: Date;
  review_comment: string | null;
  history: SuggestionHistoryEntry[];
  created_at: Date;
  updated_at: Date;
  /** created_at to the microsecond (a Date keeps milliseconds): what the list's cursor compares. */
  created_key?: string;
  images: { id: string; contentType: ImageType; name: string }[] | null;
}

/** Columns of a proposal with its images, from `suggestions s`. */
/** The columns of a proposal (without its images), as `SuggestionRow` reads them; also an insert's RETURNING. */
const SUGGESTION_COLUMNS = `company_id, id, title, problem, solution, expected_effect,
  effect_amount_minor::text AS effect_amount_minor, effect_currency, department_id, goal_id, author_id,
  author_name, status, due_at, submitted_at, received_at, review_comment, history, created_at, updated_at`;

export const SUGGESTION_SELECT = `SELECT s.company_id, s.id, s.title, s.problem, s.solution, s.expected_effect,
  s.effect_amount_minor::text AS effect_amount_minor, s.effect_currency, s.department_id, s.goal_id, s.author_id,
  s.author_name, s.status, s.due_at, s.submitted_at, s.received_at, s.review_comment, s.history, s.created_at, s.updated_at,
  s.change_seq::text AS cs,
  to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key,
  (SELECT json_agg(json_build_object('id', f.id, 'contentType', f.content_type, 'name', f.name) ORDER BY si.position)
     FROM suggestion_images si JOIN files f ON f.id = si.file_id
    WHERE si.company_id = s.company_id AND si.suggestion_id = s.id) AS images
  FROM suggestions s`;

/** SQL condition: the proposal `s` is visible to member ($user, $seesAll, $heads). */
export function visibleCondition(user: string, seesAll: string, heads: string): string {
  return `(s.author_id = ${user} OR ${seesAll}::boolean OR s.department_id::text = ANY(${heads}::text[]))`;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

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
    dueAt: iso(row.due_at),
    submittedAt: iso(row.submitted_at),
    receivedAt: iso(row.received_at),
    reviewComment: row.review_comment,
    history: row.history,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export async function readSuggestion(db: Queryable, member: Membership, id: string): Promise<Suggestion> {
  // Compared as a uuid, so the primary key finds the row: a text comparison scans the company's proposals,
  // which made every submit slower as the company grew. A malformed id is simply not found.
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const row = await db.one<SuggestionRow>(
    `${SUGGESTION_SELECT} WHERE s.company_id = $1 AND s.id = $2::uuid AND ${visibleCondition('$3', '$4', '$5')}`,
    [member.companyId, id.toLowerCase(), member.userId, canSeeAllSuggestions(member.roles), [...member.headOfDepartmentIds]],
  );
  if (!row) throw new AppError('notFound', 404);
  return toSuggestion(row);
}

export interface CreateSuggestionOptions {
  now?: Date;
  /** Shares the department check between the operations of one push batch (see Once). */
  once?: Once;
}

export async function createSuggestion(tx: Queryable, member: Membership, user: UserRow, input: SuggestionInput, options: CreateSuggestionOptions = {}): Promise<Suggestion> {
  const now = options.now ?? new Date();
  const once: Once = options.once ?? ((_key, read) => read());
  if (!canSubmitSuggestion(member.roles)) throw new AppError('forbidden', 403);
  const departmentId = input.departmentId.toLowerCase();
  const department = await once(`department:${member.companyId}:${departmentId}`, () =>
    tx.one('SELECT 1 FROM departments WHERE company_id = $1 AND id::text = $2', [member.companyId, departmentId]),
  );
  if (!department) throw new AppError('validation', 400, { fieldErrors: { departmentId: 'invalid' } });

  const imageIds = input.imageIds.map((i) => i.toLowerCase());
  let images: NonNullable<SuggestionRow['images']> = [];
  if (new Set(imageIds).size !== imageIds.length) throw new AppError('validation', 400, { fieldErrors: { imageIds: 'invalid' } });
  if (imageIds.length > 0) {
    const usable = await tx.query<{ id: string; content_type: ImageType; name: string }>(
      `SELECT f.id, f.content_type, f.name FROM files f
        WHERE f.id::text = ANY($1::text[]) AND f.owner_id = $2 AND f.company_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM suggestion_images si WHERE si.file_id = f.id)
        FOR UPDATE`,
      [imageIds, user.id],
    );
    if (usable.length !== imageIds.length) throw new AppError('validation', 400, { fieldErrors: { imageIds: 'invalid' } });
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
  let inserted: SuggestionRow | null;
  try {
    // The row comes back from the insert itself (no second read), and created_at is the insert's own clock,
    // so proposals created in one transaction (a push batch) still list in the order they were written.
    inserted = await tx.one<SuggestionRow>(
      `INSERT INTO suggestions (company_id, id, title, problem, solution, expected_effect, effect_amount_minor, effect_currency,
                                department_id, goal_id, author_id, author_name, due_at, submitted_at, received_at, history,
                                created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb, clock_timestamp(), clock_timestamp())
       RETURNING ${SUGGESTION_COLUMNS}`,
      [
        member.companyId,
        id,
        input.title,
        input.problem,
        input.solution,
        input.expectedEffect,
        input.effectEstimate ? String(input.effectEstimate.amountMinor) : null,
        input.effectEstimate?.currency ?? null,
        input.departmentId.toLowerCase(),
        input.goalId?.toLowerCase() ?? null,
        user.id,
        fullNameOf(user),
        dueDateOf(received.toISOString()),
        submitted.toISOString(),
        received.toISOString(),
        JSON.stringify(history),
      ],
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('suggestionExists', 409);
    throw error;
  }
  for (const [position, fileId] of imageIds.entries()) {
    await tx.query('INSERT INTO suggestion_images (company_id, suggestion_id, file_id, position) VALUES ($1, $2, $3, $4)', [member.companyId, id, fileId, position]);
  }
  if (imageIds.length > 0) await tx.query('UPDATE files SET company_id = $1 WHERE id::text = ANY($2::text[])', [member.companyId, imageIds]);
  if (!inserted) throw new Error('the insert returned no proposal');
  return toSuggestion({ ...inserted, images });
}

export interface ListOptions {
  scope: SuggestionScope;
  status: SuggestionStatus | undefined;
  cursor: string | undefined;
  limit: number;
}

interface ListCursor {
  c: string;
  i: string;
}

function encodeCursor(row: SuggestionRow): string {
  // To the microsecond: proposals written within one millisecond (a push batch) must not fall between pages.
  return Buffer.from(JSON.stringify({ c: row.created_key ?? iso(row.created_at), i: row.id } satisfies ListCursor)).toString('base64url');
}

function decodeCursor(raw: string): ListCursor {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<ListCursor>;
    if (typeof value.c === 'string' && typeof value.i === 'string' && !Number.isNaN(Date.parse(value.c))) return { c: value.c, i: value.i };
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('validation', 400, { fieldErrors: { cursor: 'invalid' } });
}

/**
 * Scopes: `mine` the caller's own; `company` other members' proposals the caller may see (403 for a
 * member who may see none: neither a company-wide role nor a department head); `all` (default) both.
 * Newest first.
 */
export async function listSuggestions(db: Queryable, member: Membership, options: ListOptions): Promise<{ items: Suggestion[]; nextCursor: string | null }> {
  const seesAll = canSeeAllSuggestions(member.roles);
  if (options.scope === 'company' && !seesAll && member.headOfDepartmentIds.length === 0) throw new AppError('forbidden', 403);
  const params: (string | number | boolean | string[])[] = [member.companyId, member.userId];
  const where = ['s.company_id = $1'];
  if (options.scope === 'mine') where.push('s.author_id = $2');
  else {
    params.push(seesAll, [...member.headOfDepartmentIds]);
    if (options.scope === 'company') where.push(`s.author_id <> $2 AND (($3::boolean) OR s.department_id::text = ANY($4::text[]))`);
    else where.push(visibleCondition('$2', '$3', '$4'));
  }
  if (options.status) {
    params.push(options.status);
    where.push(`s.status = $${params.length}`);
  }
  if (options.cursor) {
    const cursor = decodeCursor(options.cursor);
    params.push(cursor.c, cursor.i);
    where.push(`(s.created_at, s.id::text) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(options.limit + 1);
  const rows = await db.query<SuggestionRow>(`${SUGGESTION_SELECT} WHERE ${where.join(' AND ')} ORDER BY s.created_at DESC, s.id::text DESC LIMIT $${params.length}`, params);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return { items: page.map(toSuggestion), nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null };
}
