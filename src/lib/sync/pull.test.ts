import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Suggestion, SyncChange } from '../../domain/suggestion';
import { AppDatabase } from '../db/database';
import { createHttpClient } from '../http';
import { entityKeyOf, enqueue, writeWithOutbox } from '../outbox/outbox';
import { pullCompany } from './pull';
import { startPullScheduler } from './scheduler';

const OWNER = 'u1';
const OTHER = 'u2';
const COMPANY = 'c1';
const databases: AppDatabase[] = [];
let counter = 0;
function openDb(): AppDatabase {
  const db = new AppDatabase(`pull-test-${++counter}-${Math.random()}`);
  databases.push(db);
  return db;
}
afterEach(async () => {
  for (const db of databases.splice(0)) {
    db.close();
    await db.delete();
  }
});

const at = '2026-05-01T08:00:00.000Z';
function suggestion(id: string, title: string): Suggestion {
  return {
    id, companyId: COMPANY, title, problem: 'p', solution: 's', expectedEffect: 'e', effectEstimate: null,
    departmentId: 'd1', goalId: null, images: [], authorId: OWNER, authorName: 'A', status: 'UNDER_CONSIDERATION',
    dueAt: at, submittedAt: at, receivedAt: at, reviewComment: null, history: [], createdAt: at, updatedAt: at,
  };
}
const department = (id: string, name: string) => ({ id, companyId: COMPANY, name, headUserId: null, createdAt: at, updatedAt: at });

/** A fake change feed: cursors are seq numbers; cursors it does not know answer reset. */
function feed(changes: SyncChange[], options: { oldest?: number } = {}) {
  const requests: Array<string | null> = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    await Promise.resolve();
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    const cursor = url.searchParams.get('cursor');
    const limit = Number(url.searchParams.get('limit'));
    requests.push(cursor);
    const from = cursor === null ? 0 : Number(cursor);
    const body = (data: unknown) => new Response(JSON.stringify({ data }), { status: 200 });
    if (cursor !== null && (!/^\d+$/.test(cursor) || from < (options.oldest ?? 0) || from > changes.length)) {
      return body({ changes: [], nextCursor: '0', hasMore: false, reset: true });
    }
    const page = changes.slice(from, from + limit);
    return body({ changes: page, nextCursor: String(from + page.length), hasMore: from + page.length < changes.length, reset: false });
  });
  const tokens = { getAccess: () => 't', getRefresh: () => 'r', set: () => undefined, clear: () => undefined };
  const http = createHttpClient({ prefix: '/main-service', tokens, fetch: fetch, getLocale: () => 'en', onAuthFailure: () => undefined });
  return { http, requests };
}

const upsert = (seq: number, table: SyncChange['table'], row: { id: string }): SyncChange => ({ seq: String(seq), table, op: 'upsert', id: row.id, row });

