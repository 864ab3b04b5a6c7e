// What the screens show of an entity's changes the device has not sent yet ("waiting to send", "refused"): the
// state of its most troubled unsent change, read from the outbox by the [ownerUserId+entityKey] index, so a
// list reads only the rows of the entities on screen. React-free (lists, hooks and the bench call it). Stored
// rows are untrusted: a row failing its struct is left out.
import type { AppDatabase, OutboxRow, OutboxStatus } from '../db/database';
import { StoredOutboxRow, checkRows } from '../db/rows';

/** How troubled a change is: one waiting to be sent is the least, one the server refused or that failed the most. */
const SEVERITY: Readonly<Record<OutboxStatus, number>> = { pending: 0, sending: 1, conflict: 2, failed: 3 };

/** The most troubled unsent row of each of these entities (by entity key); an entity with none is not in the map. */
export async function unsentRowsByKey(db: AppDatabase, ownerUserId: string, entityKeys: readonly string[]): Promise<Map<string, OutboxRow>> {
  const stored = await db.outbox
    .where('[ownerUserId+entityKey]')
    .anyOf(entityKeys.map((key) => [ownerUserId, key]))
    .toArray();
  const worst = new Map<string, OutboxRow>();
  for (const row of checkRows(StoredOutboxRow, stored, 'outbox').rows) {
    const seen = worst.get(row.entityKey);
    if (!seen || SEVERITY[row.status] > SEVERITY[seen.status]) worst.set(row.entityKey, row);
  }
  return worst;
}

/** The state of the most troubled unsent change of one entity; null when the server has it all. */
export async function unsentStateOf(db: AppDatabase, ownerUserId: string, entityKey: string): Promise<OutboxStatus | null> {
  return (await unsentRowsByKey(db, ownerUserId, [entityKey])).get(entityKey)?.status ?? null;
}
