// GET /sync/pull (docs/api.md, "Sync"): what changed in one company since a cursor, only rows the
// caller may see. Without a cursor the answer first pages through a snapshot of every visible row as it
// stood at the company's highest seq H (rows whose last change is above H are left to the feed), then
// continues with the feed after H. In the feed an entry is sent only when it is its row's latest change
// (row.change_seq), so a row is never sent twice for one version and never missed: the per-company lock
// of the change trigger makes seqs visible in commit order. A page reads one REPEATABLE READ snapshot.
// A row the caller may no longer see is sent as a delete. Cursors are opaque (base64url JSON).
// Every cursor carries the view version of the member it was made for (`viewVersionOf`): a fingerprint of
// everything that decides which rows they see and how their rows look. When it differs from the member's
// current one (roles, headed departments or the rules themselves changed), the answer is `reset`, so the
// device drops what it may no longer see (or may now see differently) and pulls its view again.
// GET /sync/rows answers named rows as they are now, with the same visibility and row shapes as the pull
// (the device asks for rows whose changes it skipped while it held unsent changes of them).

import { createHash } from 'node:crypto';
import { expressionBuilder, sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import { canSeeSuggestion } from '../../../src/domain/permissions';
import { SYNC_ROWS_MAX_KEYS, SYNC_TABLES, isUuid, type SyncChange, type SyncPage, type SyncRows, type SyncTable } from '../../../src/domain/suggestion';
import type { Database, Queryable } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { requireMember, type Membership } from '../../auth/access';
import { toDepartmentRow } from '../departments/service';
import { toEmployeeRow } from '../employees/service';
import { toNotificationRow } from '../notifications/service';
import { selectSuggestions, toSuggestion, visibleTo } from '../suggestions/service';
import { selectGoals, toGoal } from '../goals/rows';
import { selectProjects, toProject } from '../projects/rows';
import { selectRegistries, toRegistry } from '../registry/rows';

export const DEFAULT_PULL_LIMIT = 500;
export const MAX_PULL_LIMIT = 1000;

export const MAX_ROW_KEYS = SYNC_ROWS_MAX_KEYS;

/**
 * Raise it whenever a change in code alters what a member sees or how a row looks to them (a new rule in
 * permissions.ts, a new hidden field): every cursor then answers reset and devices pull their view again.
 */
const VIEW_RULES_VERSION = 4;

/**
 * The member's view version: a fingerprint of what decides visibility and row shape for them (the user, the
 * roles read by canSeeAllSuggestions and canSeeEmployeeContacts, the departments they head, the rules'
 * version). The whole role set goes in, not the rules' current verdicts, so a later rule reading another
 * role needs no change here.
 */
export function viewVersionOf(member: Membership): string {
  const roles = [...new Set(member.roles)].sort();
  const heads = [...new Set(member.headOfDepartmentIds.map((id) => id.toLowerCase()))].sort();
  return createHash('sha256').update(JSON.stringify([VIEW_RULES_VERSION, member.userId, roles, heads])).digest('base64url').slice(0, 22);
}

/** `w` is the view version the cursor was made for; version 1 cursors had none and answer reset. */
type SnapshotCursor = { v: 2; c: string; w: string; p: 's'; h: string; t: number; k: string | null };
type FeedCursor = { v: 2; c: string; w: string; p: 'f'; s: string };
type Cursor = SnapshotCursor | FeedCursor;

export function encodeSyncCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const DIGITS = /^\d{1,18}$/;
const VIEW = /^[A-Za-z0-9_-]{1,64}$/;

export function decodeSyncCursor(raw: string, companyId: string): Cursor | null {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (value.v !== 2 || value.c !== companyId || typeof value.w !== 'string' || !VIEW.test(value.w)) return null;
    const w = value.w;
    if (value.p === 'f' && typeof value.s === 'string' && DIGITS.test(value.s)) return { v: 2, c: companyId, w, p: 'f', s: value.s };
    if (
      value.p === 's' &&
      typeof value.h === 'string' &&
      DIGITS.test(value.h) &&
      typeof value.t === 'number' &&
      Number.isInteger(value.t) &&
      value.t >= 0 &&
      value.t <= SYNC_TABLES.length &&
      // The snapshot's key is compared as a uuid: a string of the right length that is not one (36 zeros)
      // would fail the query.
      (value.k === null || isUuid(value.k))
    ) {
      return { v: 2, c: companyId, w, p: 's', h: value.h, t: value.t, k: value.k === null ? null : value.k.toLowerCase() };
    }
  } catch {
    // a cursor that does not decode is answered with reset
  }
  return null;
}

