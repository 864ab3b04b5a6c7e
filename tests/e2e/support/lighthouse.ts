// Lighthouse 12 (its Node API) against Debian's Chromium, with Lighthouse's mobile defaults: the Moto G Power
// screen, simulated slow 4G and simulated CPU throttling. One Chromium per run, on a throwaway profile, so nothing
// (HTTP cache, service worker, IndexedDB) carries from one run into the next; a signed-in page gets its tokens in
// localStorage before Lighthouse navigates, and `disableStorageReset` keeps them there.
//
// Over HTTPS and HTTP/2: the callers put support/https-front.ts before the server and give its certificate's SPKI
// (`trustedSpki`), so the page loads as it does from a deployment (a PWA is only installable over HTTPS, and TLS
// terminators speak HTTP/2). Over plain HTTP/1.1 the simulation would queue the page's ~25 files on six connections,
// each paying its own round trips for its first byte while holding a share of the bandwidth.
//
// CPU calibration: the same phone whatever the host and its load. Simulated throttling multiplies the wall time of
// every main-thread task it observed by `cpuSlowdownMultiplier`. Two things make that wall time differ from run to
// run on a shared machine, and each run corrects for both (it gathers first, in Lighthouse's gather mode, and then
// audits the saved artifacts with the multiplier it computed):
// - the host's speed: Lighthouse measures it at the start of every run (BenchmarkIndex; docs/throttling.md, "CPU
//   Throttling"). Its default 4x is meant for a host of about 1533, the index its CPU slowdown calculator pairs
//   with 4x, so the phone it stands for has about 1533 / 4 = 383. A load on the machine lowers the index, never
//   raises it: the host's speed is the highest index seen in this process (HOST_SPEED).
// - the share of a CPU the page's main thread got during the trace: on two cores shared with other work (and with
//   Chromium's other processes and Lighthouse itself) a task of 25 ms of CPU was seen taking 126 ms of wall time.
//   The trace records both for each task (tdur, dur); the share is their ratio over the tasks that could become
//   long ones (10 ms of wall time or more).
// multiplier = (host index / 383) x share, at least 1: a task then counts for its CPU time on the 383 phone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { paths } from '../../../src/domain/paths';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser';
import type { DemoTokens } from './route-sizes';
import { findFreePort } from './server';

// chrome-launcher's defaults, which Lighthouse's CLI starts Chrome with: no background work of the browser's own
// (extensions, translation, throttled background timers) competing with the page on a shared machine.
const LIGHTHOUSE_CHROME_FLAGS = [
  '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,CalculateNativeWinOcclusion,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater,AutofillServerCommunication,PrivacySandboxSettings4',
  '--disable-extensions',
  '--disable-component-extensions-with-background-pages',
  '--disable-client-side-phishing-detection',
  '--metrics-recording-only',
  '--disable-default-apps',
  '--mute-audio',
  '--no-default-browser-check',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-ipc-flooding-protection',
  '--password-store=basic',
  '--use-mock-keychain',
  '--disable-hang-monitor',
  '--disable-prompt-on-repost',
  '--disable-domain-reliability',
];

/** The BenchmarkIndex of the phone Lighthouse's default 4x emulates on the host it was tuned for (1533 / 4). */
export const PHONE_BENCHMARK_INDEX = 1533 / 4;

export const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
export type Category = (typeof CATEGORIES)[number];

/** The budgets of issue 14. */
export const BUDGET: Record<Category, number> = { performance: 0.95, accessibility: 1, 'best-practices': 1 };

/**
 * The pages with a Lighthouse budget (BUDGET), each seen by the demo user whose work it is (null: signed out): the
 * owner's dashboard, an employee's new proposal, a head's review list.
 */
export const LIGHTHOUSE_PAGES: ReadonlyArray<{ name: string; path: (companyId: string) => string; user: string | null }> = [
  { name: 'sign-in', path: () => paths.auth.login, user: null },
  { name: 'registration', path: () => paths.auth.register, user: null },
  { name: 'dashboard', path: () => paths.dashboard, user: 'owner@demo.local' },
  { name: 'proposal create', path: (companyId) => paths.company.suggestionsCreate(companyId), user: 'employee@demo.local' },
  { name: 'review list', path: (companyId) => paths.company.suggestions(companyId), user: 'head@demo.local' },
];

/** The highest BenchmarkIndex seen in this process: the host's speed when nothing else held it back. */
const HOST_SPEED = { benchmarkIndex: 0 };

