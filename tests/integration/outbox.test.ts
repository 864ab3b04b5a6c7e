// The outbox and its replayer against the real main-service, through a fault-injecting network: lost answers,
// failures between a proposal and its photos, killed replays, two tabs, reused keys, expired tokens, poison
// items, 5xx and timeouts, long outages, a network that comes back after a long refusal, a discard while a
// photo is going up, the service worker's refresh racing a sign-out, and batches through the push (POST
// /sync/push: 250 in three requests, a refusal inside a batch, a drain killed after the server applied its
// batch). Each test checks the server's database (exactly one proposal per submission, its photos once) and
// Dexie (nothing left behind that was sent, nothing dropped that was not).
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPushableOutboxRow } from '../../src/app/outbox-kinds';
import { createHttpClient } from '../../src/lib/http';
import { countUnsent, discard, listOutbox, revise } from '../../src/lib/outbox/outbox';
import { BACKOFF_CAP_MS, LEASE_MS } from '../../src/lib/outbox/replayer';
import { pullCompany } from '../../src/lib/sync/pull';
import { createWorkerTokens, workerRefreshLocks } from '../../sw/outbox-sync';
import { AUTH_CHANNEL_NAME, readTokenMirror, writeTokensFromPage } from '../../sw/token-mirror';
import {
  AppDatabase,
  DAY,
  FaultyNetwork,
  deviceHasServerRow,
  drainUntilSettled,
  expiredAccessToken,
  fakeClock,
  fakeLocks,
  freshDbName,
  makePng,
  replayerFor,
  serverCounts,
  serverFileCount,
  serverProposal,
  signIn,
  startServer,
  submitProposal,
  type RealServer,
  type Session,
} from './harness';

