// The offline proposal flow of issue 9 ("Proven in three engines") in Chromium, Firefox ESR and WebKitGTK,
// with the network cut by a proxy of the test's own (support/proxy.ts) instead of any engine's offline switch:
// sign in as the demo employee, open the proposal form once (so the app and its data are on the device), cut
// the network (refused, then hanging), reload (the form must come back within seconds even on a hanging
// network), submit a proposal with three photos, close the browser, start it again on the same profile with
// the network still hanging, bring the network back and touch nothing: exactly one proposal with that title
// reaches the server, with photos byte-identical to what the device stored.
//
// Timings are measured and printed ([offline-engines] lines) for the record; what is asserted about time is
// loose (60 s for a delivery the issue wants within 15 s), so a busy machine stays green and a stall does not.
// E2E_ENGINES=chromium,firefox,webkit picks the engines (all three by default).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { apiSignIn, deviceOutbox, serverProposals, storeCount, type DeviceOutboxRow, type ServerSession } from './support/device';
import {
  chooseFirstOption,
  engineLog,
  engineSuite,
  isVisible,
  openInApp,
  orWhileNavigating,
  routesOnScreen,
  selectedEngines,
  signIn,
  waitForRoute,
  waitForSelector,
  waitForServiceWorkerControl,
} from './support/engines';
import { writeTestPhotos, type PhotoOnDisk } from './support/photos';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const EMPLOYEE = { email: 'employee@demo.local', password: 'demo1234' };

/** What the issue asks for (item 2: the form within 3 s on a hanging network; item 3: delivery within 15 s). */
const REQUIRED = { formOnHangMs: 3_000, deliveryMs: 15_000 };
/** What the tests assert: loose, so only a stall fails them, never a slow machine. */
const BOUND = { formMs: 30_000, deliveryMs: 60_000 };

const log = engineLog('offline-engines');

/**
 * Milliseconds from `since` (epoch ms; now by default) until `probe` is truthy, or null when it is not within
 * `timeoutMs` of the call: what the user waited, counted from the moment they acted.
 */
async function timeUntil(probe: () => Promise<boolean>, timeoutMs: number, since = Date.now()): Promise<number | null> {
  try {
    await waitUntil(probe, { timeoutMs, intervalMs: 100 });
    return Date.now() - since;
  } catch {
    // Not within the bound: reported as null, for the caller's message.
    return null;
  }
}

// One server for the file: a new embedded database takes long to initialise on a busy machine (TESTING.md),
// and each engine works under its own title, so the engines do not see each other's proposals.
let server: RunningServer;
let session: ServerSession;

