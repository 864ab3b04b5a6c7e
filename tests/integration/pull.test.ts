// Issue 4, "Tests that must exist" 9: the pull against the real main-service. Pages seen twice create no
// duplicates, deletes apply, a bad cursor resets cleanly, unsent local edits survive both. Every check compares
// the device's mirror with what the server's database says the employee may see. Issue 9: a change of what the
// member may see resets the mirror, a removed member's company leaves the device (unsent work kept), and a
// discarded change of an existing row gives way to the server's version at the next pull.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import Dexie from 'dexie';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discard, enqueue, writeWithOutbox } from '../../src/lib/outbox/outbox';
import { pullCompany } from '../../src/lib/sync/pull';
import { SyncPage } from '../../src/domain/suggestion';
import type { HttpClient } from '../../src/lib/http';
import { AppDatabase, FaultyNetwork, fakeClock, freshDbName, signIn, startServer, submitProposal, type RealServer, type Session } from './harness';

let server: RealServer;
let session: Session;
let net: FaultyNetwork;
const databases: AppDatabase[] = [];

beforeAll(async () => {
  server = await startServer();
  net = new FaultyNetwork();
  session = await signIn(server, net);
});
afterAll(() => server.close());
afterEach(async () => {
  net.fault = () => undefined;
  const open = databases.splice(0);
  for (const db of open) db.close();
  for (const db of open) await db.delete();
});

function openDb(): AppDatabase {
  const db = new AppDatabase(freshDbName());
  databases.push(db);
  return db;
}

/** The client's HTTP client, remembering the cursor of every page it brought. */
function recordingHttp(cursors: string[]): Pick<HttpClient, 'get'> {
  return {
    async get<T>(...args: Parameters<HttpClient['get']>) {
      const answer = await session.http.get<{ data: unknown }>(...args);
      if (SyncPage.is(answer?.data)) cursors.push(answer.data.nextCursor);
      return answer as T | null;
    },
  };
}

const pull = (db: AppDatabase, http: Pick<HttpClient, 'get'> = session.http, limit = 7) =>
  pullCompany({ db, http, ownerUserId: session.userId, companyId: session.companyId, limit });

async function ids(sql: string, params: string[]): Promise<string[]> {
  return (await server.db.query<{ id: string }>(sql, params)).map((r) => r.id).sort();
}

/** What the employee may see on the server, per table. */
async function serverView(): Promise<Record<'companies' | 'departments' | 'employees' | 'suggestions', string[]>> {
  return {
    companies: [session.companyId],
    departments: await ids('SELECT id::text AS id FROM departments WHERE company_id = $1', [session.companyId]),
    employees: await ids('SELECT id::text AS id FROM employees WHERE company_id = $1', [session.companyId]),
    // The demo employee heads no department: they see their own proposals.
    suggestions: await ids('SELECT id::text AS id FROM suggestions WHERE company_id = $1 AND author_id = $2', [session.companyId, session.userId]),
  };
}

async function deviceView(db: AppDatabase): Promise<Record<'companies' | 'departments' | 'employees' | 'suggestions', string[]>> {
  const of = async (table: 'companies' | 'departments' | 'employees' | 'suggestions') =>
    (await db.mirror(table).where('[ownerUserId+id]').between([session.userId, Dexie.minKey], [session.userId, Dexie.maxKey]).toArray()).map((r) => r.id).sort();
  return { companies: await of('companies'), departments: await of('departments'), employees: await of('employees'), suggestions: await of('suggestions') };
}

async function createOnServer(title: string): Promise<string> {
  const id = randomUUID();
  await session.http.post(
    `/api/v1/companies/${session.companyId}/suggestions`,
    { id, title, problem: 'p', solution: 's', expectedEffect: 'e', departmentId: session.departmentId, imageIds: [] },
    { minDuration: 0, headers: { 'Idempotency-Key': randomUUID() } },
  );
  return id;
}

/** An unsent local edit of a proposal: the changed row and its outbox row, in one transaction. */
async function editLocally(db: AppDatabase, id: string, title: string): Promise<void> {
  await writeWithOutbox(db, [db.suggestions], async () => {
    const row = await db.suggestions.get([session.userId, id]);
    if (!row) throw new Error(`no local row ${id}`);
    await db.suggestions.put({ ...row, title });
    await enqueue(db, {
      ownerUserId: session.userId,
      kind: 'suggestion.update',
      method: 'PATCH',
      path: `/api/v1/companies/${session.companyId}/suggestions/${id}`,
      body: { title },
      entityKey: `suggestions:${id}`,
    });
  });
}

