// The owner decides on registries offline and the decisions arrive (issue 13), in Chromium, Firefox ESR and
// WebKitGTK, with the network cut by the test's own proxy (refused, then hanging) rather than any engine's offline
// switch. The direction manager has sent the owner two registries of one approved project each. The owner opens the
// registry once online, then, with the network refused, approves the first with a lower final cost for its project
// and the reason; with it hanging, returns the second with a comment. The device shows each decision at once, while
// the server still has both registries sent. The network returns and nobody touches the device: both decisions
// reach the server once each, with exactly the cost, reason and comment typed and the owner as who decided, and the
// device's outbox lets go of them.
// E2E_ENGINES=chromium,firefox,webkit picks the engines (all three by default). Nothing here waits on a fixed
// time: every step waits for a state, with loose bounds so a busy machine stays green.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import type { Registry } from '../../src/domain/registry';
import { apiGet, apiPost, apiSignIn, projectBody, storeRows, type OutboxEntry, type ServerSession } from './support/device';
import { engineLog, engineSuite, openInApp, orWhileNavigating, selectedEngines, signIn, waitForRoute, waitForServiceWorkerControl, waitOnScreen, type Engine } from './support/engines';
import type { ProxyMode } from './support/proxy';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const PASSWORD = 'demo1234';
const OWNER = 'owner@demo.local';
const HEAD = 'head@demo.local';
const FINSPEC = 'finspec@demo.local';
const DIRECTION = 'direction@demo.local';

/** What finance calculated for each project, in kopecks. */
const COSTS_MINOR = 12_000_000;
const EFFECT_MINOR = 150_000_050;
/** The owner's final cost for the approved registry's project, 1,000.00 RUB less, as typed and in kopecks. */
const FINAL_COST_TEXT = '119000,00';
const FINAL_COST_MINOR = 11_900_000;
const REASON = 'Поставщик дал скидку на оснастку';
const RETURN_COMMENT = 'Пересчитайте эффект по второй линии';

type Cut = Exclude<ProxyMode, 'up'>;

const log = engineLog('registry-offline');

async function serverRegistry(serverUrl: string, session: ServerSession, id: string): Promise<Registry> {
  const answer = await apiGet<{ data: Registry }>(serverUrl, session.accessToken, `/companies/${session.companyId}/registry/${id}`);
  if (answer.status !== 200) throw new Error(`reading registry ${id} answered ${answer.status}`);
  return answer.body.data;
}

/** The status of each of `ids` in the device's mirror ('' for a registry it lacks). */
async function mirroredRegistries(engine: Engine, ids: string[]): Promise<string[]> {
  const rows = await storeRows<{ id: string; status: string }>(engine, 'registries');
  return ids.map((id) => rows.find((row) => row.id === id)?.status ?? '');
}

/** Waits until the mirror shows registry `id` in `status` (polling across the navigations a decision makes). */
async function waitForMirrored(engine: Engine, id: string, status: string, message: string): Promise<void> {
  await waitUntil(async () => (await orWhileNavigating(mirroredRegistries(engine, [id]), ['']))[0] === status, {
    timeoutMs: 30_000,
    intervalMs: 200,
    message: `${message} in ${engine.name}`,
  });
}

/** Types `value` into the field at `selector`; then checks the page holds what was typed. */
async function fillField(engine: Engine, selector: string, value: string): Promise<void> {
  await engine.fill(selector, value);
  await waitUntil(
    () => engine.evaluate(({ selector, value }) => document.querySelector<HTMLInputElement | HTMLTextAreaElement>(selector)?.value === value, { selector, value }),
    { timeoutMs: 10_000, intervalMs: 100, message: `${selector} to hold ${value} in ${engine.name}` },
  );
}

let server: RunningServer;
let owner: ServerSession;
let head: ServerSession;
let finspec: ServerSession;
let direction: ServerSession;
let headEmployeeId = '';

