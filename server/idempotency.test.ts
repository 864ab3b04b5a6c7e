import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, json, signUp, type TestApp } from './test-support';
import { createCompany, userIdOf, type Fixture } from './features/suggestions/fixtures';
import { translate } from './i18n/messages';
import { cleanupIdempotencyKeys, runIdempotent } from './idempotency';

let t: TestApp;
type Login = Awaited<ReturnType<typeof signUp>> & { id: string };
let alice: Login;
let bob: Login;
let acme: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ['a', 'b']) {
    const l = await signUp(t);
    const login = { ...l, id: await userIdOf(t.db, l.email) };
    if (who === 'a') alice = login;
    else bob = login;
  }
  acme = await createCompany(t.db, 'Acme', { [alice.id]: ['EMPLOYEE'], [bob.id]: ['EMPLOYEE'] });
});
afterAll(() => t.close());

const body = (title = 'Idempotent') => ({ title, problem: 'p', solution: 's', expectedEffect: 'e', departmentId: acme.departments.A, imageIds: [] });
const submit = (who: Login, key: string | null, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: api(`/companies/${acme.companyId}/suggestions`),
    headers: { authorization: `Bearer ${who.access}`, Language: 'en', ...(key ? { 'Idempotency-Key': key } : {}) },
    payload,
  });
const count = async () => Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM suggestions'))?.n);

