// The accessibility budget (issue 14): axe-core in Debian's Chromium finds no serious or critical violation on any
// route of the routes table (and the 404 page), in Russian and in English, on a phone (360 x 740); on every signed-in
// route of a landscape tablet (1024 x 768, where the navigation is a row with a "More" menu); and in a few states a
// page reaches with a tap: forms submitted empty (their errors are red text, where contrast matters), the phone's
// "More" sheet, the dashboard's tables shown. Real ids come from the demo data, so a new route is checked without
// anyone adding it here. Auth-layout routes are opened signed out, the others as the demo owner with tokens in
// localStorage, the way a returning user has them. One server and one browser for the file, a fresh context a page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, notFoundRoute, type AppRoute } from '../../src/app/routes';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser';
import { demoRouteParams, demoTokens, fillPattern, type DemoTokens } from './support/route-sizes';
import { startServer, type RunningServer } from './support/server';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 360, height: 740 };
const LANDSCAPE_TABLET = { width: 1024, height: 768 };
const LANGUAGES = ['ru', 'en'] as const;
type Language = (typeof LANGUAGES)[number];
/** What fails the budget; moderate and minor findings are advice. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/** What a page shows while something is still on its way: the route's loading bar, a page spinner, a busy region. */
const LOADING = '[data-loading], [aria-busy="true"], .spinner[role="status"]';
/** Pages whose data arrives after the page itself, and what shows it has (as route-sizes.ts waits for it). */
const SETTLED: Record<string, string> = {
  Dashboard: '[data-testid="dashboard-as-of"]',
};

interface Finding {
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: AxeNode[];
}

let server: RunningServer;
let browser: Browser;
let tokens: DemoTokens;
let adminTokens: DemoTokens;
let params: Record<string, string>;

beforeAll(async () => {
  server = await startServer({ seedDemo: true });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  tokens = await demoTokens(server.url, 'owner@demo.local', 'demo1234');
  adminTokens = await demoTokens(server.url, 'admin@demo.local', 'demo1234');
  params = await demoRouteParams(server.url, tokens.accessToken);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * Opens `path` in a fresh context in `language` (signed in when `route` is in the signed-in frame), waits until
 * the route has everything on screen, lets `prepare` bring it to a state, and answers axe's blocking findings.
 */
async function audit(
  route: AppRoute,
  path: string,
  language: Language,
  options: { viewport?: { width: number; height: number }; signedInAs?: DemoTokens; prepare?: (page: Page) => Promise<void> } = {},
): Promise<Finding[]> {
  // bypassCSP: axe goes in as an inline script, which the app's policy rightly refuses. Service workers are
  // blocked so the precache's background downloads do not keep the network busy; the pages work online without it.
  const context = await browser.newContext({ viewport: options.viewport ?? PHONE, bypassCSP: true, serviceWorkers: 'block' });
  try {
    await context.addInitScript(
      ({ locale, signedIn }: { locale: Language; signedIn: DemoTokens | null }) => {
        localStorage.setItem('appLocale', locale);
        if (signedIn) {
          localStorage.setItem('accessToken', signedIn.accessToken);
          localStorage.setItem('refreshToken', signedIn.refreshToken);
        }
      },
      { locale: language, signedIn: route.meta.layout === 'default' ? (options.signedInAs ?? tokens) : null },
    );
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    await waitForSettledPage(page, route.name);
    if (options.prepare) {
      await options.prepare(page);
      await waitForSettledPage(page, route.name);
    }
    await page.addScriptTag({ content: AXE_SOURCE });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations;
    });
    return (violations as AxeViolation[])
      .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
      .flatMap((violation) =>
        violation.nodes.map((node) => ({
          rule: violation.id,
          impact: violation.impact ?? '',
          target: node.target.map(String).join(' '),
          summary: summarize(node.failureSummary) || violation.help,
        })),
      );
  } finally {
    await context.close();
  }
}

/** The route is on screen with its data: no loading bar, spinner or busy region, and no fade-in still running. */
async function waitForSettledPage(page: Page, name: string): Promise<void> {
  await page.locator(`[data-route="${name}"]`).first().waitFor({ state: 'visible', timeout: 60_000 });
  const settled = SETTLED[name];
  if (settled) await page.locator(settled).first().waitFor({ state: 'attached', timeout: 60_000 });
  await page.waitForFunction((selector) => document.querySelector(selector) === null, LOADING, { timeout: 60_000, polling: 100 });
  // A page that arrives fades in (src/app/page-transition.css): axe would measure the contrast of half-transparent
  // text. Endless animations (a spinner somewhere) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.then(
          () => undefined,
          () => undefined,
        )),
    ).then(() => undefined),
  );
}

/** axe's failure summary on one line: "Fix any of the following:" and its indented reasons. */
function summarize(failureSummary: string | undefined): string {
  return (failureSummary ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^Fix (any|all) of the following:$/.test(line))
    .join('; ');
}

