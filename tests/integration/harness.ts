// Harness of the outbox integration tests: the REAL main-service in-process (PGlite, or its own schema on
// the PostgreSQL of DATABASE_URL) listening on a free port with the demo company seeded, the client data layer
// (src/lib/db, src/lib/outbox, src/lib/sync, src/lib/http.ts) on fake-indexeddb, and between them a
// fault-injecting fetch (`FaultyNetwork`) that can drop an answer after the server committed, fail before
// sending, answer a 5xx of its own, hang until the client's timeout, send a request twice, or run a hook when
// an answer arrives (to close the Dexie database mid-replay or expire the access token).
import 'fake-indexeddb/auto';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../../server/test-support';
import { seedDemo, DEMO_PASSWORD } from '../../server/features/demo/seed';
import type { Database } from '../../server/db/database';
import { AppDatabase } from '../../src/lib/db/database';
import { createHttpClient, type HttpClient } from '../../src/lib/http';
import type { TokenStore } from '../../src/lib/token-store';
import { createReplayer, type ExclusiveLocks, type Replayer, type ReplayerOptions } from '../../src/lib/outbox/replayer';
import { submitSuggestion, type PhotoInput, type SuggestionDraft } from '../../src/features/suggestions/store';
import { loadOutboxSuccessHandler } from '../../src/app/outbox-kinds';
import { CurrentUser } from '../../src/domain/user';

export const API = '/main-service/api/v1';
export const DAY = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------- server

export interface RealServer {
  origin: string;
  db: Database;
  app: TestApp['app'];
  jwtSecret: string;
  /**
   * Moves the server's clock (ctx.clock: rate windows, jobs) forward; it otherwise follows real time. Property
   * runs of one user call it between runs, so each run starts in fresh rate windows (the per-user upload rate).
   */
  advanceClock(ms: number): void;
  /** Runs the server's due jobs now (by its clock), as its job runner would at its next poll. */
  runJobs(): Promise<number>;
  close(): Promise<void>;
}

export async function startServer(): Promise<RealServer> {
  const database: TestDatabase = await createTestDatabase();
  await seedDemo(database.db, 10);
  const jwtSecret = randomBytes(32).toString('hex');
  let offset = 0;
  const t = await createTestApp({ jwtSecret }, database, { clock: { now: () => new Date(Date.now() + offset) } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    db: t.db,
    app: t.app,
    jwtSecret,
    advanceClock(ms) {
      offset += ms;
    },
    runJobs: () => t.ctx.jobs.runDue(),
    async close() {
      await t.close();
      await database.close();
    },
  };
}

/** An access token of `userId` that expired a minute ago, signed with the server's secret. */
export async function expiredAccessToken(server: RealServer, userId: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(now - 16 * 60)
    .setExpirationTime(now - 60)
    .sign(new TextEncoder().encode(server.jwtSecret));
}

// ------------------------------------------------------------------------------------------ fault layer

export type Fault =
  /** The server gets the request and commits; the client sees a network error. */
  | { kind: 'drop-answer' }
  /** Nothing leaves the device. */
  | { kind: 'fail-before' }
  /** A proxy answers this status; the server never sees the request. */
  | { kind: 'status'; status: number }
  /** No answer until the client's own timeout aborts the request. */
  | { kind: 'hang' }
  /** The request reaches the server twice at once (a retransmit); the client sees the second answer. */
  | { kind: 'duplicate' }
  /** Waits this long before sending. */
  | { kind: 'delay'; ms: number };

export interface NetCall {
  method: string;
  /** Path under /main-service/api/v1, without the query. */
  path: string;
  key: string | null;
  /** The HTTP status the client saw, null when it saw none. */
  status: number | null;
  /** Whether the server saw the request. */
  reached: boolean;
  replayed: boolean;
}

export class FaultyNetwork {
  readonly calls: NetCall[] = [];
  offline = false;
  /** Decides a fault per request; undefined lets it through. */
  fault: (call: NetCall) => Fault | undefined = () => undefined;
  /** Runs after the server answered, before the client sees the answer. */
  afterAnswer: (call: NetCall) => void | Promise<void> = () => undefined;

  readonly fetch = (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers = new Headers(init?.headers);
    const call: NetCall = {
      method: init?.method ?? 'GET',
      path: url.pathname.startsWith(API) ? url.pathname.slice(API.length) : url.pathname,
      key: headers.get('Idempotency-Key'),
      status: null,
      reached: false,
      replayed: false,
    };
    this.calls.push(call);
    if (this.offline) throw new TypeError('fetch failed (offline)');
    const fault = this.fault(call);
    if (fault?.kind === 'fail-before') throw new TypeError('fetch failed (before sending)');
    if (fault?.kind === 'status') {
      call.status = fault.status;
      return new Response(JSON.stringify({ message: `proxy ${fault.status}` }), { status: fault.status, headers: { 'Content-Type': 'application/json' } });
    }
    if (fault?.kind === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal;
        if (!signal) return;
        signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')));
      });
    }
    if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    const send = () => fetch(url, { ...init, signal: undefined });
    let response: Response;
    if (fault?.kind === 'duplicate') {
      const [, second] = await Promise.all([send().then((r) => r.arrayBuffer()), send()]);
      response = second;
    } else {
      response = await send();
    }
    call.reached = true;
    const body = await response.arrayBuffer();
    call.replayed = response.headers.get('Idempotent-Replayed') === 'true';
    await this.afterAnswer(call);
    if (fault?.kind === 'drop-answer') throw new TypeError('fetch failed (answer lost)');
    call.status = response.status;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }) as typeof fetch;

  /** Calls that reached the server, by path and method. */
  reached(method: string, path: string | ((path: string) => boolean)): NetCall[] {
    return this.calls.filter((c) => c.reached && c.method === method && (typeof path === 'string' ? c.path === path : path(c.path)));
  }

  get refreshCalls(): number {
    return this.calls.filter((c) => c.path === '/auth/refresh-token').length;
  }
}

