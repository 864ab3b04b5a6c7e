// Cold start offline and route changes, with the CPU throttled as Lighthouse's mobile run does (4x), in Debian's
// Chromium on a phone's viewport. Printed, and written down in docs/benchmarks.md ("Cold start offline and route
// changes (4x CPU)"); never asserted: the figures follow the machine.
//
// For each role (the demo owner and employee), in a persistent profile of its own:
// - first use, online and unthrottled: sign in, let the service worker install and control the page, the first pull
//   finish and the dashboard's figures reach the device; then the browser is closed;
// - cold start offline, RUNS times: the browser is started again on that profile with the network cut twice over
//   (the context offline, and the TCP proxy in front of the server refusing connections, so only the service
//   worker's cache can answer), the CPU throttled before the navigation, and the manifest's start URL (/dashboard)
//   opened. Measured in the page: first contentful paint, the largest contentful paint, when the worker had answered
//   the document, and "ready": the first frame after the route's [data-route] is in the document with no spinner or
//   loading bar, no row still loading, and its data on screen (for the dashboard, the figures read from the device);
// - route changes, online with the worker in control and the CPU throttled: from /notifications (on no navigation
//   entry) a click on every entry of the role's navigation in turn (the bottom bar, and the "More" sheet opened
//   first for the others), then the same round again. The first round is each page's first visit (its chunks from
//   the worker's cache), the second a return to a page already loaded. Timed from the click event's timeStamp to
//   the first frame after the new route is ready as above. One warm-up round, then RUNS, each in the browser
//   started again on the profile. The long animation frames between the click and that frame are summed, and the
//   scripts they name, to say where the slowest change spends its time.
//
// Run: node --import tsx tests/bench/cold-start.ts [--dist=DIR] [--runs=7] [--warmup=1] [--cpu=4] [--viewport=360x740]
//   [--roles=owner,employee]
//   The build comes from --dist, else E2E_STATIC_DIR, else dist/ (built first when it holds no build).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { paths } from '../../src/domain/paths';
import { resolveRoute } from '../../src/app/routes';
import { signIn, waitForRoute, waitForServiceWorkerControl } from '../e2e/support/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser';
import { startProxy, type TcpProxy } from '../e2e/support/proxy';
import { ROOT_DIR, startServer } from '../e2e/support/server';
import { waitUntil } from '../e2e/support/wait';
import { median, percentile, report, round } from './support';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const numberArg = (name: string, fallback: number) => Number(arg(name) ?? fallback);

const RUNS = numberArg('runs', 7);
const WARMUP = numberArg('warmup', 1);
const CPU_RATE = numberArg('cpu', 4);
const [VIEWPORT_WIDTH = 360, VIEWPORT_HEIGHT = 740] = (arg('viewport') ?? '360x740').split('x').map(Number);
const VIEWPORT = { width: VIEWPORT_WIDTH, height: VIEWPORT_HEIGHT };
const PASSWORD = 'demo1234';
const ROLES = [
  { label: 'owner', email: 'owner@demo.local' },
  { label: 'employee', email: 'employee@demo.local' },
].filter((role) => (arg('roles') ?? 'owner,employee').split(',').includes(role.label));
/** The manifest's start_url: where an installed app opens. */
const START_PATH = paths.dashboard;
/** Where each round of route changes starts: a page on no navigation entry, so every entry is a change. */
const ROUND_START_PATH = paths.notifications;
/** The guard on one wait in the page: a route that never gets ready is an error of the bench, not a figure. */
const READY_TIMEOUT_MS = 90_000;

/**
 * What shows that a route's data is on screen, beyond the generic rule (no spinner, no loading bar, no row
 * loading). The dashboard renders before its figures: they are read from the device (or answered by the server).
 */
const DATA_SHOWN: Record<string, string> = {
  Dashboard: '[data-testid="dashboard-figures"], [data-testid="dashboard-no-scope"]',
  Suggestions: '[data-count]',
  Projects: '[data-count]',
  Goals: '[data-count]',
  Employees: '[data-count]',
};

// ------------------------------------------------------------------------------------------- in the page

interface Ready {
  route: string;
  /** performance.now() when the route was ready in the document. */
  domAt: number;
  /** performance.now() after the next frame: when the browser has painted it. */
  paintAt: number;
}

