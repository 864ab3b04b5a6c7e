// The JavaScript budget of every route (issue 14): what Debian's Chromium loads to show each route of the routes
// table on a first visit, every file gzipped, is at most 200 KB, and the sign-in route's at most 120 KB (its own
// stricter test, with what it must not load, is bundle-budget.test.ts). Measured by the same code as the bench
// (tests/e2e/support/route-sizes.ts): real ids from the demo data, signed-in routes as the demo owner with tokens
// in localStorage, service workers blocked. A size budget, not a timing. MEASURE_DIST=/some/dir measures another
// build than dist/ (the server serves it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDist } from '../../scripts/bundle-size.mjs';
import { demoRouteParams, demoTokens, measurableRoutes, measureRoutes, sizesTable, type RouteSize } from './support/route-sizes';
import { startServer, type RunningServer } from './support/server';

const ROUTE_BUDGET_KB = 200;
const SIGN_IN_BUDGET_KB = 120;
const dist = resolveDist(process.env.MEASURE_DIST ?? process.env.E2E_STATIC_DIR);

let server: RunningServer;
let sizes: RouteSize[] = [];

beforeAll(async () => {
  server = await startServer({ seedDemo: true, staticDir: dist });
  const tokens = await demoTokens(server.url, 'owner@demo.local', 'demo1234');
  const params = await demoRouteParams(server.url, tokens.accessToken);
  sizes = await measureRoutes({ origin: server.url, dist, tokens, targets: measurableRoutes(params) });
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

describe('JavaScript per route', () => {
  it('measures every route of the routes table', () => {
    expect(sizes.length).toBeGreaterThan(40);
    expect(sizes.every((size) => size.files.length > 0)).toBe(true);
  });

  it(`is at most ${ROUTE_BUDGET_KB} KB gzipped on every route, and at most ${SIGN_IN_BUDGET_KB} KB on the sign-in route`, () => {
    const over = sizes.filter((size) => size.gzip > (size.name === 'AuthLogin' ? SIGN_IN_BUDGET_KB : ROUTE_BUDGET_KB) * 1024);
    expect(over.map((size) => size.name), sizesTable(sizes)).toEqual([]);
  });
});