/** A new project of the head of production, calculated by finance and approved by the direction manager. */
async function approvedProject(name: string): Promise<string> {
  const created = await apiPost<{ data: { id: string } }>(server.url, head, `/companies/${head.companyId}/projects`, projectBody(name, headEmployeeId));
  if (created.status !== 201) throw new Error(`creating a project answered ${created.status}: ${JSON.stringify(created.body)}`);
  const id = created.body.data.id;
  const moves: Array<[ServerSession, Record<string, unknown>]> = [
    [head, { to: 'CALCULATING' }],
    [finspec, { to: 'CALCULATED', estimatedCostsMinor: COSTS_MINOR, expectedEffect12mMinor: EFFECT_MINOR }],
    [direction, { to: 'APPROVED' }],
  ];
  for (const [who, body] of moves) {
    const moved = await apiPost<unknown>(server.url, who, `/companies/${head.companyId}/projects/${id}/transitions`, body);
    if (moved.status !== 200) throw new Error(`moving project ${id} to ${String(body.to)} answered ${moved.status}: ${JSON.stringify(moved.body)}`);
  }
  return id;
}

/** Sends `projectId` to the owner as a registry of its own (by the direction manager); the registry's id. */
async function sentRegistry(projectId: string): Promise<string> {
  const sent = await apiPost<{ data: Registry }>(server.url, direction, `/companies/${direction.companyId}/registry/send`, { id: randomUUID(), projectIds: [projectId] });
  if (sent.status !== 201) throw new Error(`sending a registry answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  if (sent.body.data.status !== 'SENT') throw new Error(`the sent registry is ${sent.body.data.status}`);
  return sent.body.data.id;
}

beforeAll(async () => {
  server = await startServer({ seedDemo: true, startTimeoutMs: 180_000 });
  [owner, head, finspec, direction] = await Promise.all([
    apiSignIn(server.url, OWNER, PASSWORD),
    apiSignIn(server.url, HEAD, PASSWORD),
    apiSignIn(server.url, FINSPEC, PASSWORD),
    apiSignIn(server.url, DIRECTION, PASSWORD),
  ]);
  const employees = await apiGet<{ data: { items: Array<{ id: string; userId: string | null }> } }>(server.url, head.accessToken, `/companies/${head.companyId}/employees?limit=200`);
  if (employees.status !== 200) throw new Error(`listing employees answered ${employees.status}`);
  headEmployeeId = employees.body.data.items.find((employee) => employee.userId === head.userId)?.id ?? '';
  if (!headEmployeeId) throw new Error('the demo head has no employee record');
}, 200_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

for (const engineName of selectedEngines()) {
  describe(`offline registry decisions in ${engineName}`, () => {
    const suite = engineSuite(engineName, { serverPort: () => server.port, log });
    const projects: Record<Cut, string> = { refuse: '', hang: '' };
    const registries: Record<Cut, string> = { refuse: '', hang: '' };

    beforeAll(async () => {
      for (const mode of ['refuse', 'hang'] as const) {
        projects[mode] = await approvedProject(`Offline registry (${mode}) in ${engineName} ${Date.now()}`);
        registries[mode] = await sentRegistry(projects[mode]);
      }
    });

    it('approves one registry with an adjusted cost (refused) and returns another (hanging), and both arrive once, as typed, when the network returns', async () => {
      const { engine: e, proxy } = suite;
      const began = Date.now();
      const all = [registries.refuse, registries.hang];
      const companyId = owner.companyId;

      await signIn(e, proxy.origin, OWNER, PASSWORD);
      await waitForRoute(e, 'Dashboard', 30_000);
      await waitForServiceWorkerControl(e, 'Dashboard');
      // The registry once online, opened as a tap on its link does: both sent registries come onto the device.
      // (A full navigation away from the owner's dashboard here, as `goto`, left WebKitGTK's IndexedDB answering no
      // transaction at all in about half the runs; a person moves between screens without reloading.)
      await openInApp(e, paths.company.registry(companyId));
      await waitForRoute(e, 'Registry', 30_000);
      await waitUntil(async () => (await orWhileNavigating(mirroredRegistries(e, all), all.map(() => ''))).every((status) => status === 'SENT'), {
        timeoutMs: 60_000,
        intervalMs: 250,
        message: `the two registries to be pulled onto the device in ${engineName}`,
      });

      // Refused: the first registry approved, its project's final cost lowered, with the reason.
      await proxy.set('refuse');
      const first = projects.refuse;
      await openInApp(e, `${paths.company.registryApprove(companyId)}?id=${registries.refuse}`);
      await waitOnScreen(e, `[data-route="RegistryApprove"] [data-testid="registry-item-${first}"]`);
      await fillField(e, `[data-testid="registry-final-cost-${first}"]`, FINAL_COST_TEXT);
      await waitOnScreen(e, `[data-testid="registry-reason-${first}"]`);
      await fillField(e, `[data-testid="registry-reason-${first}"]`, REASON);
      await e.click('[data-route="RegistryApprove"] [data-testid="registry-approve"]');
      await waitForMirrored(e, registries.refuse, 'APPROVED', 'the approval on the device with the network refused');
      await waitForRoute(e, 'RegistryApproveSuccess', 30_000);

      // Hanging: the second registry returned with a comment.
      await proxy.set('hang');
      await openInApp(e, `${paths.company.registryApprove(companyId)}?id=${registries.hang}`);
      await waitOnScreen(e, `[data-route="RegistryApprove"] [data-testid="registry-item-${projects.hang}"]`);
      await e.click('[data-route="RegistryApprove"] [data-testid="registry-return"]');
      await waitOnScreen(e, 'textarea[name="returnComment"]');
      await fillField(e, 'textarea[name="returnComment"]', RETURN_COMMENT);
      await e.click('[data-action="dialog-confirm"]');
      await waitForMirrored(e, registries.hang, 'RETURNED', 'the return on the device with the network hanging');
      await waitForRoute(e, 'Registry', 30_000);

      // Nothing reached the server; both decisions wait in the device's outbox.
      for (const id of all) expect((await serverRegistry(server.url, owner, id)).status).toBe('SENT');
      const waiting = (await storeRows<OutboxEntry>(e, 'outbox')).filter((row) => all.some((id) => row.entityKey === `registries:${id}`));
      expect(waiting.map((row) => row.entityKey).sort()).toEqual(all.map((id) => `registries:${id}`).sort());

      // The network returns; nobody touches the device.
      await proxy.set('up');
      const restored = Date.now();
      await waitUntil(
        async () => {
          const [approved, returned] = await Promise.all(all.map((id) => serverRegistry(server.url, owner, id)));
          return approved?.status === 'APPROVED' && returned?.status === 'RETURNED';
        },
        { timeoutMs: 90_000, intervalMs: 500, message: `both decisions to reach the server in ${engineName}` },
      );
      log(engineName, `decisions on the server ${Date.now() - restored} ms after the network came back`);
      await waitUntil(
        async () => {
          const rows = await orWhileNavigating(storeRows<OutboxEntry>(e, 'outbox'), null);
          return rows !== null && !rows.some((row) => all.some((id) => row.entityKey === `registries:${id}`));
        },
        { timeoutMs: 60_000, intervalMs: 250, message: `the outbox to let go of both decisions in ${engineName}` },
      );

      // Each decision arrived once, as typed, by the owner.
      const approved = await serverRegistry(server.url, owner, registries.refuse);
      expect(approved).toMatchObject({ status: 'APPROVED', decidedByUserId: owner.userId });
      expect(approved.items.find((item) => item.projectId === first)).toMatchObject({
        estimatedCostsMinor: COSTS_MINOR,
        finalCostMinor: FINAL_COST_MINOR,
        adjustmentReason: REASON,
      });
      const approvals = approved.history.filter((entry) => entry.action === 'APPROVE');
      expect(approvals).toHaveLength(1);
      expect(approvals[0]).toMatchObject({ fromStatus: 'SENT', toStatus: 'APPROVED', byUserId: owner.userId });

      const returned = await serverRegistry(server.url, owner, registries.hang);
      expect(returned).toMatchObject({ status: 'RETURNED', comment: RETURN_COMMENT, decidedByUserId: owner.userId });
      const returns = returned.history.filter((entry) => entry.action === 'RETURN');
      expect(returns).toHaveLength(1);
      expect(returns[0]).toMatchObject({ fromStatus: 'SENT', toStatus: 'RETURNED', byUserId: owner.userId, comment: RETURN_COMMENT });
      log(engineName, `the whole scenario took ${Date.now() - began} ms`);
    }, 400_000);
  });
}
