// Background Sync in the service worker: sends the outbox while no page is open (DESIGN.md, "Offline-first
// data flow", points 2 and 5). The page registers the tag `outbox` after every enqueue (sw/page-bridge.ts);
// the browser fires `sync` when it is online, also after the tab has been closed.
// Guarantees:
// - the same code as the page sends: the outbox replayer of src/lib/outbox and the HTTP client of
//   src/lib/http.ts, over the same Dexie database; one sender at a time through the Web Lock `outbox-replay`
//   (when a page is sending, the worker's drain answers 'busy' and leaves it to the page);
// - tokens come from the IndexedDB mirror the page keeps; they are read again inside the `auth-refresh` lock,
//   so a pair the page rotated meanwhile is used instead of spending the old one; a refresh done here writes
//   the mirror (marked as the worker's) before the lock is released and tells open pages over the
//   BroadcastChannel `auth`; localStorage, which the worker cannot reach, is brought up to date by the page
//   (sw/page-bridge.ts) from that message or from the mirror when it next starts;
// - the worker never signs the user out: a refused refresh stops the drain with every row kept; the page,
//   which owns the session, decides when it next runs;
// - a drain that stopped with rows still waiting (no network, no session, throttled) fails the sync event so
//   the browser tries again later (except on its last chance); nothing is dropped either way.
import type { DrainResult, ExclusiveLocks, SuccessHandler } from '../src/lib/outbox/replayer';
import { createReplayer } from '../src/lib/outbox/replayer';
import { createHttpClient, type LockRunner } from '../src/lib/http';
import type { TokenStore } from '../src/lib/token-store';
import { getAppDatabase, MIRROR_TABLES, type MirrorTable } from '../src/lib/db/database';
import { MIRROR_ROW_STRUCTS } from '../src/lib/db/rows';
import { suggestionOutboxHandlers } from '../src/features/suggestions/store';
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

/**
 * For a kind no feature handler below knows: stores the server's entity of a sent row in the mirror when its
 * entity key names a mirrored table (`goals:<id>` and the like) and the answer passes that table's struct;
 * the next pull settles any difference.
 */
const storeSentEntity: SuccessHandler = async ({ db, row, data }) => {
  const table = row.entityKey.split(':')[0] as MirrorTable;
  if (!(MIRROR_TABLES as readonly string[]).includes(table) || !MIRROR_ROW_STRUCTS[table].is(data)) return;
  await db.mirror(table).put({ ...data, ownerUserId: row.ownerUserId });
};

/** The features' handlers (the same the page uses; Dexie-only modules), else `storeSentEntity`. */
const featureHandlers: Readonly<Record<string, SuccessHandler>> = { ...suggestionOutboxHandlers };
const workerHandlers: Readonly<Record<string, SuccessHandler>> = new Proxy(featureHandlers, {
  get: (target, property) => (typeof property === 'string' ? (target[property] ?? storeSentEntity) : undefined),
});

export interface WorkerOutbox {
  drain(): Promise<DrainResult>;
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
  const replayer = createReplayer({
    db: getAppDatabase(),
    fetch: workerFetch,
    tokens,
    http,
    getOwnerUserId: () => subjectOf(tokens.getRefresh()) ?? subjectOf(tokens.getAccess()),
    clock: { now: () => Date.now() },
    random: Math.random,
    prefix: API_PREFIX,
    getLocale: locale,
    locks: replayLocks,
    handlers: workerHandlers,
  });

  return {
    async drain() {
      await tokens.reload();
      const result = await replayer.drain();
      await tokens.settled();
      if (result.sent > 0 || result.parked > 0) {
        const clients = await scope.clients.matchAll({ type: 'window' });
        for (const client of clients) client.postMessage({ type: OUTBOX_SENT_MESSAGE, sent: result.sent, parked: result.parked });
      }
      return result;
    },
  };
}

/** Whether the sync event should fail so the browser tries again later. */
export function shouldRetrySync(result: DrainResult): boolean {
  return result.stopped !== null;
}
