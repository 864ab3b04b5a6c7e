// How much JavaScript each route of the app costs on a first visit, gzipped: what Debian's Chromium really
// fetches to show it, in a fresh context (nothing cached) with service workers blocked (the precache fetches every
// chunk in the background for offline use, which a route does not need to show). Signed-in routes are opened with
// the tokens of a demo user put into localStorage before the page runs, as a returning user has them; sign-in and
// the other auth routes signed out. Every route of the routes table is measured, with real ids from the demo data,
// so a new route is measured without anyone remembering to add it. Shared by the budget test
// (tests/e2e/route-budgets.test.ts) and the bench (tests/bench/route-sizes.ts).
import { chromium, type Browser } from 'playwright-core';
import { describeFiles, type FileSize } from '../../../scripts/bundle-size.mjs';
import { routes, type AppRoute } from '../../../src/app/routes';
import { apiGet } from './device';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser';

export interface RouteSize {
  name: string;
  path: string;
  layout: 'auth' | 'default';
  files: FileSize[];
  gzip: number;
}

export interface DemoTokens {
  accessToken: string;
  refreshToken: string;
}

/** Signs in through the API and answers the token pair the page keeps in localStorage. */
export async function demoTokens(serverUrl: string, email: string, password: string): Promise<DemoTokens> {
  const response = await fetch(`${serverUrl}/main-service/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const pair = (await response.json()) as { access_token?: string; refresh_token?: string };
  if (!response.ok || !pair.access_token || !pair.refresh_token) throw new Error(`sign-in of ${email} answered ${response.status}`);
  return { accessToken: pair.access_token, refreshToken: pair.refresh_token };
}

/** The first id of a list answer `{ data: { items: [{ id }] } }` (or `{ data: [{ id }] }`). */
async function firstId(serverUrl: string, accessToken: string, path: string): Promise<string> {
  const answer = await apiGet<{ data: { items?: Array<{ id: string }> } | Array<{ id: string }> }>(serverUrl, accessToken, path);
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
  const items = Array.isArray(answer.body.data) ? answer.body.data : (answer.body.data.items ?? []);
  const id = items[0]?.id;
  if (!id) throw new Error(`GET ${path} listed nothing`);
  return id;
}

/** The parameters of every route pattern, from the demo company the user sees first. */
export async function demoRouteParams(serverUrl: string, accessToken: string): Promise<Record<string, string>> {
  const me = await apiGet<{ data: { companies: Array<{ id: string }> } }>(serverUrl, accessToken, '/user');
  const companyId = me.body.data.companies[0]?.id;
  if (!companyId) throw new Error('the demo user belongs to no company');
  const base = `/companies/${companyId}`;
  const [employeeId, goalId, projectId, suggestionId] = await Promise.all([
    firstId(serverUrl, accessToken, `${base}/employees?limit=1`),
    firstId(serverUrl, accessToken, `${base}/goals?limit=1`),
    firstId(serverUrl, accessToken, `${base}/projects?limit=1`),
    firstId(serverUrl, accessToken, `${base}/suggestions?limit=1`),
  ]);
  return { companyId, employeeId, goalId, projectId, suggestionId };
}

/** `pattern` with its `:name` segments filled from `params`; throws on a parameter nobody gave. */
export function fillPattern(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${pattern}`);
    return encodeURIComponent(value);
  });
}

/** What shows that a route has loaded everything it loads by itself (beyond its data-route element). */
const SETTLED: Record<string, string> = {
  // The figures come from the server (or the mirror) after the page; chart.js only when a chart nears the screen.
  Dashboard: '[data-testid="dashboard-as-of"]',
};

/** Every route of the routes table with its path for the demo data. */
export function measurableRoutes(params: Record<string, string>): Array<{ route: AppRoute; path: string }> {
  return routes.map((route) => ({ route, path: fillPattern(route.path, params) }));
}

/**
 * Measures each of `targets` in its own fresh context of one Chromium: auth-layout routes signed out, the others
 * with `tokens` in localStorage. `dist` is the build the server at `origin` serves (files are gzipped from it).
 */
export async function measureRoutes(options: {
  origin: string;
  dist: string;
  tokens: DemoTokens;
  targets: Array<{ route: AppRoute; path: string }>;
  viewport?: { width: number; height: number };
}): Promise<RouteSize[]> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const sizes: RouteSize[] = [];
  try {
    for (const { route, path } of options.targets) {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: options.viewport ?? { width: 360, height: 740 } });
      try {
        if (route.meta.layout === 'default') {
          await context.addInitScript((tokens: DemoTokens) => {
            localStorage.setItem('accessToken', tokens.accessToken);
            localStorage.setItem('refreshToken', tokens.refreshToken);
          }, options.tokens);
        }
        const page = await context.newPage();
        const scripts = new Set<string>();
        page.on('response', (response) => {
          const url = new URL(response.url());
          const isScript = response.request().resourceType() === 'script' || /\.m?js$/.test(url.pathname);
          if (isScript && url.origin === options.origin) scripts.add(url.pathname.replace(/^\//, ''));
        });
        await page.goto(`${options.origin}${path}`, { waitUntil: 'networkidle' });
        await page.locator(`[data-route="${route.name}"]`).first().waitFor({ timeout: 30_000 });
        const settled = SETTLED[route.name];
        if (settled) await page.locator(settled).first().waitFor({ state: 'attached', timeout: 30_000 });
        await page.waitForLoadState('networkidle');
        const files = describeFiles(options.dist, [...scripts]);
        sizes.push({ name: route.name, path, layout: route.meta.layout, files, gzip: files.reduce((sum, file) => sum + file.gzip, 0) });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return sizes;
}

/** A table of `sizes`, largest first, for failure messages and the bench. */
export function sizesTable(sizes: readonly RouteSize[]): string {
  const rows = [...sizes].sort((a, b) => b.gzip - a.gzip);
  const width = Math.max(...rows.map((row) => row.name.length), 'route'.length);
  return [`${'route'.padEnd(width)}  gzip KB  files`, ...rows.map((row) => `${row.name.padEnd(width)}  ${(row.gzip / 1024).toFixed(1).padStart(7)}  ${row.files.length}`)].join('\n');
}
