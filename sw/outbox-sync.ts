// Background Sync in the service worker: sends the outbox while no page is open (DESIGN.md, "Offline-first
// data flow", points 2 and 5). The page registers the tag `outbox` after every enqueue (sw/page-bridge.ts);
// the browser fires `sync` when it is online, also after the tab has been closed.
// Guarantees:
// - the same code as the page sends: the outbox replayer of src/lib/outbox over the worker's own instance of
//   the one transport (src/lib/http.ts) and the success handlers of the outbox-kind registry
//   (src/app/outbox-kinds.ts), over the same Dexie database; one sender at a time through the Web Lock
//   `outbox-replay` (when a page is sending, the worker's drain answers 'busy' and leaves it to the page);
// - tokens come from the IndexedDB mirror the page keeps; they are read again inside the `auth-refresh` lock,
//   so a pair the page rotated meanwhile is used instead of spending the old one (only the same user's: a
//   drain never sends one user's rows under another's token); a refresh done here writes the mirror (marked
//   as the worker's) before the lock is released, and only over the pair it spent (compare-and-set), then
//   tells open pages over the BroadcastChannel `auth`; a refresh that ends after a sign-out (or another
//   rotation) writes nothing, announces nothing, and this drain drops its pair; localStorage, which the
//   worker cannot reach, is brought up to date by the page (sw/page-bridge.ts) from that message or from the
//   mirror when it next starts;
// - the worker never signs the user out: a refused refresh stops the drain with every row kept; the page,
//   which owns the session, decides when it next runs;
// - a sync event is a sign that the browser sees a network: rows that met only a dead network are made due
//   at once before the drain (the replayer's `wake`);
// - a drain that left rows the replayer will try again (no network, no session, throttled, or rows on a
//   backoff), and a drain skipped as 'busy' (a page holds the lock) while rows still wait, fail the sync event
//   so the browser fires it again later (except on its last chance: then the page's next drain, which
//   registers the tag again whenever rows are left, takes over); the decision is `shouldRetrySync` of
//   src/lib/outbox/triggers.ts. Nothing is dropped either way.
import type { DrainResult, ExclusiveLocks } from '../src/lib/outbox/replayer';
import { createReplayer } from '../src/lib/outbox/replayer';
import { hasWaitingRows } from '../src/lib/outbox/outbox';
import { shouldRetrySync } from '../src/lib/outbox/triggers';
import { createHttpClient, type LockRunner } from '../src/lib/http';
import type { TokenStore } from '../src/lib/token-store';
import { getAppDatabase } from '../src/lib/db/database';
import { isPushableOutboxRow, loadOutboxSuccessHandler } from '../src/app/outbox-kinds';
import { AUTH_CHANNEL_NAME, readTokenMirror, subjectOf, writeTokensFromWorkerIfCurrent, type WorkerTokensMessage } from './token-mirror';

export const API_PREFIX = '/main-service';

/** Told to open pages after a drain sent something, so their screens and pulls catch up. */
export const OUTBOX_SENT_MESSAGE = 'OUTBOX_SENT';

export interface WorkerTokens extends TokenStore {
  /** Takes the pair the mirror holds now, whoever's it is: the start of a drain, whose owner is read from it. */
  reload(): Promise<void>;
  /**
   * Takes the pair the mirror holds now only if it is the same user's (another tab rotated it); else holds
   * none. For the middle of a drain, whose rows belong to the user it started with.
   */
  reloadSameUser(): Promise<void>;
  /** Resolves once every write started by `set` has reached IndexedDB (or was refused by it). */
  settled(): Promise<void>;
}

const subjectOfPair = (refresh: string | null, access: string | null) => subjectOf(refresh) ?? subjectOf(access);

/**
 * The worker's tokens: a copy of the mirror, read at the start of a drain. A pair this worker's refresh got is
 * written to the mirror only over the pair it spent (`writeTokensFromWorkerIfCurrent`) and only then
 * announced on the `auth` channel; when the mirror moved on meanwhile (a sign-out cleared it, another tab
 * rotated it), the new pair is dropped and the drain carries on with the mirror's pair if it is the same
 * user's, or with none.
 */
