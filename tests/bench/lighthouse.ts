// Lighthouse on the pages with a budget (issue 14; tests/e2e/support/lighthouse.ts: mobile defaults, CPU slowdown
// calibrated per run from the host's BenchmarkIndex), every page RUNS times, each run printed with its scores and
// metrics, then the median performance per page. The budget test (tests/e2e/lighthouse.test.ts) stops at a page's
// first run within budget; this shows the spread. Over HTTPS and HTTP/2 through support/https-front.ts, as the
// budget test measures; `--http1` measures the server's own plain HTTP/1.1 instead, for comparison.
// Run: node --import tsx tests/bench/lighthouse.ts [--dist=DIR] [--runs=3] [--http1]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHttpsFront } from '../e2e/support/https-front';
import { ROOT_DIR, startServer } from '../e2e/support/server';
import { demoRouteParams, demoTokens } from '../e2e/support/route-sizes';
import { LIGHTHOUSE_PAGES, describeRun, runLighthouse } from '../e2e/support/lighthouse';

async function main(): Promise<void> {
  const dist = process.argv.find((a) => a.startsWith('--dist='))?.slice('--dist='.length) ?? join(ROOT_DIR, 'dist');
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 3);
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist} holds no build (npm run build, or --dist=DIR)`);
  const server = await startServer({ seedDemo: true, startTimeoutMs: 180_000, env: { STATIC_DIR: dist } });
  const front = process.argv.includes('--http1') ? null : await startHttpsFront(server.url);
  try {
    const owner = await demoTokens(server.url, 'owner@demo.local', 'demo1234');
    const { companyId } = await demoRouteParams(server.url, owner.accessToken);
    if (!companyId) throw new Error('the demo owner has no company');
    console.log(`Lighthouse ${runs}x per page, mobile, calibrated CPU, ${front ? 'HTTPS and HTTP/2' : 'plain HTTP/1.1'} (build: ${dist})`);
    const medians: string[] = [];
    for (const page of LIGHTHOUSE_PAGES) {
      const tokens = page.user ? await demoTokens(server.url, page.user, 'demo1234') : undefined;
      const scores: number[] = [];
      for (let run = 1; run <= runs; run += 1) {
        try {
          const result = await runLighthouse(`${front?.url ?? server.url}${page.path(companyId)}`, { tokens, trustedSpki: front?.spki });
          scores.push(result.scores.performance);
          console.log(describeRun(`${page.name} #${run}`, result));
        } catch (error) {
          // A trace Lighthouse lost on a busy machine (NO_NAVSTART): reported, and the next run goes on.
          console.log(`${page.name} #${run}: ${String(error)}`);
        }
      }
      scores.sort((a, b) => a - b);
      medians.push(`${page.name}: median performance ${Math.round((scores[Math.floor(scores.length / 2)] ?? 0) * 100)}`);
    }
    console.log(medians.join('\n'));
  } finally {
    await front?.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
