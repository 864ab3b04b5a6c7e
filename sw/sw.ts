// The app's service worker. What it guarantees:
// - A cold start offline shows the app: the build injects the list of every shell file, lazily loaded page
//   chunk and locale catalogue into self.__WB_MANIFEST, all precached at install; client routes are answered
//   with the precached index.html.
// - A new version never takes over on its own: once installed it waits until the page sends
//   { type: 'SKIP_WAITING' }, which only the user's "Update" (src/app/pwa-update.tsx) does. Otherwise it
//   activates after every tab of the app has closed, as browsers do by default.
// - API calls are never cached or answered here (they carry tokens and must reach the server), except
//   uploaded images, which are immutable per file name and kept in a bounded cache.
// - Background Sync (`sync`, and `periodicsync` where granted) with tag `outbox` sends the outbox with the
//   page's own replayer (sw/outbox-sync.ts); a sync that left rows waiting, or found a page sending while
//   rows wait, fails so the browser fires it again (not on its last chance); browsers without Background
//   Sync rely on the page's triggers.
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import type { PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { createWorkerOutbox, shouldRetrySync } from './outbox-sync';
import { OUTBOX_SYNC_TAG } from './page-bridge';

declare let self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const API_PREFIX = '/main-service/';
const UPLOADS_PREFIX = '/main-service/api/v1/uploads/';
const UPLOADS_CACHE = 'uploads-v1';

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every client route (/dashboard, /auth/login, an unknown path that shows the 404 page...) is the SPA shell.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [new RegExp(`^${API_PREFIX}`)],
  }),
);

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && request.method === 'GET' && url.pathname.startsWith(UPLOADS_PREFIX),
  new CacheFirst({
    cacheName: UPLOADS_CACHE,
    plugins: [
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

interface WorkerMessage {
  type?: unknown;
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data = event.data as WorkerMessage | null;
  if (data?.type === 'SKIP_WAITING') {
    // The user chose "Update": the page reloads into the new version once it takes control.
    event.waitUntil(self.skipWaiting());
  } else if (data?.type === 'CLEAR_USER_CACHES') {
    // Sent on sign-out so the next person on this device does not see the previous user's photos.
    event.waitUntil(caches.delete(UPLOADS_CACHE).then(() => undefined));
  }
});

// Background Sync is not in TypeScript's libraries yet.
interface SyncLikeEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance?: boolean;
}

const outbox = createWorkerOutbox(self);

async function syncOutbox(lastChance: boolean): Promise<void> {
  const { result, rowsWaiting } = await outbox.drain();
  // Rejecting asks the browser to fire the event again later (with its own backoff): also after a 'busy'
  // drain (a page held the lock) while rows wait, since the page's drain may fail and its tab be closed.
  // On the last chance the rows wait for the page's next drain, which registers the tag again.
  if (shouldRetrySync(result, rowsWaiting) && !lastChance) {
    throw new Error(`Outbox sync left rows waiting (${result.skipped ?? result.stopped ?? 'backoff'}); the browser will retry`);
  }
}

self.addEventListener('sync', (event: Event) => {
  const sync = event as SyncLikeEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(syncOutbox(sync.lastChance === true));
});

self.addEventListener('periodicsync', (event: Event) => {
  const sync = event as SyncLikeEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(syncOutbox(true));
});

// Only the first installation reaches this without the user's consent (there is no older version to
// replace); claiming the open tab lets the very first visit keep working when the network drops.
// An update only activates after SKIP_WAITING or once every tab is closed, so this never swaps a
// running version silently.
clientsClaim();
