// Pull: brings the device's mirror of one company up to date from `GET /sync/pull` (DESIGN.md, "Offline-first
// data flow"). Guarantees: each page is checked with its structs and applied in ONE Dexie transaction together
// with its cursor, idempotently (upserts by [owner+id], deletes remove), so a page seen twice changes nothing;
// a row with unsent local changes (an outbox row for its entityKey) is never overwritten or deleted, and the
// change skipped is recorded in `staleRows`, so the entity is fetched again (`GET /sync/rows`) by a later pull
// once its last outbox row has left; a page fetched from a cursor that another tab has already moved past is
// dropped and the pull goes on from the stored cursor (no older data over newer); `reset` (a bad cursor, or a
// change of what the user may see) drops that company's mirrored rows (except rows with unsent changes) and
// pulls again from the beginning; a 404 (the user is no longer a member) drops the company's mirror (rows
// with unsent changes kept) and ends the pull with `gone: true` instead of failing again and again.
import {
  SyncPage,
  SyncRows,
  type SyncChange,
  type SyncTable,
} from '../../domain/suggestion';
import type { AppDatabase, MirrorTable, Owned, StaleRow, SyncState } from '../db/database';
import { MIRROR_ROW_STRUCTS } from '../db/rows';
import { HttpError, type HttpClient } from '../http';
import { entityKeyOf } from '../outbox/outbox';
import { companyOfEntity, parseEntityKey, staleRow, staleRowsOf, unsentEntityKeys } from './stale-rows';

export const PULL_PATH = '/api/v1/sync/pull';
export const ROWS_PATH = '/api/v1/sync/rows';
export const PULL_PAGE_LIMIT = 500;
/** Keys per `GET /sync/rows`: the server takes 200; 100 keep the URL well under the 8 KB many proxies allow. */
export const ROWS_PER_REQUEST = 100;
const MAX_PAGES = 10_000;

export class PullError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PullError';
  }
}

export interface PullOptions {
  db: AppDatabase;
  http: Pick<HttpClient, 'get'>;
  ownerUserId: string;
  companyId: string;
  limit?: number;
  now?: () => number;
  /**
   * False once the pulls were stopped (sign-out): a pull still on its way then writes nothing more, checked
   * inside each write transaction, so the sign-out's own clearing (which waits for a running transaction)
   * is never followed by rows of the user who left.
   */
  isActive?: () => boolean;
}

/** Thrown inside a write transaction when the pulls were stopped meanwhile; aborts it, and the pull ends. */
class PullStopped extends Error {
  constructor() {
    super('The pulls were stopped');
    this.name = 'PullStopped';
  }
}

function requireActive(options: Pick<PullOptions, 'isActive'>): void {
  if (options.isActive && !options.isActive()) throw new PullStopped();
}

export interface PullResult {
  pages: number;
  upserts: number;
  deletes: number;
  /** Changes left alone because the row has unsent local changes (each recorded as stale). */
  kept: number;
  resets: number;
  /** Stale rows fetched again and stored (or deleted) after their outbox rows left. */
  refreshed: number;
  /** The server no longer shows this company to the user (404): its mirror was dropped. */
  gone: boolean;
}

const SYNCED_TABLES: Record<SyncTable, MirrorTable> = {
  companies: 'companies',
  departments: 'departments',
  employees: 'employees',
  suggestions: 'suggestions',
  notifications: 'notifications',
  goals: 'goals',
  projects: 'projects',
  registries: 'registries',
};

async function readCursor(db: AppDatabase, ownerUserId: string, companyId: string): Promise<string | null> {
  const state = await db.syncState.get([ownerUserId, companyId]);
  return typeof state?.cursor === 'string' ? state.cursor : null;
}

/**
 * Whether the device's mirror of a company holds all of it: a pull has reached the last page at least once. Until
 * then a screen that would say something is missing (no employees, no departments) says nothing yet.
 */