let server: RealServer;
const databases: AppDatabase[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(async () => {
  const open = databases.splice(0);
  // Every "tab" closes first, so a delete never waits for another connection.
  for (const db of open) db.close();
  for (const db of open) await db.delete();
});

function openDb(name = freshDbName()): AppDatabase {
  const db = new AppDatabase(name);
  databases.push(db);
  return db;
}

async function setup(): Promise<{ net: FaultyNetwork; session: Session; db: AppDatabase; clock: ReturnType<typeof fakeClock> }> {
  const net = new FaultyNetwork();
  const session = await signIn(server, net);
  return { net, session, db: openDb(), clock: fakeClock() };
}

const isProposalPost = (path: string) => /^\/companies\/[^/]+\/suggestions$/.test(path);

async function expectExactlyOnce(ids: readonly string[]): Promise<void> {
  const counts = await serverCounts(server, ids);
  expect([...counts.values()]).toEqual(ids.map(() => 1));
}

async function expectDeviceClean(db: AppDatabase, session: Session, ids: readonly string[]): Promise<void> {
  expect(await countUnsent(db, session.userId)).toBe(0);
  expect(await db.files.count()).toBe(0);
  // The server's row (its receivedAt, its images) replaced each local one.
  for (const id of ids) expect(await deviceHasServerRow(db, server, session.userId, id)).toBe(true);
}

describe('the server commits but the answer is lost (1)', () => {
  it('leaves exactly one proposal, with its photos once, after the replay', async () => {
    const { net, session, db, clock } = await setup();
    const photos = [makePng(1), makePng(2)];
    const { id, key } = await submitProposal(db, session, clock, { photos });
    const filesBefore = await serverFileCount(server, session.userId);
    // The first answer of every request (both uploads and the proposal) is lost after the server committed.
    const seen = new Set<string>();
    let dropped = 0;
    net.fault = (call) => {
      if (call.key === null || seen.has(call.key)) return undefined;
      seen.add(call.key);
      dropped += 1;
      return { kind: 'drop-answer' };
    };
    await drainUntilSettled(replayerFor(db, session, clock), clock);

    expect(dropped).toBe(3);
    await expectExactlyOnce([id]);
    const stored = await serverProposal(server, id);
    expect(stored?.images.map((i) => i.bytes)).toEqual(photos.map((p) => new Uint8Array(p)));
    // Each photo was stored once although both answers of the uploads were lost.
    expect(await serverFileCount(server, session.userId)).toBe(filesBefore + 2);
    const posts = net.reached('POST', isProposalPost).filter((c) => c.key === key);
    expect(posts.length).toBe(2);
    expect(posts[1]?.replayed).toBe(true);
    await expectDeviceClean(db, session, [id]);
  });
});

describe('a failure between the proposal and its photo writes (2)', () => {
  it('stores nothing half-way on the device', async () => {
    const { session, db, clock } = await setup();
    await expect(submitProposal(db, session, clock, { photos: [makePng(3)], failMidway: true })).rejects.toThrow(/ArrayBuffer/);
    expect(await db.files.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.suggestions.count()).toBe(0);
  });

  it('after the photos are uploaded but the proposal is not, sends the proposal once with those same photos', async () => {
    const { net, session, db, clock } = await setup();
    const photos = [makePng(4), makePng(5), makePng(6)];
    const { id } = await submitProposal(db, session, clock, { photos });
    const filesBefore = await serverFileCount(server, session.userId);
    net.fault = (call) => (isProposalPost(call.path) ? { kind: 'status', status: 503 } : undefined);
    const first = await replayerFor(db, session, clock).drain();
    expect(first.sent).toBe(0);
    expect((await serverCounts(server, [id])).get(id)).toBe(0);
    // The photos are on the server, and the device remembers them, so a replay does not upload them again.
    expect(await serverFileCount(server, session.userId)).toBe(filesBefore + 3);
    expect((await db.files.toArray()).every((f) => f.uploaded !== null)).toBe(true);

    // The page is killed and reopened: the replay goes on from what the database holds.
    const name = db.name;
    db.close();
    const reopened = openDb(name);
    net.fault = () => undefined;
    await drainUntilSettled(replayerFor(reopened, session, clock), clock);
    await expectExactlyOnce([id]);
    expect((await serverProposal(server, id))?.images.map((i) => i.bytes)).toEqual(photos.map((p) => new Uint8Array(p)));
    expect(await serverFileCount(server, session.userId)).toBe(filesBefore + 3);
    expect(net.reached('POST', '/files/upload').length).toBe(3);
    await expectDeviceClean(reopened, session, [id]);
  });
});

describe('a replay interrupted mid-way (3)', () => {
  it('resumes after the page is killed and sends each item once', async () => {
    const { net, session, db, clock } = await setup();
    const name = db.name;
    const submitted: { id: string; key: string }[] = [];
    for (let i = 0; i < 5; i += 1) submitted.push(await submitProposal(db, session, clock, { photos: i % 2 === 0 ? [makePng(100 + i)] : [] }));
    let answered = 0;
    net.afterAnswer = (call) => {
      if (isProposalPost(call.path)) {
        answered += 1;
        // The third proposal committed on the server; the page dies before it learns so.
        if (answered === 3) db.close();
      }
    };
    // Without Web Locks: the dead page's lease in IndexedDB keeps other senders out until it runs out.
    await expect(replayerFor(db, session, clock, { locks: null }).drain()).rejects.toThrow();
    net.afterAnswer = () => undefined;
    const ids = submitted.map((s) => s.id);
    expect([...(await serverCounts(server, ids)).values()]).toEqual([1, 1, 1, 0, 0]);

    const reopened = openDb(name);
    expect(await countUnsent(reopened, session.userId)).toBe(3);
    const next = replayerFor(reopened, session, clock, { locks: null });
    expect((await next.drain()).skipped).toBe('busy');
    clock.advance(LEASE_MS + 1);
    await drainUntilSettled(next, clock);
    await expectExactlyOnce(ids);
    const perKey = submitted.map((s) => net.reached('POST', isProposalPost).filter((c) => c.key === s.key).length);
    // Only the item whose answer the killed page never saw went out twice, and the server replayed it.
    expect(perKey).toEqual([1, 1, 2, 1, 1]);
    expect(net.reached('POST', isProposalPost).filter((c) => c.key === submitted[2]?.key)[1]?.replayed).toBe(true);
    await expectDeviceClean(reopened, session, ids);
  });
});

describe('two tabs, or a duplicate trigger (4)', () => {
  it('lets one replayer send while the other stays out, and each item goes out once', async () => {
    const { net, session, db, clock } = await setup();
    const tabB = openDb(db.name);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await submitProposal(db, session, clock, { photos: [makePng(200 + i)] })).id);
    const locks = fakeLocks();
    net.fault = () => ({ kind: 'delay', ms: 5 });
    const a = replayerFor(db, session, clock, { locks });
    const b = replayerFor(tabB, session, clock, { locks });
    const [ra, ra2, rb] = await Promise.all([a.drain(), a.drain(), b.drain()]);
    expect(ra).toBe(ra2); // the duplicate trigger joined the running drain
    expect([ra.skipped, rb.skipped].sort()).toEqual(['busy', null].sort());
    expect(ra.sent + rb.sent).toBe(4);
    await expectExactlyOnce(ids);
    for (const row of net.reached('POST', isProposalPost)) expect(row.replayed).toBe(false);
    expect(net.reached('POST', '/files/upload').length).toBe(4);
    await expectDeviceClean(tabB, session, ids);
  });

  it('without Web Locks, two tabs racing on the lease still send each item once', async () => {
    const { net, session, db, clock } = await setup();
    const tabB = openDb(db.name);
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await submitProposal(db, session, clock)).id);
    const a = replayerFor(db, session, clock, { locks: null });
    const b = replayerFor(tabB, session, clock, { locks: null });
    await Promise.all([drainUntilSettled(a, clock), drainUntilSettled(b, clock)]);
    await expectExactlyOnce(ids);
    expect(new Set(net.reached('POST', isProposalPost).map((c) => c.key)).size).toBe(4);
    await expectDeviceClean(db, session, ids);
  });

  it('absorbs a request that reaches the server twice', async () => {
    const { net, session, db, clock } = await setup();
    const { id, key } = await submitProposal(db, session, clock, { photos: [makePng(300)] });
    net.fault = () => ({ kind: 'duplicate' });
    await drainUntilSettled(replayerFor(db, session, clock), clock);
    await expectExactlyOnce([id]);
    expect(net.reached('POST', isProposalPost).filter((c) => c.key === key).length).toBeGreaterThanOrEqual(1);
    expect((await serverProposal(server, id))?.images.length).toBe(1);
    await expectDeviceClean(db, session, [id]);
  });
});

