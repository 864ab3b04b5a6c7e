// A proposal submitted offline reaches the server once, with its photos intact (issue 4): signed in as the demo
// employee, the browser goes offline, the proposal is submitted with three photos, the page is reloaded
// offline and still shows it waiting, the browser comes back online and the proposal is sent. The server then
// holds exactly one such proposal, with three photos whose bytes are the ones the device stored (after the
// on-device downscaling), read from the page's IndexedDB before going online. And with every tab of the app
// closed before the connection returns, the service worker's Background Sync sends it alone (sw/outbox-sync.ts).
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { signIn, storedTokens, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { setField, submit } from './support/forms';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const EMPLOYEE = { email: 'employee@demo.local', password: 'demo1234' };
const TITLE = `Offline proposal ${Date.now()}`;

interface PhotoFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

interface DeviceOutboxRow {
  title: unknown;
  entityKey: string;
  status: string;
  photoSha256: string[];
}

/** A noisy image drawn in the page (so JPEG keeps it large); `width` over 1600 makes the form downscale it. */
async function drawPhoto(page: Page, name: string, type: 'image/png' | 'image/jpeg', width: number, height: number, hue: number): Promise<PhotoFile> {
  const base64 = await page.evaluate(
    async ({ type, width, height, hue }) => {
      const canvas = new OffscreenCanvas(width, height);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d canvas');
      context.fillStyle = `hsl(${hue} 60% 50%)`;
      context.fillRect(0, 0, width, height);
      for (let i = 0; i < 3000; i += 1) {
        context.fillStyle = `hsl(${(hue + i * 37) % 360} 70% 50%)`;
        context.fillRect((i * 7919) % width, (i * 104729) % height, 16, 16);
      }
      const bytes = new Uint8Array(await (await canvas.convertToBlob({ type, quality: 0.95 })).arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    },
    { type, width, height, hue },
  );
  return { name, mimeType: type, buffer: Buffer.from(base64, 'base64') };
}

/** The outbox rows on the device (the app's IndexedDB, read raw), with the sha-256 of each row's photos. */
async function deviceOutbox(page: Page): Promise<DeviceOutboxRow[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dashboard');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    const readAll = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(store, 'readonly').objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error ?? new Error(`reading ${store} failed`));
      });
    const rows = (await readAll('outbox')) as Array<{ entityKey: string; status: string; fileIds: string[]; body: { title?: unknown } | null }>;
    const files = new Map(((await readAll('files')) as Array<{ id: string; data: ArrayBuffer }>).map((file) => [file.id, file.data]));
    db.close();
    const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
    return Promise.all(
      rows.map(async (row) => ({
        title: row.body?.title,
        entityKey: row.entityKey,
        status: row.status,
        photoSha256: await Promise.all(
          row.fileIds.map(async (id) => {
            const data = files.get(id);
            return data ? hex(await crypto.subtle.digest('SHA-256', data)) : 'missing';
          }),
        ),
      })),
    );
  });
}

/** Fires the service worker's `outbox` sync event through CDP (TESTING.md, "Background Sync"). */
async function fireOutboxSync(page: Page, origin: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registrationId = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no service worker registration reported')), 10_000);
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
      if (found) {
        clearTimeout(timer);
        resolve(found.registrationId);
      }
    });
    void cdp.send('ServiceWorker.enable');
  });
  await cdp.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId, tag: 'outbox', lastChance: false });
  await cdp.detach();
}

