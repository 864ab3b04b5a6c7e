import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_READ_MAX, type NotificationRow } from '../../domain/notification';
import type { SyncPage } from '../../domain/suggestion';
import { AppDatabase } from '../../lib/db/database';
import type { HttpClient } from '../../lib/http';
import { listOutbox } from '../../lib/outbox/outbox';
import { pullCompany } from '../../lib/sync/pull';
import { notificationReadOutboxKind } from './outbox-kind';
import {
  NOTIFICATION_READ_KIND,
  countUnread,
  listNotifications,
  markAllNotificationsRead,
  markNotificationsRead,
  pendingReadIds,
  storeNotificationsRead,
} from './store';

const opened: AppDatabase[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`notifications-store-${Math.random()}`);
  opened.push(db);
  return db;
}

let counter = 0;
/** A notification uuid (the server's read route takes uuids only). */
function uuid(): string {
  counter += 1;
  return `00000000-0000-4000-8000-${counter.toString().padStart(12, '0')}`;
}

function notification(overrides: Partial<NotificationRow> = {}): NotificationRow {
  return {
    id: uuid(),
    companyId: 'c1',
    userId: 'u1',
    kind: 'SUGGESTION_APPROVED',
    suggestionId: 's1',
    params: { title: 'Shorter changeover', byName: 'Petrov P.' },
    readAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

async function store(db: AppDatabase, owner: string, rows: NotificationRow[]) {
  await db.notifications.bulkPut(rows.map((row) => ({ ...row, ownerUserId: owner })));
}

/** A server whose pull answers `page` (the pull checks what it reads with its structs). */
function serving(page: SyncPage): Pick<HttpClient, 'get'> {
  const answer: unknown = { data: page };
  return { get: <T,>() => Promise.resolve(answer as T) };
}

const NOW = Date.parse('2026-03-02T09:00:00.000Z');

describe('the unread count', () => {
  it('counts the unread notifications of one owner in one company only', async () => {
    const db = openDb();
    await store(db, 'u1', [notification(), notification(), notification({ readAt: '2026-03-01T11:00:00.000Z' }), notification({ companyId: 'c2' })]);
    await store(db, 'u2', [notification({ userId: 'u2' }), notification({ userId: 'u2' }), notification({ userId: 'u2' })]);
    expect(await countUnread(db, 'u1', 'c1')).toBe(2);
    expect(await countUnread(db, 'u1', 'c2')).toBe(1);
    expect(await countUnread(db, 'u2', 'c1')).toBe(3);
    expect(await countUnread(db, 'u2', 'c2')).toBe(0);
  });

  it('does not count a stored row that fails its struct', async () => {
    const db = openDb();
    await store(db, 'u1', [notification()]);
    await db.notifications.put({ ...notification(), kind: 42, ownerUserId: 'u1' } as unknown as NotificationRow & { ownerUserId: string });
    expect(await countUnread(db, 'u1', 'c1')).toBe(1);
  });
});

describe('marking read', () => {
  it('writes readAt on the device and the outbox row in one transaction', async () => {
    const db = openDb();
    const first = notification();
    const second = notification();
    await store(db, 'u1', [first, second]);

    expect(await markNotificationsRead(db, 'u1', 'c1', [first.id], { now: NOW })).toBe(1);

    expect(await db.notifications.get(['u1', first.id])).toMatchObject({ readAt: '2026-03-02T09:00:00.000Z' });
    expect(await db.notifications.get(['u1', second.id])).toMatchObject({ readAt: null });
    const [row, ...others] = await listOutbox(db, 'u1');
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      kind: NOTIFICATION_READ_KIND,
      method: 'POST',
      path: '/api/v1/companies/c1/notifications/read',
      body: { ids: [first.id] },
      // One notification: its own key, so the pull leaves the row alone while the read waits.
      entityKey: `notifications:${first.id}`,
      status: 'pending',
    });
    expect(await countUnread(db, 'u1', 'c1')).toBe(1);
  });

  it('stores neither the read nor its outbox row when the outbox write fails', async () => {
    const db = openDb();
    const first = notification();
    await store(db, 'u1', [first]);
    vi.spyOn(db.outbox, 'add').mockRejectedValueOnce(new Error('disk trouble'));

    await expect(markNotificationsRead(db, 'u1', 'c1', [first.id], { now: NOW })).rejects.toThrow('disk trouble');

    expect(await db.notifications.get(['u1', first.id])).toMatchObject({ readAt: null });
    expect(await db.outbox.count()).toBe(0);
    expect(await countUnread(db, 'u1', 'c1')).toBe(1);
  });

  it('leaves out read, unknown and other companies’ notifications, and writes nothing when none is left', async () => {
    const db = openDb();
    const read = notification({ readAt: '2026-03-01T11:00:00.000Z' });
    const elsewhere = notification({ companyId: 'c2' });
    await store(db, 'u1', [read, elsewhere]);
    expect(await markNotificationsRead(db, 'u1', 'c1', [read.id, elsewhere.id, uuid()], { now: NOW })).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.notifications.get(['u1', elsewhere.id])).toMatchObject({ readAt: null });
  });

  it('marks all of a company read in rows of at most the server’s limit, under one company key', async () => {
    const db = openDb();
    const rows = Array.from({ length: NOTIFICATION_READ_MAX + 5 }, () => notification());
    await store(db, 'u1', [...rows, notification({ companyId: 'c2' })]);
    await store(db, 'u2', [notification({ userId: 'u2' })]);

    expect(await markAllNotificationsRead(db, 'u1', 'c1', { now: NOW })).toBe(rows.length);

    const outbox = await listOutbox(db, 'u1');
    expect(outbox.map((row) => (row.body as { ids: string[] }).ids.length)).toEqual([NOTIFICATION_READ_MAX, 5]);
    expect(new Set(outbox.map((row) => row.entityKey))).toEqual(new Set(['notification-read:c1']));
    expect(new Set(outbox.flatMap((row) => (row.body as { ids: string[] }).ids))).toEqual(new Set(rows.map((row) => row.id)));
    expect(await countUnread(db, 'u1', 'c1')).toBe(0);
    expect(await countUnread(db, 'u1', 'c2')).toBe(1);
    expect(await countUnread(db, 'u2', 'c1')).toBe(1);
    // Nothing left to mark: no new row.
    expect(await markAllNotificationsRead(db, 'u1', 'c1', { now: NOW })).toBe(0);
    expect(await db.outbox.count()).toBe(2);
  });

  it('keeps a notification read when a pull rewrites it unread while its read waits, and the sent read sets it again', async () => {
    const db = openDb();
    const first = notification();
    const second = notification();
    await store(db, 'u1', [first, second]);
    await markAllNotificationsRead(db, 'u1', 'c1', { now: NOW });

    // The server mailed them meanwhile: the pull brings both rows again, still unread there.
    const page: SyncPage = {
      changes: [first, second].map((row, index) => ({ seq: String(index + 1), table: 'notifications', op: 'upsert', id: row.id, row })),
      nextCursor: '2',
      hasMore: false,
      reset: false,
    };
    await pullCompany({ db, http: serving(page), ownerUserId: 'u1', companyId: 'c1' });
    expect(await db.notifications.get(['u1', first.id])).toMatchObject({ readAt: null });

    // The bell and the page still count them read: the read is on its way.
    expect(await countUnread(db, 'u1', 'c1')).toBe(0);
    const list = await listNotifications(db, 'u1', 'c1');
    expect(list.items.map((item) => item.isRead)).toEqual([true, true]);
    expect(list.unread).toBe(0);

    // The server took it: the row leaves and the device has them read again.
    const [row] = await listOutbox(db, 'u1');
    if (!row) throw new Error('no outbox row');
    await db.transaction('rw', db.tables, async () => {
      await db.outbox.delete(row.seq);
      await storeNotificationsRead({ db, row, data: { read: 2 } });
    });
    expect(await pendingReadIds(db, 'u1')).toEqual(new Set());
    expect(await db.notifications.get(['u1', first.id])).toMatchObject({ readAt: '2026-03-02T09:00:00.000Z' });
    expect(await countUnread(db, 'u1', 'c1')).toBe(0);
  });

  it('has the pull leave a notification alone while its single read waits, and fetch it again after', async () => {
    const db = openDb();
    const first = notification();
    await store(db, 'u1', [first]);
    await markNotificationsRead(db, 'u1', 'c1', [first.id], { now: NOW });
    const page: SyncPage = {
      changes: [{ seq: '1', table: 'notifications', op: 'upsert', id: first.id, row: first }],
      nextCursor: '1',
      hasMore: false,
      reset: false,
    };
    const result = await pullCompany({ db, http: serving(page), ownerUserId: 'u1', companyId: 'c1' });
    expect(result.kept).toBe(1);
    expect(await db.notifications.get(['u1', first.id])).toMatchObject({ readAt: '2026-03-02T09:00:00.000Z' });
    expect(await db.staleRows.where('[ownerUserId+entityKey]').equals(['u1', `notifications:${first.id}`]).count()).toBe(1);
    expect(await countUnread(db, 'u1', 'c1')).toBe(0);
  });
});