describe('the same key with a different body (5)', () => {
  it('answers 422, parks the item and does not count it as sent; edit and resend then sends it', async () => {
    const { net, session, db, clock } = await setup();
    const first = await submitProposal(db, session, clock, { title: 'First' });
    const replayer = replayerFor(db, session, clock);
    expect((await replayer.drain()).sent).toBe(1);
    // Another proposal under the key the server already holds with another body.
    const second = await submitProposal(db, session, clock, { title: 'Second', key: first.key });
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 0, parked: 1 });
    const [row] = await listOutbox(db, session.userId);
    expect(row).toMatchObject({ id: first.key, status: 'failed', lastError: { status: 422 } });
    expect([...(await serverCounts(server, [first.id, second.id])).values()]).toEqual([1, 0]);
    expect((await serverProposal(server, first.id))?.title).toBe('First');
    // Nothing lost: the local proposal is still on the device.
    expect((await db.suggestions.get([session.userId, second.id]))?.title).toBe('Second');

    expect(await revise(db, first.key, row?.body)).not.toBeNull();
    await drainUntilSettled(replayer, clock);
    await expectExactlyOnce([first.id, second.id]);
    expect((await serverProposal(server, second.id))?.title).toBe('Second');
    expect(net.reached('POST', isProposalPost).length).toBe(3);
    await expectDeviceClean(db, session, [first.id, second.id]);
  });
});