describe('a proposal submitted offline', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  let companyId: string;

  /** The access token of the sign-in (15 minutes: enough for this file); the tabs may be closed meanwhile. */
  let accessToken = '';

  async function api<T>(path: string): Promise<{ status: number; body: T; bytes: Buffer }> {
    const response = await fetch(`${server.url}/main-service/api/v1${path}`, { headers: { Authorization: `Bearer ${accessToken}` } });
    const bytes = Buffer.from(await response.arrayBuffer());
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    return { status: response.status, body: (isJson ? JSON.parse(bytes.toString('utf8')) : null) as T, bytes };
  }

  beforeAll(async () => {
    server = await startServer({ seedDemo: true });
    browser = await launchBrowser();
    const { page } = browser;
    await page.goto(`${server.url}/auth/login`);
    await signIn(page, server.url, EMPLOYEE.email, EMPLOYEE.password);
    await waitForRoute(page, 'Dashboard');
    // The service worker controls the page, so the shell and every page chunk are there offline.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The worker claims the page when it activates; on a loaded machine that can lag behind `ready`, and a
    // reload is how a real visitor gets a controlled page anyway.
    if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
      await page.reload();
      await waitForRoute(page, 'Dashboard');
    }
    await waitUntil(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeoutMs: 30_000, message: 'the service worker to control the page' });
    accessToken = (await storedTokens(page)).access ?? '';
    const me = await api<{ data: { companies: Array<{ id: string; name: string }> } }>('/user');
    const company = me.body.data.companies[0];
    if (!company) throw new Error('the demo employee belongs to no company');
    companyId = company.id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Opens the form online (so the departments are on the device), then submits offline with three photos. */
  async function submitOffline(page: Page, title: string): Promise<DeviceOutboxRow> {
    await page.goto(`${server.url}${paths.company.suggestionsCreate(companyId)}`);
    const form = await waitForRoute(page, 'SuggestionCreate');
    // The departments come from the device's mirror: wait for the first pull before cutting the network.
    await waitUntil(
      () =>
        page.evaluate(async () => {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const request = indexedDB.open('dashboard');
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
          });
          const count = await new Promise<number>((resolve, reject) => {
            const request = db.transaction('departments', 'readonly').objectStore('departments').count();
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error ?? new Error('count failed'));
          });
          db.close();
          return count > 0;
        }),
      { timeoutMs: 20_000, message: 'the departments to be pulled onto the device' },
    );

    const photos = [
      await drawPhoto(page, 'big-camera-shot.jpg', 'image/jpeg', 2400, 1800, 10),
      await drawPhoto(page, 'scheme.png', 'image/png', 640, 480, 140),
      await drawPhoto(page, 'detail.jpg', 'image/jpeg', 800, 600, 260),
    ];

    await page.context().setOffline(true);
    await setField(form, 'title', title);
    await setField(form, 'problem', 'Переналадка линии занимает 40 минут.');
    await setField(form, 'solution', 'Стандартизировать оснастку и хранить её у станка.');
    await setField(form, 'expectedEffect', 'Минус 20 минут на каждую переналадку.');
    await setField(form, 'departmentId', '');
    const upload = form.locator('[data-field="photos"]');
    // One at a time, as from a phone's camera. (Three picked at once have been seen to end as two items in
    // this form, where keeping a photo answers at once: a race in the UI kit's FileUpload, reported.)
    for (const [index, photo] of photos.entries()) {
      await upload.locator('input[type="file"]').setInputFiles([photo]);
      await waitUntil(async () => (await upload.locator('[data-status="finished"]').count()) === index + 1, {
        timeoutMs: 20_000,
        message: `photo ${index + 1} kept in the form (downscaled when large)`,
      });
    }
    await submit(form);
    await waitForRoute(page, 'SuggestionCreateResult');

    const stored = (await deviceOutbox(page)).filter((r) => r.title === title);
    expect(stored).toHaveLength(1);
    const [row] = stored;
    expect(row?.entityKey).toMatch(/^suggestions:/);
    expect(row?.photoSha256).toHaveLength(3);
    expect(row?.photoSha256).not.toContain('missing');
    // The big photo was downscaled on the device: what is stored is not what was picked.
    const pickedSha256 = photos.map((photo) => createHash('sha256').update(photo.buffer).digest('hex'));
    expect(row?.photoSha256[0]).not.toBe(pickedSha256[0]);
    return row as DeviceOutboxRow;
  }

  /** The caller's proposals on the server with that title, with the sha-256 of each photo as served. */
  async function serverCopies(title: string): Promise<Array<{ id: string; photoSha256: string[] }>> {
    const mine = await api<{ data: { items: Array<{ id: string; title: string; images: Array<{ imageId: string }> }> } }>(
      `/companies/${companyId}/suggestions?scope=mine`,
    );
    const copies: Array<{ id: string; photoSha256: string[] }> = [];
    for (const suggestion of mine.body.data.items.filter((s) => s.title === title)) {
      const photoSha256: string[] = [];
      for (const image of suggestion.images) {
        const file = await api<unknown>(`/uploads/${image.imageId}`);
        expect(file.status).toBe(200);
        photoSha256.push(createHash('sha256').update(file.bytes).digest('hex'));
      }
      copies.push({ id: suggestion.id, photoSha256 });
    }
    return copies;
  }

  it('waits on the device through a reload and reaches the server once, with the same photo bytes', async () => {
    const { page, context } = browser;
    const row = await submitOffline(page, TITLE);
    const suggestionId = row.entityKey.slice('suggestions:'.length);

    // Still offline: a reload is served by the service worker, and the proposal is still waiting.
    await page.reload();
    await page.goto(`${server.url}${paths.company.mySuggestions(companyId)}`);
    await waitForRoute(page, 'MySuggestions');
    const item = page.locator('li').filter({ hasText: TITLE }).first();
    await item.waitFor({ timeout: 20_000 });
    await expect.poll(() => item.locator('[data-unsent="pending"], [data-unsent="sending"]').count()).toBe(1);
    // The reloaded app tries the outbox at once; the row is 'sending' for the moment that attempt takes, and
    // must be back to 'pending', unchanged, once the refused network has answered it.
    await expect.poll(() => deviceOutbox(page), { timeout: 10_000 }).toEqual([row]);
    expect(await serverCopies(TITLE)).toEqual([]);

    await context.setOffline(false);
    await waitUntil(async () => (await deviceOutbox(page)).length === 0, { timeoutMs: 30_000, message: 'the outbox to be sent' });
    await expect.poll(() => item.locator('[data-unsent]').count(), { timeout: 10_000 }).toBe(0);
    expect(await serverCopies(TITLE)).toEqual([{ id: suggestionId, photoSha256: row.photoSha256 }]);
  });

  it('is sent by the service worker (Background Sync) when no tab of the app is open', async () => {
    const { context } = browser;
    await context.setOffline(false);
    const page = await context.newPage();
    await page.goto(`${server.url}${paths.dashboard}`);
    await waitForRoute(page, 'Dashboard');
    const title = `${TITLE} (tab closed)`;
    const row = await submitOffline(page, title);
    // A blank tab keeps the browser running; no page of the app is left to send anything.
    const blank = await context.newPage();
    for (const open of context.pages()) if (open !== blank) await open.close();

    await context.setOffline(false);
    const isSent = async () => (await serverCopies(title)).length > 0;
    try {
      await waitUntil(isSent, { timeoutMs: 30_000, message: 'the worker to send the proposal' });
    } catch {
      // On a loaded machine the browser's own sync can fire before the network is back and then back off for
      // minutes: fire the worker's `outbox` sync event once more, as the browser's retry would.
      await fireOutboxSync(blank, server.url);
      await waitUntil(isSent, { timeoutMs: 30_000, message: 'the worker to send the proposal after a second sync event' });
    }
    expect(await serverCopies(title)).toEqual([{ id: row.entityKey.slice('suggestions:'.length), photoSha256: row.photoSha256 }]);

    const again = await context.newPage();
    await again.goto(`${server.url}${paths.dashboard}`);
    await waitForRoute(again, 'Dashboard');
    expect(await deviceOutbox(again)).toEqual([]);
  });
});