/** The multiplier that turns a main-thread task of this host, which got `cpuShare` of a CPU, into the phone's. */
export function cpuSlowdownFor(hostBenchmarkIndex: number, cpuShare: number): number {
  return Math.max(1, (hostBenchmarkIndex / PHONE_BENCHMARK_INDEX) * cpuShare);
}

interface TraceEvent {
  name?: string;
  ph?: string;
  pid?: number;
  tid?: number;
  dur?: number;
  tdur?: number;
  args?: { beginData?: { url?: string } };
}

/** Tasks shorter than this never become long ones, whatever the multiplier; their thread times are the noisiest. */
const CANDIDATE_TASK_US = 10_000;

/**
 * The CPU share of the main thread that loaded `url` (the one that parsed its HTML): thread time over wall time of
 * its top-level tasks of CANDIDATE_TASK_US or more. 1 when the trace has no such task or no thread times.
 */
export function cpuShareOf(traceEvents: readonly TraceEvent[], url: string): number {
  const parse = traceEvents.find((event) => event.name === 'ParseHTML' && event.args?.beginData?.url?.startsWith(url));
  if (!parse) return 1;
  let wall = 0;
  let cpu = 0;
  for (const event of traceEvents) {
    if (event.name !== 'RunTask' || event.ph !== 'X' || event.pid !== parse.pid || event.tid !== parse.tid) continue;
    if (event.dur === undefined || event.tdur === undefined || event.dur < CANDIDATE_TASK_US) continue;
    wall += event.dur;
    cpu += Math.min(event.tdur, event.dur);
  }
  return wall > 0 && cpu > 0 ? cpu / wall : 1;
}

export interface LighthouseRun {
  scores: Record<Category, number>;
  /** This run's BenchmarkIndex, and the host's (the highest seen so far) that the multiplier used. */
  benchmarkIndex: number;
  hostBenchmarkIndex: number;
  cpuShare: number;
  cpuSlowdownMultiplier: number;
  /** Displayed values of the metrics, e.g. { FCP: '0.9 s', LCP: '1.1 s', TBT: '40 ms', CLS: '0' }. */
  metrics: Record<'FCP' | 'LCP' | 'TBT' | 'CLS' | 'SI', string>;
  lhr: Result;
}

const METRIC_AUDITS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
} as const;

