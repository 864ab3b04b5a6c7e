// Finance calculates a project offline and it arrives (issue 12), in Chromium, Firefox ESR and WebKitGTK, with
// the network cut by the test's own proxy (refused, then hanging) rather than any engine's offline switch. The
// head of production has two projects waiting for calculation. The financial specialist opens the projects list
// once online, then, with the network refused, calculates the first; with it hanging, the second. The screen
// shows each calculated at once, while the server still has both calculating. The network returns and nobody
// touches the device: both calculations reach the server once each, with exactly the amounts typed and who
// calculated them, and the device's outbox lets go of them.
// E2E_ENGINES=chromium,firefox,webkit picks the engines (all three by default). Nothing here waits on a fixed
// time: every step waits for a state, with loose bounds so a busy machine stays green.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { apiGet, apiPost, apiSignIn, projectBody, storeRows, type OutboxEntry, type ServerSession } from './support/device';
import { engineLog, engineSuite, openInApp, orWhileNavigating, selectedEngines, signIn, waitForRoute, waitForSelector, waitForServiceWorkerControl, waitOnScreen, type Engine } from './support/engines';
import type { ProxyMode } from './support/proxy';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const PASSWORD = 'demo1234';
const HEAD = 'head@demo.local';
const FINSPEC = 'finspec@demo.local';

/** What finance types, and what the server must hold for it in kopecks. */
const COSTS_TEXT = '120000';
const EFFECT_TEXT = '1500000,50';
const COSTS_MINOR = 12_000_000;
const EFFECT_MINOR = 150_000_050;

interface ServerProject {
  id: string;
  status: string;
  estimatedCostsMinor: number | null;
  expectedEffect12mMinor: number | null;
  history: Array<{ action: string; fromStatus: string | null; toStatus: string | null; byUserId: string | null }>;
}

const log = engineLog('project-offline');

async function serverProject(serverUrl: string, session: ServerSession, id: string): Promise<ServerProject> {
  const answer = await apiGet<{ data: ServerProject }>(serverUrl, session.accessToken, `/companies/${session.companyId}/projects/${id}`);
  if (answer.status !== 200) throw new Error(`reading project ${id} answered ${answer.status}`);
  return answer.body.data;
}

/** The status of each of `ids` in the device's mirror for its signed-in user ('' for a project it lacks). */
async function mirroredProjects(engine: Engine, ids: string[]): Promise<string[]> {
  const rows = await storeRows<{ id: string; status: string }>(engine, 'projects');
  return ids.map((id) => rows.find((row) => row.id === id)?.status ?? '');
}

/** The status the project page shows (its article's data-status), '' while it is not on screen. */
async function statusOnScreen(engine: Engine): Promise<string> {
  return orWhileNavigating(
    engine.evaluate(() => document.querySelector('[data-route="Project"] article[data-status]')?.getAttribute('data-status') ?? '', null),
    '',
  );
}

/** Fills the field `name` of the project page; then checks the page holds what was typed. */
async function fillField(engine: Engine, name: string, value: string): Promise<void> {
  const selector = `[data-route="Project"] input[name="${name}"]`;
  await engine.fill(selector, value);
  await waitUntil(() => engine.evaluate(({ selector, value }) => document.querySelector<HTMLInputElement>(selector)?.value === value, { selector, value }), {
    timeoutMs: 10_000,
    intervalMs: 100,
    message: `${name} to hold ${value} in ${engine.name}`,
  });
}

let server: RunningServer;
let head: ServerSession;
let finspec: ServerSession;
let headEmployeeId = '';