export function isMirrorComplete(state: SyncState | undefined): boolean {
  if (!state) return false;
  // A row written before `caughtUpAt` was kept was pulled to the end, whatever the pull it came from.
  return state.caughtUpAt === undefined ? state.pulledAt !== null : state.caughtUpAt !== null;
}

/**
 * Drops the company's mirrored rows (keeping rows with unsent changes) and its cursor. A kept row is marked
 * stale: the view it was pulled under is gone, so once its outbox rows have left it is fetched again (or
 * deleted, when the server no longer shows it). Markers of dropped rows go with them.
 */
export async function dropCompanyMirror(db: AppDatabase, ownerUserId: string, companyId: string, now = Date.now()): Promise<void> {
  await db.transaction(
    'rw',
    [db.companies, db.departments, db.employees, db.goals, db.projects, db.suggestions, db.registries, db.notifications, db.dashboards, db.outbox, db.syncState, db.staleRows],
    async () => {
      const keep = await unsentEntityKeys(db, ownerUserId);
      const kept: StaleRow[] = [];
      if (keep.has(entityKeyOf('companies', companyId))) {
        if (await db.companies.get([ownerUserId, companyId])) kept.push(staleRow(ownerUserId, companyId, 'companies', companyId, now));
      } else {
        await db.companies.delete([ownerUserId, companyId]);
      }
      for (const table of ['departments', 'employees', 'goals', 'projects', 'suggestions', 'registries', 'notifications'] as const) {
        await db
          .mirror(table)
          .where('[ownerUserId+companyId]')
          .equals([ownerUserId, companyId])
          .and((row) => !keep.has(entityKeyOf(table, row.id)))
          .delete();
      }
      for (const key of keep) {
        const entity = parseEntityKey(key);
        if (!entity || entity.table === 'companies') continue;
        if ((await companyOfEntity(db, ownerUserId, entity.table, entity.id)) === companyId) kept.push(staleRow(ownerUserId, companyId, entity.table, entity.id, now));
      }
      await db.staleRows.where('[ownerUserId+companyId]').equals([ownerUserId, companyId]).delete();
      await db.staleRows.bulkPut(kept);
      await db.dashboards.where('[ownerUserId+companyId]').equals([ownerUserId, companyId]).delete();
      await db.syncState.delete([ownerUserId, companyId]);
    },
  );
}

/** Whether the server answered that the user may not see the company (no longer a member, or no such company). */
function isGone(error: unknown): boolean {
  return error instanceof HttpError && error.status === 404;
}

function dataOf(answer: unknown): unknown {
  return typeof answer === 'object' && answer !== null ? (answer as { data?: unknown }).data : undefined;
}

/** Checks the rows of upserts with their tables' structs; throws PullError on the first that fails. */
function checkChanges(changes: readonly SyncChange[], what: string): void {
  for (const change of changes) {
    if (change.op === 'upsert' && !MIRROR_ROW_STRUCTS[SYNCED_TABLES[change.table]].is(change.row)) {
      throw new PullError(`A ${change.table} row of ${what} does not match its struct`);
    }
  }
}

interface Applied {
  upserts: number;
  deletes: number;
  kept: number;
}

/**
 * Writes changes into the mirror inside the caller's transaction, with one bulkPut and one bulkDelete per
 * table: the last change of each row wins (a page holds each row once anyway), rows in `unsent` are left
 * alone and answered as `skipped`.
 */
