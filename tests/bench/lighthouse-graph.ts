// What Lighthouse's simulation (Lantern) waited on for one page's LCP: one run of the budget pages' harness
// (tests/e2e/support/lighthouse.ts), then every request and main-thread task in the simulated LCP graphs with its
// simulated start and end (ms), sizes and priorities, and the LCP element. For finding what holds a page's LCP.
// Run: LANTERN_DEBUG=1 node --import tsx tests/bench/lighthouse-graph.ts --dist=DIR --page="review list"
// [--metric=FirstContentfulPaint] (default LargestContentfulPaint) [--http1] (the server's plain HTTP/1.1, not
// HTTPS and HTTP/2 through support/https-front.ts as the budget test measures)
// (LANTERN_DEBUG keeps the simulations' node timings; the page names are LIGHTHOUSE_PAGES').
import { existsSync } from 'node:fs';
import { join } from 'node:path';
// Lighthouse's own copy of Lantern: the simulator whose timings the run just kept.
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import { LIGHTHOUSE_PAGES, describeRun, runLighthouse } from '../e2e/support/lighthouse';
import { demoRouteParams, demoTokens } from '../e2e/support/route-sizes';
import { startHttpsFront } from '../e2e/support/https-front';
import { ROOT_DIR, startServer } from '../e2e/support/server';

interface SimNode {
  type: 'network' | 'cpu';
  startTime: number;
  duration?: number;
  request?: { url: string; transferSize?: number; priority?: string };
  didPerformLayout?: () => boolean;
  getEvaluateScriptURLs?: () => Set<string>;
}

async function main(): Promise<void> {
  const dist = process.argv.find((a) => a.startsWith('--dist='))?.slice('--dist='.length) ?? join(ROOT_DIR, 'dist');
  const name = process.argv.find((a) => a.startsWith('--page='))?.slice('--page='.length) ?? 'dashboard';
  const metric = process.argv.find((a) => a.startsWith('--metric='))?.slice('--metric='.length) ?? 'LargestContentfulPaint';
  const page = LIGHTHOUSE_PAGES.find((candidate) => candidate.name === name);
  if (!page) throw new Error(`no page "${name}" (${LIGHTHOUSE_PAGES.map((candidate) => candidate.name).join(', ')})`);
  if (!process.env.LANTERN_DEBUG) throw new Error('set LANTERN_DEBUG=1: without it Lantern keeps no node timings');
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist} holds no build`);
  const server = await startServer({ seedDemo: true, startTimeoutMs: 180_000, env: { STATIC_DIR: dist } });
  const front = process.argv.includes('--http1') ? null : await startHttpsFront(server.url);
  const origin = front?.url ?? server.url;
  try {
    const owner = await demoTokens(server.url, 'owner@demo.local', 'demo1234');
    const { companyId } = await demoRouteParams(server.url, owner.accessToken);
    if (!companyId) throw new Error('the demo owner has no company');
    const tokens = page.user ? await demoTokens(server.url, page.user, 'demo1234') : undefined;
    const run = await runLighthouse(`${origin}${page.path(companyId)}`, { tokens, trustedSpki: front?.spki });
    console.log(describeRun(page.name, run));
    const element = run.lhr.audits['largest-contentful-paint-element']?.details as { items?: Array<{ items?: Array<{ node?: { nodeLabel?: string; selector?: string } }> }> } | undefined;
    const node = element?.items?.[0]?.items?.[0]?.node;
    console.log(`LCP element: ${node?.selector ?? '?'} "${node?.nodeLabel ?? ''}"`);
    // The main thread's long tasks (simulated, as TBT counts them), with the script each is attributed to.
    const longTasks = (run.lhr.audits['long-tasks']?.details as { items?: Array<{ url?: string; startTime?: number; duration?: number }> } | undefined)?.items ?? [];
    for (const task of longTasks) console.log(`long task at ${Math.round(task.startTime ?? 0)} ms: ${Math.round(task.duration ?? 0)} ms ${(task.url ?? '').replace(origin, '')}`);
    const timings = (Lantern as unknown as { Simulation: { Simulator: { allNodeTimings: Map<string, Map<SimNode, { startTime: number; endTime: number }>> } } }).Simulation.Simulator.allNodeTimings;
    for (const label of [`optimistic${metric}`, `pessimistic${metric}`]) {
      const graph = timings.get(label);
      if (!graph) {
        console.log(`\n${label}: not simulated (the simulations: ${[...timings.keys()].join(', ')})`);
        continue;
      }
      console.log(`\n${label}`);
      const rows = [...graph].sort((a, b) => a[1].startTime - b[1].startTime);
      for (const [simNode, timing] of rows) {
        const what =
          simNode.type === 'network'
            ? `${Math.round((simNode.request?.transferSize ?? 0) / 1024)} KB ${simNode.request?.priority ?? ''} ${simNode.request?.url.replace(origin, '') ?? ''}`
            : `CPU ${Math.round((simNode.duration ?? 0) / 1000)} ms observed ${[...(simNode.getEvaluateScriptURLs?.() ?? [])].map((url) => url.replace(origin, '')).join(' ')}${simNode.didPerformLayout?.() ? ' (layout)' : ''}`;
        console.log(`${String(Math.round(timing.startTime)).padStart(6)} ${String(Math.round(timing.endTime)).padStart(6)}  ${what.slice(0, 140)}`);
      }
    }
  } finally {
    await front?.stop();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