interface ScriptCost {
  source: string;
  ms: number;
}

interface WorkBetween {
  /** JavaScript files whose fetch started in the interval, and how many of them the service worker answered. */
  scripts: number;
  scriptsFromWorker: number;
  /** performance.now() when the last of them had arrived (NaN without any). */
  scriptsDoneAt: number;
  /** Long animation frames (over 50 ms) overlapping the interval, summed, and the scripts they name. */
  longFramesMs: number;
  bySource: ScriptCost[];
}

interface Change extends Ready, WorkBetween {
  /** The click event's timeStamp. */
  start: number;
}

interface Probes {
  /** The first route of the document to get ready, whichever it is. */
  first: Promise<Ready>;
  /** Starts watching for `route` to get ready after the next click. */
  arm(route: string): void;
  pending: Promise<Change> | null;
  lcp: number | null;
  workBetween(from: number, to: number): WorkBetween;
}

type ProbeWindow = Window & { __bench?: Probes };

/** Installed before the app's scripts in every document (an init script): serialised, so it reaches nothing outside. */
function installProbes(dataShown: Record<string, string>): void {
  interface LongFrame {
    startTime: number;
    duration: number;
    scripts: Array<{ sourceURL: string; duration: number }>;
  }
  const isLongFrame = (value: unknown): value is LongFrame =>
    typeof value === 'object' && value !== null && 'startTime' in value && 'duration' in value && 'scripts' in value && Array.isArray(value.scripts);
  const longFrames: LongFrame[] = [];
  // Hundreds of route changes in one document outgrow the default 250 resource entries.
  performance.setResourceTimingBufferSize(100_000);

  const readyRoute = (name: string | null): string | null => {
    const route = document.querySelector<HTMLElement>(name === null ? '[data-route]' : `[data-route="${name}"]`);
    if (!route || !route.checkVisibility()) return null;
    const routeName = route.dataset.route ?? '';
    if (document.querySelector('[data-loading]')) return null;
    if (route.querySelector('[aria-busy="true"], [data-pending]')) return null;
    const shown = dataShown[routeName];
    if (shown && !route.querySelector(shown)) return null;
    return routeName;
  };

  const watch = (name: string | null) =>
    new Promise<Ready>((resolve) => {
      let isDone = false;
      const check = () => {
        if (isDone) return;
        const route = readyRoute(name);
        if (route === null) return;
        isDone = true;
        observer.disconnect();
        const domAt = performance.now();
        // The task after the next animation frame runs once that frame has been painted.
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve({ route, domAt, paintAt: performance.now() });
          channel.port2.postMessage(null);
        });
      };
      const observer = new MutationObserver(check);
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      check();
    });

  const probes: Probes = {
    first: watch(null),
    pending: null,
    lcp: null,
    arm(route) {
      let start: number | null = null;
      document.addEventListener(
        'click',
        (event) => {
          start = event.timeStamp;
        },
        { capture: true, once: true },
      );
      probes.pending = watch(route).then((ready) => {
        if (start === null) throw new Error(`${route} got ready before any click`);
        return { ...ready, start, ...probes.workBetween(start, ready.paintAt) };
      });
    },
    workBetween(from, to) {
      const scripts = performance
        .getEntriesByType('resource')
        .filter((entry): entry is PerformanceResourceTiming => entry instanceof PerformanceResourceTiming)
        .filter((entry) => entry.startTime >= from && entry.startTime <= to && new URL(entry.name).pathname.endsWith('.js'));
      const frames = longFrames.filter((frame) => frame.startTime + frame.duration > from && frame.startTime < to);
      const bySource = new Map<string, number>();
      for (const frame of frames) {
        for (const script of frame.scripts) {
          const source = script.sourceURL === '' ? '(no source)' : new URL(script.sourceURL).pathname.replace(/^\/assets\//, '');
          bySource.set(source, (bySource.get(source) ?? 0) + script.duration);
        }
      }
      return {
        scripts: scripts.length,
        scriptsFromWorker: scripts.filter((entry) => entry.workerStart > 0).length,
        scriptsDoneAt: scripts.length ? Math.max(...scripts.map((entry) => entry.responseEnd)) : Number.NaN,
        longFramesMs: frames.reduce((sum, frame) => sum + frame.duration, 0),
        bySource: [...bySource].map(([source, ms]) => ({ source, ms })).sort((a, b) => b.ms - a.ms),
      };
    },
  };
  const supported = PerformanceObserver.supportedEntryTypes;
  if (supported.includes('largest-contentful-paint')) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probes.lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  }
  if (supported.includes('long-animation-frame')) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const frame: unknown = entry.toJSON();
        if (isLongFrame(frame)) longFrames.push(frame);
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  }
  (window as ProbeWindow).__bench = probes;
}

