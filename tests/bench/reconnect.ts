// Reconnection benchmark of issue 9 ("Benchmarks"): the time from the network returning to the last of N
// queued proposals stored on the server, per engine, after the device stayed offline with the app open.
// Per engine (Chromium, Firefox ESR, WebKitGTK, through the browser tests' harness tests/e2e/support) and per
// way of cutting the network:
// - the real main-service (one for the whole run, demo company), the built app served by it (--static-dir or
//   E2E_STATIC_DIR; else the server's own dist), the tests' TCP proxy between the browser and the server;
// - a fresh browser profile: sign in as employee@demo.local, wait for the service worker to control the page,
//   open the proposal form and wait for the departments to be on the device;
// - the network cut at the proxy (connections refused), then N proposals submitted through the real form, one
//   after the other in the same page (the app is never reloaded);
// - cut 'refuse': the proxy keeps refusing; cut 'hang': it accepts connections and never answers (a weak
//   signal, a captive portal); either way for --offline-seconds, counted from the last proposal queued, with
//   the app open on its result page and nobody touching it;
// - the proxy switched up, and from that moment the server's DB polled through the API (straight to the
//   server, not through the proxy) every 250 ms until it holds all N: the time of the first and of the last.
// Then the device's outbox must empty and the server must hold each proposal exactly once.
// Timings are printed (last line: JSON, tests/bench/support.ts `report`), never asserted.
// Run: node --import tsx tests/bench/reconnect.ts [--engines=chromium,firefox,webkit] [--offline-seconds=300]
//      [--items=20] [--cuts=refuse,hang] [--deadline-seconds=600] [--static-dir=/tmp/build]
import { paths } from '../../src/domain/paths';
import { apiGet, apiSignIn, outboxSchedule, storeCount, type ServerSession } from '../e2e/support/device';
import {
  chooseFirstOption,
  launchEngine,
  orWhileNavigating,
  routesOnScreen,
  signIn,
  waitForRoute,
  waitForServiceWorkerControl,
  waitForSelector,
  type Engine,
  type EngineName,
} from '../e2e/support/engines';
import { startProxy, type ProxyMode } from '../e2e/support/proxy';
import { startServer, type RunningServer } from '../e2e/support/server';
import { waitUntil } from '../e2e/support/wait';
import { median, report, round } from './support';

const EMPLOYEE = { email: 'employee@demo.local', password: 'demo1234' };
const ALL_ENGINES: EngineName[] = ['chromium', 'firefox', 'webkit'];
const ALL_CUTS: ProxyMode[] = ['refuse', 'hang'];
const POLL_MS = 250;
const FORM = '[data-route="SuggestionCreate"] form';

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=');
const numberOption = (name: string, fallback: number) => {
  const value = Number(option(name) ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number >= 0`);
  return value;
};
const listOption = <T extends string>(name: string, allowed: readonly T[], fallback: readonly T[]): T[] => {
  const asked = option(name)?.split(',').map((v) => v.trim()) ?? [...fallback];
  const unknown = asked.filter((v) => !(allowed as readonly string[]).includes(v));
  if (unknown.length > 0) throw new Error(`--${name}: unknown ${unknown.join(', ')} (allowed: ${allowed.join(', ')})`);
  return asked as T[];
};

const ENGINES = listOption('engines', ALL_ENGINES, ALL_ENGINES);
const CUTS = listOption('cuts', ALL_CUTS, ['refuse']);
const OFFLINE_MS = numberOption('offline-seconds', 300) * 1000;
const ITEMS = numberOption('items', 20);
const DEADLINE_MS = numberOption('deadline-seconds', 600) * 1000;
const STATIC_DIR = option('static-dir');

const log = (message: string) => console.error(`[reconnect] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RunFigures {
  engine: EngineName;
  cut: ProxyMode;
  userAgent: string;
  /** Time to submit the N proposals through the form on the cut network. */
  queueingMs: number;
  /** From the cut to the network coming back. */
  cutMs: number;
  /** Before the network came back: the rows' attempts and how far off their next attempt was. */
  beforeUp: { rows: number; statuses: Record<string, number>; attemptsMax: number; attemptsMedian: number; dueInMsMax: number; dueInMsMedian: number };
  /** From the switch up to each proposal seen on the server (poll of 250 ms), in arrival order. */
  arrivalsMs: number[];
  firstMs: number | null;
  lastMs: number | null;
  /** From the switch up to the server's own creation time of the last proposal (no poll granularity). */
  lastCreatedMs: number | null;
  /** Requests the server received from the switch up until the outbox emptied (its request log). */
  requestsAfterUp: { push: number; postSuggestion: number; health: number; other: number; benchPolls: number };
  /** From the switch up to the device's outbox holding none of the run's rows. */
  outboxEmptyMs: number | null;
  onServer: number;
  duplicates: number;
}

/** The session user's proposals on the server whose title starts with `prefix`: title -> server creation times. */
async function serverTitles(server: RunningServer, session: ServerSession, prefix: string): Promise<Map<string, number[]>> {
  const listed = await apiGet<{ data: { items: Array<{ title: string; createdAt: string }> } }>(
    server.url,
    session.accessToken,
    `/companies/${session.companyId}/suggestions?scope=mine&limit=200`,
  );
  if (listed.status !== 200) throw new Error(`listing proposals answered ${listed.status}`);
  const found = new Map<string, number[]>();
  for (const item of listed.body.data.items) {
    if (!item.title.startsWith(prefix)) continue;
    found.set(item.title, [...(found.get(item.title) ?? []), Date.parse(item.createdAt)]);
  }
  return found;
}

/** Counts the requests in a stretch of the server's log (LOG_LEVEL=info: one 'incoming request' line each). */
function countRequests(log: string): RunFigures['requestsAfterUp'] {
  const counts = { push: 0, postSuggestion: 0, health: 0, other: 0, benchPolls: 0 };
  for (const line of log.split('\n')) {
    if (!line.includes('"incoming request"')) continue;
    const method = /"method":"([A-Z]+)"/.exec(line)?.[1] ?? '';
    const url = /"url":"([^"]+)"/.exec(line)?.[1] ?? '';
    if (url.endsWith('/sync/push')) counts.push += 1;
    else if (method === 'POST' && /\/suggestions$/.test(url)) counts.postSuggestion += 1;
    else if (url.includes('/health')) counts.health += 1;
    else if (url.includes('scope=mine&limit=200')) counts.benchPolls += 1;
    else counts.other += 1;
  }
  return counts;
}