describe('pull against the real server (9)', () => {
  it('mirrors what the employee may see, and repeated pages create no duplicates', async () => {
    const db = openDb();
    const cursors: string[] = [];
    const first = await pull(db, recordingHttp(cursors));
    expect(first.pages).toBeGreaterThan(3);
    const expected = await serverView();
    expect(expected.employees.length).toBe(50);
    expect(await deviceView(db)).toEqual(expected);
    const stored = { suggestions: await db.suggestions.count(), employees: await db.employees.count() };

    // The same pages again, from an early cursor (a page applied but its cursor not kept, say).
    await db.syncState.put({ ownerUserId: session.userId, companyId: session.companyId, cursor: cursors[1] ?? null, pulledAt: null });
    const again = await pull(db);
    expect(again.upserts).toBeGreaterThan(0);
    expect(await deviceView(db)).toEqual(expected);
    expect({ suggestions: await db.suggestions.count(), employees: await db.employees.count() }).toEqual(stored);

    // A page whose answer is lost: the pull fails, the next one ends in the same state.
    const id = await createOnServer('Pulled after a lost page');
    net.fault = (call) => (call.path === '/sync/pull' ? { kind: 'drop-answer' } : undefined);
    await expect(pull(db)).rejects.toThrow();
    net.fault = () => undefined;
    await pull(db);
    await pull(db);
    expect(await deviceView(db)).toEqual(await serverView());
    expect((await db.suggestions.get([session.userId, id]))?.title).toBe('Pulled after a lost page');
  });

  it('applies updates and deletes made on the server', async () => {
    const db = openDb();
    const doomed = await createOnServer('To be deleted');
    const renamed = await createOnServer('Old title');
    await pull(db);
    expect(await db.suggestions.get([session.userId, doomed])).toBeDefined();

    await server.db.query('DELETE FROM suggestions WHERE id = $1', [doomed]);
    await server.db.query(`UPDATE suggestions SET title = 'New title' WHERE id = $1`, [renamed]);
    await server.db.query(`UPDATE departments SET name = 'Производство-2' WHERE id = $1`, [session.departmentId]);
    const result = await pull(db);
    expect(result.deletes).toBeGreaterThanOrEqual(1);
    expect(await db.suggestions.get([session.userId, doomed])).toBeUndefined();
    expect((await db.suggestions.get([session.userId, renamed]))?.title).toBe('New title');
    expect((await db.departments.get([session.userId, session.departmentId]))?.name).toBe('Производство-2');
    expect(await deviceView(db)).toEqual(await serverView());
    await server.db.query(`UPDATE departments SET name = 'Производство' WHERE id = $1`, [session.departmentId]);
  });

  it('resets on a bad cursor, reloads cleanly and keeps unsent local edits and proposals', async () => {
    const db = openDb();
    const clock = fakeClock();
    const edited = await createOnServer('Server title');
    await pull(db);
    await editLocally(db, edited, 'My unsent title');
    const unsent = await submitProposal(db, session, clock, { title: 'Not sent yet' });

    // The server changes the row while the device holds an unsent edit of it: the edit stays.
    await server.db.query(`UPDATE suggestions SET title = 'Changed on the server' WHERE id = $1`, [edited]);
    const kept = await pull(db);
    expect(kept.kept).toBeGreaterThanOrEqual(1);
    expect((await db.suggestions.get([session.userId, edited]))?.title).toBe('My unsent title');

    // A bad cursor and a cursor of the future both reset.
    for (const cursor of ['garbage', '999999999999']) {
      await db.syncState.put({ ownerUserId: session.userId, companyId: session.companyId, cursor, pulledAt: null });
      const result = await pull(db);
      expect(result.resets).toBe(1);
      expect((await db.suggestions.get([session.userId, edited]))?.title).toBe('My unsent title');
      expect((await db.suggestions.get([session.userId, unsent.id]))?.title).toBe('Not sent yet');
      expect(await db.outbox.count()).toBe(2);
      const device = await deviceView(db);
      const expected = await serverView();
      expect({ ...device, suggestions: device.suggestions.filter((id) => id !== unsent.id) }).toEqual(expected);
    }
  });
});

/** The outbox row (its Idempotency-Key) holding the unsent change of a proposal. */
async function outboxIdOf(db: AppDatabase, id: string): Promise<string> {
  const row = await db.outbox.where('[ownerUserId+entityKey]').equals([session.userId, `suggestions:${id}`]).first();
  if (!row) throw new Error(`no outbox row for ${id}`);
  return row.id;
}

