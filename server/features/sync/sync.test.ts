import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncPage, SyncRows, type EmployeeRow, type SyncChange } from '../../../src/domain/suggestion';
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
  // Notifications: only the caller's own.
  for (const r of await t.db.query<{ id: string }>('SELECT id FROM notifications WHERE company_id = $1 AND user_id = $2', [acme.companyId, who.id])) keys.add(`notifications:${r.id}`);
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
      // A submit now writes a notification too (to the CEO here: department A has no head), so writing after
      // every page of 3 would outrun the pull forever: the first 6 pages are written under, then it catches up.
      if (n > 6) return;
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

  it('never sends another member a notification, not even as a delete', async () => {
    const mirror = new Map<string, unknown>();
    const { cursor } = await pullAll(author, mirror);
    // Submitting tells whoever holds the proposal (the CEO here), never the author.
    await submit(other, 'for the CEO to hear of');
    expect(await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM notifications WHERE company_id = $1 AND user_id = $2', [acme.companyId, ceo.id])).toEqual({ n: expect.not.stringMatching(/^0$/) });
    const page = json<{ data: SyncPage }>(await pullPage(author, cursor, 100)).data;
    expect(page.changes.filter((c) => c.table === 'notifications')).toEqual([]);
    const ceoMirror = new Map<string, unknown>();
    await pullAll(ceo, ceoMirror);
    expect([...ceoMirror.keys()].some((key) => key.startsWith('notifications:'))).toBe(true);
  });

  it('sends deletes after a cursor as tombstones', async () => {
    const mirror = new Map<string, unknown>();
    const { cursor } = await pullAll(ceo, mirror);
    const id = json<{ data: { id: string } }>(await submit(author, 'to delete')).data.id;
    await t.db.query('DELETE FROM suggestions WHERE id = $1', [id]);
    const page = json<{ data: SyncPage }>(await pullPage(ceo, cursor, 100)).data;
    expect(page.changes.filter((c) => c.id === id).map((c) => c.op)).toEqual(['delete']);
  });

  it('answers reset for a malformed, foreign, future or fingerprint-less cursor', async () => {
    const good = json<{ data: SyncPage }>(await pullPage(ceo)).data.nextCursor;
    const decoded = JSON.parse(Buffer.from(good, 'base64url').toString('utf8')) as Record<string, unknown>;
    const encode = (value: Record<string, unknown>) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const future = encode({ ...decoded, p: 'f', s: '999999999' });
    const foreign = encode({ ...decoded, c: rival.companyId, p: 'f', s: '1' });
    // A cursor of the build before view versions: no fingerprint.
    const old = encode({ v: 1, c: acme.companyId, p: 'f', s: '1' });
    const otherView = encode({ ...decoded, w: 'another-view' });
    for (const cursor of ['garbage', future, foreign, old, otherView, good.slice(0, 5)]) {
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

/** Pulls until hasMore is false from `cursor`; answers the pages' data and whether any page said reset. */
async function pullData(who: Login, cursor?: string): Promise<{ reset: boolean; cursor: string; mirror: Map<string, Record<string, unknown>> }> {
  const mirror = new Map<string, Record<string, unknown>>();
  let next = cursor;
  for (;;) {
    const res = await pullPage(who, next, 100);
    expect(res.statusCode, res.body).toBe(200);
    const page = json<{ data: SyncPage }>(res).data;
    if (page.reset) return { reset: true, cursor: '', mirror };
    for (const c of page.changes) {
      if (c.op === 'upsert') mirror.set(`${c.table}:${c.id}`, c.row as Record<string, unknown>);
      else mirror.delete(`${c.table}:${c.id}`);
    }
    next = page.nextCursor;
    if (!page.hasMore) return { reset: false, cursor: next, mirror };
  }
}

async function patchAs(who: Login, path: string, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'PATCH', url: api(path), headers: { authorization: `Bearer ${who.access}` }, payload });
  expect(res.statusCode, res.body).toBe(200);
}

const employeeIdOf = async (userId: string) => (await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2', [acme.companyId, userId]))!.id;

describe('a change of what a member may see', () => {
  it('a member who loses HR gets reset at the next pull, and the rows pulled again hide colleagues contacts', async () => {
    const hr = await login();
    await t.db.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [acme.companyId, hr.id, ['HR']]);
    await t.db.query('INSERT INTO employees (company_id, user_id, last_name, first_name, email, service_number, roles) VALUES ($1, $2, $3, $4, $5, $6, $7)', [acme.companyId, hr.id, 'Кадры', 'Ольга', `${hr.id}@x.test`, 'T-1', ['HR']]);
    const before = await pullData(hr);
    const colleagues = (m: Map<string, Record<string, unknown>>) => [...m.entries()].filter(([k, v]) => k.startsWith('employees:') && v.userId !== hr.id).map(([, v]) => v as EmployeeRow);
    expect(colleagues(before.mirror).some((e) => e.email !== null)).toBe(true);

    await patchAs(ceo, `/companies/${acme.companyId}/employees/${await employeeIdOf(hr.id)}`, { roles: ['EMPLOYEE'] });
    expect((await pullData(hr, before.cursor)).reset).toBe(true);
    const after = await pullData(hr);
    expect(after.reset).toBe(false);
    expect(colleagues(after.mirror).length).toBe(colleagues(before.mirror).length);
    for (const e of colleagues(after.mirror)) expect({ email: e.email, serviceNumber: e.serviceNumber }).toEqual({ email: null, serviceNumber: null });
    // Their own contacts stay theirs to see.
    const own = [...after.mirror.values()].find((v) => v.userId === hr.id) as EmployeeRow;
    expect(own.serviceNumber).toBe('T-1');
  });

  it('a new head of a department gets reset at the next pull and then the department older proposals', async () => {
    const head = await login();
    await t.db.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [acme.companyId, head.id, ['MIDDLE_MANAGER']]);
    const older = json<{ data: { id: string } }>(await submit(other, 'before the new head')).data.id;
    const before = await pullData(head);
    expect(before.mirror.has(`suggestions:${older}`)).toBe(false);

    await patchAs(ceo, `/companies/${acme.companyId}/departments/${acme.departments.A}`, { headUserId: head.id });
    expect((await pullData(head, before.cursor)).reset).toBe(true);
    const after = await pullData(head);
    expect(after.mirror.has(`suggestions:${older}`)).toBe(true);
    const inA = await t.db.query<{ id: string }>('SELECT id FROM suggestions WHERE company_id = $1 AND department_id = $2', [acme.companyId, acme.departments.A!]);
    for (const { id } of inA) expect(after.mirror.has(`suggestions:${id}`)).toBe(true);
    // Nothing changed since: the next pull goes on without a reset.
    expect((await pullData(head, after.cursor)).reset).toBe(false);
    await t.db.query('UPDATE departments SET head_user_id = NULL WHERE id = $1', [acme.departments.A!]);
  });

  it('a removed member gets 404 from the pull and from the rows', async () => {
    const gone = await login();
    await t.db.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [acme.companyId, gone.id, ['EMPLOYEE']]);
    const before = await pullData(gone);
    await t.db.query('UPDATE company_members SET active = false WHERE company_id = $1 AND user_id = $2', [acme.companyId, gone.id]);
    expect((await pullPage(gone, before.cursor)).statusCode).toBe(404);
    expect((await rowsOf(gone, `companies:${acme.companyId}`)).statusCode).toBe(404);
  });
});

