// The signed-in frame of index.html and the boot script's session requests (public/boot-shell.js,
// src/lib/boot-requests.ts) in Chromium, Firefox ESR and WebKitGTK, as the owner of the demo company with a session
// on the device:
// 1. online, in Russian and in English: /dashboard shows, the static frame is gone (no #boot-shell, no data-boot),
//    <html lang> is the stored language, and the page's own Resource Timing shows GET /user, /enums and /units
//    fetched once each until the route showed, all three asked by the boot script and taken by the app's client
//    (a header the two build differently in some engine would show as a second fetch here);
// 2. before the app: with the app's entry script held back by the test proxy (support/proxy.ts, its `hold` option;
//    in WebKit, whose driver cannot look into a page that waits on a script, the session's GET /user instead), the
//    frame's product name is on screen in the stored language; once the request is answered, the app takes over and
//    still takes the boot script's requests;
// 3. after a first visit online (the service worker holds the app, the device remembers the session), on a hanging
//    network (support/proxy.ts): a reload puts the frame or the app on screen, and the dashboard shows without an
//    error screen.
// Boot-shell.test.ts checks the frame's layout against the app's header in Chromium; this file checks that the
// frame and the early requests work at all in the three engines phones and desktops run.
//
// Timings are measured and printed ([boot-shell-engines] lines); what is asserted about time is loose (30 s where
// the product wants a few seconds), so a busy machine stays green and only a stall fails. Nothing waits on a fixed
// time. E2E_ENGINES=chromium,firefox,webkit picks the engines (all three by default).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { engineLog, engineSuite, orWhileNavigating, selectedEngines, waitForRoute, waitForServiceWorkerControl, type Engine } from './support/engines';
import { startProxy } from './support/proxy';
import { demoTokens, type DemoTokens } from './support/route-sizes';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const OWNER = { email: 'owner@demo.local', password: 'demo1234' };

type Language = 'ru' | 'en';
const LANGUAGES: Language[] = ['ru', 'en'];
/** The frame's product name (locales/*.json, nav.productName). */
const PRODUCT_NAME: Record<Language, string> = { ru: 'Платформа улучшений', en: 'Improvement platform' };
const USER_PATH = '/main-service/api/v1/user';
/** The session requests the boot script makes, by path. */
const SESSION_PATHS = [USER_PATH, '/main-service/api/v1/enums', '/main-service/api/v1/units'];
/** Browsers keep 250 Resource Timing entries unless a page asks for more; past that, a count is not a count. */
const RESOURCE_TIMING_BUFFER = 250;

/** What the product wants of a reload on a hanging network ("a few seconds"). */
const WANTED = { hangRouteMs: 3_000 };
/** What the tests assert: loose, so only a stall fails them, never a slow machine. */
const BOUND = { routeMs: 30_000, frameMs: 30_000 };

const log = engineLog('boot-shell-engines');

/** What a look at the page finds, in one script so every part is of the same moment. */
interface PageState {
  path: string;
  lang: string;
  hasDataBoot: boolean;
  hasShell: boolean;
  /** The frame's product name is on screen, styled (not the unstyled markup of a page whose CSS is on its way). */
  frameVisible: boolean;
  /** The product name as rendered ('' while the frame is not on screen). */
  productName: string;
  routeVisible: boolean;
  /** The data-screen of an error, not-found or broken screen in the app, null when there is none. */
  errorScreen: string | null;
  controlled: boolean;
  /** Resource Timing entries per session path (requests that were answered, in this document). */
  sessionFetches: Record<string, number>;
  resourceEntries: number;
  /** The session paths the boot script asked for, and those the app's client took from it. */
  bootAsked: string[];
  bootTaken: string[];
}

