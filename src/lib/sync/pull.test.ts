import 'fake-indexeddb/auto';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Suggestion, SyncChange } from '../../domain/suggestion';
import { AppDatabase } from '../db/database';
import { HttpError, createHttpClient } from '../http';
import { discard, entityKeyOf, enqueue, writeWithOutbox } from '../outbox/outbox';
import { clearSyncProblem, getSyncProblem, reportSyncProblem, subscribeSyncProblems } from './problems';
import { dropCompanyMirror, isMirrorComplete, pullCompany } from './pull';
import { startPullScheduler } from './scheduler';
import { markStale } from './stale-rows';
import { useSyncProblem } from './use-sync-problem';

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

/**
 * A fake change feed: cursors are seq numbers; cursors it does not know answer reset. `GET /sync/rows` answers
 * from `current` (a key missing there answers a delete); `status` makes every call answer that status.
 */
function feed(changes: SyncChange[], options: { oldest?: number; current?: Map<string, SyncChange>; status?: { code: number | null } } = {}) {
  const requests: Array<string | null> = [];
  const rowRequests: string[][] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    await Promise.resolve();
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    if (options.status?.code) return new Response(JSON.stringify({ message: 'Not found' }), { status: options.status.code });
    if (url.pathname.endsWith('/sync/rows')) {
      const keys = (url.searchParams.get('keys') ?? '').split(',');
      rowRequests.push(keys);
      const answer = keys.map((key): SyncChange => {
        const [table, id] = key.split(':') as [SyncChange['table'], string];
        return options.current?.get(key) ?? { seq: '99', table, op: 'delete', id };
      });
      return new Response(JSON.stringify({ data: { changes: answer } }), { status: 200 });
    }
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
  return { http, requests, rowRequests };
}

const upsert = (seq: number, table: SyncChange['table'], row: { id: string }): SyncChange => ({ seq: String(seq), table, op: 'upsert', id: row.id, row });

describe('pull', () => {
  it('marks the mirror whole only once a pull has reached the last page, and keeps the first time', async () => {
    const db = openDb();
    const changes = Array.from({ length: 6 }, (_, i) => upsert(i + 1, 'suggestions', suggestion(`s${i}`, `T${i}`)));
    // The first page is answered, the second fails: the pull stops half-way.
    let calls = 0;
    const status = {
      get code() {
        calls += 1;
        return calls > 1 ? 503 : null;
      },
    };
    await expect(pullCompany({ db, http: feed(changes, { status }).http, ownerUserId: OWNER, companyId: COMPANY, limit: 4, now: () => 5 })).rejects.toThrow();
    const half = await db.syncState.get([OWNER, COMPANY]);
    expect(half).toMatchObject({ cursor: '4', pulledAt: 5, caughtUpAt: null });
    expect(isMirrorComplete(half)).toBe(false);

    await pullCompany({ db, http: feed(changes).http, ownerUserId: OWNER, companyId: COMPANY, limit: 4, now: () => 7 });
    const whole = await db.syncState.get([OWNER, COMPANY]);
    expect(whole).toMatchObject({ cursor: '6', caughtUpAt: 7 });
    expect(isMirrorComplete(whole)).toBe(true);

    // Later pulls, a page at a time, keep it whole from the first time on.
    const more = [...changes, ...Array.from({ length: 4 }, (_, i) => upsert(i + 7, 'suggestions', suggestion(`t${i}`, `U${i}`)))];
    await pullCompany({ db, http: feed(more).http, ownerUserId: OWNER, companyId: COMPANY, limit: 2, now: () => 9 });
    expect(await db.syncState.get([OWNER, COMPANY])).toMatchObject({ cursor: '10', pulledAt: 9, caughtUpAt: 7 });
    // A device's row from before the mark was kept was pulled whole; a company never pulled is not.
    expect(isMirrorComplete({ ownerUserId: OWNER, companyId: COMPANY, cursor: '3', pulledAt: 3 })).toBe(true);
    expect(isMirrorComplete(undefined)).toBe(false);
  });

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

  it('writes nothing more once the pulls were stopped (sign-out) while a pull was on its way', async () => {
    const db = openDb();
    const changes = Array.from({ length: 9 }, (_, i) => upsert(i + 1, 'suggestions', suggestion(`s${i}`, `T${i}`)));
    const { http } = feed(changes);
    let pagesLeft = 1;
    // Active for the first page only, as if the user signed out while the second was on its way.
    const result = await pullCompany({ db, http, ownerUserId: OWNER, companyId: COMPANY, limit: 4, isActive: () => pagesLeft-- > 0 });
    expect(result.upserts).toBe(4);
    expect(await db.suggestions.count()).toBe(4);
    expect((await db.syncState.get([OWNER, COMPANY]))?.cursor).toBe('4');
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

  it('two pulls of one company at once (two tabs) end with every row once and the last cursor', async () => {
    const db = openDb();
    const changes = Array.from({ length: 23 }, (_, i) => upsert(i + 1, 'suggestions', suggestion(`s${i}`, `T${i}`)));
    const server = feed(changes);
    const [a, b] = await Promise.all([
      pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY, limit: 4 }),
      pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY, limit: 5 }),
    ]);
    expect(a.upserts + b.upserts).toBeGreaterThanOrEqual(23);
    expect(await db.suggestions.count()).toBe(23);
    expect((await db.syncState.get([OWNER, COMPANY]))?.cursor).toBe('23');
  });

  it('a page fetched ahead that fails leaves the pages before it applied; the next pull goes on from there', async () => {
    const db = openDb();
    const changes = Array.from({ length: 10 }, (_, i) => upsert(i + 1, 'suggestions', suggestion(`s${i}`, `T${i}`)));
    const server = feed(changes);
    let calls = 0;
    const http = {
      get: <T,>(...args: Parameters<typeof server.http.get>) => {
        calls += 1;
        return calls === 2 ? Promise.reject(new HttpError(0, null)) : server.http.get<T>(...args);
      },
    };
    await expect(pullCompany({ db, http, ownerUserId: OWNER, companyId: COMPANY, limit: 4 })).rejects.toBeInstanceOf(HttpError);
    expect((await db.syncState.get([OWNER, COMPANY]))?.cursor).toBe('4');
    expect(await db.suggestions.count()).toBe(4);
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY, limit: 4 });
    expect(await db.suggestions.count()).toBe(10);
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

