#!/usr/bin/env node
// `npm run bench`: how much JavaScript the sign-in route (/auth/login) costs a first-time visitor, gzipped, and
// the dashboard route beside it (from the Vite manifest).
// The measuring code is scripts/bundle-size.mjs, shared with the budget test (tests/e2e/bundle-budget.test.ts);
// see there for what is counted and how.
//
// Usage: node scripts/measure-bundle.mjs [--dist=DIR] [--manifest] [--json] [--strict]
//   --dist=DIR (or MEASURE_DIST=DIR): the build to measure, default dist/ (built first when it is missing;
//              any other directory must hold a build, e.g. `npx vite build --outDir /tmp/x`)
//   --manifest: read Vite's build manifest instead of loading the page in Chromium
//   --json: print JSON; --strict: exit 1 over budget
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DIST, ROOT, dashboardRouteScripts, describeFiles, measureSignInRoute, precacheFiles, resolveDist } from './bundle-size.mjs';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => !a.includes('=')));
const distArg = args.find((a) => a.startsWith('--dist='))?.slice('--dist='.length);
const DIST = resolveDist(distArg ?? process.env.MEASURE_DIST);

function run(command, commandArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function ensureBuild() {
  if (existsSync(join(DIST, 'index.html'))) return;
  if (DIST !== DEFAULT_DIST) throw new Error(`${DIST} holds no build (index.html is missing)`);
  console.error('dist/index.html is missing: building (vite build)...');
  const code = await run(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build']);
  if (code !== 0) throw new Error(`vite build failed (${code})`);
}

const kb = (n) => (n / 1024).toFixed(1);

async function main() {
  await ensureBuild();
  const result = await measureSignInRoute({
    dist: DIST,
    method: flags.has('--manifest') ? 'manifest' : 'auto',
    onFallback: (error) => console.error(`Measuring in Chromium failed, using the Vite manifest instead: ${error.message}`),
  });
  const { route, method, files: rows, total, budgetKb, withinBudget } = result;

  if (flags.has('--json')) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const width = Math.max(...rows.map((r) => r.file.length), 'total'.length);
    console.log(`JavaScript loaded by ${route} (measured with ${method}; gzip -9 of each file in ${DIST})`);
    console.log(`${'file'.padEnd(width)}  ${'raw KB'.padStart(8)}  ${'gzip KB'.padStart(8)}`);
    for (const r of rows) console.log(`${r.file.padEnd(width)}  ${kb(r.raw).padStart(8)}  ${kb(r.gzip).padStart(8)}`);
    console.log(`${'total'.padEnd(width)}  ${kb(total.raw).padStart(8)}  ${kb(total.gzip).padStart(8)}`);
    console.log(`${rows.length} files; ${kb(total.gzip)} KB gzipped: ${withinBudget ? 'within' : 'OVER'} the ${budgetKb} KB budget`);
  }
  if (flags.has('--strict') && !withinBudget) process.exitCode = 1;

  // The dashboard route beside it (issue 13; no budget yet: issue 14 sets 200 KB for any route).
  const dashboard = describeFiles(DIST, dashboardRouteScripts(DIST));
  const dashboardKb = kb(dashboard.reduce((sum, r) => sum + r.gzip, 0));
  const chart = dashboard.find((r) => r.file.includes('chart-setup'));
  console.log(`/dashboard (Vite manifest): ${dashboard.length} files, ${dashboardKb} KB gzipped, of which chart.js ${chart ? kb(chart.gzip) : '?'} KB (loaded after the figures)`);
  console.log('(every route, as Chromium loads it: node --import tsx tests/bench/route-sizes.ts)');

  // The service worker's precache: what a first visit fetches in the background so that every screen opens offline.
  const precache = precacheFiles(DIST);
  const precacheWidth = Math.max(...precache.map((r) => r.file.length), 'total'.length);
  console.log(`\nService worker precache (${precache.length} files, from dist/sw.js)`);
  console.log(`${'file'.padEnd(precacheWidth)}  ${'raw KB'.padStart(8)}  ${'gzip KB'.padStart(8)}`);
  for (const r of precache) console.log(`${r.file.padEnd(precacheWidth)}  ${kb(r.raw).padStart(8)}  ${kb(r.gzip).padStart(8)}`);
  const sum = precache.reduce((acc, r) => ({ raw: acc.raw + r.raw, gzip: acc.gzip + r.gzip }), { raw: 0, gzip: 0 });
  console.log(`${'total'.padEnd(precacheWidth)}  ${kb(sum.raw).padStart(8)}  ${kb(sum.gzip).padStart(8)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