beforeAll(async () => {
  server = await startServer({ seedDemo: true, startTimeoutMs: 180_000 });
  session = await apiSignIn(server.url, EMPLOYEE.email, EMPLOYEE.password);
}, 200_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

for (const engineName of selectedEngines()) {
  describe(`offline proposal in ${engineName}`, () => {
    const suite = engineSuite(engineName, { serverPort: () => server.port, log });
    let photoDir = '';
    let photos: PhotoOnDisk[] = [];
    const title = `Offline in ${engineName} ${Date.now()}`;
    /** The proposal as the device stored it, read before the network came back. */
    let stored: DeviceOutboxRow | undefined;

    const form = '[data-route="SuggestionCreate"] form';

    beforeAll(async () => {
      photoDir = await mkdtemp(join(tmpdir(), `e2e-photos-${engineName}-`));
      photos = await writeTestPhotos(photoDir);
    });

    afterAll(async () => {
      if (photoDir) await rm(photoDir, { recursive: true, force: true });
    });

    it('shows the form on a refused and on a hanging network, and keeps a proposal with photos', async () => {
      const { engine: e, proxy } = suite;

      await signIn(e, proxy.origin, EMPLOYEE.email, EMPLOYEE.password);
      await waitForRoute(e, 'Dashboard', 30_000);
      // The service worker must control the page, so the shell and the page chunks are there offline.
      await waitForServiceWorkerControl(e, 'Dashboard');

      // Open the form once online, as a tap on its link does, and wait for the departments it offers to be on the
      // device. (A full navigation away from the dashboard here, as `goto`, has left WebKitGTK's IndexedDB answering
      // no transaction at all; the reloads below are the full loads this test is about.)
      await openInApp(e, paths.company.suggestionsCreate(session.companyId));
      await waitForRoute(e, 'SuggestionCreate', 30_000);
      await waitUntil(() => orWhileNavigating(storeCount(e, 'departments'), 0).then((count) => count > 0), {
        timeoutMs: 30_000,
        intervalMs: 250,
        message: `the departments to be pulled onto the device in ${engineName}`,
      });

      // A dead network: connections refused.
      await proxy.set('refuse');
      let started = Date.now();
      await e.reload({ timeoutMs: 30_000 });
      const refusedMs = await timeUntil(() => isVisible(e, form), BOUND.formMs, started);
      log(engineName, `reload on a refused network: form ${refusedMs === null ? 'NOT shown' : `shown ${refusedMs} ms after the reload began`}`);
      expect.soft(refusedMs, `the form on a refused network in ${engineName} (screen: ${(await routesOnScreen(e)).join(', ')})`).not.toBeNull();

      // A hanging network: connections accepted, never answered.
      await proxy.set('hang');
      started = Date.now();
      await e.reload({ timeoutMs: 30_000 });
      const hangMs = await timeUntil(() => isVisible(e, form), BOUND.formMs, started);
      log(
        engineName,
        `reload on a hanging network: form ${hangMs === null ? `NOT shown (waited ${Date.now() - started} ms)` : `shown ${hangMs} ms after the reload began`} (issue 9 asks ${REQUIRED.formOnHangMs} ms)`,
      );
      expect.soft(hangMs, `the form on a hanging network in ${engineName} (screen: ${(await routesOnScreen(e)).join(', ')})`).not.toBeNull();
      if (hangMs === null) {
        // Go on with the rest of the flow on a dead network, so one run tells what else holds.
        log(engineName, 'going on with the network refused instead of hanging');
        await proxy.set('refuse');
        await e.reload({ timeoutMs: 30_000 });
        await waitForSelector(e, form, BOUND.formMs);
      }

      await e.fill(`${form} [name="title"]`, title);
      await e.fill(`${form} [name="problem"]`, 'Changing over the line takes forty minutes.');
      await e.fill(`${form} [name="solution"]`, 'Standardise the fixtures and keep them at the machine.');
      await e.fill(`${form} [name="expectedEffect"]`, 'Twenty minutes less for every changeover.');
      await chooseFirstOption(e, form, 'departmentId');
      // One photo at a time, as from a phone's camera.
      for (const [index, photo] of photos.entries()) {
        await e.setFiles(`${form} [data-field="photos"] input[type="file"]`, [photo.path]);
        await waitUntil(
          () => e.evaluate((sel) => document.querySelectorAll(sel).length, `${form} [data-field="photos"] [data-status="finished"]`).then((count) => count === index + 1),
          { timeoutMs: 30_000, intervalMs: 200, message: `photo ${index + 1} kept in the form in ${engineName}` },
        );
      }

      started = Date.now();
      await e.click(`${form} button[type="submit"]`);
      const savedMs = await timeUntil(async () => (await routesOnScreen(e)).includes('SuggestionCreateResult'), BOUND.formMs, started);
      const rows = (await deviceOutbox(e)).filter((row) => row.title === title);
      log(engineName, `submit on a cut network: ${savedMs === null ? `no result page in ${BOUND.formMs} ms` : `result page after ${savedMs} ms`}, ${rows.length} outbox row(s) with the title`);
      expect(savedMs, `the result page after Submit in ${engineName} (screen: ${(await routesOnScreen(e)).join(', ')})`).not.toBeNull();

      expect(rows).toHaveLength(1);
      const [row] = rows;
      expect(row?.entityKey).toMatch(/^suggestions:/);
      expect(row?.ownerUserId).toBe(session.userId);
      expect(row?.photoSha256).toHaveLength(3);
      expect(row?.photoSha256).not.toContain('missing');
      // For the record: whether the camera-sized photo was downscaled on the device (the small ones never are).
      log(engineName, `camera-sized photo ${row?.photoSha256[0] === photos[0]?.sha256 ? 'stored as picked' : 'downscaled on the device'}`);
      stored = row;
      expect(await serverProposals(server.url, session, title)).toEqual([]);
    }, 300_000);

    it('after a browser restart, reaches the server once with the same photo bytes when the network returns', async () => {
      const { engine: e, proxy } = suite;
      if (!stored) throw new Error(`nothing was stored on the device in ${engineName} (the previous step failed)`);

      // Close the browser and start it again on the same profile, on the cut network: a cold start.
      let started = Date.now();
      await e.restart();
      log(engineName, `browser restarted on its profile in ${Date.now() - started} ms`);
      const networkWhileStarting = proxy.mode();
      started = Date.now();
      await e.goto(`${proxy.origin}${paths.dashboard}`, { timeoutMs: 30_000 });
      const coldMs = await timeUntil(async () => (await routesOnScreen(e)).includes('Dashboard'), BOUND.formMs, started);
      log(
        engineName,
        `cold start on a ${networkWhileStarting === 'hang' ? 'hanging' : 'refused'} network: dashboard ${coldMs === null ? `NOT shown (waited ${Date.now() - started} ms)` : `shown ${coldMs} ms after the app was opened`} (issue 9 asks ${REQUIRED.formOnHangMs} ms)`,
      );
      expect.soft(coldMs, `the dashboard on a cold start with the network ${networkWhileStarting} in ${engineName}`).not.toBeNull();

      // What the device holds before the network comes back: the same row, the same photo bytes.
      const before = (await deviceOutbox(e)).filter((row) => row.title === stored?.title);
      expect(before.map((row) => ({ id: row.id, photoSha256: row.photoSha256 }))).toEqual([{ id: stored.id, photoSha256: stored.photoSha256 }]);
      expect(await serverProposals(server.url, session, title)).toEqual([]);

      // The network returns; nobody touches the device.
      await proxy.set('up');
      started = Date.now();
      const arrived = await timeUntil(async () => (await serverProposals(server.url, session, title)).length > 0, BOUND.deliveryMs, started);
      log(
        engineName,
        `network back: proposal on the server ${arrived === null ? `NOT within ${BOUND.deliveryMs} ms` : `after ${arrived} ms`} (issue 9 asks ${REQUIRED.deliveryMs} ms)`,
      );
      expect(arrived, `the proposal to reach the server within ${BOUND.deliveryMs} ms in ${engineName}`).not.toBeNull();

      // The device lets go of it, and nothing more arrives.
      await waitUntil(async () => (await orWhileNavigating(deviceOutbox(e), null))?.every((row) => row.title !== title) ?? false, {
        timeoutMs: 30_000,
        intervalMs: 250,
        message: `the outbox to let go of the sent proposal in ${engineName}`,
      });
      log(engineName, `outbox empty ${Date.now() - started} ms after the network came back`);
      const onServer = await serverProposals(server.url, session, title);
      expect(onServer).toEqual([{ id: stored.entityKey.slice('suggestions:'.length), authorId: session.userId, photoSha256: stored.photoSha256 }]);
    }, 300_000);
  });
}
