// Background Sync in the service worker: sends the outbox while no page is open (DESIGN.md, "Offline-first
// data flow", points 2 and 5). The page registers the tag `outbox` after every enqueue (sw/page-bridge.ts);
// the browser fires `sync` when it is online, also after the tab has been closed.
// Guarantees:
// - the same code as the page sends: the outbox replayer of src/lib/outbox, the HTTP client of
//   src/lib/http.ts and the success handlers of the outbox-kind registry (src/app/outbox-kinds.ts), over the
//   same Dexie database; one sender at a time through the Web Lock `outbox-replay`
//   (when a page is sending, the worker's drain answers 'busy' and leaves it to the page);
// - tokens come from the IndexedDB mirror the page keeps; they are read again inside the `auth-refresh` lock,
//   so a pair the page rotated meanwhile is used instead of spending the old one; a refresh done here writes
//   the mirror (marked as the worker's) before the lock is released and tells open pages over the
//   BroadcastChannel `auth`; localStorage, which the worker cannot reach, is brought up to date by the page
//   (sw/page-bridge.ts) from that message or from the mirror when it next starts;
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
import { outboxSuccessHandlers } from '../src/app/outbox-kinds';
import { AUTH_CHANNEL_NAME, readTokenMirror, subjectOf, writeTokensFromWorker, type WorkerTokensMessage } from './token-mirror';

export const API_PREFIX = '/main-service';

/** Told to open pages after a drain sent something, so their screens and pulls catch up. */
export const OUTBOX_SENT_MESSAGE = 'OUTBOX_SENT';

interface WorkerTokens extends TokenStore {
  reload(): Promise<void>;
  /** Resolves once every write started by `set` has reached IndexedDB. */
  settled(): Promise<void>;
}

function createWorkerTokens(): WorkerTokens {
  let access: string | null = null;
  let refresh: string | null = null;
  let pending: Promise<void> = Promise.resolve();
  return {
    getAccess: () => access,
    getRefresh: () => refresh,
    set(pair) {
      access = pair.access_token;
      refresh = pair.refresh_token;
      const message: WorkerTokensMessage = { type: 'tokens', accessToken: pair.access_token, refreshToken: pair.refresh_token };
      pending = pending
        .then(() => writeTokensFromWorker(pair.access_token, pair.refresh_token))
        .then(() => {
          const channel = new BroadcastChannel(AUTH_CHANNEL_NAME);
          channel.postMessage(message);
          channel.close();
        })
        .catch((error: unknown) => console.error('The worker could not store the refreshed tokens', error));
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
    },
    settled: () => pending,
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

export function createWorkerOutbox(scope: ServiceWorkerGlobalScope): WorkerOutbox {
  const tokens = createWorkerTokens();
  const navigatorLocks = 'locks' in scope.navigator ? scope.navigator.locks : null;
  const refreshLocks: LockRunner = {
    async request(name, callback) {
      const run = async () => {
        await tokens.reload();
        try {
          return await callback();
        } finally {
          await tokens.settled();
        }
      };
      return navigatorLocks ? navigatorLocks.request(name, run) : run();
    },
  };
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
    fetch: workerFetch,
    tokens,
    http,
    getOwnerUserId,
    clock: { now: () => Date.now() },
    random: Math.random,
    prefix: API_PREFIX,
    getLocale: locale,
    locks: replayLocks,
    handlers: outboxSuccessHandlers,
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
