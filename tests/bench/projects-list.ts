// The projects list with 5,000 projects in the mirror (issue 12), in Debian's Chromium on its real IndexedDB:
// the app's projects page (src/features/projects/pages/projects-page.tsx, from source, in
// tests/bench/browser/projects-list.tsx, built for production and served by vite preview) as a direction manager
// sees it, measured in the page:
// - first rows: from mounting the page to its first row with a name, for "all" and for each filter;
// - a filter applied: from the URL change the filter chips make to the new first row and to the new count;
// - the list's query alone (list.ts): the first screen's ids, all ids, and 80 rows of the window.
// Each figure is taken in several runs (median, min, max). Timings are never asserted.
// It builds with the review list's Vite config (same root and plugins), another page as input.
// Run: node --import tsx tests/bench/projects-list.ts [--rows=5000] [--runs=5]
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { PROJECT_LIST_FILTERS } from '../../src/domain/project';
import { CHROMIUM_PATH, launchBrowser } from '../e2e/support/browser';
import { findFreePort } from '../e2e/support/server';
import { median, report, round } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const ROWS = arg('rows', 5000);
const RUNS = arg('runs', 5);

const spread = (ms: readonly number[]) => ({ medianMs: round(median(ms), 1), minMs: round(Math.min(...ms), 1), maxMs: round(Math.max(...ms), 1) });

if (!existsSync(CHROMIUM_PATH)) {
  console.warn(`skipping the projects list benchmark: ${CHROMIUM_PATH} is missing (apt-get install -y chromium)`);
  process.exit(0);
}

const configFile = fileURLToPath(new URL('./browser/review-list.vite.config.ts', import.meta.url));
const outDir = await mkdtemp(join(tmpdir(), 'bench-projects-list-'));
await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, rollupOptions: { input: fileURLToPath(new URL('./browser/projects-list.html', import.meta.url)) } } });
const port = await findFreePort();
const vite = await preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { port, strictPort: true, host: '127.0.0.1' } });
// A tablet held upright.
const browser = await launchBrowser({ viewport: { width: 800, height: 1280 } });
try {
  const { page } = browser;
  const version = browser.context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
  await page.goto(`http://127.0.0.1:${port}/projects-list.html`);
  await page.locator('#state', { hasText: 'ready' }).waitFor({ timeout: 120_000 });
  const seeded = await page.evaluate((rows) => window.projectsBench.prepare(rows), ROWS);
  const firstRows: Record<string, unknown> = {};
  for (const filter of PROJECT_LIST_FILTERS) {
    const query = filter === 'all' ? '' : `?filter=${filter}`;
    const figures = await page.evaluate(([q, runs]) => window.projectsBench.firstRows(q, runs), [query, RUNS] as const);
    firstRows[filter] = { ...spread(figures.ms), count: figures.count };
  }
  const chips = PROJECT_LIST_FILTERS.filter((filter) => filter !== 'all');
  const filters = await page.evaluate(([list, runs]) => window.projectsBench.filterRuns(list, runs), [chips, RUNS] as const);
  const queryAlone: Record<string, unknown> = {};
  for (const filter of PROJECT_LIST_FILTERS) {
    const firstScreen = await page.evaluate(([f, runs]) => window.projectsBench.queryRuns(f, runs, 60), [filter, RUNS] as const);
    const whole = await page.evaluate(([f, runs]) => window.projectsBench.queryRuns(f, runs), [filter, RUNS] as const);
    queryAlone[filter] = { firstScreen: spread(firstScreen.idsMs), whole: spread(whole.idsMs), window80Rows: spread(whole.windowMs), count: whole.count };
  }
  const problems = browser.problems();
  if (problems.length > 0) console.error(problems.join('\n'));
  report('projects-list', {
    environment: `Chromium ${version} (headless, ${process.platform}), viewport 800x1280`,
    rows: ROWS,
    seedMs: round(seeded.seedMs, 0),
    firstRows,
    filters: Object.fromEntries(Object.entries(filters).map(([filter, figures]) => [filter, { firstRow: spread(figures.firstRowMs), counted: spread(figures.countedMs), count: figures.count }])),
    queryAlone,
  });
} catch (error) {
  // The page's own errors say more than a timeout does.
  const problems = browser.problems();
  if (problems.length > 0) console.error(problems.join('\n'));
  throw error;
} finally {
  await browser.close();
  await new Promise<void>((resolve) => vite.httpServer.close(() => resolve()));
  await rm(outDir, { recursive: true, force: true });
}
