// What sign-out leaves of a user's data on the device (a shared tablet: the next person must not be able to
// read the previous one's company data, DESIGN.md "Offline-first data flow").
// Guarantees: in ONE Dexie transaction, every row of the signed-out user in every per-user table of the
// device database (the mirror: companies, departments, employees, goals, projects, suggestions, registries;
// enums, units, pull cursors, and any per-user table added later) is deleted, EXCEPT what the user has not
// sent yet: their outbox rows, the photos those rows carry (`files`), the entities those rows change (the
// local proposal "waiting to send") and any row kept about such an entity (a row whose `entityKey` is one of
// them). Those stay on the device tagged with that user (never sent under another account: the replayer only
// sends the signed-in user's rows) and come back when they sign in here again. The user's photos no unsent
// row refers to are deleted. Other users' rows are not touched. Tables without a per-user key (the
// replayer's lease) are left alone.
// A session can also end without a sign-out (the refresh token refused, storage cleared by hand): when the
// next user's session starts, `clearOtherUsersData` applies the same rule to every other user's rows.
import Dexie, { type Collection, type Table } from 'dexie';
import type { AppDatabase, OutboxRow } from './db/database';
import { entityKeyOf } from './outbox/outbox';

/** Tables with their own rule below (or none: `leases` belongs to no user). */
const SPECIAL_TABLES = new Set(['outbox', 'files', 'leases']);

export interface SignedOutDataReport {
  /** Rows deleted, all tables together. */
  deleted: number;
  /** Rows kept for the user's unsent writes (outbox rows, their photos, their entities). */
  kept: number;
}

type OwnerRange = 'only' | 'others';

/**
 * The rows of `table` owned by `ownerUserId` ('only') or by anybody else ('others'), as key ranges of whichever
 * key or index starts with `ownerUserId` (two ranges for 'others': below and above that user); null if none
 * does. (Dexie's `or()` collections do not delete reliably, hence plain ranges.)
 */
function rowsByOwner<T, K, I>(table: Table<T, K, I>, ownerUserId: string, range: OwnerRange): Collection<T, K, I>[] | null {
  for (const { name, keyPath } of [table.schema.primKey, ...table.schema.indexes]) {
    if (keyPath === 'ownerUserId') {
      const index = () => table.where(name);
      return range === 'only' ? [index().equals(ownerUserId)] : [index().below(ownerUserId), index().above(ownerUserId)];
    }
    if (Array.isArray(keyPath) && keyPath[0] === 'ownerUserId') {
      // [user] sorts before every [user, ...] key and [user, maxKey] after each (the other parts are strings).
      const index = () => table.where(name);
      if (range === 'only') return [index().between([ownerUserId], [ownerUserId, Dexie.maxKey], true, true)];
      return [index().below([ownerUserId]), index().above([ownerUserId, Dexie.maxKey])];
    }
  }
  return null;
}

/** Whether a row belongs to an entity with unsent changes of its owner (`keep` holds `owner entityKey`). */
function isKept(tableName: string, row: unknown, keep: ReadonlySet<string>): boolean {
  if (typeof row !== 'object' || row === null) return false;
  const { ownerUserId, id, entityKey } = row as { ownerUserId?: unknown; id?: unknown; entityKey?: unknown };
  if (typeof ownerUserId !== 'string') return false;
  return (
    (typeof id === 'string' && keep.has(keyOf(ownerUserId, entityKeyOf(tableName, id)))) ||
    (typeof entityKey === 'string' && keep.has(keyOf(ownerUserId, entityKey)))
  );
}

const keyOf = (ownerUserId: string, entityKey: string) => `${ownerUserId} ${entityKey}`;

async function clearData(db: AppDatabase, ownerUserId: string, range: OwnerRange): Promise<SignedOutDataReport> {
  const report: SignedOutDataReport = { deleted: 0, kept: 0 };
  await db.transaction('rw', db.tables, async () => {
    const unsent: OutboxRow[] = [];
    for (const rows of rowsByOwner(db.outbox, ownerUserId, range) ?? []) unsent.push(...(await rows.toArray()));
    const keep = new Set(unsent.map((row) => keyOf(row.ownerUserId, row.entityKey)));
    const keptFiles = new Set(unsent.flatMap((row) => row.fileIds));
    report.kept += unsent.length;

    for (const table of db.tables) {
      if (SPECIAL_TABLES.has(table.name)) continue;
      for (const rows of rowsByOwner(table, ownerUserId, range) ?? []) {
        const count = await rows.count();
        const deleted = await rows.filter((row) => !isKept(table.name, row, keep)).delete();
        report.deleted += deleted;
        report.kept += count - deleted;
      }
    }

    for (const files of rowsByOwner(db.files, ownerUserId, range) ?? []) {
      const count = await files.count();
      const deleted = await files.filter((file) => !keptFiles.has(file.id)).delete();
      report.deleted += deleted;
      report.kept += count - deleted;
    }
  });
  return report;
}

/**
 * Deletes what `ownerUserId` may have read on this device, keeping their unsent work (see the header).
 * Call it after the offline machinery has stopped (nothing sends or pulls for that user any more).
 */
export function clearSignedOutUserData(db: AppDatabase, ownerUserId: string): Promise<SignedOutDataReport> {
  return clearData(db, ownerUserId, 'only');
}

/**
 * Deletes what any user other than `signedInUserId` left readable on this device (a session that ended
 * without a sign-out), keeping each one's unsent work as sign-out does. `deleted > 0` means another person's
 * data was here, so their cached photos may be too.
 */
export function clearOtherUsersData(db: AppDatabase, signedInUserId: string): Promise<SignedOutDataReport> {
  return clearData(db, signedInUserId, 'others');
}
