import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { object } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Suggestion } from '../../../src/domain/suggestion';
import { resolveJwtSecret } from '../../auth/tokens';
import { findUserById } from '../../auth/users';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';
import { submitSuggestionOperation } from '../suggestions/routes';
import { defineOperation } from '../../operation';
import { applyPush, compilePushable, type PushOperation } from './service';

let t: TestApp;
let author: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  [author, outsider] = await Promise.all([signUpMember(t), signUpMember(t)]);
  acme = await createCompany(t.db, 'Acme', { [author.id]: ['EMPLOYEE'] });
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
});
afterAll(() => t.close());

interface Result {
  id: string;
  status: number;
  body: { data?: Suggestion; message: string; errors?: Record<string, string> };
  retryAfter?: string;
}

const headers = (who: Login, language = 'en') => ({ authorization: `Bearer ${who.access}`, Language: language });
const suggestionsPath = (companyId = acme.companyId) => `/api/v1/companies/${companyId}/suggestions`;

function proposal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: randomUUID(), title: 'Fewer steps', problem: 'Too many steps', solution: 'Remove two', expectedEffect: 'Faster', departmentId: acme.departments.A, imageIds: [], ...overrides };
}

function create(overrides: Record<string, unknown> = {}, companyId = acme.companyId): PushOperation {
  return { id: randomUUID(), method: 'POST', path: suggestionsPath(companyId), body: proposal(overrides) };
}

function push(operations: readonly PushOperation[], who: Login = author, language = 'en') {
  return t.app.inject({ method: 'POST', url: api('/sync/push'), headers: headers(who, language), payload: { operations } });
}

async function pushResults(operations: readonly PushOperation[], who: Login = author, language = 'en'): Promise<Result[]> {
  const response = await push(operations, who, language);
  expect(response.statusCode, response.body).toBe(200);
  const body = json<{ data: { results: Result[] }; message: string }>(response);
  expect(body.data.results.map((r) => r.id)).toEqual(operations.map((o) => o.id));
  return body.data.results;
}

const count = async (companyId = acme.companyId) => Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM suggestions WHERE company_id = $1', [companyId]))?.n);
const exists = async (id: unknown) => (await t.db.one('SELECT 1 FROM suggestions WHERE id::text = $1', [String(id)])) !== null;
const bodyId = (operation: PushOperation) => (operation.body as { id: string }).id;

