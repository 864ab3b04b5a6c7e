// Lighthouse budgets (issue 14): sign-in, registration, the owner's dashboard, an employee's new proposal and a head's
// review list (tests/e2e/support/lighthouse.ts, LIGHTHOUSE_PAGES), on the production build served by the real
// server (its CSP, caching and compression are part of what is measured) behind an HTTPS front speaking HTTP/2, as a
// deployment serves it (support/https-front.ts), with Lighthouse's mobile defaults: performance 95 or more,
// accessibility and best practices 100. A failure prints the audits that cost points.
//
// Robust on a busy machine (tests/e2e/support/lighthouse.ts):
// - the CPU slowdown is calibrated per run from that run's own BenchmarkIndex (multiplier = host index / 383, the
//   phone Lighthouse's default 4x stands for), so a loaded host emulates the same phone as an idle one;
// - each page gets up to RUNS runs and passes on the first that meets every budget (a neighbour's burst of work
//   during one trace still lengthens that run's tasks); a failure reports the run with the best performance.
// Nothing here asserts raw milliseconds: the scores are Lighthouse's own curves over the simulated metrics.
// The figures of three runs per page: node --import tsx tests/bench/lighthouse.ts (docs/benchmarks.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET, CATEGORIES, LIGHTHOUSE_PAGES, describeRun, failingAudits, meetsBudget, runLighthouse, type LighthouseRun } from './support/lighthouse';
import { demoRouteParams, demoTokens, type DemoTokens } from './support/route-sizes';
import { startHttpsFront, type HttpsFront } from './support/https-front';
import { startServer, type RunningServer } from './support/server';

const RUNS = 3;

let server: RunningServer;
let front: HttpsFront;
let companyId = '';
const tokensOf = new Map<string, DemoTokens>();

beforeAll(async () => {
  server = await startServer({ seedDemo: true });
  front = await startHttpsFront(server.url);
  const users = [...new Set(LIGHTHOUSE_PAGES.flatMap((page) => (page.user ? [page.user] : [])))];
  await Promise.all(users.map(async (user) => tokensOf.set(user, await demoTokens(server.url, user, 'demo1234'))));
  const owner = tokensOf.get('owner@demo.local');
  if (!owner) throw new Error('no demo owner');
  const params = await demoRouteParams(server.url, owner.accessToken);
  if (!params.companyId) throw new Error('the demo owner has no company');
  companyId = params.companyId;
}, 180_000);

afterAll(async () => {
  await front?.stop();
  await server?.stop();
});

/** Runs Lighthouse up to RUNS times; answers the first run within budget, else the one with the best performance. */
async function measure(name: string, path: string, tokens: DemoTokens | undefined): Promise<{ run: LighthouseRun; log: string[] }> {
  const log: string[] = [];
  let best: LighthouseRun | undefined;
  for (let attempt = 1; attempt <= RUNS; attempt += 1) {
    let run: LighthouseRun;
    try {
      run = await runLighthouse(`${front.url}${path}`, { tokens, trustedSpki: front.spki });
    } catch (error) {
      // Lighthouse itself sometimes loses a trace on a busy machine (NO_NAVSTART, NO_FCP): that run counts as spent.
      log.push(`${name} #${attempt}: ${String(error)}`);
      continue;
    }
    log.push(describeRun(`${name} #${attempt}`, run));
    // Accessibility and best practices do not depend on timing: what one run misses there is worth seeing.
    for (const category of ['accessibility', 'best-practices'] as const) {
      if (run.scores[category] < BUDGET[category]) log.push(...failingAudits(run.lhr, category).map((line) => `    ${category}: ${line}`));
    }
    if (meetsBudget(run)) return { run, log };
    if (!best || run.scores.performance > best.scores.performance) best = run;
  }
  if (!best) throw new Error(`no Lighthouse run of ${name} completed:\n${log.join('\n')}`);
  return { run: best, log };
}

function report(run: LighthouseRun, log: string[]): string {
  const failing = CATEGORIES.filter((category) => run.scores[category] < BUDGET[category]).flatMap((category) => [
    `${category} ${Math.round(run.scores[category] * 100)} (budget ${Math.round(BUDGET[category] * 100)}):`,
    ...failingAudits(run.lhr, category).map((line) => `  ${line}`),
  ]);
  return [...log, ...failing].join('\n');
}

describe('Lighthouse on a phone (mobile defaults, calibrated CPU)', () => {
  for (const page of LIGHTHOUSE_PAGES) {
    it(`${page.name}: performance >= 95, accessibility 100, best practices 100`, async () => {
      const tokens = page.user ? tokensOf.get(page.user) : undefined;
      const { run, log } = await measure(page.name, page.path(companyId), tokens);
      const shown = report(run, log);
      console.log(shown);
      expect(run.scores.accessibility, shown).toBe(1);
      expect(run.scores['best-practices'], shown).toBe(1);
      expect(run.scores.performance, shown).toBeGreaterThanOrEqual(BUDGET.performance);
    }, 900_000);
  }
});
