// Keyset cursors are exact (issue 10, item 2). Every list that pages with a cursor (proposals, employees, the
// sync pull) returns each row exactly once and in its order, with a small page (7), after and while four
// writers fill the table at once through the real routes, many rows in the same millisecond. A cursor that
// is not one the server made answers 400 with a field error on the lists and `reset` on the sync pull (as
// docs/api.md says: the device then pulls afresh), never a 500.

import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncChange, SyncPage } from '../src/domain/suggestion';
import type { SqlParam } from './db/database';
import { createCompany, signUpMember, type Fixture, type Login } from './features/suggestions/fixtures';
import { api, createTestApp, json, type TestApp } from './test-support';

const PAGE = 7;

let t: TestApp;
/** u[0] reads everything (CEO), u[1] heads department A (proposals) or only reads (employees), u[2..5] write. */
let u: Login[];

beforeAll(async () => {
  t = await createTestApp();
  u = [];
  // One at a time: registration is throttled per address.
  for (let i = 0; i < 6; i += 1) u.push(await signUpMember(t));
});
afterAll(() => t.close());

const writers = () => u.slice(2, 6);

function get(who: Login, path: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: api(path), headers: { authorization: `Bearer ${who.access}`, Language: 'en' } });
}

function post(who: Login, path: string, payload: object): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: api(path), headers: { authorization: `Bearer ${who.access}`, Language: 'en' }, payload });
}

const opaque = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function expectOnceEach(ids: readonly string[]): void {
  const doubles = ids.filter((id, i) => ids.indexOf(id) !== i);
  expect(doubles, 'rows returned twice').toEqual([]);
}

// ------------------------------------------------------------------------------------------- proposals

function proposal(company: Fixture, n: number): Record<string, unknown> {
  return {
    id: randomUUID(),
    title: `Proposal ${n}`,
    problem: 'Too many steps',
    solution: 'Remove two',
    expectedEffect: 'Faster',
    departmentId: n % 2 === 0 ? company.departments.A : company.departments.B,
    imageIds: [],
  };
}

/**
 * One writer's share: push batches (one transaction each, so their rows are microseconds apart) and single
 * submits between them, every answer checked.
 */
async function writeProposals(who: Login, company: Fixture, rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    const operations = Array.from({ length: 20 }, (_, n) => ({
      id: randomUUID(),
      method: 'POST',
      path: `/api/v1/companies/${company.companyId}/suggestions`,
      body: proposal(company, n),
    }));
    const pushed = await post(who, '/sync/push', { operations });
    expect(pushed.statusCode, pushed.body).toBe(200);
    expect(json<{ data: { results: { status: number }[] } }>(pushed).data.results.every((r) => r.status === 201)).toBe(true);
    for (let n = 0; n < 2; n += 1) {
      const single = await post(who, `/companies/${company.companyId}/suggestions`, proposal(company, n + round));
      expect(single.statusCode, single.body).toBe(201);
    }
  }
}

/**
 * A writer that adds `count` proposals in one statement: they all share one created_at (the transaction's
 * start), as rows of a bulk write, or of PGlite, whose clock counts whole milliseconds, can. Only the id then
 * tells them apart.
 */
async function writeProposalsAtOnce(who: Login, company: Fixture, count: number): Promise<void> {
  await t.db.query(
    `INSERT INTO suggestions (company_id, id, title, problem, solution, expected_effect, department_id, author_id, author_name,
                              due_at, submitted_at, received_at)
     SELECT $1, gen_random_uuid(), 'Bulk ' || n, 'Too many steps', 'Remove two', 'Faster', $2, $3, 'Bulk Writer',
            now() + interval '5 days', now(), now()
       FROM generate_series(1, $4::int) n`,
    [company.companyId, company.departments.A!, who.id, count],
  );
}