async function applyChanges(db: AppDatabase, ownerUserId: string, changes: readonly SyncChange[], unsent: ReadonlySet<string>, skipped: (change: SyncChange) => void): Promise<Applied> {
  const latest = new Map<string, SyncChange>();
  for (const change of changes) latest.set(entityKeyOf(change.table, change.id), change);
  const puts = new Map<MirrorTable, Owned<{ id: string }>[]>();
  const deletes = new Map<MirrorTable, [string, string][]>();
  const counts: Applied = { upserts: 0, deletes: 0, kept: 0 };
  for (const [key, change] of latest) {
    if (unsent.has(key)) {
      counts.kept += 1;
      skipped(change);
      continue;
    }
    const table = SYNCED_TABLES[change.table];
    if (change.op === 'delete') {
      const list = deletes.get(table) ?? [];
      list.push([ownerUserId, change.id]);
      deletes.set(table, list);
      counts.deletes += 1;
    } else {
      const list = puts.get(table) ?? [];
      list.push({ ...(change.row as { id: string }), ownerUserId });
      puts.set(table, list);
      counts.upserts += 1;
    }
  }
  const writes: Promise<unknown>[] = [];
  for (const [table, rows] of puts) writes.push(db.mirror(table).bulkPut(rows));
  for (const [table, keys] of deletes) writes.push(db.mirror(table).bulkDelete(keys));
  await Promise.all(writes);
  return counts;
}

/**
 * Fetches the company's stale rows that have no outbox row left (`GET /sync/rows`) and stores the server's
 * version (or deletes what the server no longer shows), removing their markers, in one transaction per
 * request that checks the outbox again. Answers how many rows were brought up to date.
 */
export async function refreshStaleRows(options: Pick<PullOptions, 'db' | 'http' | 'ownerUserId' | 'companyId' | 'isActive'>): Promise<number> {
  const { db, http, ownerUserId, companyId } = options;
  const [markers, unsent] = await Promise.all([staleRowsOf(db, ownerUserId, companyId), unsentEntityKeys(db, ownerUserId)]);
  const due = markers.filter((marker) => !unsent.has(marker.entityKey) && parseEntityKey(marker.entityKey) !== null);
  let refreshed = 0;
  for (let start = 0; start < due.length; start += ROWS_PER_REQUEST) {
    const batch = due.slice(start, start + ROWS_PER_REQUEST);
    const answer = await http.get(ROWS_PATH, { companyId, keys: batch.map((marker) => marker.entityKey).join(',') }, { minDuration: 0 });
    const rows = dataOf(answer);
    if (!SyncRows.is(rows)) throw new PullError('The rows answer does not match its struct');
    checkChanges(rows.changes, 'the rows answer');
    // Only answers to keys asked count; the server may spell an id in another case than the device.
    const asked = new Map(batch.map((marker) => [marker.entityKey.toLowerCase(), marker]));
    const answered = rows.changes.filter((change) => asked.has(entityKeyOf(change.table, change.id).toLowerCase()));
    refreshed += await db.transaction('rw', [db.companies, db.departments, db.employees, db.suggestions, db.notifications, db.goals, db.projects, db.registries, db.outbox, db.staleRows], async () => {
      requireActive(options);
      // A change queued since the markers were read wins over the server's row, and keeps its marker.
      const stillUnsent = await unsentEntityKeys(db, ownerUserId);
      const markersNow = new Set((await db.staleRows.where('[ownerUserId+companyId]').equals([ownerUserId, companyId]).primaryKeys()).map((key) => key[2]));
      const usable: SyncChange[] = [];
      const done: [string, string, string][] = [];
      for (const change of answered) {
        const marker = asked.get(entityKeyOf(change.table, change.id).toLowerCase());
        if (!marker || stillUnsent.has(marker.entityKey) || !markersNow.has(marker.entityKey)) continue;
        usable.push({ ...change, id: marker.id });
        done.push([ownerUserId, companyId, marker.entityKey]);
      }
      const applied = await applyChanges(db, ownerUserId, usable, stillUnsent, () => undefined);
      await db.staleRows.bulkDelete(done);
      return applied.upserts + applied.deletes;
    });
  }
  return refreshed;
}

