// The app's HTTP client, the one transport of the page (src/lib/http.ts): the main-service prefix, the
// page's token store, the stored locale, a reload when the session cannot be refreshed (spec section 8), the
// default deadline of 15 s and the browser's XMLHttpRequest for uploads with progress. The session answers the
// boot script asked for before the app arrived are taken rather than asked for again (src/lib/boot-requests.ts).
import { takeBootResponse } from './boot-requests';
import { createHttpClient, type HttpClient, type LockRunner } from './http';
import { readStoredLocale } from './locale-store';
import { tokenStore } from './token-store';
import { workerAwareLocks } from '../../sw/page-bridge';

export const API_HOST_PREFIX = '/main-service';

// Under the refresh lock, the page first adopts a pair the service worker may have just rotated
// (Background Sync refreshes too), so the two never spend the same refresh token.
function browserLocks(): LockRunner | undefined {
  if (typeof navigator === 'undefined' || !('locks' in navigator)) return undefined;
  const locks = navigator.locks;
  return workerAwareLocks(tokenStore, { request: (name, callback) => locks.request(name, callback) });
}

export const http: HttpClient = createHttpClient({
  prefix: API_HOST_PREFIX,
  tokens: tokenStore,
  fetch: (input, init) => takeBootResponse(input, init) ?? globalThis.fetch(input, init),
  getLocale: () => readStoredLocale(),
  onAuthFailure: () => window.location.reload(),
  locks: browserLocks(),
});