async function pageProposals(who: Login, company: Fixture, query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(who, `/companies/${company.companyId}/suggestions?limit=${PAGE}${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = json<{ data: { items: { id: string }[]; nextCursor: string | null } }>(res).data;
    expect(page.items.length).toBeLessThanOrEqual(PAGE);
    ids.push(...page.items.map((s) => s.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/** The proposals as the list must order them, straight from the table. */
async function proposalsInOrder(company: Fixture, where = 'true', params: SqlParam[] = []): Promise<string[]> {
  const rows = await t.db.query<{ id: string }>(
    `SELECT id FROM suggestions s WHERE s.company_id = $1 AND ${where} ORDER BY s.created_at DESC, s.id DESC`,
    [company.companyId, ...params],
  );
  return rows.map((r) => r.id);
}

describe('the proposals list', () => {
  let company: Fixture;
  beforeAll(async () => {
    const roles: Record<string, string[]> = { [u[0]!.id]: ['CEO'], [u[1]!.id]: ['MIDDLE_MANAGER'] };
    for (const w of writers()) roles[w.id] = ['EMPLOYEE'];
    company = await createCompany(t.db, 'Paged proposals', roles, { A: u[1]!.id });
  });

  it('returns every proposal exactly once, newest first, while and after four writers fill the company', async () => {
    await Promise.all([...writers().map((w) => writeProposals(w, company, 1)), writeProposalsAtOnce(writers()[0]!, company, 30)]);
    const before = new Set(await proposalsInOrder(company));

    // A reader pages while the four write again: it returns each row at most once, and every row that was
    // there when it began.
    const [during] = await Promise.all([
      pageProposals(u[0]!, company, ''),
      ...writers().map((w) => writeProposals(w, company, 2)),
      writeProposalsAtOnce(writers()[1]!, company, 30),
    ]);
    expectOnceEach(during);
    expect([...before].filter((id) => !during.includes(id)), 'rows skipped').toEqual([]);

    // Many rows share a millisecond (the case a millisecond cursor skipped rows in); the bulk writers' rows
    // share the whole timestamp. On PostgreSQL (a microsecond clock) the rows of the push batches also differ
    // within one millisecond; PGlite's clock counts whole milliseconds.
    const spread = await t.db.one<{ rows: number; millis: number; routedStamps: number; routedMillis: number }>(
      `SELECT count(*)::int AS rows, count(DISTINCT date_trunc('milliseconds', created_at))::int AS millis,
              count(DISTINCT created_at) FILTER (WHERE author_name <> 'Bulk Writer')::int AS "routedStamps",
              count(DISTINCT date_trunc('milliseconds', created_at)) FILTER (WHERE author_name <> 'Bulk Writer')::int AS "routedMillis"
         FROM suggestions WHERE company_id = $1`,
      [company.companyId],
    );
    expect(spread!.millis).toBeLessThan(spread!.rows);
    if (t.db.kind === 'postgres') expect(spread!.routedMillis).toBeLessThan(spread!.routedStamps);
    const all = await proposalsInOrder(company);
    expect(all.length).toBe(4 * 3 * 22 + 2 * 30);
    expect(await pageProposals(u[0]!, company, '')).toEqual(all);
    // The author's own (scope=mine) and a department head's view of the others' (scope=company).
    const writer = writers()[0]!;
    expect(await pageProposals(writer, company, '&scope=mine')).toEqual(await proposalsInOrder(company, 's.author_id = $2', [writer.id]));
    expect(await pageProposals(u[1]!, company, '&scope=company')).toEqual(
      await proposalsInOrder(company, 's.author_id <> $2 AND s.department_id = $3', [u[1]!.id, company.departments.A!]),
    );
    expect(await pageProposals(u[0]!, company, '&status=UNDER_CONSIDERATION')).toEqual(all);
  });

  it('answers 400 with a field error to a cursor it did not make', async () => {
    const id = randomUUID();
    const at = '2026-01-02T03:04:05.123456Z';
    for (const cursor of [
      '%%%',
      opaque(null),
      opaque([at, id]),
      opaque({ c: at }),
      opaque({ c: at, i: 7 }),
      opaque({ c: at, i: 'not-a-uuid' }),
      opaque({ c: at, i: '0'.repeat(36) }),
      opaque({ c: at, i: `${id}\u0000` }),
      opaque({ c: '1', i: id }),
      opaque({ c: 'now', i: id }),
      opaque({ c: '2026-02-31T00:00:00.000000Z', i: id }),
      opaque({ c: '2026-01-02T24:00:00.000000Z', i: id }),
      opaque({ c: '0000-01-01T00:00:00.000000Z', i: id }),
      opaque({ c: '2026-01-02T03:04:05.1234567Z', i: id }),
      opaque({ c: `${at}\u0000`, i: id }),
    ]) {
      const res = await get(u[0]!, `/companies/${company.companyId}/suggestions?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, `${Buffer.from(cursor, 'base64url').toString()}: ${res.body}`).toBe(400);
      expect(Object.keys(json<{ errors: Record<string, string> }>(res).errors)).toEqual(['cursor']);
    }
    // A cursor of the earlier build (milliseconds) still reads: it is a valid position, only coarser.
    const older = await get(u[0]!, `/companies/${company.companyId}/suggestions?cursor=${opaque({ c: '2026-01-02T03:04:05.123Z', i: id })}`);
    expect(older.statusCode, older.body).toBe(200);
  });
});