// The in-page steps below are passed to page.evaluate whole (serialised): each reads the probes itself.

/** The first route of the document to get ready. */
function firstReady(): Promise<Ready> {
  const probes = (window as ProbeWindow).__bench;
  if (!probes) throw new Error('the bench probes are not installed in this document');
  return probes.first;
}

function armChange(route: string): void {
  const probes = (window as ProbeWindow).__bench;
  if (!probes) throw new Error('the bench probes are not installed in this document');
  probes.arm(route);
}

function pendingChange(): Promise<Change> {
  const pending = (window as ProbeWindow).__bench?.pending;
  if (!pending) throw new Error('no route change armed');
  return pending;
}

/** The paints of the document and the work until `readyAt`. */
function coldStartPaints(readyAt: number) {
  const probes = (window as ProbeWindow).__bench;
  if (!probes) throw new Error('the bench probes are not installed in this document');
  const navigation = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return {
    fcp: fcp?.startTime ?? Number.NaN,
    lcp: probes.lcp,
    documentAt: navigation instanceof PerformanceNavigationTiming ? navigation.responseEnd : Number.NaN,
    ...probes.workBetween(0, readyAt),
  };
}

/** A fixed piece of work timed in the page: its time throttled over unthrottled shows the throttling is on. */
function calibrationLoop(): number {
  const started = performance.now();
  let value = 0;
  for (let i = 0; i < 3_000_000; i += 1) value = (value + i * 7) % 1_000_003;
  const ms = performance.now() - started;
  return value < 0 ? -ms : ms;
}

// ------------------------------------------------------------------------------------------- in Node

interface OpenBrowser {
  context: BrowserContext;
  page: Page;
}

async function openBrowser(profileDir: string, options: { offline: boolean; cpuRate: number }): Promise<OpenBrowser> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    offline: options.offline,
  });
  // tsx names the functions it compiles with a helper of its own, which the serialised in-page functions call.
  await context.addInitScript({ content: 'globalThis.__name ??= (target) => target;' });
  await context.addInitScript(installProbes, DATA_SHOWN);
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  // Set on the blank tab before the navigation: it stays on through it, as in Lighthouse, for as long as the session
  // stays attached (until the browser closes; Chromium drops a detached session's emulation).
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpuRate });
  return { context, page };
}

async function withTimeout<T>(work: Promise<T>, page: Page, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void page
        .evaluate(() => ({
          url: location.href,
          routes: [...document.querySelectorAll<HTMLElement>('[data-route]')].map((el) => el.dataset.route),
          loading: [...document.querySelectorAll<HTMLElement>('[data-loading]')].map((el) => el.dataset.loading),
          busy: document.querySelectorAll('[data-route] [aria-busy="true"], [data-route] [data-pending]').length,
        }))
        .then(
          (state) => reject(new Error(`${what}: not ready after ${READY_TIMEOUT_MS} ms; page: ${JSON.stringify(state)}`)),
          (error: unknown) => reject(new Error(`${what}: not ready after ${READY_TIMEOUT_MS} ms (${String(error)})`)),
        );
    }, READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lets the page finish what a change started (its slide-in, trailing renders) before the next one is timed. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.then(() => undefined, () => undefined)),
    );
    await new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 5_000 }));
  });
}

/** Whether the device holds the first pull's cursor and the dashboard's figures (read raw from IndexedDB). */
async function deviceIsReady(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    // Opening a database that does not exist yet would create it empty, under the app's feet.
    if (!(await indexedDB.databases()).some((database) => database.name === 'dashboard')) return false;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dashboard');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    try {
      const count = (store: string) =>
        new Promise<number>((resolve, reject) => {
          if (!db.objectStoreNames.contains(store)) return resolve(0);
          const request = db.transaction(store, 'readonly').objectStore(store).count();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error(`counting ${store} failed`));
        });
      return (await count('syncState')) > 0 && (await count('dashboards')) > 0;
    } finally {
      db.close();
    }
  });
}