describe('Idempotency-Key', () => {
  it('replays the stored answer and creates nothing more', async () => {
    const key = randomUUID();
    const first = await submit(alice, key, body());
    expect(first.statusCode).toBe(201);
    const before = await count();
    const again = await submit(alice, key, body());
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    expect(await count()).toBe(before);
  });

  it('answers 422 for the same key with another body', async () => {
    const key = randomUUID();
    expect((await submit(alice, key, body('one'))).statusCode).toBe(201);
    const before = await count();
    const res = await submit(alice, key, body('two'));
    expect(res.statusCode).toBe(422);
    expect(json<{ message: string }>(res).message).toMatch(/different request/);
    expect(await count()).toBe(before);
  });

  it('keeps keys per user', async () => {
    const key = randomUUID();
    const a = await submit(alice, key, body('shared key'));
    const b = await submit(bob, key, body('shared key'));
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(json<{ data: { id: string } }>(a).data.id).not.toBe(json<{ data: { id: string } }>(b).data.id);
  });

  it('has a single effect for concurrent requests with one key', async () => {
    const key = randomUUID();
    const title = `concurrent ${key}`;
    const before = await count();
    const answers = await Promise.all([1, 2, 3, 4].map(() => submit(alice, key, body(title))));
    for (const a of answers) expect([201, 409]).toContain(a.statusCode);
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // Exactly one request did the work; every other success is a replay of its answer.
    expect(created.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(created.map((a) => json<{ data: { id: string } }>(a).data.id)).size).toBe(1);
    // PGlite runs one transaction at a time: the others wait and replay, none is refused.
    if (t.db.kind === 'pglite') expect(created).toHaveLength(answers.length);
    expect(await count()).toBe(before + 1);
    expect(await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM suggestions WHERE title = $1', [title])).toEqual({ n: '1' });
  });

  it('answers a replay while the first request still runs with 409 (PostgreSQL), or makes it wait and replay (PGlite)', async () => {
    // The first request is held open through runIdempotent's `work`, after it took the (user, key) lock.
    const key = randomUUID();
    const payload = body('held open');
    const url = api(`/companies/${acme.companyId}/suggestions`);
    const request = { method: 'POST', url, headers: { 'idempotency-key': key }, body: payload } as unknown as FastifyRequest;
    const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
    const reply = {
      code(status: number) {
        sent.status = status;
        return this;
      },
      header(name: string, value: string) {
        sent.headers[name] = value;
        return this;
      },
      send(answer: unknown) {
        sent.body = answer;
        return this;
      },
    } as unknown as FastifyReply;
    const heldAnswer = { data: { id: 'held' }, message: 'held' };
    let started!: () => void;
    const isRunning = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = runIdempotent(t.db, request, reply, alice.id, async () => {
      started();
      await gate;
      return { status: 201, body: heldAnswer };
    });
    await isRunning;
    const second = submit(alice, key, payload);
    try {
      if (t.db.kind === 'postgres') {
        const refused = await second;
        expect(refused.statusCode).toBe(409);
        // Retry-After tells the client's replayer to come back, not to park the item as a conflict.
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.headers['idempotent-replayed']).toBeUndefined();
        expect(json(refused)).toEqual({ message: translate('en', 'error.idempotencyInProgress') });
      } else {
        // PGlite: the second cannot start its transaction before the first ends.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      release();
    }
    await first;
    expect(sent).toEqual({ status: 201, body: heldAnswer, headers: {} });
    const after = t.db.kind === 'postgres' ? await submit(alice, key, payload) : await second;
    // Either way the key now answers the first request's stored answer, and the route never ran.
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(json(after)).toEqual(heldAnswer);
    expect(await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM suggestions WHERE title = $1', ['held open'])).toEqual({ n: '0' });
  });

  // PostgreSQL only (PGlite has one connection, so the second request simply waits): this runs in the
  // PostgreSQL pass of .ci/run, where DATABASE_URL is set.
  it.skipIf(!process.env.DATABASE_URL)('refuses with 409 a real replay while the first real request is blocked in its transaction (PostgreSQL)', async () => {
    // Another transaction holds the proposal's department row FOR UPDATE: the first request takes the
    // (user, key) lock, then waits on the foreign-key check of its INSERT until that transaction ends.
    const key = randomUUID();
    const title = `blocked ${key}`;
    let holderPid!: number;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holder = t.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM departments WHERE company_id = $1 AND id = $2 FOR UPDATE', [acme.companyId, acme.departments.A!]);
      holderPid = Number((await tx.one<{ pid: number }>('SELECT pg_backend_pid() AS pid'))?.pid);
      locked();
      await gate;
    });
    let first: ReturnType<typeof submit> | undefined;
    try {
      await isLocked;
      first = submit(alice, key, body(title));
      const deadline = Date.now() + 10_000;
      for (;;) {
        const blocked = await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [holderPid]);
        if (blocked?.n !== '0') break;
        if (Date.now() > deadline) throw new Error('the first request never blocked');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const second = await submit(alice, key, body(title));
      expect(second.statusCode).toBe(409);
      expect(second.headers['retry-after']).toBe('1');
      expect(json(second)).toEqual({ message: translate('en', 'error.idempotencyInProgress') });
    } finally {
      release();
      await holder;
    }
    const done = await first;
    expect(done.statusCode).toBe(201);
    expect(done.headers['idempotent-replayed']).toBeUndefined();
    const replay = await submit(alice, key, body(title));
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(json(replay)).toEqual(json(done));
    expect(await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM suggestions WHERE title = $1', [title])).toEqual({ n: '1' });
  });

  it('refuses a malformed key with 400 and stores nothing on failed requests', async () => {
    expect((await submit(alice, 'not-a-uuid', body())).statusCode).toBe(400);
    const key = randomUUID();
    expect((await submit(alice, key, { ...body(), title: '' })).statusCode).toBe(400);
    expect((await submit(alice, key, body('fixed'))).statusCode).toBe(201);
  });

  it('cleans keys older than 30 days and keeps younger ones (a recurring job runs it, server/jobs)', async () => {
    const key = randomUUID();
    const young = randomUUID();
    await submit(alice, key, body('old'));
    await submit(alice, young, body('young'));
    await t.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '31 days' WHERE key = $1`, [key]);
    await t.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '29 days' WHERE key = $1`, [young]);
    expect(await cleanupIdempotencyKeys(t.db, new Date())).toBeGreaterThanOrEqual(1);
    expect(await t.db.one('SELECT 1 FROM idempotency_keys WHERE key = $1', [key])).toBeNull();
    expect(await t.db.one('SELECT 1 AS kept FROM idempotency_keys WHERE key = $1', [young])).toEqual({ kept: 1 });
  });
});
