// Debian's Firefox ESR behind the Engine interface: puppeteer-core over WebDriver BiDi (TESTING.md), headless,
// on a profile directory kept across `restart()` (puppeteer only writes its prefs into it; it deletes a
// profile only when it made it itself).
// By default the storage-persistence prompt is left alone: `navigator.storage.persist()` then stays pending
// as it does for a user who never answers, which is the behaviour issue 9 (item 1) is about.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import type { Engine, EngineOptions } from './engines';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export async function launchFirefox(options: EngineOptions = {}): Promise<Engine> {
  const profileDir = await mkdtemp(join(tmpdir(), 'e2e-firefox-'));
  let browser: Browser | null = null;
  let page: Page | null = null;

  const prefs: Record<string, unknown> = {};
  if (options.firefoxPersistPrompt) {
    prefs['dom.storageManager.prompt.testing'] = true;
    prefs['dom.storageManager.prompt.testing.allow'] = options.firefoxPersistPrompt === 'allow';
  }

  const start = async () => {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir: profileDir,
      extraPrefsFirefox: prefs,
      defaultViewport: { width: 1280, height: 800 },
      protocolTimeout: 120_000,
    });
    page = (await browser.pages())[0] ?? (await browser.newPage());
  };
  const current = (): Page => {
    if (!page) throw new Error('firefox is not running');
    return page;
  };
  const close = async () => {
    const running = browser;
    browser = null;
    page = null;
    if (!running) return;
    const child = running.process();
    try {
      await running.close();
    } finally {
      // A browser that does not quit in time is killed: a run must leave no Firefox behind.
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };
  const settle = async (navigation: Promise<unknown>) => {
    try {
      await navigation;
    } catch (error) {
      if (!(error instanceof Error && /timeout/i.test(error.message))) throw error;
    }
  };

  await start();
  return {
    name: 'firefox',
    profileDir,
    goto: (url, { timeoutMs = 30_000 } = {}) => settle(current().goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs })),
    reload: ({ timeoutMs = 30_000 } = {}) => settle(current().reload({ waitUntil: 'domcontentloaded', timeout: timeoutMs })),
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) => current().evaluate(fn as (value: unknown) => unknown, arg ?? null) as Promise<R>,
    async fill(selector, value) {
      await current().locator(selector).fill(value);
    },
    async click(selector) {
      await current().locator(selector).click();
    },
    async text(selector) {
      const element = await current().$(selector);
      if (!element) return '';
      return element.evaluate((node) => (node as HTMLElement).innerText);
    },
    async setFiles(selector, paths) {
      const element = (await current().$(selector)) as ElementHandle<HTMLInputElement> | null;
      if (!element) throw new Error(`no file input at ${selector}`);
      await element.uploadFile(...paths);
    },
    close,
    async restart() {
      await close();
      await start();
    },
    async dispose() {
      await close().catch(() => undefined);
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