/** First use online, unthrottled; answers the calibration loop's time there (ms, median of 5) and the browser. */
async function firstUse(profileDir: string, origin: string, email: string): Promise<{ loopMs: number; userAgent: string }> {
  const { context, page } = await openBrowser(profileDir, { offline: false, cpuRate: 1 });
  try {
    await signIn(page, origin, email, PASSWORD);
    await waitForRoute(page, 'Dashboard', 60_000);
    await waitForServiceWorkerControl(page, 'Dashboard');
    await waitUntil(() => deviceIsReady(page), { timeoutMs: 120_000, intervalMs: 250, message: 'the first pull and the dashboard figures on the device' });
    const first = await withTimeout(page.evaluate(firstReady), page, 'the dashboard online');
    if (first.route !== 'Dashboard') throw new Error(`first use ended on ${first.route}`);
    const loops: number[] = [];
    for (let i = 0; i < 5; i += 1) loops.push(await page.evaluate(calibrationLoop));
    return { loopMs: median(loops), userAgent: await page.evaluate(() => navigator.userAgent) };
  } finally {
    await context.close();
  }
}

interface ColdStart {
  fcp: number;
  lcp: number | null;
  /** When the service worker had answered the document (navigation responseEnd). */
  documentAt: number;
  ready: number;
  longFramesMs: number;
  bySource: ScriptCost[];
  scripts: number;
  scriptsFromWorker: number;
  scriptsDoneAt: number;
  calibrationMs: number;
}

async function coldStart(profileDir: string, origin: string): Promise<ColdStart> {
  const { context, page } = await openBrowser(profileDir, { offline: true, cpuRate: CPU_RATE });
  try {
    await page.goto(`${origin}${START_PATH}`, { waitUntil: 'commit' });
    const ready = await withTimeout(page.evaluate(firstReady), page, 'the cold start');
    if (ready.route !== 'Dashboard') throw new Error(`the cold start showed ${ready.route}, not the dashboard`);
    await waitUntil(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length > 0), { message: 'first-contentful-paint' });
    const paints = await page.evaluate(coldStartPaints, ready.paintAt);
    const calibrationMs = await page.evaluate(calibrationLoop);
    return { ...paints, ready: ready.paintAt, calibrationMs };
  } finally {
    await context.close();
  }
}

interface NavEntry {
  key: string;
  href: string;
  route: string;
}

/** The role's navigation as the page shows it: the bar's entries, then the "More" sheet's. */
async function navEntries(page: Page): Promise<NavEntry[]> {
  const found = await page
    .locator('.app-nav [data-nav]')
    .evaluateAll((links) => links.map((link) => ({ key: link.getAttribute('data-nav') ?? '', href: link.getAttribute('href') ?? '' })));
  const byKey = new Map<string, NavEntry>();
  for (const { key, href } of found) {
    if (key !== '' && href !== '' && !byKey.has(key)) byKey.set(key, { key, href, route: resolveRoute(href).route.name });
  }
  return [...byKey.values()];
}

async function changeRoute(page: Page, entry: NavEntry): Promise<Change> {
  const link = page.locator(`.app-nav [data-nav="${entry.key}"]`).first();
  if (!(await link.isVisible())) {
    await page.locator('[data-action="nav-more"]').click();
    await link.waitFor({ state: 'visible' });
  }
  await page.evaluate(armChange, entry.route);
  await link.click();
  const change = await withTimeout(page.evaluate(pendingChange), page, `the change to ${entry.route}`);
  await settle(page);
  return change;
}

interface RouteChanges {
  entries: NavEntry[];
  first: Map<string, Change[]>;
  second: Map<string, Change[]>;
}

