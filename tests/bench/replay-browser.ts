// Benchmark: replay of 1,000 queued proposals in Debian's Chromium, three ways side by side in one run against
// ONE real main-service (a child process on PGlite, demo company, started once):
// - outbox:  queued through the page code (submitSuggestion into Dexie), replayed by the outbox replayer
//            with `batch: false` (createReplayer, one request per row: the path before batches);
// - push:    queued the same way, replayed by the same replayer as the page and the worker run it (the
//            registry's handlers and isPushableOutboxRow): batches of up to 100 through POST /sync/push;
// - workbox: the same requests queued in workbox-background-sync's Queue (7.4) and replayed with
//            replayRequests().
// The bench page (tests/bench/browser/replay.html) is built by Vite into a temporary directory and served by
// the main-service itself as its STATIC_DIR, so the page and the API share one origin: no proxy, no CORS, and a
// production build (Workbox without its development logging). The modes alternate (the order rotates every
// round) after a small warm-up round of each; after every run the server is read back: exactly the queued
// proposals, each once, and nothing left on the device. Figures are medians of the runs, printed as JSON.
// Run: node --import tsx tests/bench/replay-browser.ts [--items=1000] [--runs=3] [--warmup=100]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { startServer } from '../e2e/support/server';
import type { BenchSession, Queued, Replayed } from './browser/replay';
import { median, report, round } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const ITEMS = arg('items', 1_000);
const RUNS = arg('runs', 3);
const WARMUP = arg('warmup', 100);

const MODES = ['outbox', 'push', 'workbox'] as const;
type Mode = (typeof MODES)[number];

interface RunFigures {
  items: number;
  replayMs: number;
  itemsPerSecond: number;
  requests: number;
  queueMsPerItem: number;
  /** The part of replayMs spent waiting for the server's answers (outbox and push). */
  requestMs?: number;
}

const outDir = await mkdtemp(join(tmpdir(), 'bench-replay-page-'));
await build({
  configFile: fileURLToPath(new URL('./browser/vite.config.ts', import.meta.url)),
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: true,
    rollupOptions: { input: fileURLToPath(new URL('./browser/replay.html', import.meta.url)) },
  },
});
// The server serves a STATIC_DIR only when it holds an index.html.
await writeFile(join(outDir, 'index.html'), '<!doctype html><title>Replay benchmark</title><a href="/replay.html">replay</a>\n');