async function readPage(engine: Engine, route: string): Promise<PageState | null> {
  return orWhileNavigating(
    engine.evaluate(
      ({ route, sessionPaths }) => {
        const isShown = (element: Element | null) => {
          if (!element) return false;
          const rect = element.getBoundingClientRect();
          return rect.width > 0 && rect.height > 0 && getComputedStyle(element).visibility !== 'hidden';
        };
        const shell = document.getElementById('boot-shell');
        const product = document.querySelector<HTMLElement>('#boot-shell .app-header__product');
        // A script can lay the page out before its stylesheet has arrived (Firefox does), when the shell is still
        // unstyled and shows both languages: the frame counts once its own style (fixed over the page) applies.
        const frameVisible = shell !== null && getComputedStyle(shell).position === 'fixed' && isShown(product);
        const sessionFetches: Record<string, number> = {};
        for (const path of sessionPaths) sessionFetches[path] = 0;
        const entries = performance.getEntriesByType('resource');
        for (const entry of entries) {
          const path = new URL(entry.name).pathname;
          if (path in sessionFetches) sessionFetches[path] = (sessionFetches[path] ?? 0) + 1;
        }
        const boot = (window as unknown as { __bootRequests?: Record<string, unknown> }).__bootRequests ?? {};
        const asked = Object.keys(boot);
        return {
          path: location.pathname,
          lang: document.documentElement.lang,
          hasDataBoot: document.documentElement.hasAttribute('data-boot'),
          hasShell: shell !== null,
          frameVisible,
          productName: frameVisible && product ? product.innerText.trim() : '',
          routeVisible: isShown(document.querySelector(`#root [data-route="${route}"]`)),
          errorScreen: document.querySelector('#root [data-screen]')?.getAttribute('data-screen') ?? null,
          controlled: navigator.serviceWorker?.controller != null,
          sessionFetches,
          resourceEntries: entries.length,
          bootAsked: asked,
          bootTaken: asked.filter((path) => boot[path] === undefined),
        };
      },
      { route, sessionPaths: SESSION_PATHS },
    ),
    null,
  );
}

/**
 * Looks at the page every 100 ms until `done(state)`; answers the state, the milliseconds since `since` and every
 * error screen seen on the way; fails with the last state after `timeoutMs`.
 */
async function watchPage(
  engine: Engine,
  route: string,
  done: (state: PageState) => boolean,
  { timeoutMs, since = Date.now(), what }: { timeoutMs: number; since?: number; what: string },
): Promise<{ state: PageState; ms: number; errorScreens: string[] }> {
  const errorScreens = new Set<string>();
  let last: PageState | null = null;
  const state = await waitUntil(
    async () => {
      last = (await readPage(engine, route)) ?? last;
      if (last?.errorScreen) errorScreens.add(last.errorScreen);
      return last && done(last) ? last : null;
    },
    { timeoutMs: timeoutMs - (Date.now() - since), intervalMs: 100, message: `${what} in ${engine.name}` },
  ).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last seen: ${JSON.stringify(last)}`, { cause: error });
  });
  if (!state) throw new Error(`${what} in ${engine.name}: no page state`);
  return { state, ms: Date.now() - since, errorScreens: [...errorScreens] };
}

/** The session requests fetched once each, asked by the boot script and taken by the app: what part 1 holds. */
function expectBootRequestsTaken(state: PageState, where: string): void {
  expect(state.resourceEntries, `${where}: Resource Timing entries below the buffer's size, so the counts are whole`).toBeLessThan(RESOURCE_TIMING_BUFFER);
  expect(state.sessionFetches, `${where}: session requests in the page's Resource Timing until the route showed`).toEqual(
    Object.fromEntries(SESSION_PATHS.map((path) => [path, 1])),
  );
  expect([...state.bootAsked].sort(), `${where}: what the boot script asked for`).toEqual([...SESSION_PATHS].sort());
  expect([...state.bootTaken].sort(), `${where}: what the app's client took from the boot script`).toEqual([...SESSION_PATHS].sort());
}

/**
 * Stores the interface language as the app does (src/lib/locale-store.ts): localStorage `appLocale`, and the cookie
 * the server reads to name that language's messages in the HTML. Cookies are the host's, whatever the port, so the
 * cookie a visit on another of this file's origins left must not name another language (the page would fetch its
 * messages only once the app runs).
 */
async function storeLanguage(engine: Engine, language: Language): Promise<void> {
  await engine.evaluate((stored) => {
    localStorage.setItem('appLocale', stored);
    document.cookie = `appLocale=${stored}; Path=/; Max-Age=31536000; SameSite=Lax`;
    return true;
  }, language);
}

/**
 * Puts the token pair and the language into `origin`'s storage from a page that does not start the app, once that
 * page is the one scripts run in (never into the origin of the page before it).
 */
