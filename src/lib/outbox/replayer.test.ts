import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { AppDatabase, type OutboxRow } from '../db/database';
import { createHttpClient, type ExchangeRequest } from '../http';
import type { TokenStore } from '../token-store';
import type { Suggestion, SuggestionInput } from '../../domain/suggestion';
import { FakeMainService, type FakeCall, type Fault } from './fake-main-service';
import { countUnsent, discard, discardUnreadable, entityKeyOf, enqueue, listOutbox, readOutbox, retry, revise, storeFile, writeWithOutbox } from './outbox';
import {
  BACKOFF_CAP_MS,
  LEASE_MS,
  PUSH_MS_PER_OPERATION,
  PUSH_UNAVAILABLE_MS,
  REQUEST_TIMEOUT_MS,
  UPLOAD_PATH,
  backoffDelay,
  createReplayer,
  uploadDeadlineMs,
  type ExclusiveLocks,
  type ReplayerOptions,
  type SuccessHandler,
} from './replayer';

const OWNER = '00000000-0000-4000-8000-000000000001';
const OTHER_USER = '00000000-0000-4000-8000-000000000002';
const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const DEPARTMENT = '00000000-0000-4000-8000-0000000000d1';
const DAY = 24 * 60 * 60 * 1000;

const databases: AppDatabase[] = [];
function openDb(name: string): AppDatabase {
  const db = new AppDatabase(name);
  databases.push(db);
  return db;
}
let dbCounter = 0;
const freshName = () => `replayer-test-${++dbCounter}-${Math.random()}`;

// The transport's deadlines run on these; only a test that hangs a request moves them on. IndexedDB
// (fake-indexeddb schedules with setImmediate) and vi.waitFor keep the real ones.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(async () => {
  vi.useRealTimers();
  for (const db of databases.splice(0)) {
    db.close();
    await db.delete();
  }
});

function fakeClock(start = Date.parse('2026-05-01T08:00:00Z')) {
  return {
    time: start,
    now() {
      return this.time;
    },
    advance(ms: number) {
      this.time += ms;
    },
  };
}

/** In-memory Web Locks with ifAvailable, shared by the "tabs" of one test. */
function fakeLocks(): ExclusiveLocks {
  const held = new Set<string>();
  return {
    async request(name, _options, callback) {
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
      }
    },
  };
}

/** The tokens of one device (localStorage in the app: they outlive a reload). */
function memoryTokens(access: string | null = 'token-1', refresh: string | null = 'refresh-1') {
  const tokens = {
    access,
    refresh,
    getAccess: () => tokens.access,
    getRefresh: () => tokens.refresh,
    set(pair: { access_token: string; refresh_token: string }) {
      tokens.access = pair.access_token;
      tokens.refresh = pair.refresh_token;
    },
    clear() {
      tokens.access = null;
      tokens.refresh = null;
    },
  };
  return tokens satisfies TokenStore;
}
type MemoryTokens = ReturnType<typeof memoryTokens>;

/** The app's own transport over the fake server: its bearer token, deadlines and the one shared refresh. */
function transport(fetch: typeof globalThis.fetch, tokens: MemoryTokens) {
  const session = { authFailures: 0 };
  const http = createHttpClient({
    prefix: '/main-service',
    tokens,
    fetch,
    getLocale: () => 'en',
    onAuthFailure: () => {
      session.authFailures += 1;
    },
  });
  return { http, session };
}

interface Device extends Partial<ReplayerOptions> {
  /** The fetch under the transport (default the fake server's). */
  fetch?: typeof globalThis.fetch;
  /** The device's tokens (default a fresh pair the fake server accepts). */
  tokens?: MemoryTokens;
}

function replayerFor(db: AppDatabase, server: FakeMainService, device: Device = {}) {
  const { fetch = server.fetch, tokens = memoryTokens(), ...overrides } = device;
  const { http, session } = transport(fetch, tokens);
  const clock = fakeClock();
  const replayer = createReplayer({
    db,
    http,
    getOwnerUserId: () => OWNER,
    clock,
    random: () => 0.5,
    handlers: {
      'suggestion.create': async ({ db: tx, data }) => {
        await tx.suggestions.put({ ...(data as Suggestion), ownerUserId: OWNER });
      },
    },
    ...overrides,
  });
  return { replayer, tokens, http, session, clock: (overrides.clock as ReturnType<typeof fakeClock> | undefined) ?? clock };
}

function proposal(id: string, title = 'Less scrap on line 2'): SuggestionInput {
  return { id, title, problem: 'Scrap', solution: 'Sensor', expectedEffect: 'Less scrap', departmentId: DEPARTMENT, imageIds: [] };
}

/** What a feature's store does: the local row, its photos and its outbox row in one transaction. */
async function submitProposal(db: AppDatabase, options: { photos?: number; owner?: string; now?: number; title?: string } = {}) {
  const id = crypto.randomUUID();
  const owner = options.owner ?? OWNER;
  await writeWithOutbox(db, [db.suggestions], async () => {
    const fileIds: string[] = [];
    for (let i = 0; i < (options.photos ?? 0); i += 1) {
      const bytes = new Uint8Array([i, 1, 2, 3, id.charCodeAt(0)]);
      const file = await storeFile(db, { ownerUserId: owner, data: bytes.buffer, type: 'image/jpeg', name: `photo-${i}.jpg` });
      fileIds.push(file.id);
    }
    await enqueue(db, {
      ownerUserId: owner,
      kind: 'suggestion.create',
      method: 'POST',
      path: `/api/v1/companies/${COMPANY}/suggestions`,
      body: proposal(id, options.title),
      entityKey: entityKeyOf('suggestions', id),
      fileIds,
      ...(options.now !== undefined ? { now: options.now } : {}),
    });
  });
  return id;
}

const proposalCalls = (server: FakeMainService) => server.calls.filter((c) => c.path.endsWith('/suggestions'));