const server = await startServer({ seedDemo: true, env: { STATIC_DIR: outDir } });
const browser = await launchBrowser();
try {
  const origin = server.url;
  const api = `${origin}/main-service/api/v1`;

  async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { Accept: 'application/json', Language: 'en', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  /** A fresh sign-in per run, so no access token expires in the middle of one. */
  async function signIn(): Promise<BenchSession> {
    const pair = await call<{ access_token: string; refresh_token: string }>('POST', '/auth/login', null, { email: 'employee@demo.local', password: 'demo1234' });
    const me = await call<{ data: { id: string; fullName: string; companies: Array<{ id: string }> } }>('GET', '/user', pair.access_token);
    const companyId = me.data.companies[0]?.id;
    if (!companyId) throw new Error('the demo employee has no company');
    const departments = await call<{ data: Array<{ id: string }> }>('GET', `/companies/${companyId}/departments`, pair.access_token);
    const departmentId = departments.data[0]?.id;
    if (!departmentId) throw new Error('the demo company has no department');
    return { user: { id: me.data.id, fullName: me.data.fullName }, access: pair.access_token, refresh: pair.refresh_token, companyId, departmentId };
  }

  /** The run's proposals as the server holds them: newest first, until the page reaches older ones. */
  async function serverCopies(session: BenchSession, tag: string, since: number): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const query: string = `scope=mine&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await call<{ data: { items: Array<{ id: string; title: string; createdAt: string }>; nextCursor: string | null } }>(
        'GET',
        `/companies/${session.companyId}/suggestions?${query}`,
        session.access,
      );
      for (const item of page.data.items) if (item.title.startsWith(`${tag} `)) ids.push(item.id);
      const oldest = page.data.items.at(-1);
      cursor = page.data.nextCursor;
      if (!cursor || !oldest || Date.parse(oldest.createdAt) < since) return ids;
    }
  }

  async function runOnce(page: Page, mode: Mode, tag: string, items: number): Promise<RunFigures> {
    const session = await signIn();
    await page.evaluate((s) => window.replayBench.start(s), session);
    const queued: Queued = await page.evaluate(
      ([m, t, n]) => (m === 'workbox' ? window.replayBench.queueWorkbox(t, n) : window.replayBench.queueOutbox(t, n)),
      [mode, tag, items] as const,
    );
    // Rows are written by the server after this moment; a second of slack for the clocks of two processes.
    const since = Date.now() - 1_000;
    const replayed: Replayed = await page.evaluate(
      ([m, t]) => (m === 'outbox' ? window.replayBench.replayOutbox(t) : m === 'push' ? window.replayBench.replayPush(t) : window.replayBench.replayWorkbox(t)),
      [mode, tag] as const,
    );
    const onServer = await serverCopies(session, tag, since);
    const expected = new Set(queued.ids);
    const distinct = new Set(onServer);
    const missing = queued.ids.filter((id) => !distinct.has(id));
    if (replayed.left !== 0 || onServer.length !== items || distinct.size !== items || missing.length > 0) {
      throw new Error(
        `${tag}: ${items} queued, ${replayed.sent} sent, ${replayed.left} left on the device; the server holds ${onServer.length} ` +
          `(${distinct.size} distinct, ${missing.length} missing, ${onServer.filter((id) => !expected.has(id)).length} unexpected): ${JSON.stringify(replayed.detail)}`,
      );
    }
    return {
      items,
      replayMs: round(replayed.ms),
      itemsPerSecond: round((items / replayed.ms) * 1000, 1),
      requests: replayed.requests,
      queueMsPerItem: round(queued.queueMs / items, 2),
      ...(mode === 'workbox' ? {} : { requestMs: round((replayed.detail as { requestMs: number }).requestMs) }),
    };
  }

  const { page } = browser;
  const version = browser.context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
  await page.goto(`${origin}/replay.html`);
  await page
    .locator('#state', { hasText: 'ready' })
    .waitFor({ timeout: 60_000 })
    .catch((error: unknown) => {
      throw new Error(`the bench page did not start: ${browser.problems().join('; ')}`, { cause: error });
    });

  for (const mode of MODES) await runOnce(page, mode, `warmup-${mode}`, WARMUP);
  const runs: Record<Mode, RunFigures[]> = { outbox: [], push: [], workbox: [] };
  const order: string[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    // Rotated each round, so no mode always runs first (or right after another) on a server that grows.
    const round_ = [...MODES.slice(run % MODES.length), ...MODES.slice(0, run % MODES.length)];
    for (const mode of round_) {
      runs[mode].push(await runOnce(page, mode, `run${run}-${mode}`, ITEMS));
      order.push(mode);
      console.error(`${mode} run ${run}: ${JSON.stringify(runs[mode].at(-1))}`);
    }
  }

  const summary = (mode: Mode) => ({
    medianItemsPerSecond: round(median(runs[mode].map((r) => r.itemsPerSecond)), 1),
    medianReplayMs: round(median(runs[mode].map((r) => r.replayMs))),
    requestsPerRun: runs[mode][0]?.requests ?? 0,
    medianQueueMsPerItem: round(median(runs[mode].map((r) => r.queueMsPerItem)), 2),
    ...(mode === 'workbox' ? {} : { medianRequestMs: round(median(runs[mode].map((r) => r.requestMs ?? 0))) }),
    runs: runs[mode],
  });
  const figures = { outbox: summary('outbox'), push: summary('push'), workbox: summary('workbox') };
  report('replay-browser', {
    environment: `Chromium ${version} (headless, ${process.platform}); main-service child process on PGlite (${origin}), page served by it`,
    items: ITEMS,
    runs: RUNS,
    warmupItems: WARMUP,
    order,
    ...figures,
    ratios: {
      pushVsWorkbox: round(figures.push.medianItemsPerSecond / figures.workbox.medianItemsPerSecond, 2),
      outboxVsWorkbox: round(figures.outbox.medianItemsPerSecond / figures.workbox.medianItemsPerSecond, 2),
      pushVsOutbox: round(figures.push.medianItemsPerSecond / figures.outbox.medianItemsPerSecond, 2),
      // Within each round (the three ran back to back), less exposed to the machine's load changing between rounds.
      pushVsWorkboxByRound: runs.push.map((r, i) => round(r.itemsPerSecond / (runs.workbox[i]?.itemsPerSecond ?? Number.NaN), 2)),
      outboxVsWorkboxByRound: runs.outbox.map((r, i) => round(r.itemsPerSecond / (runs.workbox[i]?.itemsPerSecond ?? Number.NaN), 2)),
    },
    checked: 'after every run: the server holds exactly the queued proposals, each once; the device queue is empty',
  });
} finally {
  await browser.close();
  await server.stop();
  await rm(outDir, { recursive: true, force: true });
}