describe('the access token expires during a replay of 20 items (6)', () => {
  it('refreshes exactly once, shared with a pull running at the same time', async () => {
    const { net, session, db, clock } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) ids.push((await submitProposal(db, session, clock, { photos: i % 5 === 0 ? [makePng(400 + i)] : [] })).id);
    const expired = await expiredAccessToken(server, session.userId);
    let posted = 0;
    net.afterAnswer = (call) => {
      if (isProposalPost(call.path) && (posted += 1) === 5) session.tokens.access = expired;
    };
    const refreshesBefore = net.refreshCalls;
    const replayer = replayerFor(db, session, clock);
    const [sent] = await Promise.all([
      drainUntilSettled(replayer, clock),
      // Wait for the expiry, then pull beside the replay.
      (async () => {
        while (posted < 5) await new Promise((resolve) => setTimeout(resolve, 5));
        await pullCompany({ db, http: session.http, ownerUserId: session.userId, companyId: session.companyId });
      })(),
    ]);
    expect(sent).toBe(20);
    expect(net.refreshCalls - refreshesBefore).toBe(1);
    expect(net.calls.filter((c) => c.status === 403).length).toBeGreaterThanOrEqual(1);
    await expectExactlyOnce(ids);
    await expectDeviceClean(db, session, ids);
  });
});

describe('a poison item, 5xx and timeouts (7)', () => {
  it('parks a 4xx item without blocking the items behind it', async () => {
    const { session, db, clock } = await setup();
    const before = await submitProposal(db, session, clock);
    const poison = await submitProposal(db, session, clock, { title: '' });
    const after = await submitProposal(db, session, clock, { photos: [makePng(500)] });
    const result = await replayerFor(db, session, clock).drain();
    expect(result).toMatchObject({ sent: 2, parked: 1 });
    expect([...(await serverCounts(server, [before.id, poison.id, after.id])).values()]).toEqual([1, 0, 1]);
    const rows = await listOutbox(db, session.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: poison.key, status: 'failed', lastError: { status: 400 } });
    expect(rows[0]?.lastError?.errors?.title).toBeTruthy();
    expect(await db.suggestions.get([session.userId, poison.id])).toBeDefined();
  });

  it('keeps an item through 5xx answers and timeouts, then sends it once', async () => {
    const { net, session, db, clock } = await setup();
    const { id, key } = await submitProposal(db, session, clock, { photos: [makePng(600)] });
    const faults = [{ kind: 'status', status: 500 }, { kind: 'status', status: 502 }, { kind: 'hang' }, { kind: 'status', status: 503 }, { kind: 'hang' }] as const;
    let index = 0;
    net.fault = (call) => (isProposalPost(call.path) ? faults[index++] : undefined);
    // Short, so the two hangs end soon; long enough that no real answer misses it.
    const replayer = replayerFor(db, session, clock, { requestTimeoutMs: 1_000 });
    let answered = 0;
    for (const fault of faults) {
      const result = await replayer.drain();
      expect(result.sent).toBe(0);
      const [row] = await listOutbox(db, session.userId);
      if (fault.kind === 'status') {
        // An answered failure is an attempt: its backoff grows.
        answered += 1;
        expect(result.stopped).toBeNull();
        expect(row?.nextAttemptAt).toBeGreaterThanOrEqual(clock.now());
      } else {
        // No answer by the deadline: the network, not the row; the drain stops and the row stays due.
        expect(result.stopped).toBe('offline');
        expect(row?.lastError?.status).toBe(0);
      }
      expect(row).toMatchObject({ id: key, status: 'pending', attempts: answered });
      clock.time = Math.max(clock.time, result.nextAttemptAt ?? clock.time) + 1;
    }
    await drainUntilSettled(replayer, clock);
    await expectExactlyOnce([id]);
    expect(net.reached('POST', '/files/upload').length).toBe(1);
    await expectDeviceClean(db, session, [id]);
  });
});