// ------------------------------------------------------------------------------------------------ client

export function memoryTokens(): TokenStore & { access: string | null; refresh: string | null } {
  const store = {
    access: null as string | null,
    refresh: null as string | null,
    getAccess: () => store.access,
    getRefresh: () => store.refresh,
    set(pair: { access_token: string; refresh_token: string }) {
      store.access = pair.access_token;
      store.refresh = pair.refresh_token;
    },
    clear() {
      store.access = null;
      store.refresh = null;
    },
  };
  return store;
}

export interface Session {
  userId: string;
  companyId: string;
  departmentId: string;
  tokens: ReturnType<typeof memoryTokens>;
  http: HttpClient;
  net: FaultyNetwork;
  prefix: string;
}

/** Signs `email` in through the client's HTTP client over `net`. */
export async function signIn(server: RealServer, net: FaultyNetwork, email = 'employee@demo.local'): Promise<Session> {
  const prefix = `${server.origin}/main-service`;
  const tokens = memoryTokens();
  const http = createHttpClient({ prefix, tokens, fetch: net.fetch, getLocale: () => 'en', onAuthFailure: () => undefined });
  const pair = await http.post<{ access_token: string; refresh_token: string }>('/api/v1/auth/login', { email, password: DEMO_PASSWORD }, { minDuration: 0 });
  if (!pair) throw new Error('no token pair');
  tokens.set(pair);
  const answer = await http.get<{ data: unknown }>('/api/v1/user', undefined, { minDuration: 0 });
  const user = answer?.data;
  if (!CurrentUser.is(user)) throw new Error('GET /user does not match CurrentUser');
  const companyId = user.companies?.[0]?.id;
  if (!companyId) throw new Error(`${email} belongs to no company`);
  const department = await server.db.one<{ id: string }>(`SELECT id FROM departments WHERE company_id = $1 AND name = 'Производство'`, [companyId]);
  if (!department) throw new Error('no demo department');
  return { userId: user.id, companyId, departmentId: department.id, tokens, http, net, prefix };
}