describe('what the member may see changes (issue 9, item 6)', () => {
  const member = () => server.db.one<{ roles: string[] }>('SELECT roles FROM company_members WHERE company_id = $1 AND user_id = $2', [session.companyId, session.userId]);
  const setMembership = (roles: string[], active: boolean) =>
    server.db.query('UPDATE company_members SET roles = $3, active = $4 WHERE company_id = $1 AND user_id = $2', [session.companyId, session.userId, roles, active]);
  const colleagues = async (db: AppDatabase) => (await db.employees.where('[ownerUserId+companyId]').equals([session.userId, session.companyId]).toArray()).filter((e) => e.userId !== session.userId);

  it('a role given and taken away resets the mirror at the next pull; contacts and proposals follow the role', async () => {
    const db = openDb();
    const roles = (await member())!.roles;
    await pull(db);
    expect((await colleagues(db)).every((e) => e.email === null && e.serviceNumber === null)).toBe(true);
    try {
      await setMembership([...roles, 'HR'], true);
      const asHr = await pull(db);
      expect(asHr.resets).toBe(1);
      expect((await colleagues(db)).some((e) => e.email !== null)).toBe(true);
      const all = await ids('SELECT id::text AS id FROM suggestions WHERE company_id = $1', [session.companyId]);
      expect((await deviceView(db)).suggestions).toEqual(all);

      await setMembership(roles, true);
      const back = await pull(db);
      expect(back.resets).toBe(1);
      expect((await colleagues(db)).every((e) => e.email === null && e.serviceNumber === null)).toBe(true);
      expect(await deviceView(db)).toEqual(await serverView());
      // Nothing changed since: no reset.
      expect((await pull(db)).resets).toBe(0);
    } finally {
      await setMembership(roles, true);
    }
  });

  it('a removed member: the pull answers 404, the company leaves the device, unsent proposals stay', async () => {
    const db = openDb();
    const clock = fakeClock();
    const roles = (await member())!.roles;
    await pull(db);
    const unsent = await submitProposal(db, session, clock, { title: 'Written before the removal' });
    try {
      await setMembership(roles, false);
      const result = await pull(db);
      expect(result.gone).toBe(true);
      const device = await deviceView(db);
      expect(device).toEqual({ companies: [], departments: [], employees: [], suggestions: [unsent.id] });
      expect(await db.outbox.count()).toBe(1);
      expect(await db.syncState.get([session.userId, session.companyId])).toBeUndefined();
    } finally {
      await setMembership(roles, true);
    }
    // Back in the company: the next pull brings its view again, the unsent proposal still there.
    await pull(db);
    const device = await deviceView(db);
    expect({ ...device, suggestions: device.suggestions.filter((id) => id !== unsent.id) }).toEqual(await serverView());
  });
});

describe('server changes skipped while a change was unsent (issue 9, item 7)', () => {
  it('a discarded change of an existing proposal gives way to the server version (or its deletion) at the next pull', async () => {
    const db = openDb();
    const changed = await createOnServer('Server title');
    const deleted = await createOnServer('Deleted on the server later');
    await pull(db);
    await editLocally(db, changed, 'My title, never sent');
    await editLocally(db, deleted, 'My edit of a proposal about to go');

    // The server changes both while the edits wait; the pull skips them and moves its cursor past.
    await server.db.query(`UPDATE suggestions SET title = 'Changed on the server' WHERE id = $1`, [changed]);
    await server.db.query('DELETE FROM suggestions WHERE id = $1', [deleted]);
    const skipped = await pull(db);
    expect(skipped.kept).toBe(2);
    expect((await db.suggestions.get([session.userId, changed]))?.title).toBe('My title, never sent');

    // The user discards both edits: nothing in the feed is new, yet the next pull puts the server's state back.
    await discard(db, await outboxIdOf(db, changed));
    await discard(db, await outboxIdOf(db, deleted));
    const after = await pull(db);
    expect(after.refreshed).toBe(2);
    expect((await db.suggestions.get([session.userId, changed]))?.title).toBe('Changed on the server');
    expect(await db.suggestions.get([session.userId, deleted])).toBeUndefined();
    expect(await db.staleRows.count()).toBe(0);
    expect(await deviceView(db)).toEqual(await serverView());
    // And it stays so: nothing more to fetch.
    expect((await pull(db)).refreshed).toBe(0);
  });
});
