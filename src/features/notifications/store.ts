// The device's side of notifications (DESIGN.md, "Offline-first data flow"). What it reads and writes: the
// mirrored `notifications` table (the pull brings the signed-in user's own rows, per company) and the outbox
// rows of the kind `notification.read`. No React here: the service worker reaches the success handler through
// the outbox-kind registry.
// Guarantees:
// - marking read sets `readAt` on the device and writes the outbox row in ONE Dexie transaction, so a
//   notification is never shown read without the request that tells the server (and never the reverse);
// - one notification opened: entity key `notifications:<id>`, so the pull leaves that row alone while the
//   row waits and fetches it again after (stale rows); several ("mark all"): key
//   `notification-read:<companyId>` (no mirrored table: the rows of a company go in order and never hold
//   back the pull), in rows of at most NOTIFICATION_READ_MAX ids;
// - a row the pull rewrote meanwhile (the server changed it before it heard of the read: say, it was mailed)
//   still counts as read while any `notification.read` row of the user names it, whatever that row's state,
//   so the bell never counts up again; the success handler writes `readAt` once more, and the next pull
//   brings the server's time;
// - stored rows are untrusted: only rows that pass NotificationRow are counted or shown; only the owner's.
import Dexie from 'dexie';
import { NOTIFICATION_READ_MAX, NotificationRow } from '../../domain/notification';
import type { AppDatabase, OutboxRow, StoredNotification } from '../../lib/db/database';
import { StoredOutboxRow } from '../../lib/db/rows';
import { enqueue, entityKeyOf, writeWithOutbox } from '../../lib/outbox/outbox';
import type { SuccessHandler } from '../../lib/outbox/replayer';

export const NOTIFICATION_READ_KIND = 'notification.read';

/** The entity key of a batch of reads in one company: no mirrored table is named, so the pull is not held back. */
export const READ_BATCH_KEY_PREFIX = 'notification-read:';
const SINGLE_KEY_PREFIX = entityKeyOf('notifications', '');

/** How many notifications the page shows at first, and how many more each "show older" adds. */
export const NOTIFICATIONS_PAGE_SIZE = 50;

export function notificationsReadPath(companyId: string): string {
  return `/api/v1/companies/${encodeURIComponent(companyId)}/notifications/read`;
}