describe('the notification list', () => {
  it('lists the company’s notifications newest first, a page at a time', async () => {
    const db = openDb();
    const old = notification({ createdAt: '2026-03-01T08:00:00.000Z' });
    const middle = notification({ createdAt: '2026-03-01T09:00:00.000Z', readAt: '2026-03-01T09:30:00.000Z' });
    const newest = notification({ createdAt: '2026-03-01T10:00:00.000Z' });
    await store(db, 'u1', [middle, old, newest, notification({ companyId: 'c2', createdAt: '2026-03-05T00:00:00.000Z' })]);

    const firstPage = await listNotifications(db, 'u1', 'c1', 2);
    expect(firstPage.items.map((item) => [item.notification.id, item.isRead])).toEqual([
      [newest.id, false],
      [middle.id, true],
    ]);
    expect(firstPage.hasMore).toBe(true);
    expect(firstPage.unread).toBe(2);
    expect(firstPage.items[0]?.notification).not.toHaveProperty('ownerUserId');

    const all = await listNotifications(db, 'u1', 'c1', 3);
    expect(all.items.map((item) => item.notification.id)).toEqual([newest.id, middle.id, old.id]);
    expect(all.hasMore).toBe(false);
  });
});

describe('the outbox kind', () => {
  it('is pushable, names how many it marks and has nothing to edit', async () => {
    const db = openDb();
    const rows = [notification(), notification(), notification()];
    await store(db, 'u1', rows);
    await markAllNotificationsRead(db, 'u1', 'c1', { now: NOW });
    const [row] = await listOutbox(db, 'u1');
    if (!row) throw new Error('no outbox row');
    expect(notificationReadOutboxKind.pushable).toBe(true);
    expect(notificationReadOutboxKind.labelValues(row)).toEqual({ count: '3' });
    expect(notificationReadOutboxKind.editHref()).toBeNull();
  });
});