/** One finding as the failure lists it: "route lang: rule-id (impact) — target — summary". */
function line(label: string, language: Language, finding: Finding): string {
  return `${label} ${language}: ${finding.rule} (${finding.impact}) — ${finding.target} — ${finding.summary}`;
}

/** Every route of the table plus the 404 page, with the path the demo data gives it (known once beforeAll ran). */
const PAGES: Array<{ route: AppRoute; pattern: string }> = [
  ...routes.map((route) => ({ route, pattern: route.path })),
  { route: notFoundRoute, pattern: '/no-such-page' },
];

async function expectNoBlockingViolation(
  label: string,
  route: AppRoute,
  pattern: string,
  language: Language,
  options?: Parameters<typeof audit>[3],
): Promise<void> {
  const findings = await audit(route, fillPattern(pattern, params), language, options);
  expect(findings.map((finding) => line(label, language, finding))).toEqual([]);
}

function routeNamed(name: string): AppRoute {
  const route = routes.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`no route named ${name}`);
  return route;
}

/** Submits the route's form untouched, and waits until its field errors are on screen. */
async function submitEmpty(page: Page): Promise<void> {
  await page.locator('form [type="submit"]').first().click();
  await page.locator('[aria-invalid="true"]').first().waitFor({ state: 'visible', timeout: 30_000 });
}

describe.each(LANGUAGES)('axe in %s on a phone (360 x 740) finds no serious or critical violation', (language) => {
  it.each(PAGES.map((page) => [page.route.name, page] as const))('on %s', async (name, { route, pattern }) => {
    await expectNoBlockingViolation(name, route, pattern, language);
  });

  it('on the sign-in form submitted empty', async () => {
    await expectNoBlockingViolation('AuthLogin (submitted empty)', routeNamed('AuthLogin'), routeNamed('AuthLogin').path, language, { prepare: submitEmpty });
  });

  it('on the registration form submitted empty', async () => {
    const route = routeNamed('AuthRegister');
    await expectNoBlockingViolation('AuthRegister (submitted empty)', route, route.path, language, { prepare: submitEmpty });
  });

  it('on a proposal form submitted empty', async () => {
    const route = routeNamed('SuggestionCreate');
    await expectNoBlockingViolation('SuggestionCreate (submitted empty)', route, route.path, language, { prepare: submitEmpty });
  });

  it('on the platform administration as its admin (the owner sees "not for you" there)', async () => {
    const route = routeNamed('ProfileAdmin');
    await expectNoBlockingViolation('ProfileAdmin (admin)', route, route.path, language, { signedInAs: adminTokens });
  });

  it("on the dashboard with its charts' tables shown", async () => {
    const route = routeNamed('Dashboard');
    await expectNoBlockingViolation('Dashboard (tables shown)', route, route.path, language, {
      prepare: async (page) => {
        const toggles = page.locator('.dashboard-chart__toggle');
        const count = await toggles.count();
        expect(count).toBeGreaterThan(0);
        for (let index = 0; index < count; index += 1) await toggles.nth(index).click();
        await page.locator('.dashboard-chart__table.visually-hidden').first().waitFor({ state: 'detached', timeout: 30_000 });
      },
    });
  });

  it('on the "More" sheet of the bottom bar', async () => {
    const route = routeNamed('Dashboard');
    await expectNoBlockingViolation('Dashboard (More sheet)', route, route.path, language, {
      prepare: async (page) => {
        await page.locator('[data-action="nav-more"]').click();
        await page.locator('[role="dialog"][aria-modal="true"]').waitFor({ state: 'visible', timeout: 30_000 });
      },
    });
  });
});

// From 768 px the signed-in frame is another layout (a navigation row with a "More" menu, the language switch in the
// dark header) and some pages lay their lists out as tables: every signed-in route once more at 1024 px, in Russian
// (the colours do not change with the language; the phone pass above covers both), and the frame in English too.
describe('axe on a landscape tablet (1024 x 768) finds no serious or critical violation', () => {
  it.each(PAGES.filter((page) => page.route.meta.layout === 'default').map((page) => [page.route.name, page] as const))(
    'on %s in ru',
    async (name, { route, pattern }) => {
      await expectNoBlockingViolation(`${name} (1024 px)`, route, pattern, 'ru', { viewport: LANDSCAPE_TABLET });
    },
  );

  it.each(LANGUAGES)('on the "More" menu of the navigation row in %s', async (language) => {
    const route = routeNamed('Dashboard');
    await expectNoBlockingViolation('Dashboard (1024 px, More menu)', route, route.path, language, {
      viewport: LANDSCAPE_TABLET,
      prepare: async (page) => {
        await page.locator('[data-action="nav-more"]').click();
        await page.locator('[data-action="nav-more"][aria-expanded="true"]').waitFor({ timeout: 30_000 });
      },
    });
  });

  it('on the dashboard in en', async () => {
    const route = routeNamed('Dashboard');
    await expectNoBlockingViolation('Dashboard (1024 px)', route, route.path, 'en', { viewport: LANDSCAPE_TABLET });
  });
});
