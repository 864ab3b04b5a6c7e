// The Unsent screen's writes: retry and discard of the signed-in user's outbox rows.
// Guarantees: only the owner's rows are touched; a discard is explicit (the screen confirms first) and
// removes the row, its unused photos and, for a write that created an entity on this device
// (kind '<entity>.create', or a send of the open registry, which makes a registry), that entity's local copy too: the server never had it, so nothing would ever
// replace it. Discarding a change of an entity the server has is followed by fetching that entity again
// (`markStale`: the pull may have skipped the server's changes while the row waited), so the device never
// keeps a state the server never had. All in one transaction. A row that fails its struct is discarded by its place (seq) with its
// unused photos; nothing else of it can be trusted, so nothing else is touched.
import type { AppDatabase, MirrorTable, OutboxRow } from '../../lib/db/database';
import { MIRROR_TABLES } from '../../lib/db/database';
import { discard, discardUnreadable, retry } from '../../lib/outbox/outbox';
import { markStale } from '../../lib/sync/stale-rows';

/** Writes that make their entity on the server though their kind does not end in '.create'. */
const CREATING_KINDS: ReadonlySet<string> = new Set(['registry.send']);

function createdEntity(row: OutboxRow): { table: MirrorTable; id: string } | null {
  if (!row.kind.endsWith('.create') && !CREATING_KINDS.has(row.kind)) return null;
  const colon = row.entityKey.indexOf(':');
  const table = row.entityKey.slice(0, colon);
  const id = row.entityKey.slice(colon + 1);
  return colon > 0 && (MIRROR_TABLES as readonly string[]).includes(table) ? { table: table as MirrorTable, id } : null;
}

export async function discardUnsent(db: AppDatabase, ownerUserId: string, outboxId: string): Promise<boolean> {
  return db.transaction('rw', [db.outbox, db.files, db.staleRows, ...MIRROR_TABLES.map((table) => db.mirror(table))], async () => {
    const row = await db.outbox.where('id').equals(outboxId).first();
    if (!row || row.ownerUserId !== ownerUserId) return false;
    const created = createdEntity(row);
    if (!(await discard(db, outboxId))) return false;
    const others = await db.outbox.where('[ownerUserId+entityKey]').equals([ownerUserId, row.entityKey]).count();
    if (created && others === 0) await db.mirror(created.table).delete([ownerUserId, created.id]);
    else if (!created) await markStale(db, ownerUserId, [row.entityKey]);
    return true;
  });
}

export async function retryUnsent(db: AppDatabase, ownerUserId: string, outboxId: string): Promise<boolean> {
  const row = await db.outbox.where('id').equals(outboxId).first();
  if (!row || row.ownerUserId !== ownerUserId) return false;
  return retry(db, outboxId);
}

/** Discards a row of this user that fails its struct (listed apart on the Unsent screen). */
export function discardUnreadableUnsent(db: AppDatabase, ownerUserId: string, seq: number): Promise<boolean> {
  return discardUnreadable(db, ownerUserId, seq);
}