/** Fills and submits the proposal form once, and waits for the result page. */
async function submitThroughForm(engine: Engine, formPath: string, title: string): Promise<void> {
  // In-app navigation (the router follows pushState), so the app stays open as it would in a user's hands.
  await engine.evaluate((path) => {
    history.pushState(null, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
    return true;
  }, formPath);
  await waitForSelector(engine, FORM, 30_000);
  await engine.fill(`${FORM} [name="title"]`, title);
  await engine.fill(`${FORM} [name="problem"]`, 'Changing over the line takes forty minutes.');
  await engine.fill(`${FORM} [name="solution"]`, 'Standardise the fixtures and keep them at the machine.');
  await engine.fill(`${FORM} [name="expectedEffect"]`, 'Twenty minutes less for every changeover.');
  await chooseFirstOption(engine, FORM, 'departmentId');
  await engine.click(`${FORM} button[type="submit"]`);
  await waitUntil(async () => (await routesOnScreen(engine)).includes('SuggestionCreateResult'), {
    timeoutMs: 30_000,
    intervalMs: 100,
    message: `the result page after submitting "${title}" in ${engine.name}`,
  });
}

async function runOnce(server: RunningServer, engineName: EngineName, cut: ProxyMode): Promise<RunFigures> {
  const proxy = await startProxy(server.port);
  let engine: Engine | undefined;
  try {
    let session = await apiSignIn(server.url, EMPLOYEE.email, EMPLOYEE.password);
    const formPath = paths.company.suggestionsCreate(session.companyId);
    const prefix = `Reconnect ${engineName} ${cut} ${Date.now()}`;
    const titles = Array.from({ length: ITEMS }, (_, i) => `${prefix} #${String(i + 1).padStart(2, '0')}`);

    engine = await launchEngine(engineName);
    const e = engine;
    const userAgent = await e.evaluate(() => navigator.userAgent, null);
    await signIn(e, proxy.origin, EMPLOYEE.email, EMPLOYEE.password);
    await waitForRoute(e, 'Dashboard', 30_000);
    await waitForServiceWorkerControl(e, 'Dashboard');
    await e.goto(`${proxy.origin}${formPath}`);
    await waitForRoute(e, 'SuggestionCreate', 30_000);
    await waitUntil(() => orWhileNavigating(storeCount(e, 'departments'), 0).then((count) => count > 0), {
      timeoutMs: 30_000,
      intervalMs: 250,
      message: `the departments to be pulled onto the device in ${engineName}`,
    });

    // The network goes; the proposals are queued through the form while it is refused in both ways (a hanging
    // network during the queueing is item 2's figure, not this one).
    await proxy.set('refuse');
    const cutAt = Date.now();
    for (const title of titles) await submitThroughForm(e, formPath, title);
    const queueingMs = Date.now() - cutAt;
    const queued = (await outboxSchedule(e)).rows.filter((row) => typeof row.title === 'string' && row.title.startsWith(prefix));
    if (queued.length !== ITEMS) throw new Error(`${queued.length} of ${ITEMS} proposals queued on the device in ${engineName}`);
    log(`${engineName}/${cut}: ${ITEMS} proposals queued in ${queueingMs} ms; offline for ${OFFLINE_MS / 1000} s with the app open`);
    if (cut === 'hang') await proxy.set('hang');
    await sleep(OFFLINE_MS);

    const schedule = await outboxSchedule(e);
    const waiting = schedule.rows.filter((row) => typeof row.title === 'string' && row.title.startsWith(prefix));
    const attempts = waiting.map((row) => row.attempts);
    const dueIn = waiting.map((row) => Math.max(0, row.nextAttemptAt - schedule.now));
    const statuses: Record<string, number> = {};
    for (const row of waiting) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
    const beforeUp = {
      rows: waiting.length,
      statuses,
      attemptsMax: attempts.length > 0 ? Math.max(...attempts) : 0,
      attemptsMedian: median(attempts),
      dueInMsMax: dueIn.length > 0 ? Math.max(...dueIn) : 0,
      dueInMsMedian: round(median(dueIn), 0),
    };
    log(`${engineName}/${cut}: before the network returns: ${JSON.stringify(beforeUp)}`);
    session = await apiSignIn(server.url, EMPLOYEE.email, EMPLOYEE.password);
    if ((await serverTitles(server, session, prefix)).size > 0) throw new Error(`proposals reached the server while the network was cut in ${engineName}`);

    // The network returns; nobody touches the device.
    const logMark = server.output().length;
    await proxy.set('up');
    const upAt = Date.now();
    const cutMs = upAt - cutAt;
    const seenAt = new Map<string, number>();
    let onServer = new Map<string, number[]>();
    while (seenAt.size < ITEMS && Date.now() - upAt < DEADLINE_MS) {
      onServer = await serverTitles(server, session, prefix);
      const now = Date.now();
      for (const title of onServer.keys()) if (!seenAt.has(title)) seenAt.set(title, now - upAt);
      if (seenAt.size < ITEMS) await sleep(POLL_MS);
    }
    const arrivalsMs = [...seenAt.values()].sort((a, b) => a - b);
    const created = [...onServer.values()].flat();
    log(`${engineName}/${cut}: ${seenAt.size} of ${ITEMS} on the server, the last after ${arrivalsMs.at(-1) ?? 'never'} ms`);

    // The device lets go of every row, and nothing arrives twice.
    let outboxEmptyMs: number | null = null;
    try {
      await waitUntil(
        async () => {
          const rows = await orWhileNavigating(outboxSchedule(e), null);
          return rows !== null && rows.rows.every((row) => !(typeof row.title === 'string' && row.title.startsWith(prefix)));
        },
        { timeoutMs: Math.max(30_000, DEADLINE_MS - (Date.now() - upAt)), intervalMs: POLL_MS },
      );
      outboxEmptyMs = Date.now() - upAt;
    } catch {
      // Reported as null: the outbox still held rows of this run at the deadline.
    }
    const requestsAfterUp = countRequests(server.output().slice(logMark));
    onServer = await serverTitles(server, session, prefix);
    const duplicates = [...onServer.values()].reduce((sum, times) => sum + times.length - 1, 0);
    return {
      engine: engineName,
      cut,
      userAgent,
      queueingMs,
      cutMs,
      beforeUp,
      arrivalsMs,
      firstMs: arrivalsMs[0] ?? null,
      lastMs: seenAt.size === ITEMS ? (arrivalsMs.at(-1) ?? null) : null,
      lastCreatedMs: seenAt.size === ITEMS && created.length > 0 ? Math.max(...created) - upAt : null,
      outboxEmptyMs,
      requestsAfterUp,
      onServer: onServer.size,
      duplicates,
    };
  } finally {
    // Each on its own: a failure in one must not leave the other's processes running.
    await engine?.dispose().catch((error: unknown) => log(`disposing ${engineName} failed: ${String(error)}`));
    await proxy.close().catch((error: unknown) => log(`closing the proxy failed: ${String(error)}`));
  }
}

// LOG_LEVEL=info: the server logs every request, so a run tells how many it took (batched push or one by one).
const server = await startServer({ seedDemo: true, startTimeoutMs: 300_000, env: { LOG_LEVEL: 'info' }, ...(STATIC_DIR ? { staticDir: STATIC_DIR } : {}) });
const runs: Array<RunFigures | { engine: EngineName; cut: ProxyMode; error: string }> = [];
try {
  for (const cut of CUTS) {
    for (const engineName of ENGINES) {
      log(`${engineName}/${cut}: starting`);
      try {
        const figures = await runOnce(server, engineName, cut);
        // Each run's figures as soon as they are known, so a long run stopped early still tells them.
        log(`${engineName}/${cut}: ${JSON.stringify(figures)}`);
        runs.push(figures);
      } catch (error) {
        // One engine's failure is a figure too (reported), not the end of the others' runs.
        log(`${engineName}/${cut} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        runs.push({ engine: engineName, cut, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
} finally {
  await server.stop();
}
report('reconnect', {
  environment: `${process.platform}, main-service on embedded PGlite, ${STATIC_DIR ?? process.env.E2E_STATIC_DIR ?? 'dist'} served`,
  items: ITEMS,
  offlineSeconds: OFFLINE_MS / 1000,
  pollMs: POLL_MS,
  runs,
});