describe('POST /sync/push', () => {
  it('applies the operations in order and answers each as its direct call would', async () => {
    const operations = [create({ title: 'First' }), create({ title: 'Second' }), create({ title: 'Third' })];
    const results = await pushResults(operations);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(results.map((r) => r.body.message)).toEqual(['Proposal submitted.', 'Proposal submitted.', 'Proposal submitted.']);
    expect(results.map((r) => r.body.data?.title)).toEqual(['First', 'Second', 'Third']);
    expect(results.map((r) => r.body.data?.id)).toEqual(operations.map(bodyId));
    // The change feed numbers the rows in the order they were written.
    const rows = await t.db.query<{ id: string }>('SELECT id FROM suggestions WHERE id::text = ANY($1::text[]) ORDER BY change_seq', [operations.map(bodyId)]);
    expect(rows.map((r) => r.id)).toEqual(operations.map(bodyId));
  });

  it('lists every proposal of a batch across pages, newest (last applied) first', async () => {
    const writer = await signUpMember(t);
    const own = await createCompany(t.db, 'Own', { [writer.id]: ['EMPLOYEE'] });
    const operations = Array.from({ length: 7 }, (_, i) => create({ title: `Paged ${i}`, departmentId: own.departments.A }, own.companyId));
    await pushResults(operations, writer);
    const listTitles = async () => {
      const titles: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `scope=mine&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await t.app.inject({ method: 'GET', url: api(`/companies/${own.companyId}/suggestions?${query}`), headers: headers(writer) });
        const body = json<{ data: { items: Suggestion[]; nextCursor: string | null } }>(page);
        titles.push(...body.data.items.map((item) => item.title));
        cursor = body.data.nextCursor;
      } while (cursor);
      return titles;
    };
    const expected = operations.map((_, i) => `Paged ${i}`);
    expect(await listTitles()).toEqual([...expected].reverse());
    // Several proposals within one millisecond (a fast batch): none may fall between two pages.
    await t.db.query(
      `UPDATE suggestions SET created_at = timestamptz '2026-01-01T00:00:00.000100Z' + make_interval(secs => (substring(title from 7)::int) / 1000000.0)
        WHERE company_id = $1`,
      [own.companyId],
    );
    const listed = await listTitles();
    expect(listed).toHaveLength(expected.length);
    expect([...listed].sort()).toEqual(expected);
  });

  it('answers a replayed key with the stored result and creates nothing new', async () => {
    const operations = [create(), create()];
    const first = await pushResults(operations);
    const before = await count();
    const again = await pushResults(operations);
    expect(again).toEqual(first);
    expect(await count()).toBe(before);
  });

  it('refuses the same key with another body with 422 for that operation only', async () => {
    const used = create();
    await pushResults([used]);
    const changed = { ...used, body: { ...(used.body as object), title: 'Another title' } };
    const fresh = create();
    const results = await pushResults([changed, fresh]);
    expect(results.map((r) => r.status)).toEqual([422, 201]);
    expect(results[0]?.body).toEqual({ message: 'This Idempotency-Key was already used for a different request.' });
    expect(await exists(bodyId(fresh))).toBe(true);
  });

  it("answers 404 for an operation on another tenant's company, and applies the others", async () => {
    const foreign = create({ departmentId: rival.departments.A }, rival.companyId);
    const mine = create();
    const before = await count(rival.companyId);
    const results = await pushResults([foreign, mine]);
    expect(results.map((r) => r.status)).toEqual([404, 201]);
    expect(results[0]?.body).toEqual({ message: 'Not found.' });
    expect(await count(rival.companyId)).toBe(before);
  });

  it('keeps going past a validation failure: operations 1 and 3 apply, 2 gets its field errors, its key stays free', async () => {
    const bad = create({ title: '' });
    const operations = [create(), bad, create()];
    const results = await pushResults(operations);
    expect(results.map((r) => r.status)).toEqual([201, 400, 201]);
    expect(Object.keys(results[1]?.body.errors ?? {})).toEqual(['title']);
    expect(await exists(bodyId(bad))).toBe(false);
    // Nothing was stored under the refused key: the corrected row may use it again.
    const corrected = { ...bad, body: { ...(bad.body as object), title: 'Now with a title' } };
    expect((await pushResults([corrected]))[0]?.status).toBe(201);
  });

  it('creates nothing new when the same operations come again in a batch', async () => {
    const operations = Array.from({ length: 5 }, (_, i) => create({ title: `Batch ${i}` }));
    await pushResults(operations);
    const before = await count();
    const results = await pushResults(operations);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(await count()).toBe(before);
  });

  it('recognises a row first sent alone and then inside a batch as the same request', async () => {
    const operation = create();
    const direct = await t.app.inject({
      method: 'POST',
      url: `/main-service${operation.path}`,
      headers: { ...headers(author), 'Idempotency-Key': operation.id },
      payload: operation.body as object,
    });
    expect(direct.statusCode).toBe(201);
    const before = await count();
    const [result] = await pushResults([operation]);
    expect(result?.status).toBe(201);
    expect(result?.body).toEqual(json(direct));
    expect(await count()).toBe(before);
  });

  it('recognises a row first sent in a batch and then alone as the same request', async () => {
    const operation = create();
    const [result] = await pushResults([operation]);
    const before = await count();
    const direct = await t.app.inject({
      method: 'POST',
      url: `/main-service${operation.path}`,
      headers: { ...headers(author), 'Idempotency-Key': operation.id },
      payload: operation.body as object,
    });
    expect(direct.statusCode).toBe(201);
    expect(direct.headers['idempotent-replayed']).toBe('true');
    expect(json(direct)).toEqual(result?.body);
    expect(await count()).toBe(before);
  });

  it('replays a key repeated inside one batch instead of applying it twice', async () => {
    const operation = create();
    const before = await count();
    const results = await pushResults([operation, operation]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(results[1]?.body).toEqual(results[0]?.body);
    expect(await count()).toBe(before + 1);
  });

  it('answers 404 in the request language for an operation that cannot be pushed, and applies the others', async () => {
    const unknown: PushOperation = { id: randomUUID(), method: 'DELETE', path: suggestionsPath(), body: null };
    const outside: PushOperation = { id: randomUUID(), method: 'POST', path: '/main-service/api/v1/auth/login', body: {} };
    const results = await pushResults([unknown, outside, create()], author, 'ru');
    expect(results.map((r) => r.status)).toEqual([404, 404, 201]);
    expect(results[0]?.body).toEqual({ message: 'Не найдено.' });
    expect(results[2]?.body.message).toBe('Предложение отправлено.');
  });

  it('refuses a malformed batch as a whole: none, over 100, a bad id, an unknown field', async () => {
    const before = await count();
    for (const operations of [[], Array.from({ length: 101 }, () => create()), [{ ...create(), id: 'not-a-uuid' }], [{ ...create(), extra: 1 }]]) {
      const response = await push(operations as PushOperation[]);
      expect(response.statusCode).toBe(400);
      expect(json(response)).toHaveProperty('errors');
    }
    expect(await count()).toBe(before);
  });

  it('needs a signed-in user: 401 without a token, 403 "Token Expired." for an expired one, nothing applied', async () => {
    const before = await count();
    const anonymous = await t.app.inject({ method: 'POST', url: api('/sync/push'), headers: { Language: 'en' }, payload: { operations: [create()] } });
    expect(anonymous.statusCode).toBe(401);
    const secret = await resolveJwtSecret(t.db, t.config.jwtSecret);
    const expired = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(author.id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 16 * 60)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    const response = await t.app.inject({ method: 'POST', url: api('/sync/push'), headers: { authorization: `Bearer ${expired}`, Language: 'en' }, payload: { operations: [create()] } });
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({ message: 'Token Expired.' });
    expect(await count()).toBe(before);
  });
});

describe('applyPush', () => {
  it('stops at a server failure: earlier operations commit, the failing one answers 500, later ones 503 and do not run', async () => {
    const failing = defineOperation({
      method: 'POST',
      path: '/companies/:companyId/broken',
      permission: 'company.read',
      input: object({}),
      run: () => Promise.reject(new Error('the database went away')),
    });
    const user = await findUserById(t.db, author.id);
    if (!user) throw new Error('no user');
    const logged: unknown[] = [];
    const before = create();
    const after = create();
    const results = await applyPush(
      { db: t.db, pushable: compilePushable([submitSuggestionOperation, failing]), user, locale: 'en', logFailure: (error) => logged.push(error) },
      [before, { id: randomUUID(), method: 'POST', path: `/api/v1/companies/${acme.companyId}/broken`, body: {} }, after],
    );
    expect(results.map((r) => r.status)).toEqual([201, 500, 503]);
    expect(results[1]?.body).toEqual({ message: 'Something went wrong on the server. Try again later.' });
    expect(results[2]?.body).toEqual({ message: 'Not applied: an earlier operation of the same batch failed on the server. Send it again.' });
    expect(logged).toHaveLength(1);
    expect(await exists(bodyId(before))).toBe(true);
    expect(await exists(bodyId(after))).toBe(false);
  });
});
