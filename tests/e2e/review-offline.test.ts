// Proposal review offline (issue 11), in Chromium, Firefox ESR and WebKitGTK, with the network cut by the
// test's own proxy (refused, then hanging) rather than any engine's offline switch. The demo employee's three
// fresh proposals wait in the production department. The head of production opens the proposals list once
// online, then, with the network refused, approves the first; with it hanging, rejects the second with a reason
// and approves the third. Meanwhile the CEO rejects that third one on the server. The network returns and
// nobody touches the device: the first two decisions reach the server once each, with who decided; the third
// comes back as a conflict on /unsent that names the CEO's decision, and the server keeps the CEO's.
// In Chromium the author then signs in: both decisions show on the proposals with the reason and the
// decider, and the bell counts the unread notifications the server holds for them.
// E2E_ENGINES=chromium,firefox,webkit picks the engines (all three by default). Nothing here waits on a fixed
// time: every step waits for a state, with loose bounds so a busy machine stays green.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { apiGet, apiPost, apiSignIn, storeRows, type OutboxEntry, type ServerSession } from './support/device';
import { engineLog, engineSuite, launchEngine, openInApp, orWhileNavigating, selectedEngines, signIn, waitForRoute, waitForSelector, waitForServiceWorkerControl, waitOnScreen, type Engine } from './support/engines';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const PASSWORD = 'demo1234';
const EMPLOYEE = 'employee@demo.local';
const HEAD = 'head@demo.local';
const CEO = 'ceo@demo.local';

interface ServerSuggestion {
  id: string;
  title: string;
  status: string;
  reviewComment: string | null;
  decidedById?: string | null;
  decidedByName?: string | null;
  history: Array<{ kind: string }>;
}

const log = engineLog('review-offline');

async function serverSuggestion(serverUrl: string, session: ServerSession, id: string): Promise<ServerSuggestion> {
  const answer = await apiGet<{ data: ServerSuggestion }>(serverUrl, session.accessToken, `/companies/${session.companyId}/suggestions/${id}`);
  if (answer.status !== 200) throw new Error(`reading proposal ${id} answered ${answer.status}`);
  return answer.body.data;
}

/** The ids among `ids` that the device's mirror holds for its signed-in user (any owner). */
async function mirroredProposals(engine: Engine, ids: string[]): Promise<string[]> {
  const rows = await storeRows<{ id: string }>(engine, 'suggestions');
  return ids.filter((id) => rows.some((row) => row.id === id));
}

/** The status the proposal page shows (its article's data-status), '' while it is not on screen. */
async function statusOnScreen(engine: Engine): Promise<string> {
  return orWhileNavigating(
    engine.evaluate(() => document.querySelector('[data-route="Suggestion"] article[data-status]')?.getAttribute('data-status') ?? '', null),
    '',
  );
}

let server: RunningServer;
let employee: ServerSession;
let head: ServerSession;
let ceo: ServerSession;
let productionId = '';