function rowsOf(who: Login, keys: string, companyId = acme.companyId) {
  return t.app.inject({ method: 'GET', url: api(`/sync/rows?companyId=${companyId}&keys=${encodeURIComponent(keys)}`), headers: { authorization: `Bearer ${who.access}` } });
}

describe('GET /sync/rows', () => {
  it('answers the named rows as the pull shows them, and deletes for rows gone or hidden', async () => {
    const mine = json<{ data: { id: string } }>(await submit(author, 'mine')).data.id;
    const theirs = json<{ data: { id: string } }>(await submit(other, 'theirs')).data.id;
    const missing = randomUUID();
    const employee = await employeeIdOf(other.id);
    const keys = [`suggestions:${mine}`, `suggestions:${theirs}`, `suggestions:${missing}`, `employees:${employee}`, `departments:${acme.departments.B}`, `companies:${acme.companyId}`, `companies:${rival.companyId}`];
    const res = await rowsOf(author, keys.join(','));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { changes } = json<{ data: SyncRows }>(res).data;
    expect(SyncRows.is({ changes })).toBe(true);
    expect(changes.map((c) => `${c.table}:${c.id}:${c.op}`)).toEqual([
      `suggestions:${mine}:upsert`,
      `suggestions:${theirs}:delete`,
      `suggestions:${missing}:delete`,
      `employees:${employee}:upsert`,
      `departments:${acme.departments.B}:upsert`,
      `companies:${acme.companyId}:upsert`,
      `companies:${rival.companyId}:delete`,
    ]);
    // The same shapes as the pull: the colleague's contacts hidden, the proposal as the pull sends it.
    const pulled = (await pullData(author)).mirror;
    for (const c of changes.filter((x) => x.op === 'upsert')) expect(c.row).toEqual(pulled.get(`${c.table}:${c.id}`));
    expect((changes[3]!.row as EmployeeRow).email).toBeNull();
    // The seq of an upsert is its row's latest change.
    const seq = await t.db.one<{ s: string }>('SELECT change_seq::text AS s FROM suggestions WHERE id = $1', [mine]);
    expect(changes[0]!.seq).toBe(seq!.s);
  });

  it('checks every key: 400 for a malformed key, an unknown table, none or more than 200; 404 for another company', async () => {
    const id = randomUUID();
    for (const keys of ['', `suggestions:${id},nonsense`, `budgets:${id}`, `suggestions:not-a-uuid`, Array.from({ length: 201 }, () => `suggestions:${randomUUID()}`).join(',')]) {
      const res = await rowsOf(author, keys);
      expect(res.statusCode, keys.slice(0, 60)).toBe(400);
      expect(json<{ errors?: Record<string, string> }>(res).errors).toHaveProperty('keys');
    }
    const twice = await t.app.inject({ method: 'GET', url: api(`/sync/rows?companyId=${acme.companyId}&keys=companies:${acme.companyId}&keys=companies:${acme.companyId}`), headers: { authorization: `Bearer ${author.access}` } });
    expect(twice.statusCode).toBe(400);
    expect((await rowsOf(author, Array.from({ length: 200 }, () => `suggestions:${randomUUID()}`).join(','))).statusCode).toBe(200);
    // The same key twice (in any case) is answered once.
    const upper = acme.companyId.toUpperCase();
    const once = json<{ data: SyncRows }>(await rowsOf(author, `companies:${acme.companyId},companies:${upper}`)).data;
    expect(once.changes.map((c) => `${c.id}:${c.op}`)).toEqual([`${acme.companyId}:upsert`]);
    // An outsider learns nothing of the keys' rules: 404 before they are read.
    expect((await rowsOf(author, 'nonsense', rival.companyId)).statusCode).toBe(404);
    expect((await rowsOf(outsider, `companies:${acme.companyId}`)).statusCode).toBe(404);
    const res = await t.app.inject({ method: 'GET', url: api(`/sync/rows?keys=companies:${acme.companyId}`), headers: { authorization: `Bearer ${author.access}` } });
    expect(res.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: api(`/sync/rows?companyId=${acme.companyId}&keys=companies:${acme.companyId}`) })).statusCode).toBe(401);
  });
});