/** An unsent change of an existing row (its outbox row), as a feature's store writes it. */
async function queueEdit(db: AppDatabase, key: string): Promise<string> {
  return writeWithOutbox(db, [db.suggestions], async () => (await enqueue(db, { ownerUserId: OWNER, kind: 'suggestion.update', method: 'PATCH', path: '/x', body: {}, entityKey: key })).id);
}

describe('rows whose server changes were skipped', () => {
  it('are marked stale while the outbox holds them, and fetched again once their outbox row left', async () => {
    const db = openDb();
    const current = new Map<string, SyncChange>();
    const changes: SyncChange[] = [upsert(1, 'suggestions', suggestion('s1', 'v1')), upsert(2, 'suggestions', suggestion('s2', 'v1'))];
    const server = feed(changes, { current });
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    await db.suggestions.update([OWNER, 's1'], { title: 'my edit' });
    await db.suggestions.update([OWNER, 's2'], { title: 'my other edit' });
    const edit1 = await queueEdit(db, 'suggestions:s1');
    await queueEdit(db, 'suggestions:s2');

    // The server changes both; s2 is even deleted. The pull skips them and moves on.
    changes.push(upsert(3, 'suggestions', suggestion('s1', 'v2 on the server')), { seq: '4', table: 'suggestions', op: 'delete', id: 's2' });
    current.set('suggestions:s1', upsert(3, 'suggestions', suggestion('s1', 'v2 on the server')));
    const skipped = await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect({ kept: skipped.kept, refreshed: skipped.refreshed }).toEqual({ kept: 2, refreshed: 0 });
    expect((await db.staleRows.toArray()).map((r) => r.entityKey).sort()).toEqual(['suggestions:s1', 'suggestions:s2']);
    expect(server.rowRequests).toEqual([]);

    // The edit of s1 is discarded: the next pull, with nothing new in the feed, brings the server's version.
    await discard(db, edit1);
    const after = await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect(after.refreshed).toBe(1);
    expect(server.rowRequests).toEqual([['suggestions:s1']]);
    expect((await db.suggestions.get([OWNER, 's1']))?.title).toBe('v2 on the server');
    // s2 still has its outbox row: untouched and still marked.
    expect((await db.suggestions.get([OWNER, 's2']))?.title).toBe('my other edit');
    expect((await db.staleRows.toArray()).map((r) => r.entityKey)).toEqual(['suggestions:s2']);

    // Once s2's row leaves too, the server's delete reaches the device.
    await db.outbox.clear();
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect(await db.suggestions.get([OWNER, 's2'])).toBeUndefined();
    expect(await db.staleRows.count()).toBe(0);
  });

  it('markStale lets a writer flag a row whose outbox row left without the server version', async () => {
    const db = openDb();
    const current = new Map<string, SyncChange>([['suggestions:s1', upsert(1, 'suggestions', suggestion('s1', 'server'))]]);
    const server = feed([upsert(1, 'suggestions', suggestion('s1', 'server'))], { current });
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    await db.suggestions.update([OWNER, 's1'], { title: 'never sent' });
    expect(await markStale(db, OWNER, ['suggestions:s1', 'suggestions:not-on-device', 'goals:g1', 'garbage'])).toBe(1);
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect((await db.suggestions.get([OWNER, 's1']))?.title).toBe('server');
  });

  it('a reset keeps rows with unsent changes and marks them stale, so a row no longer visible goes once sent', async () => {
    const db = openDb();
    await db.suggestions.bulkPut([{ ...suggestion('mine', 'kept'), ownerUserId: OWNER }, { ...suggestion('x', 'dropped'), ownerUserId: OWNER }]);
    await queueEdit(db, 'suggestions:mine');
    await dropCompanyMirror(db, OWNER, COMPANY);
    expect((await db.suggestions.toArray()).map((r) => r.id)).toEqual(['mine']);
    expect((await db.staleRows.toArray()).map((r) => r.entityKey)).toEqual(['suggestions:mine']);
    await db.outbox.clear();
    await pullCompany({ db, http: feed([]).http, ownerUserId: OWNER, companyId: COMPANY });
    expect(await db.suggestions.count()).toBe(0);
    expect(await db.staleRows.count()).toBe(0);
  });
});

