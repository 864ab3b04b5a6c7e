import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncPage, type SyncChange } from '../../../src/domain/suggestion';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';

let t: TestApp;
let author: Login;
let ceo: Login;
let other: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;

const login = () => signUpMember(t);

beforeAll(async () => {
  t = await createTestApp();
  [author, ceo, other, outsider] = await Promise.all([login(), login(), login(), login()]);
  acme = await createCompany(t.db, 'Acme', { [author.id]: ['EMPLOYEE'], [ceo.id]: ['CEO'], [other.id]: ['EMPLOYEE'] });
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
});
afterAll(() => t.close());

const submit = (who: Login, title: string) =>
  t.app.inject({
    method: 'POST',
    url: api(`/companies/${acme.companyId}/suggestions`),
    headers: { authorization: `Bearer ${who.access}` },
    payload: { title, problem: 'p', solution: 's', expectedEffect: 'e', departmentId: acme.departments.A, imageIds: [] },
  });

async function pullPage(who: Login, cursor?: string, limit = 3, companyId = acme.companyId) {
  const res = await t.app.inject({
    method: 'GET',
    url: api(`/sync/pull?companyId=${companyId}&limit=${limit}${cursor !== undefined ? `&cursor=${cursor}` : ''}`),
    headers: { authorization: `Bearer ${who.access}` },
  });
  return res;
}

/** Pulls until hasMore is false, applying changes to a mirror; `between` runs after each page. */
async function pullAll(who: Login, mirror: Map<string, unknown>, cursor?: string, between?: () => Promise<void>): Promise<{ cursor: string; seen: SyncChange[] }> {
  const seen: SyncChange[] = [];
  let next = cursor;
  for (;;) {
    const res = await pullPage(who, next);
    expect(res.statusCode, res.body).toBe(200);
    const page = json<{ data: SyncPage }>(res).data;
    expect(SyncPage.is(page)).toBe(true);
    expect(page.reset).toBe(false);
    for (const c of page.changes) {
      seen.push(c);
      if (c.op === 'upsert') mirror.set(`${c.table}:${c.id}`, c.row);
      else mirror.delete(`${c.table}:${c.id}`);
    }
    next = page.nextCursor;
    if (between) await between();
    if (!page.hasMore) return { cursor: next, seen };
  }
}

async function truth(who: Login): Promise<Set<string>> {
  const keys = new Set<string>([`companies:${acme.companyId}`]);
  for (const r of await t.db.query<{ id: string }>('SELECT id FROM departments WHERE company_id = $1', [acme.companyId])) keys.add(`departments:${r.id}`);
  for (const r of await t.db.query<{ id: string }>('SELECT id FROM employees WHERE company_id = $1', [acme.companyId])) keys.add(`employees:${r.id}`);
  const all = who.id === ceo.id;
  for (const r of await t.db.query<{ id: string }>('SELECT id FROM suggestions WHERE company_id = $1 AND ($2 OR author_id = $3)', [acme.companyId, all, who.id])) keys.add(`suggestions:${r.id}`);
  return keys;
}

describe('change feed', () => {
  it('records insert, update and delete with increasing seq, deletes as tombstones', async () => {
    const dep = await t.db.one<{ id: string }>('INSERT INTO departments (company_id, name) VALUES ($1, $2) RETURNING id', [acme.companyId, 'Temp']);
    await t.db.query('UPDATE departments SET name = $2 WHERE id = $1', [dep!.id, 'Temp 2']);
    await t.db.query('DELETE FROM departments WHERE id = $1', [dep!.id]);
    const rows = await t.db.query<{ seq: string; op: string; table_name: string }>('SELECT seq::text AS seq, op, table_name FROM changes WHERE row_id = $1 ORDER BY seq', [dep!.id]);
    expect(rows.map((r) => r.op)).toEqual(['upsert', 'upsert', 'delete']);
    expect(rows.every((r) => r.table_name === 'departments')).toBe(true);
    const seqs = rows.map((r) => BigInt(r.seq));
    expect(seqs[0]! < seqs[1]! && seqs[1]! < seqs[2]!).toBe(true);
  });
});

