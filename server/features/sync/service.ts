// GET /sync/pull (docs/api.md, "Sync"): what changed in one company since a cursor, only rows the
// caller may see. Without a cursor the answer first pages through a snapshot of every visible row as it
// stood at the company's highest seq H (rows whose last change is above H are left to the feed), then
// continues with the feed after H. In the feed an entry is sent only when it is its row's latest change
// (row.change_seq), so a row is never sent twice for one version and never missed: the per-company lock
// of the change trigger makes seqs visible in commit order. A page reads one REPEATABLE READ snapshot.
// A row the caller may no longer see is sent as a delete. Cursors are opaque (base64url JSON).

import { canSeeSuggestion, canSeeAllSuggestions } from '../../../src/domain/permissions';
import { SYNC_TABLES, type SyncChange, type SyncPage, type SyncTable } from '../../../src/domain/suggestion';
import type { Database, Queryable, SqlParam } from '../../db/database';
import { requireMember, type Membership } from '../companies/access';
import { toEmployeeRow, type EmployeeDbRow } from '../employees/service';
import { SUGGESTION_SELECT, toSuggestion, visibleCondition, type SuggestionRow } from '../suggestions/service';

export const DEFAULT_PULL_LIMIT = 500;
export const MAX_PULL_LIMIT = 1000;

type SnapshotCursor = { v: 1; c: string; p: 's'; h: string; t: number; k: string | null };
type FeedCursor = { v: 1; c: string; p: 'f'; s: string };
type Cursor = SnapshotCursor | FeedCursor;

export function encodeSyncCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const DIGITS = /^\d{1,18}$/;

export function decodeSyncCursor(raw: string, companyId: string): Cursor | null {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (value.v !== 1 || value.c !== companyId) return null;
    if (value.p === 'f' && typeof value.s === 'string' && DIGITS.test(value.s)) return { v: 1, c: companyId, p: 'f', s: value.s };
    if (
      value.p === 's' &&
      typeof value.h === 'string' &&
      DIGITS.test(value.h) &&
      typeof value.t === 'number' &&
      Number.isInteger(value.t) &&
      value.t >= 0 &&
      value.t <= SYNC_TABLES.length &&
      (value.k === null || (typeof value.k === 'string' && /^[0-9a-f-]{36}$/.test(value.k)))
    ) {
      return { v: 1, c: companyId, p: 's', h: value.h, t: value.t, k: value.k };
    }
  } catch {
    // a cursor that does not decode is answered with reset
  }
  return null;
}

type Row = Record<string, unknown> & { id: string; cs: string };

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());

function toRow(table: SyncTable, row: Row, member: Membership): Record<string, unknown> {
  switch (table) {
    case 'companies':
      return {
        id: row.id,
        name: row.name,
        inn: row.inn,
        kpp: row.kpp,
        legalForm: row.legal_form,
        website: row.website,
        employeeCount: row.employee_count,
        logoImageId: row.logo_image_id,
        verificationStatus: row.verification_status,
        invoiceNumber: row.invoice_number ?? null,
        paymentReportedAt: row.payment_reported_at ? iso(row.payment_reported_at) : null,
        verificationDecidedAt: row.verification_decided_at ? iso(row.verification_decided_at) : null,
        verificationComment: row.verification_comment ?? null,
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at),
      };
    case 'departments':
      return { id: row.id, companyId: row.company_id, name: row.name, headUserId: row.head_user_id, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
    case 'employees':
      return toEmployeeRow(row as unknown as EmployeeDbRow, member);
    case 'suggestions':
      return toSuggestion(row as unknown as SuggestionRow);
  }
}

/** Base query of a table (alias x, or s for suggestions) limited to the company, with `cs` = change_seq. */
function baseQuery(table: SyncTable): { sql: string; alias: string } {
  switch (table) {
    case 'companies':
      return { sql: 'SELECT x.*, x.change_seq::text AS cs FROM companies x WHERE x.id = $1', alias: 'x' };
    case 'departments':
      return { sql: 'SELECT x.*, x.change_seq::text AS cs FROM departments x WHERE x.company_id = $1', alias: 'x' };
    case 'employees':
      return {
        sql: 'SELECT x.*, x.change_seq::text AS cs FROM employees x WHERE x.company_id = $1',
        alias: 'x',
      };
    case 'suggestions':
      return { sql: `${SUGGESTION_SELECT} WHERE s.company_id = $1`, alias: 's' };
  }
}