export function fakeClock(start = Date.now()) {
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
export type FakeClock = ReturnType<typeof fakeClock>;

/** In-memory Web Locks with ifAvailable, shared by the "tabs" of one test. */
export function fakeLocks(): ExclusiveLocks & { held: Set<string> } {
  const held = new Set<string>();
  return {
    held,
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

let dbCounter = 0;
export const freshDbName = () => `integration-${process.pid}-${++dbCounter}-${randomUUID()}`;

export function replayerFor(db: AppDatabase, session: Session, clock: FakeClock, overrides: Partial<ReplayerOptions> = {}): Replayer {
  return createReplayer({
    db,
    // The session's own transport over the faulty network: its token store and the one shared refresh.
    http: session.http,
    getOwnerUserId: () => session.userId,
    clock,
    random: () => 0.5,
    handlers: loadOutboxSuccessHandler,
    // A tab of its own unless the test shares one lock manager between "tabs" (or passes null: the lease).
    locks: fakeLocks(),
    // The transport holds every request to its deadline, the refresh and the resend included, even when the
    // fetch ignores its signal: only a hang may reach it, never a slow answer of a loaded machine. Tests that
    // hang a request on purpose pass a short one.
    requestTimeoutMs: 10_000,
    ...overrides,
  });
}

/** A real, tiny PNG (1x1 RGB of `seed`'s colour). */
export function makePng(seed: number): ArrayBuffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const pixel = Buffer.from([0, seed & 0xff, (seed >> 8) & 0xff, (seed >> 16) & 0xff]);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(pixel)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength);
}

export interface SubmitInput {
  title?: string;
  photos?: ArrayBuffer[];
  /** Overrides fields of the form (a poison item, say). */
  draft?: Partial<SuggestionDraft>;
  /** Puts the outbox row under this Idempotency-Key instead of its own (to reuse a key on purpose). */
  key?: string;
  /** A photo the store cannot keep follows the good ones: the write fails after the proposal and a photo. */
  failMidway?: boolean;
}

/**
 * Submit, as the proposal form does it: the suggestion store of the feature (`submitSuggestion`) writes the
 * local proposal, its photos and its outbox row (entity key `suggestions:<id>`) in ONE Dexie transaction;
 * the replayer uploads the photos first, under their own keys.
 */
export async function submitProposal(db: AppDatabase, session: Session, clock: FakeClock, input: SubmitInput = {}): Promise<{ id: string; key: string }> {
  const photos: PhotoInput[] = (input.photos ?? []).map((data, index) => ({ data, type: 'image/png', name: `photo-${index + 1}.png` }));
  if (input.failMidway) photos.push({ data: 'not an ArrayBuffer' as unknown as ArrayBuffer, type: 'image/png', name: 'broken.png' });
  const { id } = await submitSuggestion(
    {
      companyId: session.companyId,
      title: input.title ?? `Proposal ${randomUUID().slice(0, 8)}`,
      problem: 'Too many steps',
      solution: 'Remove two',
      expectedEffect: 'Faster',
      effectEstimate: null,
      departmentId: session.departmentId,
      ...input.draft,
    },
    photos,
    { db, author: { id: session.userId, fullName: 'Смирнов Алексей Петрович' }, now: () => new Date(clock.now()), ensurePersistent: () => Promise.resolve(true) },
  );
  const row = await db.outbox.where('[ownerUserId+entityKey]').equals([session.userId, `suggestions:${id}`]).first();
  if (!row) throw new Error(`no outbox row for ${id}`);
  if (input.key !== undefined) {
    await db.outbox.update(row.seq, { id: input.key });
    return { id, key: input.key };
  }
  return { id, key: row.id };
}

/** Drains until the outbox has nothing sendable left, moving the fake clock past every backoff. */
export async function drainUntilSettled(replayer: Replayer, clock: FakeClock, maxRounds = 50): Promise<number> {
  let sent = 0;
  let busy = 0;
  for (let round = 0; round < maxRounds; round += 1) {
    const result = await replayer.drain();
    sent += result.sent;
    if (result.skipped === 'busy' && busy < 1_000) {
      // Another tab is sending: look again a little later, as the app's timer would.
      busy += 1;
      round -= 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    if (result.nextAttemptAt === null) return sent;
    clock.time = Math.max(clock.time, result.nextAttemptAt) + 1;
  }
  throw new Error('The outbox did not settle');
}

// ------------------------------------------------------------------------------------------ server state

export interface ServerProposal {
  id: string;
  title: string;
  submittedAt: Date;
  receivedAt: Date;
  images: { position: number; bytes: Uint8Array }[];
}

/** How many times each id exists on the server (0 when missing). */
export async function serverCounts(server: RealServer, ids: readonly string[]): Promise<Map<string, number>> {
  const rows = await server.db.query<{ id: string; n: string }>('SELECT id::text AS id, count(*)::text AS n FROM suggestions WHERE id = ANY($1::uuid[]) GROUP BY id', [ids]);
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const row of rows) counts.set(row.id, Number(row.n));
  return counts;
}

export async function serverProposal(server: RealServer, id: string): Promise<ServerProposal | null> {
  const row = await server.db.one<{ id: string; title: string; submitted_at: Date | string; received_at: Date | string }>(
    'SELECT id::text AS id, title, submitted_at, received_at FROM suggestions WHERE id = $1',
    [id],
  );
  if (!row) return null;
  const images = await server.db.query<{ position: number; bytes: Uint8Array }>(
    'SELECT si.position, f.bytes FROM suggestion_images si JOIN files f ON f.id = si.file_id WHERE si.suggestion_id = $1 ORDER BY si.position',
    [id],
  );
  return { id: row.id, title: row.title, submittedAt: new Date(row.submitted_at), receivedAt: new Date(row.received_at), images: images.map((i) => ({ position: Number(i.position), bytes: new Uint8Array(i.bytes) })) };
}

/** Whether the device holds the server's version of the proposal (the success handler replaced the local one). */
export async function deviceHasServerRow(db: AppDatabase, server: RealServer, ownerUserId: string, id: string): Promise<boolean> {
  const [local, stored] = await Promise.all([db.suggestions.get([ownerUserId, id]), serverProposal(server, id)]);
  return !!local && !!stored && Date.parse(local.receivedAt) === stored.receivedAt.getTime() && local.images.length === stored.images.length;
}

/** Files of `userId` on the server. */
export async function serverFileCount(server: RealServer, userId: string): Promise<number> {
  const row = await server.db.one<{ n: string }>('SELECT count(*)::text AS n FROM files WHERE owner_id = $1', [userId]);
  return Number(row?.n ?? 0);
}

export { AppDatabase };