describe('outbox: writes', () => {
  it('refuses to enqueue outside a transaction over the outbox', async () => {
    const db = openDb(freshName());
    await expect(
      enqueue(db, { ownerUserId: OWNER, kind: 'k', method: 'POST', path: '/x', body: {}, entityKey: 'e' }),
    ).rejects.toThrow(/inside a read-write transaction/);
    expect(await db.outbox.count()).toBe(0);
  });

  it('stores nothing half-way when the write fails between the photos and the outbox row', async () => {
    const db = openDb(freshName());
    await expect(
      writeWithOutbox(db, [db.suggestions], async () => {
        await storeFile(db, { ownerUserId: OWNER, data: new ArrayBuffer(8), type: 'image/png', name: 'a.png' });
        throw new Error('the page died here');
      }),
    ).rejects.toThrow('the page died here');
    expect(await db.files.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('keeps photos as ArrayBuffer with their type and name', async () => {
    const db = openDb(freshName());
    await submitProposal(db, { photos: 2 });
    const files = (await db.files.toArray()).sort((a, b) => a.name.localeCompare(b.name));
    expect(files).toHaveLength(2);
    expect(Object.prototype.toString.call(files[0]?.data)).toBe('[object ArrayBuffer]');
    expect(files[0]).toMatchObject({ type: 'image/jpeg', name: 'photo-0.jpg', uploaded: null });
  });

  it('turns a full disk into a StorageQuotaError and stores nothing', async () => {
    const db = openDb(freshName());
    const attempt = writeWithOutbox(db, [db.suggestions], async () => {
      await storeFile(db, { ownerUserId: OWNER, data: new ArrayBuffer(8), type: 'image/png', name: 'a.png' });
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    await expect(attempt).rejects.toMatchObject({ name: 'StorageQuotaError' });
    expect(await db.files.count()).toBe(0);
  });

  it('discard removes a row and its photos; nothing else removes a parked row', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    server.fault = () => ({ kind: 'status', status: 422, body: { message: 'Bad' } });
    const { replayer } = replayerFor(db, server);
    await submitProposal(db, { photos: 1 });
    await replayer.drain();
    await replayer.drain();
    const [row] = await listOutbox(db, OWNER);
    expect(row?.status).toBe('failed');
    expect(await db.files.count()).toBe(1);
    expect(await discard(db, row?.id ?? '')).toBe(true);
    expect(await countUnsent(db, OWNER)).toBe(0);
    expect(await db.files.count()).toBe(0);
  });
});

describe('replayer: sending', () => {
  it('uploads the photos first, each with its own key, then posts the proposal with their imageIds', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const { replayer } = replayerFor(db, server);
    const id = await submitProposal(db, { photos: 3 });
    const [row] = await listOutbox(db, OWNER);
    const result = await replayer.drain();

    expect(result.sent).toBe(1);
    expect(server.calls.map((c) => c.path.split('/').pop())).toEqual(['upload', 'upload', 'upload', 'suggestions']);
    const keys = server.calls.map((c) => c.key);
    expect(new Set(keys).size).toBe(4);
    expect(keys[3]).toBe(row?.id);
    const created = server.suggestions.get(id);
    expect(created?.images).toHaveLength(3);
    expect(created?.images.map((image) => server.uploads.get(image.imageId)?.name)).toEqual(['photo-0.jpg', 'photo-1.jpg', 'photo-2.jpg']);
    expect(await countUnsent(db, OWNER)).toBe(0);
    expect(await db.files.count()).toBe(0);
    expect((await db.suggestions.get([OWNER, id]))?.receivedAt).toBe(created?.receivedAt);
  });

  it("loads a kind's handler before the transaction that runs it, and keeps the row when it cannot be loaded", async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    let isChunkGone = true;
    const handlers = async (kind: string): Promise<SuccessHandler | undefined> => {
      // A module load waits on more than microtasks (a macrotask here; this file fakes setTimeout only): a
      // transaction held open across it would have committed.
      await new Promise((resolve) => setImmediate(resolve));
      if (isChunkGone) throw new Error('chunk gone');
      if (kind !== 'suggestion.create') return undefined;
      return async ({ db: tx, data }) => {
        await tx.suggestions.put({ ...(data as Suggestion), ownerUserId: OWNER });
      };
    };
    const { replayer } = replayerFor(db, server, { handlers });
    const id = await submitProposal(db);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The server took it, but its answer could not be stored: the row stays, as if the answer were lost.
    expect(await replayer.drain()).toMatchObject({ sent: 0, stopped: 'offline' });
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
    expect(server.suggestions.size).toBe(1);
    expect(await countUnsent(db, OWNER)).toBe(1);

    isChunkGone = false;
    const result = await replayer.drain();
    expect(result.sent).toBe(1);
    // The same key: still one proposal on the server, and now the device has the server's copy.
    expect(server.suggestions.size).toBe(1);
    expect(await countUnsent(db, OWNER)).toBe(0);
    expect((await db.suggestions.get([OWNER, id]))?.receivedAt).toBe(server.suggestions.get(id)?.receivedAt);
  });

  it('replays with the same key when the server committed but the answer was lost: one proposal', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    let lost = false;
    server.fault = (call) => {
      if (!lost && call.path.endsWith('/suggestions')) {
        lost = true;
        return { kind: 'lost-answer' };
      }
      return undefined;
    };
    const { replayer, clock } = replayerFor(db, server);
    const id = await submitProposal(db, { photos: 1 });
    const first = await replayer.drain();
    expect(first.stopped).toBe('offline');
    expect(await countUnsent(db, OWNER)).toBe(1);
    clock.advance(BACKOFF_CAP_MS);
    const second = await replayer.drain();
    expect(second.sent).toBe(1);
    const posts = proposalCalls(server);
    expect(posts).toHaveLength(2);
    expect(posts[0]?.key).toBe(posts[1]?.key);
    expect(server.suggestions.size).toBe(1);
    expect(server.executions.get(posts[0]?.key ?? '')).toBe(1);
    // The photo was uploaded once: its answer was kept on the device.
    expect(server.uploads.size).toBe(1);
    expect(server.suggestions.has(id)).toBe(true);
  });

  it('uploads the photos again when the server removed them while the proposal waited (a day offline after they went up)', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    // The photos go up, then the network drops before the proposal is sent.
    server.fault = (call) => (call.path.endsWith('/suggestions') ? { kind: 'network' } : undefined);
    const { replayer, clock } = replayerFor(db, server);
    const id = await submitProposal(db, { photos: 2 });
    expect((await replayer.drain()).stopped).toBe('offline');
    clock.advance(DAY);
    // The server's job removed the two photos nothing was attached to.
    const firstUploads = [...server.uploads.keys()];
    expect(firstUploads).toHaveLength(2);
    server.uploads.clear();
    server.fault = () => undefined;
    await replayer.drain();
    await replayer.drain();

    expect(await countUnsent(db, OWNER)).toBe(0);
    const created = server.suggestions.get(id);
    expect(created?.images).toHaveLength(2);
    expect(created?.images.map((image) => image.imageId).some((imageId) => firstUploads.includes(imageId))).toBe(false);
    expect(created?.images.map((image) => server.uploads.get(image.imageId)?.name)).toEqual(['photo-0.jpg', 'photo-1.jpg']);
    expect(await db.files.count()).toBe(0);
  });

  it('parks a proposal whose freshly uploaded photos are refused, without uploading them again and again', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    server.fault = (call) => (call.path.endsWith('/suggestions') ? { kind: 'status', status: 400, body: { message: 'Check the fields', errors: { imageIds: 'invalid' } } } : undefined);
    const { replayer } = replayerFor(db, server);
    await submitProposal(db, { photos: 1 });
    await replayer.drain();
    await replayer.drain();
    const [row] = await listOutbox(db, OWNER);
    expect(row?.status).toBe('failed');
    expect(server.calls.filter((c) => c.path.endsWith('/upload'))).toHaveLength(1);
  });

  it('resumes an interrupted replay on a reopened database and sends each item once', async () => {
    const name = freshName();
    const db1 = openDb(name);
    const server = new FakeMainService();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await submitProposal(db1));
    // The page dies while the third request is on the wire (the server got it, the answer never came).
    let posts = 0;
    server.fault = (call) => (call.path.endsWith('/suggestions') && ++posts === 3 ? { kind: 'hang' } : undefined);
    const clock = fakeClock();
    const first = replayerFor(db1, server, { clock });
    const killed = first.replayer.drain();
    await vi.waitFor(() => expect(posts).toBe(3));
    // A new page: new database connection, no locks (the lease of the dead page has to expire).
    const db2 = openDb(name);
    server.fault = () => undefined;
    const second = replayerFor(db2, server, { clock });
    expect((await second.replayer.drain()).skipped).toBe('busy');
    clock.advance(LEASE_MS + 1);
    const resumed = await second.replayer.drain();
    // The dead page's request never got an answer: its deadline lets go of it at last.
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    await killed;
    expect(resumed.skipped).toBeNull();
    expect(await countUnsent(db2, OWNER)).toBe(0);
    expect([...server.suggestions.keys()].sort()).toEqual([...ids].sort());
    for (const count of server.executions.values()) expect(count).toBe(1);
  });

  it('lets only one of two tabs send (Web Locks); the other answers busy', async () => {
    const name = freshName();
    const server = new FakeMainService();
    const locks = fakeLocks();
    const db1 = openDb(name);
    const db2 = openDb(name);
    for (let i = 0; i < 10; i += 1) await submitProposal(db1);
    const tab1 = replayerFor(db1, server, { locks });
    const tab2 = replayerFor(db2, server, { locks });
    const [a, b] = await Promise.all([tab1.replayer.drain(), tab2.replayer.drain()]);
    expect([a.skipped, b.skipped].filter((s) => s === 'busy')).toHaveLength(1);
    expect(a.sent + b.sent).toBe(10);
    expect(server.maxInFlight).toBe(1);
    expect(proposalCalls(server)).toHaveLength(10);
  });

  it('lets only one of two tabs send without Web Locks (IndexedDB lease)', async () => {
    const name = freshName();
    const server = new FakeMainService();
    const db1 = openDb(name);
    const db2 = openDb(name);
    for (let i = 0; i < 10; i += 1) await submitProposal(db1);
    const clock = fakeClock();
    const tab1 = replayerFor(db1, server, { clock });
    const tab2 = replayerFor(db2, server, { clock });
    const results = await Promise.all([tab1.replayer.drain(), tab2.replayer.drain()]);
    expect(results.filter((r) => r.skipped === 'busy')).toHaveLength(1);
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(10);
    expect(server.maxInFlight).toBe(1);
    expect(proposalCalls(server)).toHaveLength(10);
  });

  it('parks a 422 (same key, another body) as failed, not sent, and keeps sending other entities', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const poison = await submitProposal(db, { title: 'poison' });
    const good = [await submitProposal(db), await submitProposal(db)];
    const [poisonRow] = await listOutbox(db, OWNER);
    server.fault = (call) =>
      call.key === poisonRow?.id ? { kind: 'status', status: 422, body: { message: 'Key reused with another request' } } : undefined;
    const { replayer } = replayerFor(db, server);
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 2, parked: 1 });
    const left = await listOutbox(db, OWNER);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ status: 'failed', lastError: { status: 422, message: 'Key reused with another request' } });
    expect(server.suggestions.has(poison)).toBe(false);
    expect(good.every((id) => server.suggestions.has(id))).toBe(true);
  });

  it('parks a 409 as conflict; retry() puts it back in line', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    let conflict = true;
    server.fault = () => (conflict ? { kind: 'status', status: 409, body: { message: 'Already rejected' } } : undefined);
    const { replayer } = replayerFor(db, server);
    await submitProposal(db);
    await replayer.drain();
    const [row] = await listOutbox(db, OWNER);
    expect(row?.status).toBe('conflict');
    expect((await replayer.drain()).sent).toBe(0);
    conflict = false;
    await retry(db, row?.id ?? '');
    expect((await replayer.drain()).sent).toBe(1);
  });

  it('keeps strict order per entity: a later change waits while an earlier one of the same entity is parked', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const id = await submitProposal(db);
    await writeWithOutbox(db, [], () =>
      enqueue(db, {
        ownerUserId: OWNER,
        kind: 'suggestion.review',
        method: 'POST',
        path: `/api/v1/companies/${COMPANY}/suggestions/${id}/review`,
        body: { decision: 'APPROVED', comment: 'ok' },
        entityKey: entityKeyOf('suggestions', id),
      }),
    );
    const other = await submitProposal(db);
    const [first] = await listOutbox(db, OWNER);
    server.fault = (call) => (call.key === first?.id ? { kind: 'status', status: 400, body: { message: 'invalid' } } : undefined);
    const { replayer } = replayerFor(db, server);
    const result = await replayer.drain();
    expect(result.sent).toBe(1);
    expect(server.calls.some((c) => c.path.endsWith('/review'))).toBe(false);
    expect(server.suggestions.has(other)).toBe(true);
    expect((await listOutbox(db, OWNER)).map((r) => r.status)).toEqual(['failed', 'pending']);
  });

  it('keeps an item after 5xx and timeouts and sends it once the server recovers', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const faults: Fault[] = [{ kind: 'status', status: 500 }, { kind: 'hang' }, { kind: 'status', status: 503 }, { kind: 'network' }];
    server.fault = () => faults.shift();
    const { replayer, clock } = replayerFor(db, server);
    const id = await submitProposal(db);
    for (let i = 0; i < 4; i += 1) {
      const drained = replayer.drain();
      // The hang ends only by the request's deadline.
      if (i === 1) {
        await vi.waitFor(() => expect(server.hangs).toBe(1));
        await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
      }
      await drained;
      expect(await countUnsent(db, OWNER)).toBe(1);
      clock.advance(BACKOFF_CAP_MS);
    }
    expect((await replayer.drain()).sent).toBe(1);
    expect(server.suggestions.has(id)).toBe(true);
    expect(server.suggestions.size).toBe(1);
  });

  it('honours Retry-After of a 429 and never gives up during a long outage', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    let down = true;
    server.fault = () => (down ? { kind: 'status', status: 429, headers: { 'Retry-After': '120' } } : undefined);
    const { replayer, clock } = replayerFor(db, server);
    await submitProposal(db);
    const start = clock.now();
    const first = await replayer.drain();
    expect(first.stopped).toBe('throttled');
    expect(first.nextAttemptAt).toBeGreaterThanOrEqual(start + 120_000);
    server.fault = () => (down ? { kind: 'network' } : undefined);
    for (let hour = 0; hour < 48; hour += 1) {
      clock.advance(60 * 60_000);
      const result = await replayer.drain();
      expect(result.nextAttemptAt).not.toBeNull();
      expect((result.nextAttemptAt ?? 0) - clock.now()).toBeLessThanOrEqual(BACKOFF_CAP_MS);
    }
    down = false;
    clock.advance(BACKOFF_CAP_MS);
    expect((await replayer.drain()).sent).toBe(1);
  });

  it('sends an item queued 30 days ago', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const { replayer, clock } = replayerFor(db, server);
    const id = await submitProposal(db, { now: clock.now() - 30 * DAY });
    expect((await replayer.drain()).sent).toBe(1);
    expect(server.suggestions.has(id)).toBe(true);
  });

  it('refreshes exactly once when the token expires during a replay of 20 items', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 20; i += 1) await submitProposal(db);
    let posts = 0;
    server.fault = (call: FakeCall) => {
      if (call.path.endsWith('/suggestions') && ++posts === 7) server.expireTokens();
      return undefined;
    };
    const { replayer, tokens } = replayerFor(db, server);
    const result = await replayer.drain();
    expect(result.sent).toBe(20);
    expect(server.refreshCalls).toBe(1);
    expect(tokens.access).toBe('token-r1');
    // The request told 'Token Expired.' went out once more with the new token, under the same key.
    const seventh = proposalCalls(server).filter((call) => call.key === proposalCalls(server)[6]?.key);
    expect(seventh.map((call) => call.token)).toEqual(['token-1', 'token-r1']);
    expect(server.suggestions.size).toBe(20);
  });

  it('shares that one refresh with a call of the page made at the same moment', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 3; i += 1) await submitProposal(db, { photos: 1 });
    server.expireTokens();
    const { replayer, http } = replayerFor(db, server);
    const [result, pageCall] = await Promise.all([
      replayer.drain(),
      // The fake serves no GET: after the refresh and the resend it answers 404.
      http.get('/api/v1/user', undefined, { minDuration: 0 }).then(
        () => 'answered',
        (error: unknown) => (error as { status?: number }).status,
      ),
    ]);
    expect(result.sent).toBe(3);
    expect(pageCall).toBe(404);
    expect(server.refreshCalls).toBe(1);
  });

  it('stops and keeps the rows when the session cannot be refreshed', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    server.expireTokens();
    server.revokeRefreshTokens();
    const { replayer, session, tokens } = replayerFor(db, server);
    await submitProposal(db);
    await submitProposal(db);
    const result = await replayer.drain();
    expect(result).toMatchObject({ stopped: 'auth', sent: 0 });
    expect((await listOutbox(db, OWNER)).map((r) => r.status)).toEqual(['pending', 'pending']);
    // The transport ended the session (the page signs out); nothing more goes out under it.
    expect(session.authFailures).toBe(1);
    expect(tokens.access).toBeNull();
    expect(server.refreshCalls).toBe(1);
  });

  it('treats a refresh that gets no answer as the network: not an attempt, the rows wait for a reconnect', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    server.expireTokens();
    let down = true;
    server.fault = (call) => (down && call.path.endsWith('/auth/refresh-token') ? { kind: 'network' } : undefined);
    const { replayer, session } = replayerFor(db, server);
    const id = await submitProposal(db);
    expect(await replayer.drain()).toMatchObject({ stopped: 'offline', sent: 0 });
    const [row] = await listOutbox(db, OWNER);
    expect(row).toMatchObject({ status: 'pending', attempts: 0, lastError: { status: 0 } });
    expect(session.authFailures).toBe(0);

    down = false;
    await replayer.wake();
    expect((await replayer.drain()).sent).toBe(1);
    expect(server.suggestions.has(id)).toBe(true);
  });

  it("never sends another user's items", async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    await submitProposal(db, { owner: OTHER_USER });
    const mine = await submitProposal(db);
    const { replayer } = replayerFor(db, server);
    expect((await replayer.drain()).sent).toBe(1);
    expect([...server.suggestions.keys()]).toEqual([mine]);
    expect(await countUnsent(db, OTHER_USER)).toBe(1);
    const signedOut = replayerFor(db, server, { getOwnerUserId: () => null });
    expect((await signedOut.replayer.drain()).skipped).toBe('signed-out');
  });

  it('backs off with full jitter, capped at 5 minutes', () => {
    expect(backoffDelay(1, () => 0.999)).toBeLessThan(1000);
    expect(backoffDelay(4, () => 0.999)).toBeLessThan(8000);
    expect(backoffDelay(40, () => 0.999)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
    expect(backoffDelay(40, () => 0)).toBe(0);
  });
});