async function storeSession(engine: Engine, origin: string, tokens: DemoTokens, language: Language): Promise<void> {
  const url = `${origin}/favicon.svg`;
  await engine.goto(url);
  await waitUntil(
    () =>
      orWhileNavigating(
        engine.evaluate(
          ({ url, tokens }) => {
            if (location.href !== url) return false;
            localStorage.setItem('accessToken', tokens.accessToken);
            localStorage.setItem('refreshToken', tokens.refreshToken);
            return true;
          },
          { url, tokens },
        ),
        false,
      ),
    { timeoutMs: 30_000, intervalMs: 100, message: `the session stored at ${origin} in ${engine.name}` },
  );
  await storeLanguage(engine, language);
}

/** The entry module(s) index.html names, as paths: until one has arrived, none of the app's code runs. */
async function entryScripts(serverUrl: string): Promise<string[]> {
  const html = await (await fetch(`${serverUrl}${paths.dashboard}`)).text();
  const found = [...html.matchAll(/<script\b([^>]*)>/g)]
    .map((match) => match[1] ?? '')
    .filter((attributes) => /\btype="module"/.test(attributes))
    .map((attributes) => /\bsrc="([^"]+)"/.exec(attributes)?.[1])
    .filter((src): src is string => src !== undefined);
  if (found.length === 0) throw new Error('index.html names no entry module');
  return found;
}

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ seedDemo: true, startTimeoutMs: 180_000 });
}, 200_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

