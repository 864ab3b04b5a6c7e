// The page's side of the service worker's outbox sync (imported by src/lib/offline.ts, never by the worker).
// - `requestOutboxSync()`: after an enqueue, and again after every drain of the page that left rows waiting
//   (src/lib/offline.ts, `shouldRegisterSync`), asks for a Background Sync with tag `outbox`, so the worker
//   sends the outbox when the connection comes back even if the tab has been closed meanwhile (a sync the
//   worker spent while the page held the lock is thus never the last one). Where the browser has no
//   Background Sync (Firefox, Safari) it does nothing and answers false: the page drains on start, on every
//   sign of reconnection and on its urgent health probe.
// - `followWorkerTokens(tokens)`: when the page starts, brings the IndexedDB mirror and localStorage together:
//   a pair the worker's refresh stored while no page was open is adopted (the page would otherwise spend the
//   rotated refresh token); otherwise the page's pair is written to the mirror, because the page's own mirror
//   write is fire-and-forget and a navigation right after sign-in (`location.assign`) aborts it, leaving the
//   worker without tokens. Then it follows the worker's refreshes on the `auth` channel.
// - `workerAwareLocks(tokens, locks)`: the page's `auth-refresh` lock runner that first adopts a pair the
//   worker stored while holding the lock, so a page that got the lock right after the worker never refreshes
//   with the token the worker has just rotated.
// Types used here exist in both the DOM and the WebWorker libraries (sw/tsconfig.json checks this file too).
import type { LockRunner } from '../src/lib/http';
import type { TokenStore } from '../src/lib/token-store';
import { AUTH_CHANNEL_NAME, isWorkerTokensMessage, readTokenMirror, writeTokensFromPage } from './token-mirror';

export const OUTBOX_SYNC_TAG = 'outbox';

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

function syncManagerOf(registration: unknown): SyncManagerLike | null {
  if (typeof registration !== 'object' || registration === null || !('sync' in registration)) return null;
  const sync: unknown = registration.sync;
  if (typeof sync !== 'object' || sync === null || !('register' in sync) || typeof sync.register !== 'function') return null;
  return sync as SyncManagerLike;
}

/** Registers the `outbox` sync tag; false where Background Sync or a service worker is missing. */
export async function requestOutboxSync(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return false;
  const sync = syncManagerOf(await navigator.serviceWorker.getRegistration());
  if (!sync) return false;
  try {
    await sync.register(OUTBOX_SYNC_TAG);
    return true;
  } catch (error) {
    // Refused (e.g. a permission policy): the page's own triggers still drain the outbox.
    console.warn('Background Sync registration was refused', error);
    return false;
  }
}

function adopt(tokens: TokenStore, accessToken: string, refreshToken: string): boolean {
  if (tokens.getRefresh() === refreshToken && tokens.getAccess() === accessToken) return false;
  tokens.set({ access_token: accessToken, refresh_token: refreshToken });
  return true;
}

/** Takes the mirror's pair when the worker wrote it and the page holds another one. Returns whether it did. */
export async function adoptWorkerTokens(tokens: TokenStore): Promise<boolean> {
  const mirror = await readTokenMirror();
  // A signed-out page (no refresh token) does not sign itself back in from the mirror.
  if (!mirror.writtenByWorker || mirror.accessToken === null || mirror.refreshToken === null || tokens.getRefresh() === null) {
    return false;
  }
  return adopt(tokens, mirror.accessToken, mirror.refreshToken);
}

/** Makes the mirror and the page agree (see the header). Returns what it did. */
export async function reconcileTokenMirror(tokens: TokenStore): Promise<'adopted' | 'written' | 'in-step'> {
  if (await adoptWorkerTokens(tokens)) return 'adopted';
  const mirror = await readTokenMirror();
  const access = tokens.getAccess();
  const refresh = tokens.getRefresh();
  if (mirror.accessToken === access && mirror.refreshToken === refresh) return 'in-step';
  await writeTokensFromPage(access, refresh);
  return 'written';
}

/** Reconciles the mirror now, then follows the worker's refreshes until the returned function is called. */
export function followWorkerTokens(tokens: TokenStore, onError: (error: unknown) => void = console.error): () => void {
  reconcileTokenMirror(tokens).catch(onError);
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(AUTH_CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (isWorkerTokensMessage(event.data) && tokens.getRefresh() !== null) adopt(tokens, event.data.accessToken, event.data.refreshToken);
  };
  return () => channel.close();
}

/** Wraps the page's lock runner so the worker's stored pair is adopted first inside `auth-refresh`. */
export function workerAwareLocks(tokens: TokenStore, locks: LockRunner): LockRunner {
  return {
    request: (name, callback) =>
      locks.request(name, async () => {
        try {
          await adoptWorkerTokens(tokens);
        } catch (error) {
          console.warn('Could not read the worker’s tokens', error);
        }
        return callback();
      }),
  };
}