describe('replayer: a dead network is not an attempt', () => {
  it('keeps attempts and backoff of 20 rows through a long refusal, and sends them all in the first drain after a reconnect', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    let down = true;
    server.fault = () => (down ? { kind: 'network' } : undefined);
    const { replayer, clock } = replayerFor(db, server, { random: () => 0.999 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) ids.push(await submitProposal(db));
    // 90 s of the page open offline, draining every few seconds as the triggers would.
    for (let second = 0; second < 90; second += 3) {
      const result = await replayer.drain();
      expect(result).toMatchObject({ stopped: 'offline', sent: 0 });
      clock.advance(3_000);
    }
    const rows = await listOutbox(db, OWNER);
    expect(rows.map((row) => row.attempts)).toEqual(ids.map(() => 0));
    expect(rows.every((row) => row.status === 'pending')).toBe(true);
    // The drain stopped at the first refusal each time: one request per drain, not twenty.
    expect(rows[0]?.lastError?.status).toBe(0);
    // Due now, not after a backoff grown while offline.
    expect(rows.every((row) => row.nextAttemptAt <= clock.now())).toBe(true);

    down = false;
    await replayer.wake();
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 20, stopped: null, nextAttemptAt: null });
    expect([...server.suggestions.keys()].sort()).toEqual([...ids].sort());
  });

  it('grows the backoff of answered failures (5xx) as before, and a reconnect leaves those rows on it', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const { replayer, clock } = replayerFor(db, server, { random: () => 0.999 });
    const answered = await submitProposal(db);
    const unanswered = await submitProposal(db);
    let posts = 0;
    server.fault = (call) => (call.path.endsWith('/suggestions') ? ((posts += 1) === 1 ? { kind: 'status', status: 503 } : { kind: 'network' }) : undefined);
    const result = await replayer.drain();
    expect(result).toMatchObject({ stopped: 'offline', retried: 2 });
    const [first, second] = await listOutbox(db, OWNER);
    expect(first).toMatchObject({ attempts: 1, lastError: { status: 503 } });
    expect(first?.nextAttemptAt).toBeGreaterThan(clock.now());
    expect(second).toMatchObject({ attempts: 0, lastError: { status: 0 } });

    // As an older build left such a row: a backoff grown by refusals. The reconnect makes it due at once.
    await db.outbox.update(second?.seq ?? 0, { nextAttemptAt: clock.now() + 84_500 });
    expect(await replayer.wake()).toBe(1);
    const [firstAfter, secondAfter] = await listOutbox(db, OWNER);
    expect(firstAfter?.nextAttemptAt).toBe(first?.nextAttemptAt);
    expect(secondAfter?.nextAttemptAt).toBe(0);
    server.fault = () => undefined;
    expect((await replayer.drain()).sent).toBe(1);
    expect(server.suggestions.has(unanswered)).toBe(true);
    expect(server.suggestions.has(answered)).toBe(false);
  });

  it('counts a request with no answer in 20 s as a network failure, not an attempt', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    server.fault = () => ({ kind: 'hang' });
    const { replayer } = replayerFor(db, server);
    await submitProposal(db);
    const drained = replayer.drain();
    let settled = false;
    void drained.then(() => {
      settled = true;
    });
    await vi.waitFor(() => expect(server.hangs).toBe(1));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await drained).toMatchObject({ stopped: 'offline', sent: 0 });
    const [row] = await listOutbox(db, OWNER);
    expect(row).toMatchObject({ status: 'pending', attempts: 0, lastError: { status: 0 } });
  });

  it('gives a JSON request 20 s and an upload 20 s plus 1 s per 100 KB, each under its own key', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const { http } = transport(server.fetch, memoryTokens());
    const requests: ExchangeRequest[] = [];
    const { replayer } = replayerFor(db, server, {
      http: {
        exchange: (request) => {
          requests.push(request);
          return http.exchange(request);
        },
      },
    });
    const big = new Uint8Array(300_000);
    let rowId = '';
    let uploadKey = '';
    await writeWithOutbox(db, [db.suggestions], async () => {
      const file = await storeFile(db, { ownerUserId: OWNER, data: big.buffer, type: 'image/jpeg', name: 'big.jpg' });
      uploadKey = file.uploadKey;
      const id = crypto.randomUUID();
      rowId = (await enqueue(db, { ownerUserId: OWNER, kind: 'suggestion.create', method: 'POST', path: `/api/v1/companies/${COMPANY}/suggestions`, body: proposal(id), entityKey: entityKeyOf('suggestions', id), fileIds: [file.id] })).id;
    });
    expect((await replayer.drain()).sent).toBe(1);
    expect(REQUEST_TIMEOUT_MS).toBe(20_000);
    expect(uploadDeadlineMs(300_000)).toBe(23_000);
    expect(requests.map(({ method, url, timeoutMs, idempotencyKey }) => ({ method, url, timeoutMs, idempotencyKey }))).toEqual([
      { method: 'POST', url: UPLOAD_PATH, timeoutMs: 23_000, idempotencyKey: uploadKey },
      { method: 'POST', url: `/api/v1/companies/${COMPANY}/suggestions`, timeoutMs: 20_000, idempotencyKey: rowId },
    ]);
    expect(requests[0]?.body).toBeInstanceOf(FormData);
    // Through the transport: the bearer token and the language on every request.
    expect(server.calls.map((call) => [call.token, call.language])).toEqual([
      ['token-1', 'en'],
      ['token-1', 'en'],
    ]);
  });
});

