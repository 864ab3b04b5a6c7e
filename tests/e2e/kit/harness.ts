// Opens the UI kit showcase in Debian's Chromium for a browser test: the real main-service (free port,
// throwaway DATA_DIR, demo data), a Vite dev server for tests/e2e/kit proxying /main-service to it, and a
// browser on the kit, optionally signed in as the demo employee. Nothing is built first: the kit is served
// from source, so a test sees the controls as they are in the working tree.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { launchBrowser, type TestBrowser } from '../support/browser';
import { findFreePort, startServer, type RunningServer } from '../support/server';

export const KIT_CONFIG_FILE = fileURLToPath(new URL('./vite.config.ts', import.meta.url));

export const DEMO_EMPLOYEE = { email: 'employee@demo.local', password: 'demo1234' } as const;

export interface OpenKitOptions {
  /** Language of the page (stored as `appLocale` before the kit loads); the app's default, ru, when omitted. */
  locale?: 'ru' | 'en';
  viewport?: { width: number; height: number };
  /** Signs in as the demo employee: its tokens are in localStorage when the kit renders. */
  signedIn?: boolean;
  /**
   * "Now" for the page: `Date.now()` and `new Date()` answer this fixed time (timers run as usual), so a test
   * that depends on today's date gives the same answer on any day, also across midnight or a month's end.
   */
  fixedNow?: Date;
}

export interface OpenedKit {
  page: Page;
  /** Origin of the kit's dev server (the API is proxied under it at /main-service). */
  baseUrl: string;
  /** The main-service behind the proxy, for tests that call it directly. */
  server: RunningServer;
  browser: TestBrowser;
  close(): Promise<void>;
}

interface LoginAnswer {
  access_token?: unknown;
  refresh_token?: unknown;
}

async function signInThroughApi(serverUrl: string): Promise<{ accessToken: string; refreshToken: string }> {
  const response = await fetch(`${serverUrl}/main-service/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Language: 'en' },
    body: JSON.stringify(DEMO_EMPLOYEE),
  });
  const body = (await response.json()) as LoginAnswer;
  if (!response.ok || typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string') {
    throw new Error(`demo sign-in failed (${response.status}): ${JSON.stringify(body)}`);
  }
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

async function startKitServer(apiUrl: string): Promise<{ vite: ViteDevServer; baseUrl: string }> {
  const port = await findFreePort();
  const vite = await createServer({
    configFile: KIT_CONFIG_FILE,
    logLevel: 'warn',
    clearScreen: false,
    server: {
      host: '127.0.0.1',
      port,
      strictPort: true,
      hmr: false,
      proxy: { '/main-service': apiUrl },
    },
  });
  await vite.listen();
  return { vite, baseUrl: `http://127.0.0.1:${port}` };
}

export async function openKit(options: OpenKitOptions = {}): Promise<OpenedKit> {
  const server = await startServer({ seedDemo: true });
  let vite: ViteDevServer | undefined;
  let browser: TestBrowser | undefined;
  const close = async () => {
    await browser?.close();
    await vite?.close();
    await server.stop();
  };

  try {
    const kit = await startKitServer(server.url);
    vite = kit.vite;
    browser = await launchBrowser(options.viewport ? { viewport: options.viewport } : {});
    const { page } = browser;
    if (options.fixedNow) await page.clock.setFixedTime(options.fixedNow);

    const stored: Record<string, string> = { appLocale: options.locale ?? 'ru' };
    if (options.signedIn) Object.assign(stored, await signInThroughApi(server.url));
    // localStorage belongs to the origin: open it once, fill it, then load the kit for real.
    await page.goto(`${kit.baseUrl}/index.html?blank`, { waitUntil: 'commit' });
    await page.evaluate((entries) => {
      localStorage.clear();
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, stored);
    await page.goto(kit.baseUrl);
    // The first visit may wait for Vite to pre-bundle dependencies; the language switch shows the kit is up.
    await page.locator('[data-locale]').first().waitFor({ state: 'visible', timeout: 60_000 });

    return { page, baseUrl: kit.baseUrl, server, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}