// ------------------------------------------------------------------------------------------- employees

const SURNAMES = ['Иванов', 'Иванова'];
const NAMES = ['Анна', 'Иван'];

/** One writer's share of employees: names from a tiny set, so almost every row ties on (last, first name). */
async function writeEmployees(who: Login, companyId: string, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1) {
    const res = await post(who, `/companies/${companyId}/employees`, { lastName: SURNAMES[n % 2], firstName: NAMES[(n >> 1) % 2], position: 'Оператор' });
    expect(res.statusCode, res.body).toBe(201);
  }
}

async function pageEmployees(who: Login, companyId: string, query = ''): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await get(who, `/companies/${companyId}/employees?limit=${PAGE}${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = json<{ data: { items: { id: string }[]; nextCursor: string | null } }>(res).data;
    ids.push(...page.items.map((e) => e.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

async function employeesInOrder(companyId: string, where = 'true'): Promise<string[]> {
  const rows = await t.db.query<{ id: string }>(`SELECT id FROM employees e WHERE e.company_id = $1 AND ${where} ORDER BY e.last_name, e.first_name, e.id`, [companyId]);
  return rows.map((r) => r.id);
}

describe('the employees list', () => {
  let companyId: string;
  beforeAll(async () => {
    const [hr1, hr2, owner, ceo] = writers();
    companyId = (await createCompany(t.db, 'Paged people', { [hr1!.id]: ['HR'], [hr2!.id]: ['HR'], [owner!.id]: ['OWNER'], [ceo!.id]: ['CEO'], [u[1]!.id]: ['EMPLOYEE'] }))
      .companyId;
  });

  it('returns every employee exactly once, by name and id, while and after four people managers add them', async () => {
    await Promise.all(writers().map((w) => writeEmployees(w, companyId, 15)));
    const before = new Set(await employeesInOrder(companyId));

    const [during] = await Promise.all([pageEmployees(u[1]!, companyId), ...writers().map((w) => writeEmployees(w, companyId, 15))]);
    expectOnceEach(during);
    expect([...before].filter((id) => !during.includes(id)), 'rows skipped').toEqual([]);

    const all = await employeesInOrder(companyId);
    expect((await employeesInOrder(companyId, `e.position = 'Оператор'`)).length).toBe(4 * 30);
    expect(await pageEmployees(u[1]!, companyId)).toEqual(all);
    expect(await pageEmployees(u[1]!, companyId, `&search=${encodeURIComponent('Иванова Анна')}`)).toEqual(
      await employeesInOrder(companyId, `e.last_name = 'Иванова' AND e.first_name = 'Анна'`),
    );
  });

  it('answers 400 with a field error to a cursor it did not make', async () => {
    const id = randomUUID();
    for (const cursor of [
      '%%%',
      opaque(42),
      opaque({ l: 'Иванов', f: 'Иван' }),
      opaque({ l: 'Иванов', f: 'Иван', i: '0'.repeat(36) }),
      opaque({ l: 'Иванов', f: 1, i: id }),
      opaque({ l: 'Иван\u0000ов', f: 'Иван', i: id }),
      opaque({ l: 'Иванов', f: '\ud800', i: id }),
    ]) {
      const res = await get(u[1]!, `/companies/${companyId}/employees?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, `${Buffer.from(cursor, 'base64url').toString().slice(0, 80)}: ${res.body}`).toBe(400);
      expect(Object.keys(json<{ errors: Record<string, string> }>(res).errors)).toEqual(['cursor']);
    }
  });
});

// ------------------------------------------------------------------------------------------- sync pull

interface Pulled {
  cursor: string;
  seen: SyncChange[];
}