describe('an old item and a long outage (8)', () => {
  it('sends an item queued 30 days ago after a month of retries, keeping its submission time', async () => {
    const { net, session, db } = await setup();
    const clock = fakeClock(Date.now() - 30 * DAY);
    const queuedAt = clock.now();
    const { id } = await submitProposal(db, session, clock, { photos: [makePng(700)] });
    net.offline = true;
    const replayer = replayerFor(db, session, clock, { random: () => 0.999 });
    let drains = 0;
    while (clock.now() < Date.now() - DAY) {
      const result = await replayer.drain();
      drains += 1;
      expect(result.sent).toBe(0);
      const [row] = await listOutbox(db, session.userId);
      expect(row?.status).toBe('pending');
      expect((row?.nextAttemptAt ?? 0) - clock.now()).toBeLessThanOrEqual(BACKOFF_CAP_MS);
      // The app's timer wakes it at the next attempt; the whole outage costs a few hundred tries, no more.
      clock.time = Math.max((result.nextAttemptAt ?? 0) + 1, clock.time + DAY / 8);
    }
    expect(drains).toBeGreaterThan(200);
    // A month of "no network" cost the row no attempt: it is due the moment the network is back.
    const [waiting] = await listOutbox(db, session.userId);
    expect(waiting?.attempts).toBe(0);
    expect(waiting?.nextAttemptAt).toBeLessThanOrEqual(clock.now());
    clock.time = Date.now();
    net.offline = false;
    await drainUntilSettled(replayer, clock);
    await expectExactlyOnce([id]);
    const stored = await serverProposal(server, id);
    expect(stored?.submittedAt.getTime()).toBe(queuedAt);
    expect(stored?.images.length).toBe(1);
    await expectDeviceClean(db, session, [id]);
  });
});

describe('the network comes back after a long refusal (issue 9, item 3)', () => {
  it('makes 20 queued proposals due at once and sends them all in the next drain, attempts untouched by the refusals', async () => {
    const { net, session, db, clock } = await setup();
    const submitted: { id: string; key: string }[] = [];
    for (let i = 0; i < 20; i += 1) submitted.push(await submitProposal(db, session, clock, { photos: i % 4 === 0 ? [makePng(800 + i)] : [] }));
    net.offline = true;
    const replayer = replayerFor(db, session, clock, { random: () => 0.999 });
    // Five minutes with the page open offline, the triggers draining every few seconds.
    for (let second = 0; second < 300; second += 5) {
      const result = await replayer.drain();
      expect(result).toMatchObject({ sent: 0, stopped: 'offline' });
      clock.advance(5_000);
    }
    const waiting = await listOutbox(db, session.userId);
    expect(waiting).toHaveLength(20);
    expect(waiting.map((row) => row.attempts)).toEqual(submitted.map(() => 0));

    net.offline = false;
    await replayer.wake();
    expect((await listOutbox(db, session.userId)).every((row) => row.nextAttemptAt <= clock.now())).toBe(true);
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 20, stopped: null, nextAttemptAt: null });
    const ids = submitted.map((s) => s.id);
    await expectExactlyOnce(ids);
    await expectDeviceClean(db, session, ids);
  });
});