/**
 * Which rows of a table a read wants: a snapshot page (rows whose last change is at or below `upTo`, after the
 * id `after`, by id, at most `limit`) or the rows of the named ids (uuids, each once).
 */
type Scope = { kind: 'snapshot'; upTo: string; after: string | null; limit: number } | { kind: 'ids'; ids: readonly string[] };

/** A row as the device receives it, with its latest change and whether this member may see it. */
interface SyncedRow {
  id: string;
  seq: string;
  row: object;
  visible: boolean;
}

/** The scope's condition on a table's `id` and `change_seq`. */
function inScope(scope: Scope, id: Expression<string>, changeSeq: Expression<string>): Expression<SqlBool> {
  const eb = expressionBuilder<DB>();
  // Compared as uuids, so the primary key serves the named rows.
  if (scope.kind === 'ids') return eb(id, '=', eb.fn.any(eb.val([...scope.ids])));
  const upTo = eb(changeSeq, '<=', scope.upTo);
  return scope.after === null ? upTo : eb.and([upTo, eb(id, '>', scope.after)]);
}

const limitOf = (scope: Scope) => (scope.kind === 'ids' ? scope.ids.length : scope.limit);

function toCompanyRow(row: Selectable<DB['companies']>): object {
  return {
    id: row.id,
    name: row.name,
    inn: row.inn,
    kpp: row.kpp,
    legalForm: row.legal_form,
    website: row.website,
    employeeCount: row.employee_count,
    logoImageId: row.logo_image_id,
    timeZone: row.time_zone,
    verificationStatus: row.verification_status,
    invoiceNumber: row.invoice_number ?? null,
    paymentReportedAt: row.payment_reported_at?.toISOString() ?? null,
    verificationDecidedAt: row.verification_decided_at?.toISOString() ?? null,
    verificationComment: row.verification_comment ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * The company's rows of one table in the scope, in the shape the member sees them, ordered by id. A snapshot
 * reads only the proposals the member may see; named rows come back whatever they are, with `visible` saying
 * whether the member may see them (a hidden one is sent as a delete).
 */
async function readTable(tx: Queryable, member: Membership, table: SyncTable, scope: Scope): Promise<SyncedRow[]> {
  const limit = limitOf(scope);
  switch (table) {
    case 'companies': {
      const rows = await tx.kysely
        .selectFrom('companies as x')
        .selectAll('x')
        .where('x.id', '=', member.companyId)
        .where((eb) => inScope(scope, eb.ref('x.id'), eb.ref('x.change_seq')))
        .orderBy('x.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, seq: row.change_seq, row: toCompanyRow(row), visible: true }));
    }
    case 'departments': {
      const rows = await tx.kysely
        .selectFrom('departments as x')
        .selectAll('x')
        .where('x.company_id', '=', member.companyId)
        .where((eb) => inScope(scope, eb.ref('x.id'), eb.ref('x.change_seq')))
        .orderBy('x.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, seq: row.change_seq, row: toDepartmentRow(row), visible: true }));
    }
    case 'employees': {
      const rows = await tx.kysely
        .selectFrom('employees as x')
        .selectAll('x')
        .where('x.company_id', '=', member.companyId)
        .where((eb) => inScope(scope, eb.ref('x.id'), eb.ref('x.change_seq')))
        .orderBy('x.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, seq: row.change_seq, row: toEmployeeRow(row, member), visible: true }));
    }
    case 'suggestions': {
      let query = selectSuggestions(tx)
        .where('s.company_id', '=', member.companyId)
        .where((eb) => inScope(scope, eb.ref('s.id'), eb.ref('s.change_seq')));
      if (scope.kind === 'snapshot') query = query.where(visibleTo(member));
      const rows = await query.orderBy('s.id').limit(limit).execute();
      return rows.map((row) => ({
        id: row.id,
        seq: row.change_seq,
        row: toSuggestion(row),
        visible: canSeeSuggestion(member, { authorId: row.author_id, departmentId: row.department_id }),
      }));
    }
    case 'notifications': {
      // Only the recipient's own: a snapshot reads nothing else, and named rows of others come back hidden.
      let query = tx.kysely
        .selectFrom('notifications as x')
        .selectAll('x')
        .where('x.company_id', '=', member.companyId)
        .where((eb) => inScope(scope, eb.ref('x.id'), eb.ref('x.change_seq')));
      if (scope.kind === 'snapshot') query = query.where('x.user_id', '=', member.userId);
      const rows = await query.orderBy('x.id').limit(limit).execute();
      return rows.map((row) => ({ id: row.id, seq: row.change_seq, row: toNotificationRow(row), visible: row.user_id === member.userId }));
    }
    // Goals and projects are the company's: every member sees them all (the open registry is open to all).
    case 'goals': {
      const rows = await selectGoals(tx)
        .where('g.company_id', '=', member.companyId)
        .where((eb) => inScope(scope, eb.ref('g.id'), eb.ref('g.change_seq')))
        .orderBy('g.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, seq: row.change_seq, row: toGoal(row), visible: true }));
    }
    case 'projects': {
      const rows = await selectProjects(tx)
        .where('p.company_id', '=', member.companyId)
        .where((eb) => inScope(scope, eb.ref('p.id'), eb.ref('p.change_seq')))
        .orderBy('p.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, seq: row.change_seq, row: toProject(row), visible: true }));
    }
    // Sent registries are the company's too: every member sees them (as they see the projects' figures).
    case 'registries': {
      const rows = await selectRegistries(tx)
        .where('r.company_id', '=', member.companyId)
        .where((eb) => inScope(scope, eb.ref('r.id'), eb.ref('r.change_seq')))
        .orderBy('r.id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, seq: row.change_seq, row: toRegistry(row), visible: true }));
    }
  }
}

async function snapshotPage(tx: Queryable, member: Membership, cursor: SnapshotCursor, limit: number): Promise<{ changes: SyncChange[]; next: Cursor; done: boolean }> {
  const changes: SyncChange[] = [];
  let t = cursor.t;
  let k = cursor.k;
  while (t < SYNC_TABLES.length && changes.length < limit) {
    const table = SYNC_TABLES[t]!;
    const want = limit - changes.length;
    const rows = await readTable(tx, member, table, { kind: 'snapshot', upTo: cursor.h, after: k, limit: want });
    for (const row of rows) changes.push({ seq: row.seq, table, op: 'upsert', id: row.id, row: row.row });
    if (rows.length === want) {
      k = rows.at(-1)?.id ?? k;
      break;
    }
    t += 1;
    k = null;
  }
  if (t >= SYNC_TABLES.length) return { changes, next: { v: 2, c: member.companyId, w: cursor.w, p: 'f', s: cursor.h }, done: true };
  return { changes, next: { ...cursor, t, k }, done: false };
}

async function feedPage(tx: Queryable, member: Membership, cursor: FeedCursor, limit: number): Promise<{ changes: SyncChange[]; next: FeedCursor; hasMore: boolean }> {
  const entries = await tx.kysely
    .selectFrom('changes')
    .select(['seq', 'table_name', 'row_id', 'op'])
    .where('company_id', '=', member.companyId)
    .where('seq', '>', cursor.s)
    .orderBy('seq')
    .limit(limit + 1)
    // The change trigger writes the synced tables' names only, and op's CHECK allows these two.
    .$narrowType<{ table_name: SyncTable; op: 'upsert' | 'delete' }>()
    .execute();
  const page = entries.slice(0, limit);
  const current = new Map<string, SyncedRow>();
  for (const table of SYNC_TABLES) {
    const ids = [...new Set(page.filter((e) => e.table_name === table).map((e) => e.row_id))];
    if (ids.length === 0) continue;
    for (const row of await readTable(tx, member, table, { kind: 'ids', ids })) current.set(`${table}:${row.id}`, row);
  }
  const changes: SyncChange[] = [];
  for (const entry of page) {
    const row = current.get(`${entry.table_name}:${entry.row_id}`);
    if (row) {
      if (row.seq !== entry.seq) continue; // a later entry of this row carries it
      // Another member's notification never was and never will be this member's: nothing to send, not even a delete.
      if (!row.visible && entry.table_name === 'notifications') continue;
      changes.push(
        row.visible
          ? { seq: entry.seq, table: entry.table_name, op: 'upsert', id: row.id, row: row.row }
          : { seq: entry.seq, table: entry.table_name, op: 'delete', id: row.id },
      );
    } else if (entry.op === 'delete') {
      changes.push({ seq: entry.seq, table: entry.table_name, op: 'delete', id: entry.row_id });
    }
  }
  const last = page.at(-1);
  return { changes, next: { ...cursor, s: last ? last.seq : cursor.s }, hasMore: entries.length > limit };
}

const RESET: SyncPage = { changes: [], nextCursor: '', hasMore: false, reset: true };

async function topSeq(tx: Queryable, companyId: string): Promise<string> {
  const row = await tx.kysely
    .selectFrom('changes')
    .select((eb) => eb.fn.max<string | null>('seq').as('top'))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row?.top ?? '0';
}

/**
 * Makes the caller's transaction read one snapshot for all its statements (its first statement; Kysely has no
 * builder for it).
 */
async function repeatableRead(tx: Queryable): Promise<void> {
  await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`.execute(tx.kysely);
}

/**
 * The `keys` parameter of GET /sync/rows: `table:uuid` separated by commas, 1 to MAX_ROW_KEYS of them, each
 * of a synced table; duplicates count once. 400 `validation` on the field `keys` otherwise (a repeated
 * `keys` parameter arrives as an array: invalid too).
 */
export function parseRowKeys(raw: unknown): { table: SyncTable; id: string }[] {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) throw new AppError('validation', 400, { fieldErrors: { keys: 'required' } });
  if (typeof raw !== 'string') throw new AppError('validation', 400, { fieldErrors: { keys: 'invalid' } });
  const parts = raw.split(',');
  if (parts.length > MAX_ROW_KEYS) throw new AppError('validation', 400, { fieldErrors: { keys: 'size' } });
  const keys = new Map<string, { table: SyncTable; id: string }>();
  for (const part of parts) {
    const trimmed = part.trim();
    const colon = trimmed.indexOf(':');
    const table = trimmed.slice(0, colon);
    const id = trimmed.slice(colon + 1);
    if (colon < 1 || !(SYNC_TABLES as readonly string[]).includes(table) || !isUuid(id)) {
      throw new AppError('validation', 400, { fieldErrors: { keys: 'invalid' } });
    }
    const key = { table: table as SyncTable, id: id.toLowerCase() };
    keys.set(`${key.table}:${key.id}`, key);
  }
  return [...keys.values()];
}

/**
 * GET /sync/rows: the named rows of one company as the member sees them now, one change per key in the order
 * asked: an upsert (seq = the row's latest change) or, for a row that is gone or hidden from this member, a
 * delete (seq = the company's highest seq when read). The member is checked before the keys are read.
 */
export async function readRows(db: Database, user: { id: string }, companyId: string, rawKeys: unknown): Promise<SyncRows> {
  return db.transaction(async (tx) => {
    await repeatableRead(tx);
    const member = await requireMember(tx, user, companyId);
    const keys = parseRowKeys(rawKeys);
    const top = await topSeq(tx, member.companyId);
    const found = new Map<string, SyncChange>();
    for (const table of SYNC_TABLES) {
      const ids = keys.filter((key) => key.table === table).map((key) => key.id);
      if (ids.length === 0) continue;
      for (const row of await readTable(tx, member, table, { kind: 'ids', ids })) {
        if (row.visible) found.set(`${table}:${row.id}`, { seq: row.seq, table, op: 'upsert', id: row.id, row: row.row });
      }
    }
    const changes = keys.map(({ table, id }) => found.get(`${table}:${id}`) ?? { seq: top, table, op: 'delete' as const, id });
    return { changes };
  });
}

export async function pull(db: Database, user: { id: string }, companyId: string, rawCursor: string | undefined, limit: number): Promise<SyncPage> {
  return db.transaction(async (tx) => {
    await repeatableRead(tx);
    const member = await requireMember(tx, user, companyId);
    const top = await topSeq(tx, member.companyId);
    const view = viewVersionOf(member);
    let cursor: Cursor;
    if (rawCursor === undefined || rawCursor === '') {
      cursor = { v: 2, c: member.companyId, w: view, p: 's', h: top, t: 0, k: null };
    } else {
      const decoded = decodeSyncCursor(rawCursor, member.companyId);
      const mark = decoded?.p === 'f' ? decoded.s : decoded?.h;
      // A cursor of another view: rows the member may no longer see (or now sees differently) are on the
      // device, and rows they may now see were never sent, so the device starts over.
      if (!decoded || mark === undefined || BigInt(mark) > BigInt(top) || decoded.w !== view) return RESET;
      cursor = decoded;
    }
    if (cursor.p === 's') {
      const snap = await snapshotPage(tx, member, cursor, limit);
      const hasMore = !snap.done || BigInt(top) > BigInt(cursor.h);
      // After the snapshot the feed after H follows, in the next pages.
      return { changes: snap.changes, nextCursor: encodeSyncCursor(snap.next), hasMore: snap.done ? BigInt(top) > BigInt(cursor.h) : hasMore, reset: false };
    }
    const feed = await feedPage(tx, member, cursor, limit);
    return { changes: feed.changes, nextCursor: encodeSyncCursor(feed.next), hasMore: feed.hasMore, reset: false };
  });
}