describe('GET /sync/pull', () => {
  it('pages a snapshot of visible rows, then the feed, without gaps or doubles under concurrent writes', async () => {
    for (let i = 0; i < 4; i++) {
      await submit(author, `a${i}`);
      await submit(other, `o${i}`);
    }
    const mirror = new Map<string, unknown>();
    let n = 0;
    const first = await pullAll(ceo, mirror, undefined, async () => {
      n += 1;
      // Writes while paging: a new proposal, an update of an early row, a delete.
      await submit(other, `during ${n}`);
      await t.db.query('UPDATE departments SET name = name || $2 WHERE id = $1', [acme.departments.A!, '+']);
      if (n === 2) {
        const d = await t.db.one<{ id: string }>('INSERT INTO departments (company_id, name) VALUES ($1, $2) RETURNING id', [acme.companyId, 'gone']);
        await t.db.query('DELETE FROM departments WHERE id = $1', [d!.id]);
      }
    });
    // The callback wrote after the last page too: one more pull picks that up.
    await pullAll(ceo, mirror, first.cursor);
    expect(new Set(mirror.keys())).toEqual(await truth(ceo));
    const depA = mirror.get(`departments:${acme.departments.A}`) as { name: string };
    expect(depA.name).toBe((await t.db.one<{ name: string }>('SELECT name FROM departments WHERE id = $1', [acme.departments.A!]))!.name);
    // The snapshot never sends one version of a row twice.
    const versions = first.seen.map((c) => `${c.table}:${c.id}:${c.seq}`);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('sends only visible proposals and hides other employees contacts', async () => {
    const mirror = new Map<string, unknown>();
    await pullAll(author, mirror);
    expect(new Set(mirror.keys())).toEqual(await truth(author));
    const others = [...mirror.entries()].filter(([k, v]) => k.startsWith('employees:') && (v as { userId: string }).userId !== author.id);
    expect(others.length).toBeGreaterThan(0);
    for (const [, v] of others) expect((v as { email: string | null }).email).toBeNull();
  });

  it('sends deletes after a cursor as tombstones', async () => {
    const mirror = new Map<string, unknown>();
    const { cursor } = await pullAll(ceo, mirror);
    const id = json<{ data: { id: string } }>(await submit(author, 'to delete')).data.id;
    await t.db.query('DELETE FROM suggestions WHERE id = $1', [id]);
    const page = json<{ data: SyncPage }>(await pullPage(ceo, cursor, 100)).data;
    expect(page.changes.filter((c) => c.id === id).map((c) => c.op)).toEqual(['delete']);
  });

  it('answers reset for a malformed, foreign or future cursor', async () => {
    const good = json<{ data: SyncPage }>(await pullPage(ceo)).data.nextCursor;
    const future = Buffer.from(JSON.stringify({ v: 1, c: acme.companyId, p: 'f', s: '999999999' })).toString('base64url');
    const foreign = Buffer.from(JSON.stringify({ v: 1, c: rival.companyId, p: 'f', s: '1' })).toString('base64url');
    for (const cursor of ['garbage', future, foreign, good.slice(0, 5)]) {
      const page = json<{ data: SyncPage }>(await pullPage(ceo, cursor)).data;
      expect(page).toEqual({ changes: [], nextCursor: '', hasMore: false, reset: true });
    }
  });

  it('answers 404 for another company and 400 for bad parameters', async () => {
    expect((await pullPage(author, undefined, 3, rival.companyId)).statusCode).toBe(404);
    expect((await pullPage(author, undefined, 3, randomUUID())).statusCode).toBe(404);
    expect((await pullPage(author, undefined, 1001)).statusCode).toBe(400);
    const res = await t.app.inject({ method: 'GET', url: api('/sync/pull'), headers: { authorization: `Bearer ${author.access}` } });
    expect(res.statusCode).toBe(400);
  });
});
