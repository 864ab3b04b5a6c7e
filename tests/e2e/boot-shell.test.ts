// The sign-in and registration pages before their JavaScript (index.html's static shell, public/boot-shell.js,
// src/app/boot-loading.css): the shell alone is the page's first paint, in the stored language; the page the app
// then shows puts its logo, card, title and lead where the shell drew them, nothing on the screen shifts, the
// largest paint stays the shell's (Lighthouse's LCP comes from HTML and CSS), and the sign-in form still gets the
// cursor. On a phone (Lighthouse's Moto G Power screen) and a desktop, in Russian and English.
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser';
import { demoTokens, type DemoTokens } from './support/route-sizes';
import { startServer, type RunningServer } from './support/server';

const DEVICES: Record<string, BrowserContextOptions> = {
  phone: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
};

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A part of the page in the shell (`shell`) and in the app's page (`page`), and which of its sides must agree. */
interface Part {
  name: string;
  shell: string;
  page: string;
  sides: readonly (keyof Box)[];
}

const ALL: readonly (keyof Box)[] = ['x', 'y', 'width', 'height'];
const frame: Part[] = [
  { name: 'language switch', shell: '#boot-shell .language-switch', page: '#root .language-switch', sides: ALL },
  { name: 'logo', shell: '#boot-shell .auth-layout__logo', page: '#root .auth-layout__logo', sides: ALL },
  { name: 'product name', shell: '#boot-shell .auth-layout__product', page: '#root .auth-layout__product', sides: ALL },
];

