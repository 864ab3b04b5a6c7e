// The review list with 50,000 proposals in the mirror (issue 11), in Debian's Chromium on its real IndexedDB:
// the app's proposals page (src/features/suggestions/pages/suggestions-page.tsx, from source, in
// tests/bench/browser/review-list.tsx, built for production and served by vite preview) as a department head
// sees it, measured in the page:
// - first rows: from mounting the page to its first row with a title ("To review", the default tab, and "All");
// - a filter applied: from the URL change a filter control makes to the new count and its first row (status,
//   department, overdue, a search word prefix; the search field's 200 ms pause before it reaches the URL is
//   not included);
// - scrolling: the list's box scrolled by a fixed step per animation frame, the frame deltas' median and p95;
// - the search words' cost on the pull: 10,000 proposals pulled through src/lib/sync with the search-word
//   middleware and without it, alternating.
// Each figure is taken in several runs (median, min, max). Timings are never asserted.
// Run: node --import tsx tests/bench/review-list.ts [--rows=50000] [--runs=5] [--step=960] [--frames=300] [--pull-rows=10000]
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { CHROMIUM_PATH, launchBrowser } from '../e2e/support/browser';
import { findFreePort } from '../e2e/support/server';
import { median, percentile, report, round } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const ROWS = arg('rows', 50_000);
const RUNS = arg('runs', 5);
/** Pixels per frame: 10 rows of 96 px enter the window every frame (a hard fling on a tablet). */
const STEP_PX = arg('step', 960);
const FRAMES = arg('frames', 300);
const PULL_ROWS = arg('pull-rows', 10_000);

const spread = (ms: readonly number[]) => ({ medianMs: round(median(ms), 1), minMs: round(Math.min(...ms), 1), maxMs: round(Math.max(...ms), 1) });

if (!existsSync(CHROMIUM_PATH)) {
  console.warn(`skipping the review list benchmark: ${CHROMIUM_PATH} is missing (apt-get install -y chromium)`);
  process.exit(0);
}

// A production build of the page (React's production build, minified, as users get it), served by vite preview.
const configFile = fileURLToPath(new URL('./browser/review-list.vite.config.ts', import.meta.url));
const outDir = await mkdtemp(join(tmpdir(), 'bench-review-list-'));
await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, rollupOptions: { input: fileURLToPath(new URL('./browser/review-list.html', import.meta.url)) } } });
const port = await findFreePort();
const vite = await preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { port, strictPort: true, host: '127.0.0.1' } });
// A tablet held upright: the list box shows about eight rows.
const browser = await launchBrowser({ viewport: { width: 800, height: 1280 } });
try {
  const { page } = browser;
  const version = browser.context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
  await page.goto(`http://127.0.0.1:${port}/review-list.html`);
  await page.locator('#state', { hasText: 'ready' }).waitFor({ timeout: 120_000 });
  const seeded = await page.evaluate((rows) => window.reviewBench.prepare(rows), ROWS);
  const review = await page.evaluate((runs) => window.reviewBench.firstRows('', runs), RUNS);
  const all = await page.evaluate((runs) => window.reviewBench.firstRows('?tab=all', runs), RUNS);
  const queries = ['status=APPROVED', 'department=33333333-3333-4333-8333-000000000005', 'overdue=1', 'q=перенал', 'q=ЁМКОСТЬ%20шум'];
  const filters = await page.evaluate(([list, runs]) => window.reviewBench.filterRuns(list, runs), [queries, RUNS] as const);
  const scroll = await page.evaluate(([step, frames]) => window.reviewBench.scrollRun('?tab=all', step, frames), [STEP_PX, FRAMES] as const);
  // The query of list.ts alone (no React): the first screen (60 ids) and the whole list.
  const queryAlone: Record<string, unknown> = {};
  for (const query of ['', '?tab=all', ...queries.map((q) => `?tab=all&${q}`)]) {
    const firstScreen = await page.evaluate(([q, runs]) => window.reviewBench.queryRuns(q, runs, 60), [query, RUNS] as const);
    const whole = await page.evaluate(([q, runs]) => window.reviewBench.queryRuns(q, runs), [query, RUNS] as const);
    queryAlone[query === '' ? '(review)' : query] = { firstScreen: spread(firstScreen.idsMs), whole: spread(whole.idsMs), window80Rows: spread(whole.windowMs), count: whole.count };
  }
  const pull = await page.evaluate(([rows, runs]) => window.reviewBench.pullCost(rows, runs), [PULL_ROWS, 3] as const);
  const problems = browser.problems();
  if (problems.length > 0) console.error(problems.join('\n'));
  report('review-list', {
    environment: `Chromium ${version} (headless, ${process.platform}), viewport 800x1280`,
    rows: ROWS,
    seedMs: round(seeded.seedMs, 0),
    firstRowsReview: { ...spread(review.ms), count: review.count },
    firstRowsAll: { ...spread(all.ms), count: all.count },
    filters: Object.fromEntries(Object.entries(filters).map(([query, figures]) => [query, { firstRow: spread(figures.firstRowMs), counted: spread(figures.countedMs), count: figures.count }])),
    scroll: {
      stepPx: STEP_PX,
      frames: scroll.deltas.length,
      medianMs: round(median(scroll.deltas), 1),
      p95Ms: round(percentile(scroll.deltas, 95), 1),
      over20Ms: scroll.deltas.filter((d) => d > 20).length,
      blankRowsAtEnd: scroll.blankAtEnd,
    },
    queryAlone,
    pullSearchWords: { rows: PULL_ROWS, withWords: spread(pull.withWordsMs), withoutWords: spread(pull.withoutWordsMs) },
  });
} finally {
  await browser.close();
  await new Promise<void>((resolve) => vite.httpServer.close(() => resolve()));
  await rm(outDir, { recursive: true, force: true });
}