for (const engineName of selectedEngines()) {
  describe(`the signed-in frame and the boot requests in ${engineName}`, () => {
    const suite = engineSuite(engineName, { serverPort: () => server.port, log });

    it('online, in Russian and in English: the dashboard replaces the frame and takes the boot script\'s three answers', async () => {
      const e = suite.engine;
      await storeSession(e, server.url, await demoTokens(server.url, OWNER.email, OWNER.password), 'ru');

      for (const language of LANGUAGES) {
        // The first visit is the device's first; the second a returning one, with the service worker perhaps on its
        // way (whether it controls the page is printed: the session requests go to the server either way).
        await storeLanguage(e, language);
        const started = Date.now();
        await e.goto(`${server.url}${paths.dashboard}`);
        const { state, ms, errorScreens } = await watchPage(e, 'Dashboard', (page) => page.path === paths.dashboard && page.routeVisible, {
          timeoutMs: BOUND.routeMs,
          since: started,
          what: `the dashboard online in ${language}`,
        });
        log(
          engineName,
          `online, ${language}: dashboard after ${ms} ms (${state.controlled ? 'service worker in control' : 'no service worker yet'}); session requests fetched ${JSON.stringify(state.sessionFetches)}, boot script asked ${state.bootAsked.length}, app took ${state.bootTaken.length}; ${state.resourceEntries} resource entries`,
        );
        const where = `${engineName}, online, ${language}`;
        expect(errorScreens, `${where}: error screens on the way`).toEqual([]);
        expect(state.hasShell, `${where}: #boot-shell gone once the route shows`).toBe(false);
        expect(state.hasDataBoot, `${where}: data-boot gone from <html>`).toBe(false);
        expect(state.lang, `${where}: <html lang>`).toBe(language);
        expectBootRequestsTaken(state, where);
      }
    }, 180_000);

    it('paints the frame in the stored language before the app, and hands over to it', async () => {
      const e = suite.engine;
      // One request is held back, not several: a browser opens at most six connections to an origin, and six held
      // requests would keep the frame's own files (boot-shell.js, the stylesheet, the logo) waiting behind them.
      // Chromium and Firefox: the entry module, so none of the app's code runs; the page is looked at while its
      // navigation waits for DOMContentLoaded, which a module script delays. WebKitWebDriver runs no script in a
      // page before its DOMContentLoaded, nor while the page still loads (a held script the page imports before its
      // load event keeps it loading, and the driver's script calls then wait for it): there the boot script's
      // GET /user is held, a fetch, which keeps no load waiting. The app then runs with every script it needs and
      // waits on that answer, so the frame is looked at with the app's code there but its page not drawn.
      const held = engineName === 'webkit' ? new Set([USER_PATH]) : new Set(await entryScripts(server.url));
      const heldName = [...held].join(' ');

      for (const language of LANGUAGES) {
        // A new origin for each language: no service worker yet, so every request goes through the proxy.
        const holding = await startProxy(server.port, { hold: [...held] });
        let navigation: Promise<unknown> = Promise.resolve();
        try {
          await storeSession(e, holding.origin, await demoTokens(server.url, OWNER.email, OWNER.password), language);
          const started = Date.now();
          const url = `${holding.origin}${paths.dashboard}`;
          if (engineName === 'webkit') await e.goto(url);
          else navigation = e.goto(url, { timeoutMs: 60_000 }).catch((error: unknown) => error);
          // A held request stays held: once it is seen held and the frame on screen, the frame was there before it.
          const { state, ms } = await watchPage(e, 'Dashboard', (page) => page.path === paths.dashboard && page.frameVisible && holding.held().length > 0, {
            timeoutMs: BOUND.frameMs,
            since: started,
            what: `the frame with ${heldName} held, ${language}`,
          });
          log(engineName, `${heldName} held, ${language}: frame on screen after ${ms} ms, product name "${state.productName}", <html lang="${state.lang}">`);
          const where = `${engineName}, ${heldName} held, ${language}`;
          expect(holding.held(), `${where}: held back when the frame was seen`).toEqual([...held]);
          expect(state.routeVisible, `${where}: no route yet`).toBe(false);
          expect(state.productName, `${where}: the product name in the frame`).toBe(PRODUCT_NAME[language]);
          expect(state.lang, `${where}: <html lang>`).toBe(language);
          expect(state.hasDataBoot, `${where}: data-boot on <html>`).toBe(true);

          // The held request is answered: the app takes over from the frame, with the boot script's answers.
          const released = Date.now();
          holding.release();
          const handover = await watchPage(e, 'Dashboard', (page) => page.routeVisible, {
            timeoutMs: BOUND.routeMs,
            since: released,
            what: `the dashboard once ${heldName} is let through, ${language}`,
          });
          log(engineName, `${heldName} held, ${language}: dashboard ${handover.ms} ms after it was let through; session requests fetched ${JSON.stringify(handover.state.sessionFetches)}`);
          expect(handover.errorScreens, `${where}: error screens on the way`).toEqual([]);
          expect(handover.state.hasShell, `${where}: #boot-shell gone once the route shows`).toBe(false);
          expect(handover.state.hasDataBoot, `${where}: data-boot gone from <html>`).toBe(false);
          expectBootRequestsTaken(handover.state, where);
        } finally {
          holding.release();
          await navigation;
          await holding.close();
        }
      }
    }, 240_000);

    it('on a hanging network after a first visit, the frame or the app is on screen at once and the dashboard shows', async () => {
      const { engine: e, proxy } = suite;

      // A first visit online, through the proxy (an origin of its own): the service worker comes to control the page
      // (it holds the app) and the session is remembered on the device.
      await storeSession(e, proxy.origin, await demoTokens(server.url, OWNER.email, OWNER.password), 'ru');
      await e.goto(`${proxy.origin}${paths.dashboard}`);
      await waitForRoute(e, 'Dashboard', BOUND.routeMs);
      await waitForServiceWorkerControl(e, 'Dashboard');
      await waitUntil(() => orWhileNavigating(e.evaluate(() => localStorage.getItem('offlineLastUser') !== null, null), false), {
        timeoutMs: 30_000,
        intervalMs: 200,
        message: `the session to be remembered on the device in ${engineName}`,
      });

      await proxy.set('hang');
      try {
        const started = Date.now();
        await e.reload({ timeoutMs: BOUND.routeMs });
        const shown = await watchPage(e, 'Dashboard', (page) => page.path === paths.dashboard && (page.frameVisible || page.routeVisible), {
          timeoutMs: BOUND.frameMs,
          since: started,
          what: 'the frame or the app on a hanging network',
        });
        const routed = await watchPage(e, 'Dashboard', (page) => page.routeVisible, {
          timeoutMs: BOUND.routeMs,
          since: started,
          what: 'the dashboard on a hanging network',
        });
        log(
          engineName,
          `hanging network: ${shown.state.frameVisible ? `frame (${shown.state.productName})` : 'app'} on screen after ${shown.ms} ms, dashboard after ${routed.ms} ms (the product wants ${WANTED.hangRouteMs} ms); error screens seen: ${JSON.stringify([...shown.errorScreens, ...routed.errorScreens])}`,
        );
        const where = `${engineName}, hanging network`;
        expect(routed.state.controlled, `${where}: the service worker controls the page`).toBe(true);
        expect([...shown.errorScreens, ...routed.errorScreens], `${where}: error screens on the way`).toEqual([]);
        expect(routed.state.hasShell, `${where}: #boot-shell gone once the route shows`).toBe(false);
        expect(routed.state.hasDataBoot, `${where}: data-boot gone from <html>`).toBe(false);
      } finally {
        await proxy.set('up');
      }
    }, 240_000);
  });
}