async function waitForDevTools(port: number, chrome: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (chrome.exitCode !== null || chrome.signalCode !== null) throw new Error(`Chromium exited (${chrome.exitCode ?? chrome.signalCode})`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (response.ok) return;
    } catch {
      // Not listening yet: poll until the deadline.
    }
    if (Date.now() > deadline) throw new Error(`Chromium's DevTools did not answer on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopChromium(chrome: ChildProcess): Promise<void> {
  if (chrome.exitCode !== null || chrome.signalCode !== null) return;
  const exited = new Promise((resolve) => chrome.once('exit', resolve));
  // SIGTERM lets Chromium close its helper processes and profile files; SIGKILL only if it does not go.
  chrome.kill('SIGTERM');
  const timer = setTimeout(() => chrome.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Puts the token pair into the origin's localStorage from a page that does not start the app (no service worker). */
async function seedTokens(port: number, origin: string, tokens: DemoTokens): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default context');
    const page = await context.newPage();
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate((pair) => {
      localStorage.setItem('accessToken', pair.accessToken);
      localStorage.setItem('refreshToken', pair.refreshToken);
    }, tokens);
    await page.close();
  } finally {
    // Over CDP this only disconnects: the browser stays for Lighthouse.
    await browser.close();
  }
}

/**
 * One Lighthouse run of `url` (tokens, if given, in localStorage first), CPU-calibrated as described above.
 * `trustedSpki`: the SPKI of a self-signed certificate the browser is to take as valid (support/https-front.ts).
 */
export async function runLighthouse(url: string, options: { tokens?: DemoTokens; trustedSpki?: string } = {}): Promise<LighthouseRun> {
  const origin = new URL(url).origin;
  const port = await findFreePort();
  const profileDir = await mkdtemp(join(tmpdir(), 'lh-profile-'));
  const artifactsDir = await mkdtemp(join(tmpdir(), 'lh-artifacts-'));
  const trust = options.trustedSpki ? [`--ignore-certificate-errors-spki-list=${options.trustedSpki}`] : [];
  const chrome = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, ...LIGHTHOUSE_CHROME_FLAGS, ...trust, '--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profileDir}`, 'about:blank'], {
    stdio: 'ignore',
  });
  try {
    await waitForDevTools(port, chrome);
    if (options.tokens) await seedTokens(port, origin, options.tokens);
    const flags: Flags = { port, logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: true };
    await lighthouse(url, { ...flags, gatherMode: artifactsDir });

    const artifactsFile = join(artifactsDir, 'artifacts.json');
    const artifacts = JSON.parse(await readFile(artifactsFile, 'utf8')) as { BenchmarkIndex?: unknown; settings?: { throttling?: Record<string, unknown> } };
    const benchmarkIndex = artifacts.BenchmarkIndex;
    if (typeof benchmarkIndex !== 'number' || !artifacts.settings?.throttling) throw new Error('Lighthouse saved no BenchmarkIndex or throttling settings');
    HOST_SPEED.benchmarkIndex = Math.max(HOST_SPEED.benchmarkIndex, benchmarkIndex);
    const trace = JSON.parse(await readFile(join(artifactsDir, 'defaultPass.trace.json'), 'utf8')) as { traceEvents?: TraceEvent[] };
    const cpuShare = cpuShareOf(trace.traceEvents ?? [], url);
    const cpuSlowdownMultiplier = cpuSlowdownFor(HOST_SPEED.benchmarkIndex, cpuShare);
    // Audit mode refuses settings that differ from the gathered ones; under simulated throttling the multiplier is
    // only read by the simulation, so the gathered settings are given the calibrated one too.
    artifacts.settings.throttling.cpuSlowdownMultiplier = cpuSlowdownMultiplier;
    await writeFile(artifactsFile, JSON.stringify(artifacts));

    const result = await lighthouse(url, { ...flags, auditMode: artifactsDir, throttling: { cpuSlowdownMultiplier } });
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const scoreOf = (category: Category): number => lhr.categories[category]?.score ?? 0;
    const metricOf = (id: string): string => lhr.audits[id]?.displayValue ?? '?';
    return {
      scores: { performance: scoreOf('performance'), accessibility: scoreOf('accessibility'), 'best-practices': scoreOf('best-practices') },
      benchmarkIndex,
      hostBenchmarkIndex: HOST_SPEED.benchmarkIndex,
      cpuShare,
      cpuSlowdownMultiplier,
      metrics: {
        FCP: metricOf(METRIC_AUDITS.FCP),
        LCP: metricOf(METRIC_AUDITS.LCP),
        TBT: metricOf(METRIC_AUDITS.TBT),
        CLS: metricOf(METRIC_AUDITS.CLS),
        SI: metricOf(METRIC_AUDITS.SI),
      },
      lhr,
    };
  } finally {
    await stopChromium(chrome);
    // Retries: a helper process of Chromium may still be letting go of the profile for a moment.
    await rm(profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    await rm(artifactsDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

/**
 * The audits that cost `category` points in `lhr` (weighted first), as "id — title (displayValue)" lines; outside
 * performance, with the first items they found (the console error, the element without a name).
 */
export function failingAudits(lhr: Result, category: Category): string[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'manual')
    .sort((a, b) => b.ref.weight - a.ref.weight)
    .map(({ ref, audit }) => {
      const line = `${ref.id} — ${audit?.title ?? ''}${audit?.displayValue ? ` (${audit.displayValue})` : ''} [score ${audit?.score ?? '?'}, weight ${ref.weight}]`;
      const details = audit?.details;
      const items = category !== 'performance' && details && 'items' in details && Array.isArray(details.items) ? details.items.slice(0, 3) : [];
      return [line, ...items.map((item) => `      ${JSON.stringify(item).slice(0, 300)}`)].join('\n');
    });
}

export function meetsBudget(run: LighthouseRun): boolean {
  return CATEGORIES.every((category) => run.scores[category] >= BUDGET[category]);
}

/** One line of figures for a run: scores x100 and the metrics. */
export function describeRun(name: string, run: LighthouseRun): string {
  const { scores, metrics } = run;
  return `${name.padEnd(16)} perf ${Math.round(scores.performance * 100)}  a11y ${Math.round(scores.accessibility * 100)}  bp ${Math.round(scores['best-practices'] * 100)}  FCP ${metrics.FCP}  LCP ${metrics.LCP}  TBT ${metrics.TBT}  CLS ${metrics.CLS}  (BenchmarkIndex ${Math.round(run.benchmarkIndex)}, host ${Math.round(run.hostBenchmarkIndex)}, CPU share ${run.cpuShare.toFixed(2)}, CPU x${run.cpuSlowdownMultiplier.toFixed(2)})`;
}