export function createWorkerTokens(): WorkerTokens {
  let access: string | null = null;
  let refresh: string | null = null;
  /** The user whose pair the last `reload` took. */
  let user: string | null = null;
  let pending: Promise<void> = Promise.resolve();

  async function adoptSameUser(): Promise<void> {
    const mirror = await readTokenMirror();
    const same = user !== null && subjectOfPair(mirror.refreshToken, mirror.accessToken) === user;
    access = same ? mirror.accessToken : null;
    refresh = same ? mirror.refreshToken : null;
  }

  return {
    getAccess: () => access,
    getRefresh: () => refresh,
    set(pair) {
      // The refresh token this refresh spent: the mirror is written only while it still holds that one.
      const previous = refresh;
      access = pair.access_token;
      refresh = pair.refresh_token;
      const message: WorkerTokensMessage = { type: 'tokens', accessToken: pair.access_token, refreshToken: pair.refresh_token };
      pending = pending
        .then(() => (previous === null ? false : writeTokensFromWorkerIfCurrent(previous, pair.access_token, pair.refresh_token)))
        .then(async (written) => {
          if (written) {
            const channel = new BroadcastChannel(AUTH_CHANNEL_NAME);
            channel.postMessage(message);
            channel.close();
            return;
          }
          // Signed out (or rotated elsewhere) while this refresh ran: the new pair is not the session, and
          // nothing more may go out under it.
          await adoptSameUser();
        })
        .catch((error: unknown) => {
          // Not knowing whether the pair is still the session, drop it rather than send under it.
          access = null;
          refresh = null;
          console.error('The worker could not store the refreshed tokens', error);
        });
    },
    clear() {
      // Only this drain forgets them: signing out is the page's decision (see the header).
      access = null;
      refresh = null;
    },
    async reload() {
      await pending;
      const mirror = await readTokenMirror();
      access = mirror.accessToken;
      refresh = mirror.refreshToken;
      user = subjectOfPair(refresh, access);
    },
    async reloadSameUser() {
      await pending;
      await adoptSameUser();
    },
    settled: () => pending,
  };
}

/**
 * The `auth-refresh` lock as the worker's transport takes it: inside it the worker first takes the pair the
 * mirror holds now (the same user's only), and it lets go only once the pair a refresh got is stored or
 * dropped, so the resend after a refresh never carries a pair the mirror refused.
 */
export function workerRefreshLocks(tokens: WorkerTokens, locks: LockRunner | null): LockRunner {
  return {
    async request(name, callback) {
      const run = async () => {
        await tokens.reloadSameUser();
        try {
          return await callback();
        } finally {
          await tokens.settled();
        }
      };
      return locks ? locks.request(name, run) : run();
    },
  };
}

export interface WorkerDrain {
  result: DrainResult;
  /** Whether the user's outbox still holds rows the replayer will try (read after the drain). */
  rowsWaiting: boolean;
}

export interface WorkerOutbox {
  drain(): Promise<WorkerDrain>;
}

/**
 * What the outbox needs of the service worker's global scope: a structural type, so this module type-checks
 * (and its tests run) without the WebWorker library.
 */
export interface WorkerScope {
  fetch: typeof fetch;
  navigator: { language: string; locks?: LockManager };
  clients: { matchAll(options: { type: 'window' }): Promise<ReadonlyArray<{ postMessage(message: unknown): void }>> };
}

export function createWorkerOutbox(scope: WorkerScope): WorkerOutbox {
  const tokens = createWorkerTokens();
  const navigatorLocks = scope.navigator.locks ?? null;
  const refreshLocks = workerRefreshLocks(tokens, navigatorLocks ? { request: (name, callback) => navigatorLocks.request(name, callback) } : null);
  const replayLocks: ExclusiveLocks | null = navigatorLocks
    ? { request: (name, options, callback) => navigatorLocks.request(name, options, callback) }
    : null;
  const workerFetch: typeof fetch = (input, init) => scope.fetch(input, init);
  const locale = () => (scope.navigator.language.toLowerCase().startsWith('en') ? 'en' : 'ru');
  const http = createHttpClient({
    prefix: API_PREFIX,
    tokens,
    fetch: workerFetch,
    getLocale: locale,
    onAuthFailure: () => undefined,
    locks: refreshLocks,
  });
  const db = getAppDatabase();
  const getOwnerUserId = () => subjectOf(tokens.getRefresh()) ?? subjectOf(tokens.getAccess());
  const replayer = createReplayer({
    db,
    http,
    getOwnerUserId,
    clock: { now: () => Date.now() },
    random: Math.random,
    locks: replayLocks,
    handlers: loadOutboxSuccessHandler,
    isPushable: isPushableOutboxRow,
  });

  return {
    async drain() {
      await tokens.reload();
      await replayer.wake();
      const result = await replayer.drain();
      await tokens.settled();
      if (result.sent > 0 || result.parked > 0) {
        const clients = await scope.clients.matchAll({ type: 'window' });
        for (const client of clients) client.postMessage({ type: OUTBOX_SENT_MESSAGE, sent: result.sent, parked: result.parked });
      }
      const owner = getOwnerUserId();
      return { result, rowsWaiting: owner !== null && (await hasWaitingRows(db, owner)) };
    },
  };
}

export { shouldRetrySync };
