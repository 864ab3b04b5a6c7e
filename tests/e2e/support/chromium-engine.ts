// Debian's Chromium behind the Engine interface: playwright-core, a persistent context on a profile directory
// of its own (TESTING.md: a throwaway context is not what users get), the flags of TESTING.md.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser';
import type { Engine } from './engines';

export async function launchChromium(): Promise<Engine> {
  const profileDir = await mkdtemp(join(tmpdir(), 'e2e-chromium-'));
  let context: BrowserContext | null = null;
  let page: Page | null = null;

  const start = async () => {
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  };
  const current = (): Page => {
    if (!page) throw new Error('chromium is not running');
    return page;
  };
  const close = async () => {
    const running = context;
    context = null;
    page = null;
    await running?.close();
  };
  // A navigation that does not finish in time is not an error here: the test looks at what is on screen.
  const settle = async (navigation: Promise<unknown>) => {
    try {
      await navigation;
    } catch (error) {
      if (!(error instanceof Error && /Timeout/i.test(error.message))) throw error;
    }
  };

  await start();
  return {
    name: 'chromium',
    profileDir,
    goto: (url, { timeoutMs = 30_000 } = {}) => settle(current().goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs })),
    reload: ({ timeoutMs = 30_000 } = {}) => settle(current().reload({ waitUntil: 'domcontentloaded', timeout: timeoutMs })),
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) => current().evaluate(fn as (value: unknown) => unknown, arg ?? null) as Promise<R>,
    fill: (selector, value) => current().fill(selector, value),
    click: (selector) => current().click(selector),
    text: async (selector) => ((await current().locator(selector).count()) > 0 ? await current().locator(selector).first().innerText() : ''),
    setFiles: (selector, paths) => current().setInputFiles(selector, paths),
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