beforeAll(async () => {
  server = await startServer({ seedDemo: true, startTimeoutMs: 180_000 });
  [employee, head, ceo] = await Promise.all([apiSignIn(server.url, EMPLOYEE, PASSWORD), apiSignIn(server.url, HEAD, PASSWORD), apiSignIn(server.url, CEO, PASSWORD)]);
  const departments = await apiGet<{ data: Array<{ id: string; headUserId: string | null }> | { items: Array<{ id: string; headUserId: string | null }> } }>(
    server.url,
    head.accessToken,
    `/companies/${head.companyId}/departments`,
  );
  const list = Array.isArray(departments.body.data) ? departments.body.data : departments.body.data.items;
  productionId = list.find((department) => department.headUserId === head.userId)?.id ?? '';
  if (!productionId) throw new Error('the demo head heads no department');
}, 200_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

for (const engineName of selectedEngines()) {
  describe(`offline review in ${engineName}`, () => {
    const suite = engineSuite(engineName, { serverPort: () => server.port, log });
    const ids = { approve: '', reject: '', conflict: '' };
    const reason = `Too costly this year (${engineName})`;

    beforeAll(async () => {
      for (const which of ['approve', 'reject', 'conflict'] as const) {
        const created = await apiPost<{ data: { id: string } }>(server.url, employee, `/companies/${employee.companyId}/suggestions`, {
          id: randomUUID(),
          title: `Review ${which} in ${engineName} ${Date.now()}`,
          problem: 'The press waits for parts.',
          solution: 'A kanban shelf beside it.',
          expectedEffect: 'Ten minutes a shift.',
          departmentId: productionId,
          imageIds: [],
        });
        if (created.status !== 201) throw new Error(`creating a proposal answered ${created.status}: ${JSON.stringify(created.body)}`);
        ids[which] = created.body.data.id;
      }
    });

    it('decides offline, sends each decision once when the network returns, and parks the one the CEO overtook as a conflict', async () => {
      const { engine: e, proxy } = suite;
      const proposal = (id: string) => paths.company.suggestion(head.companyId, id);

      await signIn(e, proxy.origin, HEAD, PASSWORD);
      await waitForRoute(e, 'Dashboard', 30_000);
      await waitForServiceWorkerControl(e, 'Dashboard');
      // The list once online, opened as a tap on its link does: the proposals come onto the device. (A full
      // navigation away from the dashboard here, as `goto`, has left WebKitGTK's IndexedDB answering no transaction.)
      await openInApp(e, paths.company.suggestions(head.companyId));
      await waitForRoute(e, 'Suggestions', 30_000);
      const all = [ids.approve, ids.reject, ids.conflict];
      await waitUntil(async () => (await orWhileNavigating(mirroredProposals(e, all), [])).length === all.length, {
        timeoutMs: 60_000,
        intervalMs: 250,
        message: `the three proposals to be pulled onto the device in ${engineName}`,
      });

      // Refused network: approve the first.
      await proxy.set('refuse');
      await openInApp(e, proposal(ids.approve));
      await waitOnScreen(e, '[data-action="review-approve"]');
      await e.click('[data-action="review-approve"]');
      await waitForSelector(e, '[data-action="dialog-confirm"]');
      await e.click('[data-action="dialog-confirm"]');
      await waitUntil(async () => (await statusOnScreen(e)) === 'APPROVED', { timeoutMs: 30_000, intervalMs: 200, message: `the approval on screen in ${engineName}` });

      // Hanging network: reject the second with a reason, approve the third.
      await proxy.set('hang');
      await openInApp(e, proposal(ids.reject));
      await waitOnScreen(e, '[data-action="review-reject"]');
      await e.click('[data-action="review-reject"]');
      await waitForSelector(e, '[data-route="Suggestion"] textarea[name="comment"]');
      await e.fill('[data-route="Suggestion"] textarea[name="comment"]', reason);
      await e.click('[data-action="review-submit"]');
      await waitUntil(async () => (await statusOnScreen(e)) === 'REJECTED', { timeoutMs: 30_000, intervalMs: 200, message: `the rejection on screen in ${engineName}` });

      await openInApp(e, proposal(ids.conflict));
      await waitOnScreen(e, '[data-action="review-approve"]');
      await e.click('[data-action="review-approve"]');
      await waitForSelector(e, '[data-action="dialog-confirm"]');
      await e.click('[data-action="dialog-confirm"]');
      await waitUntil(async () => (await statusOnScreen(e)) === 'APPROVED', { timeoutMs: 30_000, intervalMs: 200, message: `the third approval on screen in ${engineName}` });

      // Nothing reached the server; the CEO decides the third one meanwhile.
      expect((await serverSuggestion(server.url, head, ids.approve)).status).toBe('UNDER_CONSIDERATION');
      expect((await serverSuggestion(server.url, head, ids.reject)).status).toBe('UNDER_CONSIDERATION');
      const overtaken = await apiPost<{ data: ServerSuggestion }>(server.url, ceo, `/companies/${ceo.companyId}/suggestions/${ids.conflict}/review`, {
        decision: 'REJECTED',
        comment: 'Not in this budget',
      });
      expect(overtaken.status).toBe(200);
      const waiting = (await storeRows<OutboxEntry>(e, 'outbox')).filter((row) => all.some((id) => row.entityKey === `suggestions:${id}`));
      expect(waiting.map((row) => row.kind).sort()).toEqual(['suggestion.review', 'suggestion.review', 'suggestion.review']);

      // The network returns; nobody touches the device.
      await proxy.set('up');
      const started = Date.now();
      await waitUntil(
        async () => {
          const [a, b] = await Promise.all([serverSuggestion(server.url, head, ids.approve), serverSuggestion(server.url, head, ids.reject)]);
          return a.status === 'APPROVED' && b.status === 'REJECTED';
        },
        { timeoutMs: 90_000, intervalMs: 500, message: `both decisions to reach the server in ${engineName}` },
      );
      log(engineName, `decisions on the server ${Date.now() - started} ms after the network came back`);
      await waitUntil(
        async () => {
          const rows = (await orWhileNavigating(storeRows<OutboxEntry>(e, 'outbox'), null)) ?? [];
          const mine = rows.filter((row) => all.some((id) => row.entityKey === `suggestions:${id}`));
          return mine.length === 1 && mine[0]?.entityKey === `suggestions:${ids.conflict}` && mine[0]?.status === 'conflict';
        },
        { timeoutMs: 60_000, intervalMs: 250, message: `the overtaken approval to be parked as a conflict in ${engineName}` },
      );

      // Each decision arrived once, by the head; the CEO's decision stands.
      const approved = await serverSuggestion(server.url, head, ids.approve);
      expect(approved.decidedById).toBe(head.userId);
      expect(approved.history.filter((entry) => entry.kind === 'APPROVED')).toHaveLength(1);
      const rejected = await serverSuggestion(server.url, head, ids.reject);
      expect(rejected.reviewComment).toBe(reason);
      expect(rejected.history.filter((entry) => entry.kind === 'REJECTED')).toHaveLength(1);
      const kept = await serverSuggestion(server.url, head, ids.conflict);
      expect(kept.status).toBe('REJECTED');
      expect(kept.decidedById).toBe(ceo.userId);

      // /unsent shows the conflict with both sides: the head's approval and the CEO's rejection.
      await openInApp(e, paths.unsent);
      await waitForSelector(e, '.unsent-item[data-status="conflict"]', 30_000);
      const text = await e.text('.unsent-item[data-status="conflict"]');
      log(engineName, `conflict on /unsent: ${text.replace(/\s+/g, ' ')}`);
      const ceoName = kept.decidedByName ?? '';
      expect(ceoName).not.toBe('');
      expect(text).toContain(ceoName.split(' ')[0] ?? ceoName);
      expect(text).toMatch(/approve|одобр/i);
      expect(text).toMatch(/reject|отклон/i);
    }, 400_000);

    if (engineName === 'chromium') {
      it('shows the author both decisions, and the bell counts what the server holds unread for them', async () => {
        const { proxy } = suite;
        const author = await launchEngine('chromium');
        try {
          await signIn(author, proxy.origin, EMPLOYEE, PASSWORD);
          await waitForRoute(author, 'Dashboard', 30_000);
          const page = (id: string) => `${proxy.origin}${paths.company.suggestion(employee.companyId, id)}`;

          await author.goto(page(ids.approve));
          await waitUntil(async () => (await statusOnScreen(author)) === 'APPROVED', { timeoutMs: 60_000, intervalMs: 250, message: 'the approval on the author’s screen' });
          const approvedText = await author.text('[data-route="Suggestion"] article');
          const headName = (await serverSuggestion(server.url, employee, ids.approve)).decidedByName ?? '';
          expect(approvedText).toContain(headName.split(' ')[0] ?? headName);

          await author.goto(page(ids.reject));
          await waitUntil(async () => (await statusOnScreen(author)) === 'REJECTED', { timeoutMs: 60_000, intervalMs: 250, message: 'the rejection on the author’s screen' });
          expect(await author.text('[data-route="Suggestion"] article')).toContain(reason);

          const unread = await apiGet<{ data: { items: Array<{ suggestionId: string | null; kind: string }>; nextCursor: string | null } }>(
            server.url,
            employee.accessToken,
            `/companies/${employee.companyId}/notifications?unread=true&limit=200`,
          );
          const items = unread.body.data.items;
          expect(items.filter((item) => item.suggestionId === ids.approve).map((item) => item.kind)).toEqual(['SUGGESTION_APPROVED']);
          expect(items.filter((item) => item.suggestionId === ids.reject).map((item) => item.kind)).toEqual(['SUGGESTION_REJECTED']);
          await waitUntil(
            async () =>
              (await orWhileNavigating(
                author.evaluate(() => document.querySelector('.notification-bell')?.getAttribute('data-unread') ?? '', null),
                '',
              )) === String(items.length),
            { timeoutMs: 60_000, intervalMs: 250, message: `the bell to count the ${items.length} unread notifications` },
          );
        } finally {
          await author.dispose();
        }
      }, 300_000);
    }
  });
}
