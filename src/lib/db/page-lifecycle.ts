// What the app does with its IndexedDB transactions when the page goes into the browser's back-forward cache.
// Why: WebKit (Safari, WebKitGTK) freezes a page it keeps in that cache together with the transactions it has
// open at that moment. A frozen read-write transaction never commits nor aborts, and every later transaction on
// the same stores waits behind it, in every page of the origin: the next page's screens stay empty and its
// outbox never drains until the browser is restarted. Seen when a page was left by a full load while its first
// pull was writing (WebKitGTK under load, about 1 run in 9).
// Guarantees:
// - `trackTransactions` (a DBCore middleware) knows every transaction the app's database has open;
// - when the page is hidden into the back-forward cache (`pagehide` with `persisted`), each of them is aborted,
//   which is what a page that is unloaded gets from the browser anyway: nothing half-written stays (IndexedDB
//   aborts atomically), a pull takes up again from its last committed cursor, and an outbox row is either
//   stored whole or not at all, as on a closed tab;
// - a page brought back from that cache after such an abort reloads (its live queries and pulls saw their
//   transactions fail), so the user gets a consistent screen instead of an error.
import type { DBCore, DBCoreTransaction, Middleware } from 'dexie';

export interface TransactionTracker {
  /** The middleware to `db.use()`. */
  readonly middleware: Middleware<DBCore>;
  /** How many transactions are open now. */
  openCount(): number;
  /** Aborts every open transaction; answers how many were aborted. */
  abortAll(): number;
}

interface NativeLikeTransaction {
  abort(): void;
  addEventListener(type: 'complete' | 'abort' | 'error', listener: () => void): void;
}

function isNativeLike(transaction: DBCoreTransaction): transaction is DBCoreTransaction & NativeLikeTransaction {
  const candidate = transaction as Partial<NativeLikeTransaction>;
  return typeof candidate.abort === 'function' && typeof candidate.addEventListener === 'function';
}

export function trackTransactions(): TransactionTracker {
  const open = new Set<NativeLikeTransaction>();
  return {
    middleware: {
      stack: 'dbcore',
      name: 'transactionTracker',
      // Right above IndexedDB's own core, so what it sees is the IDBTransaction itself.
      level: 0,
      create: (down) => ({
        ...down,
        transaction(stores, mode, options) {
          const transaction = down.transaction(stores, mode, options);
          if (isNativeLike(transaction)) {
            open.add(transaction);
            const forget = () => open.delete(transaction);
            // Listeners, not on* properties: Dexie sets those on the same object.
            transaction.addEventListener('complete', forget);
            transaction.addEventListener('abort', forget);
            transaction.addEventListener('error', forget);
          }
          return transaction;
        },
      }),
    },
    openCount: () => open.size,
    abortAll() {
      let aborted = 0;
      for (const transaction of [...open]) {
        open.delete(transaction);
        try {
          transaction.abort();
          aborted += 1;
        } catch {
          // Already finished between its last event and now: nothing to release.
        }
      }
      return aborted;
    },
  };
}

/** A `pagehide`/`pageshow` event as this module reads it. */
interface PageTransitionLike {
  persisted: boolean;
}

export interface PageLifecycleTarget {
  addEventListener(type: 'pagehide' | 'pageshow', listener: (event: PageTransitionLike) => void): void;
  removeEventListener(type: 'pagehide' | 'pageshow', listener: (event: PageTransitionLike) => void): void;
}

/**
 * Aborts `tracker`'s open transactions when the page goes into the back-forward cache, and calls `reload` when a
 * page that had to abort some is shown again from it. Returns the unsubscribe.
 */
export function releaseTransactionsOnPageHide(target: PageLifecycleTarget, tracker: TransactionTracker, reload: () => void): () => void {
  let abortedWhileHidden = 0;
  const onHide = (event: PageTransitionLike) => {
    if (event.persisted) abortedWhileHidden += tracker.abortAll();
  };
  const onShow = (event: PageTransitionLike) => {
    if (!event.persisted) return;
    const aborted = abortedWhileHidden;
    abortedWhileHidden = 0;
    if (aborted > 0) reload();
  };
  target.addEventListener('pagehide', onHide);
  target.addEventListener('pageshow', onShow);
  return () => {
    target.removeEventListener('pagehide', onHide);
    target.removeEventListener('pageshow', onShow);
  };
}

let page: { target: PageLifecycleTarget; reload: () => void } | null = null;

/**
 * Called once by the page's entry (src/main.tsx) with its window. The service worker, which shares the database
 * code but has no page to hide, never calls it, so `releaseWithThePage` does nothing there.
 */
export function installPageLifecycle(target: PageLifecycleTarget, reload: () => void): void {
  page = { target, reload };
}

/** Ties `tracker`'s transactions to the page's `pagehide` (see releaseTransactionsOnPageHide), where there is a page. */
export function releaseWithThePage(tracker: TransactionTracker): void {
  if (page) releaseTransactionsOnPageHide(page.target, tracker, page.reload);
}