describe('a discard while a photo is going up (issue 9, item 9)', () => {
  it('leaves no photo row on the device and sends no proposal', async () => {
    const { net, session, db, clock } = await setup();
    const { id, key } = await submitProposal(db, session, clock, { photos: [makePng(900), makePng(901)] });
    net.afterAnswer = async (call) => {
      if (call.path === '/files/upload') await discard(db, key);
    };
    const result = await replayerFor(db, session, clock).drain();
    net.afterAnswer = () => undefined;
    expect(result).toMatchObject({ sent: 0, parked: 0 });
    expect(await db.files.count()).toBe(0);
    expect(await countUnsent(db, session.userId)).toBe(0);
    expect(net.reached('POST', isProposalPost)).toHaveLength(0);
    expect((await serverCounts(server, [id])).get(id)).toBe(0);
  });
});

describe("the service worker's refresh and a sign-out (issue 9, item 5)", () => {
  afterEach(() => writeTokensFromPage(null, null));

  /** The worker's tokens (read from the mirror) and its own instance of the transport, as sw/outbox-sync.ts builds them. */
  async function workerTransport(session: Session, net: FaultyNetwork) {
    const tokens = createWorkerTokens();
    await tokens.reload();
    const http = createHttpClient({ prefix: session.prefix, tokens, fetch: net.fetch, getLocale: () => 'en', onAuthFailure: () => undefined, locks: workerRefreshLocks(tokens, null) });
    return { tokens, http };
  }

  /** What open pages hear on the `auth` channel; `settle` returns it once everything posted before has arrived. */
  function listenToAuthChannel() {
    const heard: unknown[] = [];
    const channel = new BroadcastChannel(AUTH_CHANNEL_NAME);
    channel.onmessage = (event: MessageEvent) => heard.push(event.data);
    return {
      heard,
      async settle(): Promise<unknown[]> {
        const marker = new BroadcastChannel(AUTH_CHANNEL_NAME);
        marker.postMessage('marker');
        marker.close();
        await vi.waitFor(() => expect(heard).toContain('marker'));
        channel.close();
        return heard.filter((message) => message !== 'marker');
      },
    };
  }

  const proposalStatuses = (net: FaultyNetwork) => net.calls.filter((call) => isProposalPost(call.path)).map((call) => call.status);

  it('stores the refreshed pair over the one it spent, tells the pages, and sends', async () => {
    const { net, session, db, clock } = await setup();
    const { id } = await submitProposal(db, session, clock);
    await writeTokensFromPage(await expiredAccessToken(server, session.userId), session.tokens.refresh);
    const worker = await workerTransport(session, net);
    const channel = listenToAuthChannel();

    const result = await replayerFor(db, session, clock, { http: worker.http }).drain();

    expect(result).toMatchObject({ sent: 1, stopped: null });
    await expectExactlyOnce([id]);
    const mirror = await readTokenMirror();
    expect(mirror).toMatchObject({ accessToken: worker.tokens.getAccess(), refreshToken: worker.tokens.getRefresh(), writtenByWorker: true });
    expect(mirror.refreshToken).not.toBe(session.tokens.refresh);
    expect(await channel.settle()).toEqual([{ type: 'tokens', accessToken: mirror.accessToken, refreshToken: mirror.refreshToken }]);
  });

  it('writes nothing back when the user signed out during the refresh, and sends nothing more as that user', async () => {
    const { net, session, db, clock } = await setup();
    const { id, key } = await submitProposal(db, session, clock);
    await writeTokensFromPage(await expiredAccessToken(server, session.userId), session.tokens.refresh);
    const worker = await workerTransport(session, net);
    const channel = listenToAuthChannel();
    // The server rotated the pair; before the worker sees the answer, the page signs out and clears the mirror.
    net.afterAnswer = async (call) => {
      if (call.path === '/auth/refresh-token') await writeTokensFromPage(null, null);
    };

    const result = await replayerFor(db, session, clock, { http: worker.http }).drain();
    net.afterAnswer = () => undefined;

    expect(result).toMatchObject({ sent: 0, stopped: 'auth' });
    expect(await readTokenMirror()).toEqual({ accessToken: null, refreshToken: null, writtenByWorker: false });
    expect([worker.tokens.getAccess(), worker.tokens.getRefresh()]).toEqual([null, null]);
    expect(await channel.settle()).toEqual([]);
    // Told 'Token Expired.', then resent without any token: refused, never accepted.
    expect(proposalStatuses(net)).toEqual([403, 401]);
    expect((await serverCounts(server, [id])).get(id)).toBe(0);
    // The row stays on the device, the signed-out user's, for their next sign-in.
    expect(await listOutbox(db, session.userId)).toEqual([expect.objectContaining({ id: key, status: 'pending' })]);
  });

  it("never sends one user's rows under the next user's tokens when they sign in during the refresh", async () => {
    const { net, session, db, clock } = await setup();
    const next = await signIn(server, new FaultyNetwork(), 'head@demo.local');
    const { id, key } = await submitProposal(db, session, clock);
    await writeTokensFromPage(await expiredAccessToken(server, session.userId), session.tokens.refresh);
    const worker = await workerTransport(session, net);
    const channel = listenToAuthChannel();
    net.afterAnswer = async (call) => {
      if (call.path === '/auth/refresh-token') await writeTokensFromPage(next.tokens.access, next.tokens.refresh);
    };

    const result = await replayerFor(db, session, clock, { http: worker.http }).drain();
    net.afterAnswer = () => undefined;

    expect(result).toMatchObject({ sent: 0, stopped: 'auth' });
    expect(await readTokenMirror()).toEqual({ accessToken: next.tokens.access, refreshToken: next.tokens.refresh, writtenByWorker: false });
    expect([worker.tokens.getAccess(), worker.tokens.getRefresh()]).toEqual([null, null]);
    expect(await channel.settle()).toEqual([]);
    expect(proposalStatuses(net)).toEqual([403, 401]);
    expect((await serverCounts(server, [id])).get(id)).toBe(0);
    expect(await listOutbox(db, session.userId)).toEqual([expect.objectContaining({ id: key, status: 'pending' })]);
  });
});

