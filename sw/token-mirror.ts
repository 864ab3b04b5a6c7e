// The IndexedDB copy of the tokens, as both the page and the service worker see it (DESIGN.md, "Offline-first
// data flow", point 5). The page's token store (src/lib/token-store.ts) keeps localStorage as its source of
// truth and mirrors every change here through `writeTokensFromPage`; this module is the only writer of these
// entries (idb-keyval, database `auth-tokens`, store `tokens`, keys `accessToken`/`refreshToken`/
// `workerRefreshToken`) and touches no `window`, so it loads in the worker too.
// Guarantees: a pair written by the worker (after its own refresh) is marked with `workerRefreshToken`, so a
// page that was closed meanwhile can tell, when it starts, that the mirror is newer than its localStorage and
// adopt it instead of spending the rotated refresh token (which the server would treat as a reuse). Messages
// on the BroadcastChannel `auth` tell open pages about a worker's refresh at once. The worker's
// `writeTokensFromWorkerIfCurrent` writes only over the pair it refreshed from, in one readwrite transaction,
// so a refresh that ends after a sign-out (the page removed the pair) or after another rotation never puts
// the previous user's tokens back.
// Types used here exist in both the DOM and the WebWorker libraries: the page imports this module too.
import { createStore, delMany, getMany, promisifyRequest, setMany, type UseStore } from 'idb-keyval';

export const AUTH_CHANNEL_NAME = 'auth';
const ACCESS_KEY = 'accessToken';
const REFRESH_KEY = 'refreshToken';
const WORKER_REFRESH_KEY = 'workerRefreshToken';

export interface MirrorSnapshot {
  accessToken: string | null;
  refreshToken: string | null;
  /** The pair was last written by the service worker's refresh (no page has written since). */
  writtenByWorker: boolean;
}

/** What the worker posts on the `auth` channel after it refreshed the session. */
export interface WorkerTokensMessage {
  type: 'tokens';
  accessToken: string;
  refreshToken: string;
}

export function isWorkerTokensMessage(value: unknown): value is WorkerTokensMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  return message.type === 'tokens' && typeof message.accessToken === 'string' && typeof message.refreshToken === 'string';
}

let idbStore: UseStore | undefined;
function tokenIdbStore(): UseStore {
  idbStore ??= createStore('auth-tokens', 'tokens');
  return idbStore;
}

const asToken = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export async function readTokenMirror(): Promise<MirrorSnapshot> {
  const [access, refresh, workerRefresh] = await getMany<unknown>([ACCESS_KEY, REFRESH_KEY, WORKER_REFRESH_KEY], tokenIdbStore());
  const accessToken = asToken(access);
  const refreshToken = asToken(refresh);
  return { accessToken, refreshToken, writtenByWorker: refreshToken !== null && refreshToken === asToken(workerRefresh) };
}

/**
 * The worker's refresh, written only while the mirror still holds `previousRefresh` (the refresh token the
 * worker spent): read and write in one IndexedDB readwrite transaction, so a sign-out or another rotation in
 * between wins. Answers whether it wrote.
 */
export async function writeTokensFromWorkerIfCurrent(previousRefresh: string, accessToken: string, refreshToken: string): Promise<boolean> {
  return tokenIdbStore()('readwrite', (store) => {
    const written = new Promise<boolean>((resolve, reject) => {
      const read = store.get(REFRESH_KEY);
      read.onsuccess = () => {
        if (asToken(read.result) !== previousRefresh) {
          resolve(false);
          return;
        }
        store.put(accessToken, ACCESS_KEY);
        store.put(refreshToken, REFRESH_KEY);
        store.put(refreshToken, WORKER_REFRESH_KEY);
        promisifyRequest(store.transaction).then(() => resolve(true), reject);
      };
      read.onerror = () => reject(read.error ?? new Error('Could not read the token mirror'));
    });
    return written;
  });
}

/**
 * The page's pair, written by the page (clears the worker's mark), or removed when the page has none. For a
 * page whose own mirror write was lost (a navigation right after sign-in aborts it).
 */
export async function writeTokensFromPage(accessToken: string | null, refreshToken: string | null): Promise<void> {
  if (accessToken !== null && refreshToken !== null) {
    await setMany(
      [
        [ACCESS_KEY, accessToken],
        [REFRESH_KEY, refreshToken],
      ],
      tokenIdbStore(),
    );
  } else {
    await delMany([ACCESS_KEY, REFRESH_KEY], tokenIdbStore());
  }
}

/** The `sub` claim of a JWT, read without checking the signature (only to pick the user's outbox rows). */
export function subjectOf(token: string | null): string | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(json) as unknown;
    const sub = typeof claims === 'object' && claims !== null ? (claims as { sub?: unknown }).sub : undefined;
    return typeof sub === 'string' && sub !== '' ? sub : null;
  } catch (error) {
    console.warn('A stored token is not a readable JWT', error);
    return null;
  }
}