function visibleRow(table: SyncTable, row: Row, member: Membership): boolean {
  if (table !== 'suggestions') return true;
  return canSeeSuggestion(member, { authorId: String(row.author_id), departmentId: String(row.department_id) });
}

async function snapshotPage(tx: Queryable, member: Membership, cursor: SnapshotCursor, limit: number): Promise<{ changes: SyncChange[]; next: Cursor; done: boolean }> {
  const changes: SyncChange[] = [];
  let t = cursor.t;
  let k = cursor.k;
  while (t < SYNC_TABLES.length && changes.length < limit) {
    const table = SYNC_TABLES[t]!;
    const { sql, alias } = baseQuery(table);
    const params: SqlParam[] = [member.companyId, cursor.h];
    let where = ` AND ${alias}.change_seq <= $2::bigint`;
    if (k) {
      params.push(k);
      where += ` AND ${alias}.id > $${params.length}::uuid`;
    }
    if (table === 'suggestions') {
      params.push(member.userId, canSeeAllSuggestions(member.roles), [...member.headOfDepartmentIds]);
      where += ` AND ${visibleCondition(`$${params.length - 2}`, `$${params.length - 1}`, `$${params.length}`)}`;
    }
    const want = limit - changes.length;
    params.push(want);
    const rows = await tx.query<Row>(`${sql}${where} ORDER BY ${alias}.id LIMIT $${params.length}`, params);
    for (const row of rows) changes.push({ seq: row.cs, table, op: 'upsert', id: row.id, row: toRow(table, row, member) });
    if (rows.length === want) {
      k = rows.at(-1)?.id ?? k;
      break;
    }
    t += 1;
    k = null;
  }
  if (t >= SYNC_TABLES.length) return { changes, next: { v: 1, c: member.companyId, p: 'f', s: cursor.h }, done: true };
  return { changes, next: { ...cursor, t, k }, done: false };
}

async function feedPage(tx: Queryable, member: Membership, cursor: FeedCursor, limit: number): Promise<{ changes: SyncChange[]; next: FeedCursor; hasMore: boolean }> {
  const entries = await tx.query<{ seq: string; table_name: SyncTable; row_id: string; op: 'upsert' | 'delete' }>(
    `SELECT seq::text AS seq, table_name, row_id, op FROM changes WHERE company_id = $1 AND seq > $2::bigint ORDER BY seq LIMIT $3`,
    [member.companyId, cursor.s, limit + 1],
  );
  const page = entries.slice(0, limit);
  const current = new Map<string, Row>();
  for (const table of SYNC_TABLES) {
    const ids = [...new Set(page.filter((e) => e.table_name === table).map((e) => e.row_id))];
    if (ids.length === 0) continue;
    const { sql, alias } = baseQuery(table);
    const rows = await tx.query<Row>(`${sql} AND ${alias}.id::text = ANY($2::text[])`, [member.companyId, ids]);
    for (const row of rows) current.set(`${table}:${row.id}`, row);
  }
  const changes: SyncChange[] = [];
  for (const entry of page) {
    const row = current.get(`${entry.table_name}:${entry.row_id}`);
    if (row) {
      if (row.cs !== entry.seq) continue; // a later entry of this row carries it
      changes.push(
        visibleRow(entry.table_name, row, member)
          ? { seq: entry.seq, table: entry.table_name, op: 'upsert', id: row.id, row: toRow(entry.table_name, row, member) }
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

export async function pull(db: Database, user: { id: string }, companyId: string, rawCursor: string | undefined, limit: number): Promise<SyncPage> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const member = await requireMember(tx, user, companyId);
    const top = (await tx.one<{ top: string }>('SELECT COALESCE(max(seq), 0)::text AS top FROM changes WHERE company_id = $1', [member.companyId]))?.top ?? '0';
    let cursor: Cursor;
    if (rawCursor === undefined || rawCursor === '') {
      cursor = { v: 1, c: member.companyId, p: 's', h: top, t: 0, k: null };
    } else {
      const decoded = decodeSyncCursor(rawCursor, member.companyId);
      const mark = decoded?.p === 'f' ? decoded.s : decoded?.h;
      if (!decoded || mark === undefined || BigInt(mark) > BigInt(top)) return RESET;
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