describe('pull', () => {
  it('applies every page, stores the cursor, and repeated pages create no duplicates', async () => {
    const db = openDb();
    const changes = [upsert(1, 'departments', department('d1', 'Casting')), ...Array.from({ length: 9 }, (_, i) => upsert(i + 2, 'suggestions', suggestion(`s${i}`, `T${i}`)))];
    const { http } = feed(changes);
    const result = await pullCompany({ db, http, ownerUserId: OWNER, companyId: COMPANY, limit: 4 });
    expect(result.pages).toBe(3);
    expect(await db.suggestions.count()).toBe(9);
    expect((await db.syncState.get([OWNER, COMPANY]))?.cursor).toBe('10');
    // The same pages again, from the beginning: nothing doubles.
    await db.syncState.clear();
    await pullCompany({ db, http, ownerUserId: OWNER, companyId: COMPANY, limit: 3 });
    expect(await db.suggestions.count()).toBe(9);
    expect(await db.departments.count()).toBe(1);
  });

  it('applies deletes and later versions of a row', async () => {
    const db = openDb();
    const changes: SyncChange[] = [upsert(1, 'suggestions', suggestion('s1', 'old')), upsert(2, 'suggestions', suggestion('s2', 'x'))];
    const server = feed(changes);
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    changes.push(upsert(3, 'suggestions', suggestion('s1', 'new')), { seq: '4', table: 'suggestions', op: 'delete', id: 's2' });
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect(server.requests).toEqual([null, '2']);
    expect((await db.suggestions.get([OWNER, 's1']))?.title).toBe('new');
    expect(await db.suggestions.get([OWNER, 's2'])).toBeUndefined();
  });

  it('resets on a bad cursor: drops the mirror (keeping unsent rows) and pulls from the beginning', async () => {
    const db = openDb();
    await db.suggestions.bulkPut([
      { ...suggestion('gone', 'deleted on the server long ago'), ownerUserId: OWNER },
      { ...suggestion('local', 'unsent'), ownerUserId: OWNER },
    ]);
    await writeWithOutbox(db, [db.suggestions], () =>
      enqueue(db, { ownerUserId: OWNER, kind: 'suggestion.create', method: 'POST', path: '/x', body: {}, entityKey: entityKeyOf('suggestions', 'local') }),
    );
    await db.syncState.put({ ownerUserId: OWNER, companyId: COMPANY, cursor: 'garbage', pulledAt: 1 });
    const server = feed([upsert(1, 'suggestions', suggestion('s1', 'fresh'))]);
    const result = await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect(result.resets).toBe(1);
    expect(server.requests).toEqual(['garbage', null]);
    expect((await db.suggestions.toArray()).map((s) => s.id).sort()).toEqual(['local', 's1']);
  });

  it('never overwrites or deletes a row with unsent local edits', async () => {
    const db = openDb();
    await db.suggestions.put({ ...suggestion('s1', 'my offline edit'), ownerUserId: OWNER });
    await db.suggestions.put({ ...suggestion('s2', 'my other edit'), ownerUserId: OWNER });
    await writeWithOutbox(db, [db.suggestions], async () => {
      for (const id of ['s1', 's2']) {
        await enqueue(db, { ownerUserId: OWNER, kind: 'k', method: 'PATCH', path: '/x', body: {}, entityKey: entityKeyOf('suggestions', id) });
      }
    });
    const server = feed([upsert(1, 'suggestions', suggestion('s1', 'server version')), { seq: '2', table: 'suggestions', op: 'delete', id: 's2' }]);
    const result = await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect(result.kept).toBe(2);
    expect((await db.suggestions.get([OWNER, 's1']))?.title).toBe('my offline edit');
    expect((await db.suggestions.get([OWNER, 's2']))?.title).toBe('my other edit');
  });

  it("keeps each user's mirror apart", async () => {
    const db = openDb();
    const server = feed([upsert(1, 'suggestions', suggestion('s1', 'seen by u1'))]);
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect(await db.suggestions.where('[ownerUserId+companyId]').equals([OTHER, COMPANY]).count()).toBe(0);
  });

  it('refuses a page whose rows do not match their structs and keeps the cursor', async () => {
    const db = openDb();
    const server = feed([{ seq: '1', table: 'suggestions', op: 'upsert', id: 'x', row: { id: 'x' } }]);
    await expect(pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY })).rejects.toMatchObject({ name: 'PullError' });
    expect(await db.syncState.get([OWNER, COMPANY])).toBeUndefined();
    expect(await db.suggestions.count()).toBe(0);
  });
});

describe('pull scheduler', () => {
  it('pulls every company on start, on online, on focus, on reconnect and on the timer; one failure does not stop the rest', async () => {
    const pulled: string[] = [];
    const events = new EventTarget();
    let tick = () => undefined as void;
    let reconnect = () => undefined as void;
    const errors: string[] = [];
    const scheduler = startPullScheduler({
      getCompanyIds: () => ['a', 'b'],
      pull: async (id) => {
        await Promise.resolve();
        pulled.push(id);
        if (id === 'a') throw new Error('a is down');
      },
      events: events,
      onReconnect: (listener) => {
        reconnect = listener;
        return () => undefined;
      },
      setInterval: (cb) => {
        tick = cb;
        return 1;
      },
      clearInterval: () => undefined,
      onError: (id) => errors.push(id),
    });
    await scheduler.pullAll();
    expect(pulled.filter((id) => id === 'b').length).toBeGreaterThanOrEqual(1);
    for (const fire of [() => events.dispatchEvent(new Event('online')), () => events.dispatchEvent(new Event('focus')), () => reconnect(), () => tick()]) {
      const before = pulled.length;
      fire();
      await scheduler.pullAll();
      expect(pulled.length).toBeGreaterThan(before);
    }
    expect(errors.every((id) => id === 'a')).toBe(true);
    scheduler.stop();
  });
});