/** The ids a `notification.read` row names (its body is stored data: checked, not trusted). */
export function idsOfReadRow(row: Pick<OutboxRow, 'body'>): string[] {
  const body: unknown = row.body;
  if (typeof body !== 'object' || body === null) return [];
  const ids: unknown = (body as Record<string, unknown>).ids;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** The outbox rows whose key starts with `prefix`, from the [ownerUserId+entityKey] index. */
function outboxRowsByKeyPrefix(db: AppDatabase, ownerUserId: string, prefix: string) {
  return db.outbox
    .where('[ownerUserId+entityKey]')
    .between([ownerUserId, prefix], [ownerUserId, `${prefix}\uffff`])
    .toArray();
}

/** The notifications of this user that a `notification.read` row still in the outbox marks read. */
export async function pendingReadIds(db: AppDatabase, ownerUserId: string): Promise<Set<string>> {
  const [batches, singles] = await Promise.all([
    outboxRowsByKeyPrefix(db, ownerUserId, READ_BATCH_KEY_PREFIX),
    outboxRowsByKeyPrefix(db, ownerUserId, SINGLE_KEY_PREFIX),
  ]);
  const ids = new Set<string>();
  for (const row of [...batches, ...singles]) {
    if (StoredOutboxRow.is(row) && row.kind === NOTIFICATION_READ_KIND) for (const id of idsOfReadRow(row)) ids.add(id);
  }
  return ids;
}

function companyRows(db: AppDatabase, ownerUserId: string, companyId: string) {
  return db.notifications.where('[ownerUserId+companyId]').equals([ownerUserId, companyId]);
}

function isUnread(row: unknown, pending: ReadonlySet<string>): row is StoredNotification {
  return NotificationRow.is(row) && row.readAt === null && !pending.has(row.id);
}

/** How many of the user's notifications in the company are unread on this device. */
export async function countUnread(db: AppDatabase, ownerUserId: string, companyId: string): Promise<number> {
  const pending = await pendingReadIds(db, ownerUserId);
  return companyRows(db, ownerUserId, companyId)
    .filter((row) => isUnread(row, pending))
    .count();
}

/** A notification as the page shows it: read when the device has it read or a read of it waits to be sent. */
export interface NotificationItem {
  notification: NotificationRow;
  isRead: boolean;
}

export interface NotificationList {
  items: NotificationItem[];
  /** Older notifications exist beyond `limit`. */
  hasMore: boolean;
  unread: number;
}

/** The company's newest `limit` notifications of the user, newest first, and the unread count. */
export async function listNotifications(db: AppDatabase, ownerUserId: string, companyId: string, limit = NOTIFICATIONS_PAGE_SIZE): Promise<NotificationList> {
  const pending = await pendingReadIds(db, ownerUserId);
  const stored = await db.notifications
    .where('[ownerUserId+companyId+createdAt]')
    .between([ownerUserId, companyId, Dexie.minKey], [ownerUserId, companyId, Dexie.maxKey])
    .reverse()
    .limit(limit + 1)
    .toArray();
  const checked = stored.filter((row): row is StoredNotification => NotificationRow.is(row));
  if (checked.length < stored.length) console.warn(`${stored.length - checked.length} stored notification(s) do not match their struct and are not shown`);
  const items = checked.slice(0, limit).map((row) => ({ notification: withoutOwner(row), isRead: row.readAt !== null || pending.has(row.id) }));
  const unread = await companyRows(db, ownerUserId, companyId)
    .filter((row) => isUnread(row, pending))
    .count();
  return { items, hasMore: stored.length > limit, unread };
}

function withoutOwner(row: StoredNotification): NotificationRow {
  const { ownerUserId: _owner, ...notification } = row;
  return notification;
}

export interface MarkReadOptions {
  /** Epoch ms; the caller's clock. */
  now?: number;
}

/**
 * Marks `ids` read: their `readAt` on the device and the outbox rows that tell the server, in one
 * transaction. Ids that are not the owner's unread notifications of `companyId` (already read, another
 * company's, unknown) are left out. Answers how many were marked.
 */
export async function markNotificationsRead(db: AppDatabase, ownerUserId: string, companyId: string, ids: readonly string[], options: MarkReadOptions = {}): Promise<number> {
  return writeWithOutbox(db, [db.notifications], () => markInTransaction(db, ownerUserId, companyId, [...new Set(ids)], options.now ?? Date.now()));
}

/** Marks every unread notification of the user in `companyId` read (see markNotificationsRead). */
export async function markAllNotificationsRead(db: AppDatabase, ownerUserId: string, companyId: string, options: MarkReadOptions = {}): Promise<number> {
  return writeWithOutbox(db, [db.notifications], async () => {
    const pending = await pendingReadIds(db, ownerUserId);
    const unread = await companyRows(db, ownerUserId, companyId)
      .filter((row) => isUnread(row, pending))
      .primaryKeys();
    return markInTransaction(
      db,
      ownerUserId,
      companyId,
      unread.map((key) => key[1]),
      options.now ?? Date.now(),
    );
  });
}

async function markInTransaction(db: AppDatabase, ownerUserId: string, companyId: string, ids: readonly string[], now: number): Promise<number> {
  const stored = await db.notifications.bulkGet(ids.map((id): [string, string] => [ownerUserId, id]));
  const pending = await pendingReadIds(db, ownerUserId);
  const unread = stored.filter((row): row is StoredNotification => isUnread(row, pending) && row.companyId === companyId);
  if (unread.length === 0) return 0;
  const readAt = new Date(now).toISOString();
  await db.notifications.bulkPut(unread.map((row) => ({ ...row, readAt })));
  const path = notificationsReadPath(companyId);
  if (unread.length === 1 && unread[0]) {
    const { id } = unread[0];
    await enqueue(db, { ownerUserId, kind: NOTIFICATION_READ_KIND, method: 'POST', path, body: { ids: [id] }, entityKey: entityKeyOf('notifications', id), now });
    return 1;
  }
  for (let start = 0; start < unread.length; start += NOTIFICATION_READ_MAX) {
    const batch = unread.slice(start, start + NOTIFICATION_READ_MAX).map((row) => row.id);
    await enqueue(db, { ownerUserId, kind: NOTIFICATION_READ_KIND, method: 'POST', path, body: { ids: batch }, entityKey: `${READ_BATCH_KEY_PREFIX}${companyId}`, now });
  }
  return unread.length;
}

/**
 * The replayer's success handler: the server has the read (it answers `{ read: n }`, no rows). A pull may have
 * rewritten these rows unread while the request waited, so `readAt` is set again where it is missing (to the
 * moment the user read them); the next pull brings the server's own time.
 */
export const storeNotificationsRead: SuccessHandler = async ({ db, row }) => {
  const ids = idsOfReadRow(row);
  if (ids.length === 0) return;
  const readAt = new Date(row.createdAt).toISOString();
  const stored = await db.notifications.bulkGet(ids.map((id): [string, string] => [row.ownerUserId, id]));
  const unread = stored.filter((item): item is StoredNotification => NotificationRow.is(item) && item.readAt === null);
  if (unread.length > 0) await db.notifications.bulkPut(unread.map((item) => ({ ...item, readAt })));
};