describe('replayer: the user acts while a row is on its way', () => {
  it('an upload that ends after the discard leaves no photo behind and posts nothing', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const id = await submitProposal(db, { photos: 2 });
    const [row] = await listOutbox(db, OWNER);
    server.afterHandle = async (call) => {
      if (call.path.endsWith(UPLOAD_PATH)) expect(await discard(db, row?.id ?? '')).toBe(true);
    };
    const { replayer } = replayerFor(db, server);
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 0, parked: 0, stopped: null });
    expect(await db.files.count()).toBe(0);
    expect(await countUnsent(db, OWNER)).toBe(0);
    expect(proposalCalls(server)).toHaveLength(0);
    expect(server.suggestions.has(id)).toBe(false);
  });

  for (const way of ['alone', 'in a batch'] as const) {
    it(`a sign-out while the row is on its way (${way}): the row is done, but nothing of the answer is stored`, async () => {
      const db = openDb(freshName());
      const server = new FakeMainService();
      const id = await submitProposal(db);
      let owner: string | null = OWNER;
      server.afterHandle = () => {
        owner = null;
      };
      const { replayer } = replayerFor(db, server, {
        getOwnerUserId: () => owner,
        ...(way === 'in a batch' ? { isPushable: (row: OutboxRow) => row.kind === 'suggestion.create' } : {}),
      });
      await replayer.drain();
      expect(server.suggestions.has(id)).toBe(true);
      expect(await db.outbox.count()).toBe(0);
      expect(await db.suggestions.get([OWNER, id])).toBeUndefined();
    });
  }

  it('edit and resend is refused for a row that is pending or being sent, and allowed for a refused one', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    await submitProposal(db);
    const [pending] = await listOutbox(db, OWNER);
    expect(await revise(db, pending?.id ?? '', { title: 'edited' })).toBeNull();

    // The row is on the wire when the user tries it: it keeps its key and body.
    let revisedWhileSending: string | null | undefined;
    const fetch: typeof server.fetch = async (input, init) => {
      revisedWhileSending = await revise(db, pending?.id ?? '', { title: 'edited' });
      return server.fetch(input, init);
    };
    server.fault = () => ({ kind: 'status', status: 422, body: { message: 'Bad' } });
    const { replayer } = replayerFor(db, server, { fetch });
    await replayer.drain();
    expect(revisedWhileSending).toBeNull();
    const [failed] = await listOutbox(db, OWNER);
    expect(failed).toMatchObject({ id: pending?.id, status: 'failed' });

    const newKey = await revise(db, failed?.id ?? '', { title: 'edited' });
    expect(newKey).not.toBeNull();
    expect((await listOutbox(db, OWNER))[0]).toMatchObject({ id: newKey, status: 'pending', body: { title: 'edited' }, seq: failed?.seq });
  });
});