describe('batches through the push (issue 9, benchmarks)', () => {
  const batched = { isPushable: isPushableOutboxRow };
  const pushes = (net: FaultyNetwork) => net.reached('POST', '/sync/push');

  it('replays 250 queued proposals in 3 requests: exactly 250 on the server, the outbox empty', async () => {
    const { net, session, db, clock } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 250; i += 1) ids.push((await submitProposal(db, session, clock, { title: `Batch ${i}` })).id);
    const result = await replayerFor(db, session, clock, batched).drain();
    expect(result).toMatchObject({ sent: 250, parked: 0, retried: 0, stopped: null, nextAttemptAt: null });
    expect(pushes(net).map((call) => call.status)).toEqual([200, 200, 200]);
    expect(net.reached('POST', isProposalPost)).toHaveLength(0);
    await expectExactlyOnce(ids);
    await expectDeviceClean(db, session, ids);
  });

  it('parks a refused proposal of a batch with the server answer, sends the rest, and a photo row alone', async () => {
    const { net, session, db, clock } = await setup();
    const before = await submitProposal(db, session, clock);
    const poison = await submitProposal(db, session, clock, { title: '' });
    const withPhoto = await submitProposal(db, session, clock, { photos: [makePng(900)] });
    const after = await submitProposal(db, session, clock);
    const result = await replayerFor(db, session, clock, batched).drain();
    expect(result).toMatchObject({ sent: 3, parked: 1 });
    expect(pushes(net)).toHaveLength(1);
    expect(net.reached('POST', isProposalPost)).toHaveLength(1);
    expect([...(await serverCounts(server, [before.id, poison.id, withPhoto.id, after.id])).values()]).toEqual([1, 0, 1, 1]);
    const rows = await listOutbox(db, session.userId);
    expect(rows).toEqual([expect.objectContaining({ id: poison.key, status: 'failed', attempts: 1, lastError: expect.objectContaining({ status: 400 }) })]);
    expect(rows[0]?.lastError?.errors?.title).toBeTruthy();
    expect((await serverProposal(server, withPhoto.id))?.images).toHaveLength(1);
  });

  it('after a drain killed once the server applied its batch, a new drain sends everything with no duplicate', async () => {
    const { net, session, db, clock } = await setup();
    const name = db.name;
    const submitted: { id: string; key: string }[] = [];
    for (let i = 0; i < 150; i += 1) submitted.push(await submitProposal(db, session, clock));
    // The first batch is applied and committed on the server; the page dies before it reads the answer.
    let batches = 0;
    net.fault = (call) => (call.path === '/sync/push' && ++batches === 1 ? { kind: 'drop-answer' } : undefined);
    net.afterAnswer = (call) => {
      if (call.path === '/sync/push' && batches === 1) db.close();
    };
    await expect(replayerFor(db, session, clock, batched).drain()).rejects.toThrow();
    net.fault = () => undefined;
    net.afterAnswer = () => undefined;
    const ids = submitted.map((s) => s.id);
    const counts = [...(await serverCounts(server, ids)).values()];
    expect(counts.slice(0, 100)).toEqual(ids.slice(0, 100).map(() => 1));
    expect(counts.slice(100)).toEqual(ids.slice(100).map(() => 0));

    const reopened = openDb(name);
    expect(await countUnsent(reopened, session.userId)).toBe(150);
    await drainUntilSettled(replayerFor(reopened, session, clock, batched), clock);
    await expectExactlyOnce(ids);
    // The rows the dead drain left 'sending' go in batches again, under their own keys: the server answers the
    // 100 it had applied from their idempotency records, so nothing doubles (expectExactlyOnce above).
    expect(net.reached('POST', isProposalPost)).toHaveLength(0);
    expect(pushes(net).slice(1).map((call) => call.status)).toEqual([200, 200]);
    await expectDeviceClean(reopened, session, ids);
  });

  it('sends a row again in a batch after its lone request lost its answer: one proposal', async () => {
    const { net, session, db, clock } = await setup();
    const { id, key } = await submitProposal(db, session, clock);
    net.fault = (call) => (isProposalPost(call.path) ? { kind: 'drop-answer' } : undefined);
    expect(await replayerFor(db, session, clock).drain()).toMatchObject({ stopped: 'offline' });
    net.fault = () => undefined;
    const replayer = replayerFor(db, session, clock, batched);
    await replayer.wake();
    expect(await replayer.drain()).toMatchObject({ sent: 1 });
    expect(pushes(net)).toHaveLength(1);
    expect(net.reached('POST', isProposalPost).map((call) => call.key)).toEqual([key]);
    await expectExactlyOnce([id]);
    await expectDeviceClean(db, session, [id]);
  });
});

describe('photos the server removed while their proposal waited (issue 10, item 7)', () => {
  it('uploads them again, and the proposal arrives once with its photos', async () => {
    const { net, session, db, clock } = await setup();
    // The photos go up; the proposal itself does not leave the device (the connection drops).
    net.fault = (call) => (isProposalPost(call.path) ? { kind: 'fail-before' } : undefined);
    const replayer = replayerFor(db, session, clock);
    const photos = [makePng(9101), makePng(9102)];
    const { id } = await submitProposal(db, session, clock, { photos });
    await replayer.drain();
    expect(net.calls.filter((c) => c.path === '/files/upload' && c.status === 200)).toHaveLength(2);

    // More than a day later the server's job has removed the photos nothing was attached to.
    server.advanceClock(DAY + 60_000);
    await server.runJobs();
    net.fault = () => undefined;
    clock.advance(DAY);
    await drainUntilSettled(replayer, clock);

    await expectExactlyOnce([id]);
    const stored = await serverProposal(server, id);
    expect(stored?.images.map((image) => image.bytes)).toEqual(photos.map((p) => new Uint8Array(p)));
    await expectDeviceClean(db, session, [id]);
  });
});