/** One page of the pull from `cursor`, checked with its structs (rows included). */
async function fetchPage(options: PullOptions, cursor: string | null): Promise<SyncPage> {
  const answer = await options.http.get(
    PULL_PATH,
    { companyId: options.companyId, cursor: cursor ?? undefined, limit: options.limit ?? PULL_PAGE_LIMIT },
    { minDuration: 0 },
  );
  const page = dataOf(answer);
  if (!SyncPage.is(page)) throw new PullError('The pull answer does not match its struct');
  if (!page.reset) checkChanges(page.changes, 'the pull');
  return page;
}

async function pullPages(options: PullOptions, result: PullResult): Promise<void> {
  const { db, ownerUserId, companyId } = options;
  const now = options.now ?? Date.now;
  let cursor = await readCursor(db, ownerUserId, companyId);
  /** The next page, asked for while the previous one was written: the server answers a cursor the same either way. */
  let ahead: Promise<SyncPage> | null = null;

  while (result.pages < MAX_PAGES) {
    const page: SyncPage = await (ahead ?? fetchPage(options, cursor));
    ahead = null;
    result.pages += 1;

    if (page.reset) {
      if (result.resets > 0 && cursor === null) throw new PullError('The server asked to reset a pull that started from the beginning');
      result.resets += 1;
      requireActive(options);
      await dropCompanyMirror(db, ownerUserId, companyId, now());
      cursor = null;
      continue;
    }

    // Fetching and checking the next page overlaps the writing of this one (the database works beside the
    // page's thread); if this page is not applied, the page fetched ahead is dropped unread.
    const next: Promise<SyncPage> | null = page.hasMore ? fetchPage(options, page.nextCursor) : null;
    next?.catch(() => undefined); // its failure is seen when it is awaited, or never if it is dropped
    const fetchedFrom = cursor;
    const at = now();
    const applied = await db.transaction('rw', [db.companies, db.departments, db.employees, db.suggestions, db.notifications, db.goals, db.projects, db.registries, db.outbox, db.syncState, db.staleRows], async () => {
      requireActive(options);
      // Another tab applied pages since we asked: its cursor wins, ours would bring older rows back.
      const state = await db.syncState.get([ownerUserId, companyId]);
      if ((typeof state?.cursor === 'string' ? state.cursor : null) !== fetchedFrom) return null;
      const stale: StaleRow[] = [];
      const counts = await applyChanges(db, ownerUserId, page.changes, await unsentEntityKeys(db, ownerUserId), (change) =>
        stale.push(staleRow(ownerUserId, companyId, change.table, change.id, at)),
      );
      // The first time the last page is in, the mirror holds the whole company: it stays so from then on.
      const caughtUpAt = page.hasMore ? (state?.caughtUpAt ?? null) : (state?.caughtUpAt ?? at);
      await Promise.all([db.staleRows.bulkPut(stale), db.syncState.put({ ownerUserId, companyId, cursor: page.nextCursor, pulledAt: at, caughtUpAt })]);
      return counts;
    });
    if (!applied) {
      cursor = await readCursor(db, ownerUserId, companyId);
      continue;
    }
    result.upserts += applied.upserts;
    result.deletes += applied.deletes;
    result.kept += applied.kept;
    cursor = page.nextCursor;
    if (!next) return;
    ahead = next;
  }
  throw new PullError('The pull did not end');
}

/**
 * Pulls every page of one company's changes since the stored cursor, then fetches its stale rows that no
 * outbox row holds any more. A 404 ends the pull with `gone: true` after dropping the company's mirror.
 */
export async function pullCompany(options: PullOptions): Promise<PullResult> {
  const result: PullResult = { pages: 0, upserts: 0, deletes: 0, kept: 0, resets: 0, refreshed: 0, gone: false };
  try {
    await pullPages(options, result);
    result.refreshed = await refreshStaleRows(options);
  } catch (error) {
    if (error instanceof PullStopped) return result;
    if (!isGone(error)) throw error;
    if (options.isActive && !options.isActive()) return result;
    await dropCompanyMirror(options.db, options.ownerUserId, options.companyId, (options.now ?? Date.now)());
    result.gone = true;
  }
  return result;
}
