import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase } from './database';
import { releaseTransactionsOnPageHide, type PageLifecycleTarget } from './page-lifecycle';

const opened: AppDatabase[] = [];
let counter = 0;

function database(): AppDatabase {
  counter += 1;
  const db = new AppDatabase(`page-lifecycle-${counter}`);
  opened.push(db);
  return db;
}

/** A window stand-in that delivers pagehide/pageshow as the browser would. */
function pageEvents(): PageLifecycleTarget & { fire(type: 'pagehide' | 'pageshow', persisted: boolean): void } {
  const target = new EventTarget();
  return {
    addEventListener: (type, listener) => target.addEventListener(type, listener as unknown as EventListener),
    removeEventListener: (type, listener) => target.removeEventListener(type, listener as unknown as EventListener),
    fire(type, persisted) {
      target.dispatchEvent(Object.assign(new Event(type), { persisted }));
    },
  };
}

/** Waits (on state, not time) until the database has no open transaction: a read resolves before its transaction's end. */
async function allEnded(db: AppDatabase): Promise<void> {
  for (let turn = 0; turn < 1_000 && db.openTransactions.openCount() > 0; turn += 1) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  expect(db.openTransactions.openCount()).toBe(0);
}

afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

describe('the app database on a page going into the back-forward cache', () => {
  it('knows its open transactions and forgets them once they end', async () => {
    const db = database();
    await db.open();
    expect(db.openTransactions.openCount()).toBe(0);
    let during = -1;
    await db.transaction('rw', db.units, async () => {
      await db.units.put({ ownerUserId: 'u1', id: 'MINUTES', title: 'минуты', type: 'TIME' });
      during = db.openTransactions.openCount();
    });
    expect(during).toBe(1);
    expect(db.openTransactions.openCount()).toBe(0);
  });

  it('aborts a write still open when the page is hidden into the cache, leaving nothing half-written', async () => {
    const db = database();
    const page = pageEvents();
    let reloads = 0;
    const stop = releaseTransactionsOnPageHide(page, db.openTransactions, () => (reloads += 1));
    await db.leases.put({ name: 'before', holder: 'a', expiresAt: 1 });

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = db.transaction('rw', db.leases, async () => {
      await db.leases.put({ name: 'during-1', holder: 'a', expiresAt: 1 });
      // The page is hidden here, the transaction still open (a frozen page would never end it).
      page.fire('pagehide', true);
      release();
      await db.leases.put({ name: 'during-2', holder: 'a', expiresAt: 1 });
    });
    await held;
    await expect(writing).rejects.toThrow();

    // Nothing of the aborted transaction stayed, what was there before did, and the next transaction runs.
    expect((await db.leases.toArray()).map((row) => row.name)).toEqual(['before']);
    await db.leases.put({ name: 'after', holder: 'a', expiresAt: 1 });
    expect((await db.leases.toArray()).map((row) => row.name).sort()).toEqual(['after', 'before']);

    // Shown again from the cache after an abort: the page reloads, once.
    page.fire('pageshow', true);
    page.fire('pageshow', true);
    expect(reloads).toBe(1);
    stop();
  });

  it('leaves transactions alone on a page that is really unloading, and does not reload a page that aborted nothing', async () => {
    const db = database();
    const page = pageEvents();
    let reloads = 0;
    const stop = releaseTransactionsOnPageHide(page, db.openTransactions, () => (reloads += 1));
    await db.transaction('rw', db.leases, async () => {
      await db.leases.put({ name: 'one', holder: 'a', expiresAt: 1 });
      page.fire('pagehide', false);
      await db.leases.put({ name: 'two', holder: 'a', expiresAt: 1 });
    });
    expect((await db.leases.toArray()).map((row) => row.name).sort()).toEqual(['one', 'two']);

    // Once the read's transaction has ended too, a page hidden into the cache has nothing to abort.
    await allEnded(db);
    page.fire('pagehide', true);
    page.fire('pageshow', true);
    expect(reloads).toBe(0);
    stop();
  });
});
