// JavaScript per route, gzipped, on a first visit (issue 14): every route of the routes table as Debian's Chromium
// loads it with nothing cached and service workers blocked, signed out for the auth routes and as the demo owner
// for the others (tests/e2e/support/route-sizes.ts says exactly what is counted). Sizes, printed and written down
// in docs/benchmarks.md ("JavaScript per route"); the budgets are 120 KB for the sign-in route and 200 KB for any
// route. Builds dist/ first when it holds no build.
// Run: node --import tsx tests/bench/route-sizes.ts [--dist=DIR] [--json]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR, startServer } from '../e2e/support/server';
import { demoRouteParams, demoTokens, measurableRoutes, measureRoutes, sizesTable } from '../e2e/support/route-sizes';

const ROUTE_BUDGET_KB = 200;
const SIGN_IN_BUDGET_KB = 120;

async function main(): Promise<void> {
  const distArg = process.argv.find((a) => a.startsWith('--dist='))?.slice('--dist='.length);
  const dist = distArg ?? join(ROOT_DIR, 'dist');
  if (!existsSync(join(dist, 'index.html'))) {
    if (distArg) throw new Error(`${dist} holds no build`);
    const built = spawnSync(process.execPath, [join(ROOT_DIR, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: ROOT_DIR, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('vite build failed');
  }
  const server = await startServer({ seedDemo: true, startTimeoutMs: 180_000, env: { STATIC_DIR: dist } });
  try {
    const tokens = await demoTokens(server.url, 'owner@demo.local', 'demo1234');
    const params = await demoRouteParams(server.url, tokens.accessToken);
    const sizes = await measureRoutes({ origin: server.url, dist, tokens, targets: measurableRoutes(params) });
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify(sizes.map(({ name, path, layout, gzip, files }) => ({ name, path, layout, gzip, files })), null, 2));
      return;
    }
    console.log(`JavaScript per route, gzipped, first visit in Chromium (build: ${dist})`);
    console.log(sizesTable(sizes));
    const over = sizes.filter((size) => size.gzip > (size.name === 'AuthLogin' ? SIGN_IN_BUDGET_KB : ROUTE_BUDGET_KB) * 1024);
    console.log(`${sizes.length} routes; ${over.length} over budget (sign-in ${SIGN_IN_BUDGET_KB} KB, any route ${ROUTE_BUDGET_KB} KB)${over.length ? `: ${over.map((size) => size.name).join(', ')}` : ''}`);
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
