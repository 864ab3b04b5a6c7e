// The app's HTTP client: the main-service prefix, the page's token store, the stored locale and a
// reload when the session cannot be refreshed (spec section 8).
import { createHttpClient, type HttpClient, type LockRunner } from './http';
import { readStoredLocale } from './locale-store';
import { tokenStore } from './token-store';

export const API_HOST_PREFIX = '/main-service';

function browserLocks(): LockRunner | undefined {
  if (typeof navigator === 'undefined' || !('locks' in navigator)) return undefined;
  const locks = navigator.locks;
  return { request: (name, callback) => locks.request(name, callback) };
}

export const http: HttpClient = createHttpClient({
  prefix: API_HOST_PREFIX,
  tokens: tokenStore,
  fetch: (input, init) => globalThis.fetch(input, init),
  getLocale: () => readStoredLocale(),
  onAuthFailure: () => window.location.reload(),
  locks: browserLocks(),
});