beforeAll(async () => {
  server = await startServer({ seedDemo: true, startTimeoutMs: 180_000 });
  [head, finspec] = await Promise.all([apiSignIn(server.url, HEAD, PASSWORD), apiSignIn(server.url, FINSPEC, PASSWORD)]);
  const employees = await apiGet<{ data: { items: Array<{ id: string; userId: string | null }> } }>(server.url, head.accessToken, `/companies/${head.companyId}/employees?limit=200`);
  if (employees.status !== 200) throw new Error(`listing employees answered ${employees.status}`);
  headEmployeeId = employees.body.data.items.find((employee) => employee.userId === head.userId)?.id ?? '';
  if (!headEmployeeId) throw new Error('the demo head has no employee record');
}, 200_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

for (const engineName of selectedEngines()) {
  describe(`offline calculation in ${engineName}`, () => {
    const suite = engineSuite(engineName, { serverPort: () => server.port, log });
    const ids: Record<Exclude<ProxyMode, 'up'>, string> = { refuse: '', hang: '' };

    beforeAll(async () => {
      for (const mode of ['refuse', 'hang'] as const) {
        const created = await apiPost<{ data: { id: string } }>(server.url, head, `/companies/${head.companyId}/projects`, projectBody(`Offline calculation (${mode}) in ${engineName} ${Date.now()}`, headEmployeeId));
        if (created.status !== 201) throw new Error(`creating a project answered ${created.status}: ${JSON.stringify(created.body)}`);
        ids[mode] = created.body.data.id;
        const sent = await apiPost<unknown>(server.url, head, `/companies/${head.companyId}/projects/${ids[mode]}/transitions`, { to: 'CALCULATING' });
        if (sent.status !== 200) throw new Error(`sending a project for calculation answered ${sent.status}: ${JSON.stringify(sent.body)}`);
      }
    });

    it('calculates two projects offline (refused, then hanging) and both arrive once, as typed, when the network returns', async () => {
      const { engine: e, proxy } = suite;
      const began = Date.now();
      const all = [ids.refuse, ids.hang];

      await signIn(e, proxy.origin, FINSPEC, PASSWORD);
      await waitForRoute(e, 'Dashboard', 30_000);
      await waitForServiceWorkerControl(e, 'Dashboard');
      // The list once online: the projects come onto the device, waiting for calculation.
      await e.goto(`${proxy.origin}${paths.company.projects(finspec.companyId)}`);
      await waitForRoute(e, 'Projects', 30_000);
      await waitUntil(async () => (await orWhileNavigating(mirroredProjects(e, all), all.map(() => ''))).every((status) => status === 'CALCULATING'), {
        timeoutMs: 60_000,
        intervalMs: 250,
        message: `the two projects to be pulled onto the device in ${engineName}`,
      });

      for (const mode of ['refuse', 'hang'] as const) {
        await proxy.set(mode);
        await openInApp(e, paths.company.project(finspec.companyId, ids[mode]));
        await waitOnScreen(e, '[data-route="Project"] [data-action="calculate"]');
        expect(await statusOnScreen(e)).toBe('CALCULATING');
        await e.click('[data-route="Project"] [data-action="calculate"]');
        await waitForSelector(e, '[data-route="Project"] input[name="estimatedCosts"]');
        await fillField(e, 'estimatedCosts', COSTS_TEXT);
        await fillField(e, 'expectedEffect', EFFECT_TEXT);
        await e.click('[data-route="Project"] [data-action="calculate-submit"]');
        await waitUntil(async () => (await statusOnScreen(e)) === 'CALCULATED', {
          timeoutMs: 30_000,
          intervalMs: 200,
          message: `the calculation on screen with the network ${mode === 'refuse' ? 'refused' : 'hanging'} in ${engineName}`,
        });
      }

      // Nothing reached the server; both calculations wait in the device's outbox.
      for (const id of all) expect((await serverProject(server.url, finspec, id)).status).toBe('CALCULATING');
      const waiting = (await storeRows<OutboxEntry>(e, 'outbox')).filter((row) => all.some((id) => row.entityKey === `projects:${id}`));
      expect(waiting.map((row) => row.entityKey).sort()).toEqual(all.map((id) => `projects:${id}`).sort());

      // The network returns; nobody touches the device.
      await proxy.set('up');
      const restored = Date.now();
      await waitUntil(
        async () => {
          const projects = await Promise.all(all.map((id) => serverProject(server.url, finspec, id)));
          return projects.every((project) => project.status === 'CALCULATED');
        },
        { timeoutMs: 90_000, intervalMs: 500, message: `both calculations to reach the server in ${engineName}` },
      );
      log(engineName, `calculations on the server ${Date.now() - restored} ms after the network came back`);
      await waitUntil(
        async () => {
          const rows = await orWhileNavigating(storeRows<OutboxEntry>(e, 'outbox'), null);
          return rows !== null && !rows.some((row) => all.some((id) => row.entityKey === `projects:${id}`));
        },
        { timeoutMs: 60_000, intervalMs: 250, message: `the outbox to let go of both calculations in ${engineName}` },
      );

      // Each calculation arrived once, as typed, by the financial specialist.
      for (const id of all) {
        const project = await serverProject(server.url, finspec, id);
        expect(project).toMatchObject({ status: 'CALCULATED', estimatedCostsMinor: COSTS_MINOR, expectedEffect12mMinor: EFFECT_MINOR });
        const calculated = project.history.filter((entry) => entry.toStatus === 'CALCULATED');
        expect(calculated).toHaveLength(1);
        expect(calculated[0]).toMatchObject({ action: 'TRANSITION', fromStatus: 'CALCULATING', byUserId: finspec.userId });
      }
      log(engineName, `the whole scenario took ${Date.now() - began} ms`);
    }, 400_000);
  });
}