const pages: Array<{ name: string; path: string; route: string; parts: Part[] }> = [
  {
    name: 'sign-in',
    path: paths.auth.login,
    route: 'AuthLogin',
    parts: [
      ...frame,
      { name: 'card', shell: '#boot-shell .auth-layout__card', page: '#root .auth-layout__card', sides: ALL },
      { name: 'title', shell: '#boot-shell [data-page="login"] .boot-shell__title', page: '#root .auth-page__title', sides: ALL },
    ],
  },
  {
    name: 'sign-in on the way to a page',
    path: `${paths.auth.login}?next=${encodeURIComponent(paths.profile)}`,
    route: 'AuthLogin',
    parts: [
      ...frame,
      { name: 'card', shell: '#boot-shell .auth-layout__card', page: '#root .auth-layout__card', sides: ALL },
      { name: 'lead', shell: '#boot-shell [data-page="login"] .boot-shell__lead', page: '#root .auth-page__lead', sides: ALL },
    ],
  },
  {
    name: 'registration',
    path: paths.auth.register,
    route: 'AuthRegister',
    parts: [
      ...frame,
      // The form is taller than a screen: the shell draws its top only.
      { name: 'card', shell: '#boot-shell .auth-layout__card', page: '#root .auth-layout__card', sides: ['x', 'y', 'width'] },
      { name: 'title', shell: '#boot-shell [data-page="register"] .boot-shell__title', page: '#root .auth-page__title', sides: ALL },
      { name: 'lead', shell: '#boot-shell [data-page="register"] .boot-shell__lead', page: '#root .auth-page__lead', sides: ALL },
      { name: 'HR switch', shell: '#boot-shell .boot-shell__switch', page: '#root .auth-switch', sides: ALL },
      { name: 'HR switch hint', shell: '#boot-shell .boot-shell__switch-hint', page: '#root .auth-switch__hint', sides: ALL },
    ],
  },
];

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ seedDemo: true }),
    chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openPage(device: string, language: 'ru' | 'en', withApp: boolean, tokens?: DemoTokens): Promise<Page> {
  const context = await browser.newContext({ ...DEVICES[device], serviceWorkers: 'block' });
  if (tokens) {
    await context.addInitScript((pair: DemoTokens) => {
      localStorage.setItem('accessToken', pair.accessToken);
      localStorage.setItem('refreshToken', pair.refreshToken);
    }, tokens);
  }
  await context.addInitScript((stored: string) => {
    if (stored === 'en') localStorage.setItem('appLocale', 'en');
    // What the page's own observers see: every layout shift, and each largest paint with where it was drawn.
    const seen = { shifts: [] as string[], largest: [] as Array<{ size: number; inShell: boolean }> };
    Object.assign(window, { __seen: seen });
    type Shift = PerformanceEntry & { value: number; sources: Array<{ node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> };
    const where = (rect: DOMRectReadOnly) => `${rect.x},${rect.y} ${rect.width}x${rect.height}`;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        const moved = entry.sources.map((source) => {
          const element = source.node instanceof Element ? source.node : source.node?.parentElement;
          return `${element?.className ?? source.node?.nodeName ?? '?'} ${where(source.previousRect)} -> ${where(source.currentRect)}`;
        });
        seen.shifts.push(`${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${moved.join('; ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { size: number; element: Element | null }>) {
        seen.largest.push({ size: entry.size, inShell: entry.element?.closest('#boot-shell') !== null && entry.element !== null });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  }, language);
  const page = await context.newPage();
  // Without the app's scripts the shell is all there is (the boot script is not under /assets).
  if (!withApp) await page.route(/\/assets\/.+\.js$/, (route) => route.abort());
  // With them, the entry is held until the shell is on the screen, as on a phone, where the shell is painted long
  // before the app's scripts arrive. Here they arrive at once, and on a busy machine the app could be drawn before
  // the browser's first frame: the test would then see no shell to judge, by chance.
  else {
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await page.waitForFunction(() => (window as unknown as { __seen: { largest: Array<{ inShell: boolean }> } }).__seen.largest.some((entry) => entry.inShell));
      await route.continue();
    });
  }
  return page;
}

async function boxesOf(page: Page, selectors: string[]): Promise<Array<Box | null>> {
  return page.evaluate((list) => {
    return list.map((selector) => {
      const element = document.querySelector(selector);
      if (!element) return null;
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    });
  }, selectors);
}

/** Two animation frames: whatever the last change was has been painted and observed. */
async function afterPaint(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

describe('the static shell of the sign-in pages', () => {
  for (const target of pages) {
    for (const device of Object.keys(DEVICES)) {
      for (const language of ['ru', 'en'] as const) {
        it(`${target.name}, ${device}, ${language}: painted before the app, which takes its place without a shift`, async () => {
          const shellPage = await openPage(device, language, false);
          try {
            await shellPage.goto(`${server.url}${target.path}`);
            await shellPage.locator('#boot-shell .auth-layout__card').waitFor({ state: 'visible' });
            expect(await shellPage.evaluate(() => document.documentElement.lang)).toBe(language);
            const shellBoxes = await boxesOf(shellPage, target.parts.map((part) => part.shell));

            const appPage = await openPage(device, language, true);
            try {
              await appPage.goto(`${server.url}${target.path}`);
              await appPage.locator(`[data-route="${target.route}"]`).waitFor({ state: 'visible', timeout: 30_000 });
              expect(await appPage.locator('#boot-shell').count(), 'the shell is gone once the page is there').toBe(0);
              await afterPaint(appPage);
              const pageBoxes = await boxesOf(appPage, target.parts.map((part) => part.page));

              target.parts.forEach((part, index) => {
                const drawn = shellBoxes[index];
                const shown = pageBoxes[index];
                expect(drawn, `${part.name} in the shell`).not.toBeNull();
                expect(shown, `${part.name} on the page`).not.toBeNull();
                for (const side of part.sides) {
                  expect(Math.abs((drawn?.[side] ?? NaN) - (shown?.[side] ?? NaN)), `${part.name}: ${side} ${drawn?.[side]} in the shell, ${shown?.[side]} on the page`).toBeLessThanOrEqual(1);
                }
              });

              const seen = await appPage.evaluate(() => (window as unknown as { __seen: { shifts: string[]; largest: Array<{ size: number; inShell: boolean }> } }).__seen);
              expect(seen.shifts, 'layout shifts').toEqual([]);
              expect(seen.largest.length, 'largest contentful paints').toBeGreaterThan(0);
              expect(seen.largest.at(-1)?.inShell, `the largest paint is the shell's: ${JSON.stringify(seen.largest)}`).toBe(true);
              if (target.route === 'AuthLogin') {
                expect(await appPage.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
              }
            } finally {
              await appPage.context().close();
            }
          } finally {
            await shellPage.context().close();
          }
        });
      }
    }
  }

  for (const device of Object.keys(DEVICES)) {
    for (const language of ['ru', 'en'] as const) {
      it(`signed-in frame, ${device}, ${language}: painted before the app, whose header takes its place without a shift`, async () => {
        const tokens = await demoTokens(server.url, 'owner@demo.local', 'demo1234');
        const parts = ['.app-header__product', '.app-header__brand img'];
        const shellPage = await openPage(device, language, false, tokens);
        try {
          await shellPage.goto(`${server.url}${paths.dashboard}`);
          await shellPage.locator('#boot-shell .app-header__product').waitFor({ state: 'visible' });
          expect(await shellPage.locator('#boot-shell .auth-layout').isVisible()).toBe(false);
          expect(await shellPage.locator('#boot-shell .app-header__product').innerText()).toBe(language === 'en' ? 'Improvement platform' : 'Платформа улучшений');
          const shellBoxes = await boxesOf(shellPage, parts.map((part) => `#boot-shell ${part}`));

          const appPage = await openPage(device, language, true, tokens);
          try {
            const sessionRequests: string[] = [];
            appPage.on('request', (request) => {
              if (/\/api\/v1\/(user|enums|units)$/.test(request.url()) && request.method() === 'GET') sessionRequests.push(request.url());
            });
            await appPage.goto(`${server.url}${paths.dashboard}`);
            await appPage.locator('[data-route="Dashboard"]').waitFor({ state: 'visible', timeout: 30_000 });
            // What was asked for until the page showed (later requests are the page's own business).
            const askedBeforePage = [...sessionRequests];
            expect(await appPage.locator('#boot-shell').count(), 'the shell is gone once the page is there').toBe(0);
            await afterPaint(appPage);
            const pageBoxes = await boxesOf(appPage, parts.map((part) => `#root ${part}`));
            parts.forEach((part, index) => {
              for (const side of ALL) {
                expect(Math.abs((shellBoxes[index]?.[side] ?? NaN) - (pageBoxes[index]?.[side] ?? NaN)), `${part}: ${side}`).toBeLessThanOrEqual(1);
              }
            });
            // The header does not move (the dashboard's own figures arriving later are Lighthouse's CLS to judge).
            const seen = await appPage.evaluate(() => (window as unknown as { __seen: { shifts: string[] } }).__seen);
            expect(seen.shifts.filter((shift) => /app-header|app-nav|company-switcher/.test(shift)), `header shifts among ${JSON.stringify(seen.shifts)}`).toEqual([]);
            // The boot script asked for the session once; the app took its answers rather than asking again.
            expect(askedBeforePage.sort()).toEqual(['enums', 'units', 'user'].map((path) => `${server.url}/main-service/api/v1/${path}`));
          } finally {
            await appPage.context().close();
          }
        } finally {
          await shellPage.context().close();
        }
      });
    }
  }

  it('is not shown on the other pages, which keep the loading bar', async () => {
    const page = await openPage('phone', 'ru', false);
    try {
      await page.goto(`${server.url}${paths.auth.recoveryPassword}`);
      await page.locator('#root .boot-loading').waitFor({ state: 'visible' });
      expect(await page.evaluate(() => document.documentElement.hasAttribute('data-boot'))).toBe(false);
      expect(await page.locator('#boot-shell').isVisible()).toBe(false);
    } finally {
      await page.context().close();
    }
  });
});