describe('outbox: rows that fail their struct', () => {
  async function putDamagedRow(db: AppDatabase, fields: Record<string, unknown>): Promise<number> {
    const seq: unknown = await db.table('outbox').add({
      id: crypto.randomUUID(),
      ownerUserId: OWNER,
      kind: 'suggestion.create',
      method: 'GET',
      path: '/nowhere',
      body: null,
      fileIds: [],
      entityKey: 'suggestions:damaged',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: 1_000,
      updatedAt: 1_000,
      ...fields,
    });
    if (typeof seq !== 'number') throw new Error('no seq');
    return seq;
  }

  it('are listed apart as unreadable, counted by the badge exactly as listed, and never sent', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const good = await submitProposal(db);
    const damagedSeq = await putDamagedRow(db, { kind: 'suggestion.create', createdAt: 1_000 });
    await putDamagedRow(db, { ownerUserId: OTHER_USER });
    const contents = await readOutbox(db, OWNER);
    expect(contents.rows).toHaveLength(1);
    expect(contents.unreadable).toEqual([{ seq: damagedSeq, id: expect.any(String) as string, kind: 'suggestion.create', createdAt: 1_000 }]);
    expect(await countUnsent(db, OWNER)).toBe(contents.rows.length + contents.unreadable.length);

    const { replayer } = replayerFor(db, server);
    const result = await replayer.drain();
    expect(result.sent).toBe(1);
    expect(server.calls.some((c) => c.path.endsWith('/nowhere'))).toBe(false);
    expect(server.suggestions.has(good)).toBe(true);
    expect((await readOutbox(db, OWNER)).unreadable).toHaveLength(1);
  });

  it('hold back later rows of their entity, like a parked row, and never break a drain whatever they hold', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const id = await submitProposal(db);
    const entityKey = entityKeyOf('suggestions', id);
    await db.outbox.clear();
    await putDamagedRow(db, { entityKey, fileIds: 42, status: 'weird' });
    await putDamagedRow(db, { id: 7, entityKey: null, kind: null, createdAt: 'yesterday' });
    await writeWithOutbox(db, [], () =>
      enqueue(db, { ownerUserId: OWNER, kind: 'suggestion.create', method: 'POST', path: `/api/v1/companies/${COMPANY}/suggestions`, body: proposal(id), entityKey }),
    );
    const other = await submitProposal(db);
    const { replayer } = replayerFor(db, server);
    const result = await replayer.drain();
    expect(result.sent).toBe(1);
    expect(server.suggestions.has(other)).toBe(true);
    expect(server.suggestions.has(id)).toBe(false);
    const contents = await readOutbox(db, OWNER);
    expect(contents.unreadable.map((row) => row.id)).toEqual([expect.any(String), null]);
    expect(contents.unreadable[1]).toMatchObject({ kind: null, createdAt: null });
  });

  it("can be discarded by their owner with their photos, never by another user", async () => {
    const db = openDb(freshName());
    const fileId = await writeWithOutbox(db, [], async () => (await storeFile(db, { ownerUserId: OWNER, data: new ArrayBuffer(4), type: 'image/png', name: 'a.png' })).id);
    const seq = await putDamagedRow(db, { fileIds: [fileId], status: 'weird' });
    expect(await discardUnreadable(db, OTHER_USER, seq)).toBe(false);
    expect(await countUnsent(db, OWNER)).toBe(1);
    expect(await discardUnreadable(db, OWNER, seq)).toBe(true);
    expect(await countUnsent(db, OWNER)).toBe(0);
    expect(await db.files.count()).toBe(0);
    expect(await discardUnreadable(db, OWNER, seq)).toBe(false);
  });
});