async function routeChanges(profileDir: string, origin: string): Promise<RouteChanges> {
  const result: RouteChanges = { entries: [], first: new Map(), second: new Map() };
  for (let run = 0; run < WARMUP + RUNS; run += 1) {
    // A browser of its own for every round: within one, a page loaded again takes the chunks from the renderer's
    // memory (delivered as from the Cache Storage, but without the worker), not from the worker's cache.
    const { context, page } = await openBrowser(profileDir, { offline: false, cpuRate: CPU_RATE });
    try {
      await page.goto(`${origin}${ROUND_START_PATH}`, { waitUntil: 'commit' });
      const start = await withTimeout(page.evaluate(firstReady), page, 'the round start');
      if (start.route !== 'Notifications') throw new Error(`the round started on ${start.route}`);
      if (!(await page.evaluate(() => navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)))) {
        throw new Error('the service worker does not control the page');
      }
      await settle(page);
      if (result.entries.length === 0) result.entries = await navEntries(page);
      for (const visits of [result.first, result.second]) {
        for (const entry of result.entries) {
          const change = await changeRoute(page, entry);
          if (run < WARMUP) continue;
          visits.set(entry.key, [...(visits.get(entry.key) ?? []), change]);
        }
      }
    } finally {
      await context.close();
    }
    process.stderr.write(`  route changes: round ${run + 1} of ${WARMUP + RUNS}${run < WARMUP ? ' (warm-up)' : ''}\n`);
  }
  return result;
}

// ------------------------------------------------------------------------------------------- figures

