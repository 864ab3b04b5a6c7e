// Stale rows: mirrored rows that may differ from the server's version without any outbox row left to put
// them right (DESIGN.md, "Offline-first data flow"). The pull leaves a row alone while it has unsent local
// changes, yet moves its cursor past the server's change; if the outbox row then leaves without the server's
// version being stored (the user discards it, or a success answer fails its struct), nothing would ever bring
// that version. So every change the pull skips is recorded here, per (user, company, entity), and the pull
// fetches those entities again once none of their outbox rows is left (`refreshStaleRows` in pull.ts).
// Guarantees: a marker is removed only in the transaction that stores the server's current version of its
// row (or deletes the row the server no longer shows this user) and only while the row has no outbox row;
// markers are per owner, like every other table.
import Dexie from 'dexie';
import { SYNC_TABLES, type SyncTable } from '../../domain/suggestion';
import type { AppDatabase, StaleRow } from '../db/database';
import { StoredStaleRow, checkRows } from '../db/rows';

/** The entity keys of this user's outbox rows, read from the index alone (no row is deserialized). */
export async function unsentEntityKeys(db: AppDatabase, ownerUserId: string): Promise<Set<string>> {
  const keys = await db.outbox
    .where('[ownerUserId+entityKey]')
    .between([ownerUserId, Dexie.minKey], [ownerUserId, Dexie.maxKey])
    .keys();
  const unsent = new Set<string>();
  for (const key of keys) {
    if (Array.isArray(key) && typeof key[1] === 'string') unsent.add(key[1]);
  }
  return unsent;
}

/** The table and id of an entity key of a synced table ('suggestions:<id>'), or null for any other key. */
export function parseEntityKey(entityKey: string): { table: SyncTable; id: string } | null {
  const colon = entityKey.indexOf(':');
  const table = entityKey.slice(0, colon);
  const id = entityKey.slice(colon + 1);
  if (colon < 1 || id === '' || !(SYNC_TABLES as readonly string[]).includes(table)) return null;
  return { table: table as SyncTable, id };
}

/** A marker for a row of `companyId` whose server change was not applied. */
export function staleRow(ownerUserId: string, companyId: string, table: SyncTable, id: string, now: number): StaleRow {
  return { ownerUserId, companyId, entityKey: `${table}:${id}`, table, id, markedAt: now };
}

/** The company a mirrored row belongs to, read from the device's copy of it; null without a copy. */
export async function companyOfEntity(db: AppDatabase, ownerUserId: string, table: SyncTable, id: string): Promise<string | null> {
  if (table === 'companies') return (await db.companies.get([ownerUserId, id])) ? id : null;
  const row = await db.mirror(table).get([ownerUserId, id]);
  const companyId = row && 'companyId' in row ? row.companyId : null;
  return typeof companyId === 'string' ? companyId : null;
}

/**
 * Marks entities whose device copy may hold a state the server never had, so the next pull of their company
 * fetches them once they have no outbox row left. For writes that leave the outbox without the server's
 * version stored (a discard of a change to an existing row, a success answer that failed its struct). Keys of
 * tables the pull does not sync, and entities with no device copy, are left out. Runs in its own transaction
 * or inside one over `staleRows` and the mirrored tables.
 */
export async function markStale(db: AppDatabase, ownerUserId: string, entityKeys: readonly string[], now = Date.now()): Promise<number> {
  const parsed = entityKeys.map(parseEntityKey).filter((key) => key !== null);
  if (parsed.length === 0) return 0;
  return db.transaction('rw', [db.staleRows, db.companies, db.departments, db.employees, db.suggestions, db.notifications, db.goals, db.projects, db.registries], async () => {
    const markers: StaleRow[] = [];
    for (const { table, id } of parsed) {
      const companyId = await companyOfEntity(db, ownerUserId, table, id);
      if (companyId !== null) markers.push(staleRow(ownerUserId, companyId, table, id, now));
    }
    await db.staleRows.bulkPut(markers);
    return markers.length;
  });
}

/** The company's stale markers, checked (a marker that fails its struct is dropped: nothing could use it). */
export async function staleRowsOf(db: AppDatabase, ownerUserId: string, companyId: string): Promise<StaleRow[]> {
  const stored = await db.staleRows.where('[ownerUserId+companyId]').equals([ownerUserId, companyId]).toArray();
  const { rows, rejected } = checkRows(StoredStaleRow, stored, 'staleRows');
  if (rejected > 0) {
    const good = new Set(rows.map((row) => row.entityKey));
    const bad = stored.flatMap((row): [string, string, string][] =>
      typeof row.entityKey === 'string' && !good.has(row.entityKey) ? [[ownerUserId, companyId, row.entityKey]] : [],
    );
    await db.staleRows.bulkDelete(bad);
  }
  return rows;
}