describe('replayer: batches through the push (POST /sync/push)', () => {
  const pushable = { isPushable: (row: OutboxRow) => row.kind === 'suggestion.create' };
  const pushCalls = (server: FakeMainService) => server.calls.filter((c) => c.path.endsWith('/sync/push'));

  /** A proposal's outbox row under a chosen entity key (and dependency), to build orders a store never writes. */
  async function enqueueProposal(db: AppDatabase, entityKey: string, dependsOn: string | null = null): Promise<{ id: string; key: string }> {
    const id = crypto.randomUUID();
    const key = crypto.randomUUID();
    await writeWithOutbox(db, [], () =>
      enqueue(db, {
        ownerUserId: OWNER,
        kind: 'suggestion.create',
        method: 'POST',
        path: `/api/v1/companies/${COMPANY}/suggestions`,
        body: proposal(id),
        entityKey,
        id: key,
        dependsOn,
      }),
    );
    return { id, key };
  }

  it('sends 250 rows in ceil(250/100) = 3 requests, each row under its own key, and removes them all', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const ids: string[] = [];
    for (let i = 0; i < 250; i += 1) ids.push(await submitProposal(db));
    const keys = (await listOutbox(db, OWNER)).map((row) => row.id);
    const { replayer } = replayerFor(db, server, pushable);
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 250, parked: 0, retried: 0, stopped: null, nextAttemptAt: null });
    expect(pushCalls(server)).toHaveLength(3);
    expect(proposalCalls(server)).toHaveLength(0);
    expect(server.pushes.map((batch) => batch.length)).toEqual([100, 100, 50]);
    // In seq order, each operation keyed by its row's id.
    expect(server.pushes.flat().map((op) => op.id)).toEqual(keys);
    expect([...server.suggestions.keys()].sort()).toEqual([...ids].sort());
    for (const count of server.executions.values()) expect(count).toBe(1);
    expect(await countUnsent(db, OWNER)).toBe(0);
    // The kind's handler stored the server's answer for each.
    expect(await db.suggestions.count()).toBe(250);
    expect((await db.suggestions.get([OWNER, ids[137] ?? '']))?.receivedAt).toBe(server.suggestions.get(ids[137] ?? '')?.receivedAt);
  });

  it('parks only the row whose operation got a 422 and sends the others of the batch', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await submitProposal(db));
    const poison = (await listOutbox(db, OWNER))[2];
    server.operationFault = (op) =>
      op.id === poison?.id ? { status: 422, body: { message: 'Key reused with another request', errors: { title: 'Too long' } } } : undefined;
    const { replayer } = replayerFor(db, server, pushable);
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 4, parked: 1, retried: 0, stopped: null });
    expect(pushCalls(server)).toHaveLength(1);
    const left = await listOutbox(db, OWNER);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({
      id: poison?.id,
      status: 'failed',
      attempts: 1,
      lastError: { status: 422, message: 'Key reused with another request', errors: { title: 'Too long' } },
    });
    expect(ids.filter((id) => server.suggestions.has(id))).toEqual(ids.filter((_, index) => index !== 2));
    // A parked row is not sent again by later drains.
    expect((await replayer.drain()).sent).toBe(0);
    expect(pushCalls(server)).toHaveLength(1);
  });

  it('never puts two rows of one entity (or a row and its dependency) in one batch, and sends them in order', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const a1 = await enqueueProposal(db, 'suggestions:A');
    const c = await enqueueProposal(db, 'suggestions:C');
    const a2 = await enqueueProposal(db, 'suggestions:A');
    const d = await enqueueProposal(db, 'suggestions:D', c.key);
    const a3 = await enqueueProposal(db, 'suggestions:A');
    const e = await enqueueProposal(db, 'suggestions:E');
    const { replayer } = replayerFor(db, server, pushable);
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 6, stopped: null });
    expect(server.pushes.map((batch) => batch.map((op) => op.id))).toEqual([[a1.key, c.key, e.key], [a2.key, d.key], [a3.key]]);
    expect([a1, a2, a3, c, d, e].every(({ id }) => server.suggestions.has(id))).toBe(true);
    expect(await countUnsent(db, OWNER)).toBe(0);
  });

  it('holds the later rows of an entity when its batched row is refused', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const a1 = await enqueueProposal(db, 'suggestions:A');
    const a2 = await enqueueProposal(db, 'suggestions:A');
    const b = await enqueueProposal(db, 'suggestions:B');
    server.operationFault = (op) => (op.id === a1.key ? { status: 409, body: { message: 'Already rejected' } } : undefined);
    const { replayer } = replayerFor(db, server, pushable);
    expect(await replayer.drain()).toMatchObject({ sent: 1, parked: 1, stopped: null });
    expect(server.pushes.map((batch) => batch.map((op) => op.id))).toEqual([[a1.key, b.key]]);
    expect((await listOutbox(db, OWNER)).map((row) => [row.id, row.status])).toEqual([
      [a1.key, 'conflict'],
      [a2.key, 'pending'],
    ]);
  });

  it('keeps every row with its attempts when the answer of a batch is lost, and a new drain sends each once', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const ids: string[] = [];
    for (let i = 0; i < 120; i += 1) ids.push(await submitProposal(db));
    // The second batch reached the server and was applied; its answer never came back.
    let pushes = 0;
    server.fault = (call) => (call.path.endsWith('/sync/push') && ++pushes === 2 ? { kind: 'lost-answer' } : undefined);
    const { replayer } = replayerFor(db, server, pushable);
    const first = await replayer.drain();
    expect(first).toMatchObject({ sent: 100, retried: 20, stopped: 'offline' });
    const waiting = await listOutbox(db, OWNER);
    expect(waiting).toHaveLength(20);
    expect(waiting.every((row) => row.status === 'pending' && row.attempts === 0 && row.lastError?.status === 0)).toBe(true);
    expect(server.suggestions.size).toBe(120);

    await replayer.wake();
    expect(await replayer.drain()).toMatchObject({ sent: 20, stopped: null, nextAttemptAt: null });
    expect([...server.suggestions.keys()].sort()).toEqual([...ids].sort());
    for (const count of server.executions.values()) expect(count).toBe(1);
    expect(await countUnsent(db, OWNER)).toBe(0);
  });

  it('gives a batch 20 s plus 50 ms per operation before its silence counts as the network', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 4; i += 1) await submitProposal(db);
    server.fault = () => ({ kind: 'hang' });
    const { replayer } = replayerFor(db, server, pushable);
    const drained = replayer.drain();
    let settled = false;
    void drained.then(() => {
      settled = true;
    });
    await vi.waitFor(() => expect(server.hangs).toBe(1));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 4 * PUSH_MS_PER_OPERATION - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await drained).toMatchObject({ stopped: 'offline', sent: 0 });
    expect((await listOutbox(db, OWNER)).map((row) => [row.status, row.attempts])).toEqual([0, 1, 2, 3].map(() => ['pending', 0]));
  });

  it('falls back to one request per row on a server without the push (404), and remembers it for a while', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    server.pushAvailable = false;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await submitProposal(db));
    const { replayer, clock } = replayerFor(db, server, pushable);
    expect(await replayer.drain()).toMatchObject({ sent: 5, parked: 0, retried: 0, stopped: null });
    expect(pushCalls(server)).toHaveLength(1);
    expect(proposalCalls(server)).toHaveLength(5);
    expect([...server.suggestions.keys()].sort()).toEqual([...ids].sort());
    expect(await countUnsent(db, OWNER)).toBe(0);

    // Not asked again at once...
    await submitProposal(db);
    expect((await replayer.drain()).sent).toBe(1);
    expect(pushCalls(server)).toHaveLength(1);
    // ...but once the while is over (the server may have been updated).
    server.pushAvailable = true;
    clock.advance(PUSH_UNAVAILABLE_MS);
    await submitProposal(db);
    expect((await replayer.drain()).sent).toBe(1);
    expect(pushCalls(server)).toHaveLength(2);
    expect(server.suggestions.size).toBe(7);
  });

  it('counts one attempt per row when the batch is too large (413) and sends each alone', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 3; i += 1) await submitProposal(db);
    server.fault = (call) => (call.path.endsWith('/sync/push') ? { kind: 'status', status: 413, body: { message: 'Too large' } } : undefined);
    const attempts: number[] = [];
    server.afterHandle = async () => {
      attempts.push(...(await db.outbox.toArray()).filter((row) => row.status === 'sending').map((row) => row.attempts));
    };
    const { replayer } = replayerFor(db, server, pushable);
    expect(await replayer.drain()).toMatchObject({ sent: 3 });
    expect(proposalCalls(server)).toHaveLength(3);
    expect(attempts).toEqual([1, 1, 1]);
    // A 413 is this batch's size, not a server without push: the next rows are batched again.
    await submitProposal(db);
    await replayer.drain();
    expect(pushCalls(server)).toHaveLength(2);
  });

  it('after an operation fails on the server, gives the not-applied rest its attempt back and sends it next', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 4; i += 1) await submitProposal(db);
    const rows = await listOutbox(db, OWNER);
    let failing = true;
    server.operationFault = (op) => (failing && op.id === rows[1]?.id ? { status: 500, body: { message: 'Internal error' } } : undefined);
    const { replayer, clock } = replayerFor(db, server, pushable);
    const result = await replayer.drain();
    expect(result).toMatchObject({ sent: 1, retried: 3, parked: 0, stopped: null });
    const left = await listOutbox(db, OWNER);
    expect(left.map((row) => [row.id, row.status, row.attempts])).toEqual([
      [rows[1]?.id, 'pending', 1],
      [rows[2]?.id, 'pending', 0],
      [rows[3]?.id, 'pending', 0],
    ]);
    // The failed one waits out its backoff; the rows never run are due again at once.
    expect(left[0]?.nextAttemptAt).toBeGreaterThan(clock.now());
    expect(left[1]?.nextAttemptAt).toBeLessThanOrEqual(clock.now());
    expect(left[1]?.lastError).toMatchObject({ status: 503 });
    expect(result.nextAttemptAt).toBeLessThanOrEqual(clock.now());
    failing = false;
    expect(await replayer.drain()).toMatchObject({ sent: 2 });
    clock.advance(BACKOFF_CAP_MS);
    expect(await replayer.drain()).toMatchObject({ sent: 1, nextAttemptAt: null });
    expect(server.suggestions.size).toBe(4);
  });

  it('reschedules the whole batch on a 429 for the push, honouring Retry-After, and stops', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 3; i += 1) await submitProposal(db);
    let throttled = true;
    server.fault = (call) => (throttled && call.path.endsWith('/sync/push') ? { kind: 'status', status: 429, headers: { 'Retry-After': '120' } } : undefined);
    const { replayer, clock } = replayerFor(db, server, pushable);
    expect(await replayer.drain()).toMatchObject({ sent: 0, retried: 3, stopped: 'throttled' });
    const left = await listOutbox(db, OWNER);
    expect(left.every((row) => row.attempts === 1 && row.nextAttemptAt >= clock.now() + 120_000 && row.lastError?.status === 429)).toBe(true);
    throttled = false;
    clock.advance(120_000);
    expect(await replayer.drain()).toMatchObject({ sent: 3 });
  });

  it('sends a row with photos alone (uploads first) while the others go in a batch', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    const plain = await submitProposal(db);
    const withPhotos = await submitProposal(db, { photos: 2 });
    const other = await submitProposal(db);
    const { replayer } = replayerFor(db, server, pushable);
    expect(await replayer.drain()).toMatchObject({ sent: 3 });
    expect(pushCalls(server)).toHaveLength(1);
    expect(server.pushes[0]?.map((op) => (op.body as SuggestionInput).id)).toEqual([plain, other]);
    expect(server.calls.filter((c) => c.path.endsWith('/upload'))).toHaveLength(2);
    expect(proposalCalls(server)).toHaveLength(1);
    expect(server.suggestions.get(withPhotos)?.images).toHaveLength(2);
    expect(await db.files.count()).toBe(0);
  });

  it('refreshes the token once for a batch and resends it; the server applies each row once', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 20; i += 1) await submitProposal(db);
    server.expireTokens();
    const { replayer } = replayerFor(db, server, pushable);
    expect(await replayer.drain()).toMatchObject({ sent: 20 });
    expect(server.refreshCalls).toBe(1);
    for (const count of server.executions.values()) expect(count).toBe(1);
  });

  it('stops with every row pending when the session cannot be renewed', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 3; i += 1) await submitProposal(db);
    server.expireTokens();
    server.revokeRefreshTokens();
    const { replayer, session } = replayerFor(db, server, pushable);
    expect(await replayer.drain()).toMatchObject({ sent: 0, stopped: 'auth' });
    expect((await listOutbox(db, OWNER)).every((row) => row.status === 'pending')).toBe(true);
    expect(session.authFailures).toBe(1);
  });

  it('does not post a row discarded while its batch is on the way, and sends the rest', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 3; i += 1) await submitProposal(db);
    const rows = await listOutbox(db, OWNER);
    // The user discards the second row after the server applied the batch, before the answer arrives.
    server.afterHandle = async (call) => {
      if (call.path.endsWith('/sync/push')) await discard(db, rows[1]?.id ?? '');
    };
    const { replayer } = replayerFor(db, server, pushable);
    await replayer.drain();
    expect(await countUnsent(db, OWNER)).toBe(0);
    expect(await db.suggestions.count()).toBe(2);
  });

  it('sends one request per row with batch: false', async () => {
    const db = openDb(freshName());
    const server = new FakeMainService();
    for (let i = 0; i < 3; i += 1) await submitProposal(db);
    const { replayer } = replayerFor(db, server, { ...pushable, batch: false });
    expect(await replayer.drain()).toMatchObject({ sent: 3 });
    expect(pushCalls(server)).toHaveLength(0);
    expect(proposalCalls(server)).toHaveLength(3);
  });
});