const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value).toLocaleString('en-US')} ms` : '—');
/** The median of the finite values (a change that fetched no script has no "last one in"). */
const finiteMedian = (values: readonly number[]) => median(values.filter((value) => Number.isFinite(value)));
const spread = (values: readonly number[]) => ({ median: round(median(values)), p90: round(percentile(values, 90)) });
const cell = (values: readonly number[]) => `${ms(median(values))} / ${ms(percentile(values, 90))}`;

/** The scripts named by the long frames of `changes`, each by its median over the changes (0 where absent). */
function topSources(changes: readonly Change[] | readonly ColdStart[], count = 3): ScriptCost[] {
  const sources = new Set(changes.flatMap((change) => change.bySource.map((cost) => cost.source)));
  return [...sources]
    .map((source) => ({ source, ms: median(changes.map((change) => change.bySource.find((cost) => cost.source === source)?.ms ?? 0)) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}

const sourcesText = (costs: readonly ScriptCost[]) => costs.map((cost) => `${cost.source} ${ms(cost.ms)}`).join(', ') || 'none';

async function main(): Promise<void> {
  const distArg = arg('dist') ?? process.env.E2E_STATIC_DIR;
  const dist = distArg ?? join(ROOT_DIR, 'dist');
  if (!existsSync(join(dist, 'index.html'))) {
    if (distArg) throw new Error(`${dist} holds no build`);
    const built = spawnSync(process.execPath, [join(ROOT_DIR, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: ROOT_DIR, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('vite build failed');
  }
  const server = await startServer({ seedDemo: true, startTimeoutMs: 180_000, staticDir: dist });
  let proxy: TcpProxy | null = null;
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  const loadBefore = loadavg()[0] ?? Number.NaN;
  let browserName = 'Chromium';
  try {
    proxy = await startProxy(server.port);
    const origin = proxy.origin;
    const coldRows: string[] = [];
    const changeTables: string[] = [];
    for (const role of ROLES) {
      const profileDir = await mkdtemp(join(tmpdir(), 'bench-cold-start-'));
      try {
        process.stderr.write(`${role.label}: first use online\n`);
        const used = await firstUse(profileDir, origin, role.email);
        const unthrottledLoopMs = used.loopMs;
        browserName = /(?:Headless)?Chrome\/[\d.]+/.exec(used.userAgent)?.[0] ?? used.userAgent;

        const starts: ColdStart[] = [];
        await proxy.set('refuse');
        for (let run = 0; run < WARMUP + RUNS; run += 1) {
          const start = await coldStart(profileDir, origin);
          if (run >= WARMUP) starts.push(start);
          process.stderr.write(`  cold start ${run + 1} of ${WARMUP + RUNS}${run < WARMUP ? ' (warm-up)' : ''}: ready ${ms(start.ready)}\n`);
        }
        await proxy.set('up');
        const lcps = starts.map((start) => start.lcp).filter((value): value is number => value !== null);
        const throttle = median(starts.map((start) => start.calibrationMs)) / unthrottledLoopMs;
        coldRows.push(
          `| ${role.label} | ${cell(starts.map((s) => s.fcp))} | ${lcps.length ? cell(lcps) : 'n/a'} | ${cell(starts.map((s) => s.ready))} | ` +
            `${ms(median(starts.map((s) => s.documentAt)))} | ${median(starts.map((s) => s.scripts))} (${median(starts.map((s) => s.scriptsFromWorker))} from the worker), ${ms(finiteMedian(starts.map((s) => s.scriptsDoneAt)))} | ` +
            `${ms(median(starts.map((s) => s.longFramesMs)))}: ${sourcesText(topSources(starts))} | ${round(throttle, 1)}x |`,
        );

        process.stderr.write(`${role.label}: route changes\n`);
        const changes = await routeChanges(profileDir, origin);
        const rows = changes.entries.map((entry) => {
          const first = changes.first.get(entry.key) ?? [];
          const second = changes.second.get(entry.key) ?? [];
          return { entry, first, second };
        });
        const slowest = [...rows].sort((a, b) => median(b.first.map((c) => c.paintAt - c.start)) - median(a.first.map((c) => c.paintAt - c.start)))[0];
        changeTables.push(
          [
            `Route changes, ${role.label} (from ${ROUND_START_PATH}, in the order of the navigation):`,
            '',
            '| to (nav entry) | first visit, median / p90 | JS files (from the worker), the last one in | long frames, median | second visit, median / p90 |',
            '|---|---|---|---|---|',
            ...rows.map(
              ({ entry, first, second }) =>
                `| ${entry.route} (${entry.key}) | ${cell(first.map((c) => c.paintAt - c.start))} | ` +
                `${median(first.map((c) => c.scripts))} (${median(first.map((c) => c.scriptsFromWorker))}), ${ms(finiteMedian(first.map((c) => c.scriptsDoneAt - c.start)))} | ` +
                `${ms(median(first.map((c) => c.longFramesMs)))} | ${cell(second.map((c) => c.paintAt - c.start))} |`,
            ),
            '',
            slowest
              ? `Slowest first visit: ${slowest.entry.route}; scripts in its long frames (median): ${sourcesText(topSources(slowest.first))}; on a second visit: ${sourcesText(topSources(slowest.second))}.`
              : '',
          ].join('\n'),
        );
        figures[role.label] = {
          coldStart: {
            fcpMs: spread(starts.map((s) => s.fcp)),
            lcpMs: lcps.length ? spread(lcps) : null,
            readyMs: spread(starts.map((s) => s.ready)),
            documentMs: spread(starts.map((s) => s.documentAt)),
            scriptsDoneMs: spread(starts.map((s) => s.scriptsDoneAt)),
            throttleMeasured: round(throttle, 2),
          },
          routeChanges: Object.fromEntries(
            rows.map(({ entry, first, second }) => [
              entry.route,
              { firstMs: spread(first.map((c) => c.paintAt - c.start)), secondMs: spread(second.map((c) => c.paintAt - c.start)) },
            ]),
          ),
        };
      } finally {
        await rm(profileDir, { recursive: true, force: true });
      }
    }
    lines.push(
      `Cold start offline and route changes, CPU ${CPU_RATE}x, ${VIEWPORT.width}x${VIEWPORT.height}, ${browserName}; build ${dist}; ` +
        `${RUNS} runs after ${WARMUP} warm-up; load average ${round(loadBefore, 1)} before, ${round(loadavg()[0] ?? Number.NaN, 1)} after`,
      '',
      `Cold start offline (${START_PATH}, served by the service worker, network refused), ms from the navigation's start:`,
      '',
      '| role | FCP, median / p90 | LCP, median / p90 | ready with data, median / p90 | document from the worker | JS files, the last one in | long frames until ready: top scripts | CPU slowdown measured |',
      '|---|---|---|---|---|---|---|---|',
      ...coldRows,
      '',
      ...changeTables.flatMap((table) => [table, '']),
    );
    console.log(lines.join('\n'));
    report('cold-start', { cpuRate: CPU_RATE, viewport: VIEWPORT, runs: RUNS, browser: browserName, ...figures });
  } finally {
    await proxy?.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
