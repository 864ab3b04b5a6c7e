import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CYRILLIC, visibleText, waitForRoute } from './support/app';
import { launchBrowser } from './support/browser';
import { ROOT_DIR, startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

interface WebManifest {
  name?: string;
  short_name?: string;
  description?: string;
  start_url?: string;
  scope?: string;
  display?: string;
  theme_color?: string;
  background_color?: string;
  icons?: Array<{ src: string; sizes?: string; type?: string; purpose?: string }>;
}

async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await waitUntil(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
    timeoutMs: 20_000,
    message: 'the service worker to control the page',
  });
}

describe('the installable, offline-capable app', () => {
  let server: RunningServer;
  // A copy of the build, so that a test can deploy a "new version" without touching dist/.
  let staticDir: string;

  beforeAll(async () => {
    staticDir = await mkdtemp(join(tmpdir(), 'e2e-static-'));
    await cp(join(ROOT_DIR, 'dist'), staticDir, { recursive: true });
    server = await startServer({ seedDemo: false, env: { STATIC_DIR: staticDir } });
  });

  afterAll(async () => {
    await server?.stop();
    if (staticDir) await rm(staticDir, { recursive: true, force: true });
  });

  it('is installable: titled Dashboard, with a manifest Chromium accepts', async () => {
    const browser = await launchBrowser();
    try {
      const { page, context } = browser;
      await page.goto(`${server.url}/auth/login`);
      await waitForRoute(page, 'AuthLogin');
      expect(await page.title()).toBe('Dashboard');

      const cdp = await context.newCDPSession(page);
      let errors: unknown[] = ['not asked yet'];
      await waitUntil(
        async () => {
          errors = (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors;
          return errors.length === 0;
        },
        { timeoutMs: 15_000, message: 'no installability errors' },
      ).catch(() => undefined); // the assertion below shows the errors that remain
      expect(errors).toEqual([]);

      const manifestUrl = await page.evaluate(
        () => document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href ?? null,
      );
      expect(manifestUrl).toBeTruthy();
      const manifest = (await (await fetch(manifestUrl ?? '')).json()) as WebManifest;
      expect(manifest).toMatchObject({
        name: 'Dashboard',
        short_name: 'Dashboard',
        start_url: '/dashboard',
        scope: '/',
        display: 'standalone',
        theme_color: '#111827',
      });
      expect(manifest.description).toBeTruthy();
      expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
      const icons = manifest.icons ?? [];
      expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
      expect(icons.some((i) => (i.purpose ?? '').split(' ').includes('maskable'))).toBe(true);
      for (const icon of icons) {
        const response = await fetch(new URL(icon.src, manifestUrl ?? server.url));
        expect(response.status, icon.src).toBe(200);
        expect(response.headers.get('content-type'), icon.src).toContain('image/png');
      }
    } finally {
      await browser.close();
    }
  });

  it('still shows the app after one online visit when the network is off, with every chunk precached', async () => {
    const browser = await launchBrowser();
    try {
      const { page, context } = browser;
      await page.goto(`${server.url}/auth/login`);
      await waitForRoute(page, 'AuthLogin');
      await waitForServiceWorkerControl(page);

      // Every JavaScript and CSS file of the build (each lazy page, both catalogues) is in the precache.
      const assets = (await readdir(join(staticDir, 'assets'))).filter((f) => /\.(js|css)$/.test(f));
      const cached = await page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
        }
        return urls;
      });
      expect(assets.length).toBeGreaterThan(0);
      expect(cached).toEqual(expect.arrayContaining([...assets.map((f) => `/assets/${f}`), '/index.html']));

      await context.setOffline(true);
      await page.reload();
      await waitForRoute(page, 'AuthLogin');
      expect(await page.title()).toBe('Dashboard');

      // A cold start of another client route in a new tab, and the other language, come from the cache too.
      const tab = await context.newPage();
      await tab.goto(`${server.url}/auth/recovery-password`);
      await waitForRoute(tab, 'AuthRecoveryPassword');
      await tab.locator('[data-locale="en"]:visible').first().click();
      await waitUntil(async () => !CYRILLIC.test(await visibleText(tab)), {
        message: 'the English catalogue to load offline',
      });
      await context.setOffline(false);
    } finally {
      await browser.close();
    }
  });

  it('shows the not-found page for an unknown path', async () => {
    const browser = await launchBrowser();
    try {
      const { page } = browser;
      await page.goto(`${server.url}/no/such/page`);
      const notFound = await waitForRoute(page, 'NotFound');
      expect(await notFound.innerText()).toContain('404');
    } finally {
      await browser.close();
    }
  });

  it('offers a new version and activates it only when the user chooses to update', async () => {
    const browser = await launchBrowser();
    const swFile = join(staticDir, 'sw.js');
    const original = await readFile(swFile, 'utf8');
    try {
      const { page } = browser;
      await page.goto(`${server.url}/auth/login`);
      await waitForRoute(page, 'AuthLogin');
      await waitForServiceWorkerControl(page);
      const firstVersion = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
      await page.evaluate(() => {
        (window as unknown as Record<string, unknown>).e2eMarker = true;
      });

      // A deploy: the service worker script changes on the server.
      await writeFile(swFile, `${original}\n// e2e: a newer build ${Date.now()}\n`);
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update();
      });

      const update = page.getByRole('button', { name: /^(Update|Обновить)$/ });
      await update.waitFor({ timeout: 30_000 });
      const waiting = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return {
          hasWaiting: Boolean(registration?.waiting),
          marker: (window as unknown as Record<string, unknown>).e2eMarker === true,
        };
      });
      // Offered, not taken: the new worker waits and the page was not reloaded behind the user's back.
      expect(waiting).toEqual({ hasWaiting: true, marker: true });
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '')).toBe(firstVersion);

      await Promise.all([page.waitForEvent('load', { timeout: 30_000 }), update.click()]);
      await waitForRoute(page, 'AuthLogin');
      const after = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return {
          hasWaiting: Boolean(registration?.waiting),
          marker: (window as unknown as Record<string, unknown>).e2eMarker === true,
        };
      });
      expect(after).toEqual({ hasWaiting: false, marker: false });
    } finally {
      await writeFile(swFile, original);
      await browser.close();
    }
  });
});