/** Pulls with `cursor` until hasMore is false, applying each change to `mirror` (key table:id -> seq). */
async function pullAll(who: Login, companyId: string, mirror: Map<string, string>, cursor = ''): Promise<Pulled> {
  const seen: SyncChange[] = [];
  let next = cursor;
  for (;;) {
    const res = await get(who, `/sync/pull?companyId=${companyId}&limit=${PAGE}${next ? `&cursor=${next}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = json<{ data: SyncPage }>(res).data;
    expect(page.reset).toBe(false);
    for (const change of page.changes) {
      seen.push(change);
      if (change.op === 'delete') mirror.delete(`${change.table}:${change.id}`);
      else mirror.set(`${change.table}:${change.id}`, change.seq);
    }
    next = page.nextCursor;
    if (!page.hasMore) return { cursor: next, seen };
  }
}

/** What a CEO's mirror must hold: every row of the company with its latest change, and their own notifications. */
async function syncTruth(companyId: string, userId: string): Promise<Map<string, string>> {
  const rows = await t.db.query<{ k: string; cs: string }>(
    `SELECT 'companies:' || id AS k, change_seq::text AS cs FROM companies WHERE id = $1
     UNION ALL SELECT 'departments:' || id, change_seq::text FROM departments WHERE company_id = $1
     UNION ALL SELECT 'employees:' || id, change_seq::text FROM employees WHERE company_id = $1
     UNION ALL SELECT 'suggestions:' || id, change_seq::text FROM suggestions WHERE company_id = $1
     UNION ALL SELECT 'notifications:' || id, change_seq::text FROM notifications WHERE company_id = $1 AND user_id = $2`,
    [companyId, userId],
  );
  return new Map(rows.map((r) => [r.k, r.cs]));
}

describe('the sync pull', () => {
  let company: Fixture;
  beforeAll(async () => {
    const roles: Record<string, string[]> = { [u[0]!.id]: ['CEO'] };
    for (const w of writers()) roles[w.id] = ['EMPLOYEE'];
    company = await createCompany(t.db, 'Pulled', roles);
  });

  it('brings every row once per version, while and after four writers fill the company', async () => {
    await Promise.all(writers().map((w) => writeProposals(w, company, 1)));
    const mirror = new Map<string, string>();
    const [first] = await Promise.all([pullAll(u[0]!, company.companyId, mirror), ...writers().map((w) => writeProposals(w, company, 2))]);
    const versions = first.seen.map((c) => `${c.table}:${c.id}:${c.seq}`);
    expectOnceEach(versions);
    await pullAll(u[0]!, company.companyId, mirror, first.cursor);
    expect(mirror).toEqual(await syncTruth(company.companyId, u[0]!.id));

    // A fresh device pulls the finished company in pages of 7: each row once, at its latest version.
    const fresh = new Map<string, string>();
    const again = await pullAll(u[0]!, company.companyId, fresh);
    expectOnceEach(again.seen.map((c) => `${c.table}:${c.id}`));
    expect(fresh).toEqual(await syncTruth(company.companyId, u[0]!.id));
  });

  it('answers reset, never 500, to a cursor it did not make, the snapshot key of 36 zeros included', async () => {
    const first = json<{ data: SyncPage }>(await get(u[0]!, `/sync/pull?companyId=${company.companyId}&limit=${PAGE}`)).data;
    const real = JSON.parse(Buffer.from(first.nextCursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(real.p).toBe('s');
    for (const cursor of [
      opaque({ ...real, k: '0'.repeat(36) }),
      opaque({ ...real, k: '-'.repeat(36) }),
      opaque({ ...real, k: `${randomUUID()}\u0000` }),
      opaque({ ...real, t: 1.5 }),
      opaque({ ...real, t: -1 }),
      opaque({ ...real, h: '9'.repeat(19) }),
      opaque({ ...real, p: 'f', s: '9'.repeat(19) }),
      opaque(null),
    ]) {
      const res = await get(u[0]!, `/sync/pull?companyId=${company.companyId}&limit=${PAGE}&cursor=${cursor}`);
      expect(res.statusCode, `${Buffer.from(cursor, 'base64url').toString()}: ${res.body}`).toBe(200);
      expect(json<{ data: SyncPage }>(res).data).toEqual({ changes: [], nextCursor: '', hasMore: false, reset: true });
    }
    // The real cursor still goes on.
    const next = await get(u[0]!, `/sync/pull?companyId=${company.companyId}&limit=${PAGE}&cursor=${first.nextCursor}`);
    expect(json<{ data: SyncPage }>(next).data.reset).toBe(false);
  });
});