describe('a company the server no longer shows', () => {
  it('a 404 drops its mirror and cursor, keeps unsent rows, and ends the pull as gone', async () => {
    const db = openDb();
    const status = { code: null as number | null };
    const server = feed([upsert(1, 'departments', department('d1', 'Casting')), upsert(2, 'suggestions', suggestion('s1', 'a')), upsert(3, 'suggestions', suggestion('s2', 'b'))], { status });
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    await db.suggestions.put({ ...suggestion('local', 'unsent'), ownerUserId: OWNER });
    await writeWithOutbox(db, [db.suggestions], () => enqueue(db, { ownerUserId: OWNER, kind: 'suggestion.create', method: 'POST', path: '/x', body: {}, entityKey: entityKeyOf('suggestions', 'local') }));
    // Another user's copy of the same company on this device is not touched.
    await db.suggestions.put({ ...suggestion('s1', 'a'), ownerUserId: OTHER });

    status.code = 404;
    const result = await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    expect(result.gone).toBe(true);
    expect((await db.suggestions.where('ownerUserId').equals(OWNER).toArray()).map((s) => s.id)).toEqual(['local']);
    expect(await db.departments.count()).toBe(0);
    expect(await db.syncState.get([OWNER, COMPANY])).toBeUndefined();
    expect(await db.suggestions.get([OTHER, 's1'])).toBeDefined();
    expect(await db.outbox.count()).toBe(1);
  });

  it('other failures still throw (a 500 is retried later, nothing dropped)', async () => {
    const db = openDb();
    const status = { code: null as number | null };
    const server = feed([upsert(1, 'suggestions', suggestion('s1', 'a'))], { status });
    await pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY });
    status.code = 500;
    await expect(pullCompany({ db, http: server.http, ownerUserId: OWNER, companyId: COMPANY })).rejects.toBeInstanceOf(HttpError);
    expect(await db.suggestions.count()).toBe(1);
  });
});

describe('sync problems', () => {
  afterEach(() => clearSyncProblem());

  it('tells a full disk from other failures, ignores a missing answer, and clears after a good pull', () => {
    const seen: Array<string | null> = [];
    const stop = subscribeSyncProblems((problem) => seen.push(problem?.kind ?? null));
    const quota = Object.assign(new Error('aborted'), { name: 'AbortError', inner: Object.assign(new Error('full'), { name: 'QuotaExceededError' }) });
    expect(reportSyncProblem('a', new HttpError(0, null))).toBeNull();
    expect(getSyncProblem()).toBeNull();
    reportSyncProblem('a', new HttpError(500, null), 1);
    reportSyncProblem('b', quota, 2);
    // The full disk is the one to show while it stands.
    expect(getSyncProblem()).toMatchObject({ kind: 'quota', companyId: 'b' });
    const same = getSyncProblem();
    reportSyncProblem('b', quota, 3);
    expect(getSyncProblem()).toBe(same);
    clearSyncProblem('b');
    expect(getSyncProblem()).toMatchObject({ kind: 'failed', companyId: 'a' });
    clearSyncProblem('a');
    expect(getSyncProblem()).toBeNull();
    expect(seen).toEqual(['failed', 'quota', 'failed', null]);
    stop();
  });

  it('the scheduler reports failed pulls by default and a later good pull clears them; the hook follows', async () => {
    let failing = true;
    const scheduler = startPullScheduler({
      getCompanyIds: () => ['a'],
      pull: async () => {
        await Promise.resolve();
        if (failing) throw Object.assign(new Error('disk full'), { name: 'QuotaExceededError' });
      },
      setInterval: () => 1,
      clearInterval: () => undefined,
    });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderHook(() => useSyncProblem());
    await act(() => scheduler.pullAll());
    expect(result.current).toMatchObject({ kind: 'quota', companyId: 'a' });
    expect(errors).toHaveBeenCalled();
    failing = false;
    await act(() => scheduler.pullAll());
    expect(result.current).toBeNull();
    // A problem left when the pulls stop (sign-out) goes with them.
    failing = true;
    await act(() => scheduler.pullAll());
    expect(result.current).not.toBeNull();
    act(() => scheduler.stop());
    expect(result.current).toBeNull();
    errors.mockRestore();
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
