// Pull: brings the device's mirror of one company up to date from `GET /sync/pull` (DESIGN.md,
// "Offline-first data flow"). Guarantees: each page is checked with its structs and applied in ONE Dexie
// transaction together with its cursor, idempotently (upserts by [owner+id], deletes remove), so a page seen
// twice changes nothing; a row with unsent local changes (an outbox row for its entityKey) is never
// overwritten or deleted; a page fetched from a cursor that another tab has already moved past is dropped
// and the pull goes on from the stored cursor (no older data over newer); `reset` drops that company's
// mirrored rows (except rows with unsent changes) and pulls again from the beginning.
import Dexie from 'dexie';
import { SyncPage, type SyncTable } from '../../domain/suggestion';
import type { AppDatabase, MirrorTable } from '../db/database';
import { MIRROR_ROW_STRUCTS } from '../db/rows';
import type { HttpClient } from '../http';
import { entityKeyOf } from '../outbox/outbox';

export const PULL_PATH = '/api/v1/sync/pull';
export const PULL_PAGE_LIMIT = 500;
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
}

export interface PullResult {
  pages: number;
  upserts: number;
  deletes: number;
  /** Changes left alone because the row has unsent local changes. */
  kept: number;
  resets: number;
}

const SYNCED_TABLES: Record<SyncTable, MirrorTable> = {
  companies: 'companies',
  departments: 'departments',
  employees: 'employees',
  suggestions: 'suggestions',
};

async function readCursor(db: AppDatabase, ownerUserId: string, companyId: string): Promise<string | null> {
  const state = await db.syncState.get([ownerUserId, companyId]);
  return typeof state?.cursor === 'string' ? state.cursor : null;
}

async function unsentKeys(db: AppDatabase, ownerUserId: string): Promise<Set<string>> {
  const keys = new Set<string>();
  await db.outbox
    .where('[ownerUserId+seq]')
    .between([ownerUserId, Dexie.minKey], [ownerUserId, Dexie.maxKey])
    .each((row) => keys.add(row.entityKey));
  return keys;
}

/** Drops the company's mirrored rows (keeping rows with unsent changes) and its cursor. */
export async function dropCompanyMirror(db: AppDatabase, ownerUserId: string, companyId: string): Promise<void> {
  await db.transaction('rw', [db.companies, db.departments, db.employees, db.goals, db.projects, db.suggestions, db.registries, db.outbox, db.syncState], async () => {
    const keep = await unsentKeys(db, ownerUserId);
    if (!keep.has(entityKeyOf('companies', companyId))) await db.companies.delete([ownerUserId, companyId]);
    for (const table of ['departments', 'employees', 'goals', 'projects', 'suggestions', 'registries'] as const) {
      await db
        .mirror(table)
        .where('[ownerUserId+companyId]')
        .equals([ownerUserId, companyId])
        .and((row) => !keep.has(entityKeyOf(table, row.id)))
        .delete();
    }
    await db.syncState.delete([ownerUserId, companyId]);
  });
}

/** Pulls every page of one company's changes since the stored cursor. */
export async function pullCompany(options: PullOptions): Promise<PullResult> {
  const { db, http, ownerUserId, companyId } = options;
  const now = options.now ?? Date.now;
  const result: PullResult = { pages: 0, upserts: 0, deletes: 0, kept: 0, resets: 0 };
  let cursor = await readCursor(db, ownerUserId, companyId);

  while (result.pages < MAX_PAGES) {
    const answer = await http.get(PULL_PATH, { companyId, cursor: cursor ?? undefined, limit: options.limit ?? PULL_PAGE_LIMIT }, { minDuration: 0 });
    const page = typeof answer === 'object' && answer !== null ? (answer as { data?: unknown }).data : undefined;
    if (!SyncPage.is(page)) throw new PullError('The pull answer does not match its struct');
    result.pages += 1;

    if (page.reset) {
      if (result.resets > 0 && cursor === null) throw new PullError('The server asked to reset a pull that started from the beginning');
      result.resets += 1;
      await dropCompanyMirror(db, ownerUserId, companyId);
      cursor = null;
      continue;
    }

    const rows = page.changes.map((change) => {
      const table = SYNCED_TABLES[change.table];
      if (change.op === 'upsert' && !MIRROR_ROW_STRUCTS[table].is(change.row)) {
        throw new PullError(`A ${change.table} row of the pull does not match its struct`);
      }
      return { change, table };
    });

    const fetchedFrom = cursor;
    const applied = await db.transaction(
      'rw',
      [db.companies, db.departments, db.employees, db.suggestions, db.outbox, db.syncState],
      async () => {
        // Another tab applied pages since we asked: its cursor wins, ours would bring older rows back.
        if ((await readCursor(db, ownerUserId, companyId)) !== fetchedFrom) return false;
        const keep = await unsentKeys(db, ownerUserId);
        for (const { change, table } of rows) {
          if (keep.has(entityKeyOf(table, change.id))) {
            result.kept += 1;
          } else if (change.op === 'delete') {
            await db.mirror(table).delete([ownerUserId, change.id]);
            result.deletes += 1;
          } else {
            await db.mirror(table).put({ ...(change.row as { id: string }), ownerUserId });
            result.upserts += 1;
          }
        }
        await db.syncState.put({ ownerUserId, companyId, cursor: page.nextCursor, pulledAt: now() });
        return true;
      },
    );
    cursor = applied ? page.nextCursor : await readCursor(db, ownerUserId, companyId);
    if (applied && !page.hasMore) return result;
  }
  throw new PullError('The pull did not end');
}