describe('replayer: property', () => {
  it.each([
    ['one request per row', false],
    ['in batches through the push', true],
  ])('sends every submission exactly once through failures, reloads and reconnections (%s)', async (_way, batching) => {
    const ways: Partial<ReplayerOptions> = batching ? { isPushable: (row) => row.kind === 'suggestion.create' } : {};
    type Step =
      | { kind: 'submit'; photos: number }
      | { kind: 'drain' }
      | { kind: 'fault'; fault: 'network' | 'lost-answer' | '500' | '429' | 'expire' | 'none' }
      | { kind: 'reload' }
      | { kind: 'wait' };
    const step = fc.oneof(
      fc.record({ kind: fc.constant('submit' as const), photos: fc.integer({ min: 0, max: 3 }) }),
      fc.constant({ kind: 'drain' as const }),
      fc.record({ kind: fc.constant('fault' as const), fault: fc.constantFrom('network', 'lost-answer', '500', '429', 'expire', 'none') }),
      fc.constant({ kind: 'reload' as const }),
      fc.constant({ kind: 'wait' as const }),
    ) as fc.Arbitrary<Step>;

    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), fc.integer({ min: 0, max: 1000 }), async (steps, seed) => {
        const name = freshName();
        const server = new FakeMainService();
        const clock = fakeClock();
        let jitter = seed;
        const random = () => ((jitter = (jitter * 9301 + 49297) % 233280) / 233280);
        let db = openDb(name);
        let current = replayerFor(db, server, { ...ways, clock, random });
        let mode: 'network' | 'lost-answer' | '500' | '429' | 'expire' | 'none' = 'none';
        server.fault = (call) => {
          if (mode === 'network') return { kind: 'network' };
          if (mode === 'lost-answer') return { kind: 'lost-answer' };
          if (mode === '500') return { kind: 'status', status: 500 };
          if (mode === '429') return { kind: 'status', status: 429, headers: { 'Retry-After': '3' } };
          if (mode === 'expire' && (call.path.endsWith('/suggestions') || call.path.endsWith('/sync/push'))) server.expireTokens();
          return undefined;
        };
        const submitted: string[] = [];
        for (const s of steps) {
          if (s.kind === 'submit') submitted.push(await submitProposal(db, { photos: s.photos }));
          else if (s.kind === 'drain') await current.replayer.drain();
          else if (s.kind === 'fault') mode = s.fault;
          else if (s.kind === 'wait') clock.advance(BACKOFF_CAP_MS);
          else {
            db.close();
            db = openDb(name);
            // A reload: a new page (its own transport) over the same stored tokens.
            current = replayerFor(db, server, { ...ways, clock, random, tokens: current.tokens });
          }
        }
        // Reconnect for good and let the timer fire until the outbox is empty.
        mode = 'none';
        for (let i = 0; i < 5 && (await countUnsent(db, OWNER)) > 0; i += 1) {
          clock.advance(BACKOFF_CAP_MS + 5000);
          await current.replayer.drain();
        }
        expect(await countUnsent(db, OWNER)).toBe(0);
        expect([...server.suggestions.keys()].sort()).toEqual([...submitted].sort());
        for (const count of server.executions.values()) expect(count).toBe(1);
        for (const id of submitted) expect(await db.suggestions.get([OWNER, id])).toBeDefined();
      }),
      { numRuns: 40 },
    );
  }, 120_000); // 40 runs of whole replays: a guard against a hang, not a speed check (a loaded machine takes seconds)
});
