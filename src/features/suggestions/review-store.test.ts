import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MemberView } from '../../domain/permissions';
import type { Suggestion } from '../../domain/suggestion';
import { AppDatabase, type StoredSuggestion } from '../../lib/db/database';
import { createHttpClient } from '../../lib/http';
import { discard, enqueue, entityKeyOf, writeWithOutbox } from '../../lib/outbox/outbox';
import { createReplayer } from '../../lib/outbox/replayer';
import { refreshStaleRows } from '../../lib/sync/pull';
import { markStale } from '../../lib/sync/stale-rows';
import {
  ReviewRefusedError,
  SUGGESTION_DISTRIBUTE_KIND,
  SUGGESTION_REVIEW_KIND,
  SUGGESTION_REVISE_KIND,
  distributeSuggestion,
  reviewSuggestion,
  reviseSuggestion,
  storeReviewedSuggestion,
  type ReviewContext,
} from './review-store';
import { suggestionRow } from '../../../tests/fixtures/rows';

const HEAD = '00000000-0000-4000-8000-0000000000a1';
const AUTHOR = '00000000-0000-4000-8000-0000000000a2';
const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const PRODUCTION = '00000000-0000-4000-8000-0000000000d1';
const LOGISTICS = '00000000-0000-4000-8000-0000000000d2';
const ID = '00000000-0000-4000-8000-0000000000e1';
const SUBMITTED = '2026-11-20T08:00:00.000Z';
const NOW = new Date('2026-11-22T10:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

const opened: AppDatabase[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`review-store-${Math.random()}`);
  opened.push(db);
  return db;
}

function proposal(fields: Partial<Suggestion> = {}): Suggestion {
  return suggestionRow(ID, { companyId: COMPANY, departmentId: PRODUCTION, authorId: AUTHOR, at: SUBMITTED }, fields);
}

const head: MemberView = { userId: HEAD, roles: ['MIDDLE_MANAGER'], headOfDepartmentIds: [PRODUCTION] };

async function seed(db: AppDatabase, ownerUserId: string, fields: Partial<Suggestion> = {}): Promise<void> {
  await db.suggestions.put({ ...proposal(fields), ownerUserId } satisfies StoredSuggestion);
}

function contextOf(db: AppDatabase, actor: { id: string; fullName: string }, member?: MemberView): ReviewContext {
  return { db, actor, ...(member ? { member } : {}), now: () => NOW };
}
const headContext = (db: AppDatabase) => contextOf(db, { id: HEAD, fullName: 'Петров Пётр' }, head);

async function local(db: AppDatabase, ownerUserId: string): Promise<StoredSuggestion | undefined> {
  return db.suggestions.get([ownerUserId, ID]);
}

describe('a decision on the device', () => {
  it('rejects with the reason at once and queues the request in the same transaction', async () => {
    const db = openDb();
    await seed(db, HEAD);
    const afterWrite = vi.fn();
    await reviewSuggestion({ ...headContext(db), afterWrite }, COMPANY, ID, { decision: 'REJECTED', comment: '  Costs more than it saves ' });

    const row = await local(db, HEAD);
    expect(row).toMatchObject({
      status: 'REJECTED',
      reviewComment: 'Costs more than it saves',
      decidedById: HEAD,
      decidedByName: 'Петров Пётр',
      decidedAt: NOW.toISOString(),
    });
    expect(row?.history.at(-1)).toEqual({ at: NOW.toISOString(), kind: 'REJECTED', byUserId: HEAD, byName: 'Петров Пётр', comment: 'Costs more than it saves' });
    const queued = await db.outbox.toArray();
    expect(queued).toEqual([
      expect.objectContaining({
        kind: SUGGESTION_REVIEW_KIND,
        method: 'POST',
        path: `/api/v1/companies/${COMPANY}/suggestions/${ID}/review`,
        body: { decision: 'REJECTED', comment: 'Costs more than it saves' },
        entityKey: entityKeyOf('suggestions', ID),
        ownerUserId: HEAD,
        status: 'pending',
      }),
    ]);
    expect(afterWrite).toHaveBeenCalledOnce();
  });

  it('asks for clarification: the clock pauses from now and the question is kept', async () => {
    const db = openDb();
    await seed(db, HEAD);
    await reviewSuggestion(headContext(db), COMPANY, ID, { decision: 'CLARIFICATION', comment: 'Which press line?' });
    expect(await local(db, HEAD)).toMatchObject({ status: 'CLARIFICATION', clarificationAt: NOW.toISOString(), reviewComment: 'Which press line?' });
    expect((await local(db, HEAD))?.history.at(-1)?.kind).toBe('CLARIFICATION_REQUESTED');
  });

  it('approves without a comment', async () => {
    const db = openDb();
    await seed(db, HEAD);
    await reviewSuggestion(headContext(db), COMPANY, ID, { decision: 'APPROVED', comment: null });
    expect(await local(db, HEAD)).toMatchObject({ status: 'APPROVED', reviewComment: null, decidedByName: 'Петров Пётр' });
    expect((await db.outbox.toArray())[0]?.body).toEqual({ decision: 'APPROVED', comment: null });
  });

  it('stores nothing when a rejection has no reason, the proposal is decided already, or the user may not decide it', async () => {
    const db = openDb();
    await seed(db, HEAD);
    await expect(reviewSuggestion(headContext(db), COMPANY, ID, { decision: 'REJECTED', comment: '   ' })).rejects.toMatchObject({
      reason: 'invalid',
      fieldErrors: { comment: 'required' },
    });
    const stranger: MemberView = { userId: HEAD, roles: ['EMPLOYEE'], headOfDepartmentIds: [LOGISTICS] };
    await expect(reviewSuggestion(contextOf(db, { id: HEAD, fullName: 'x' }, stranger), COMPANY, ID, { decision: 'APPROVED' })).rejects.toMatchObject({ reason: 'notAllowed' });
    await expect(reviewSuggestion(headContext(db), 'another-company', ID, { decision: 'APPROVED' })).rejects.toMatchObject({ reason: 'missing' });
    expect(await db.outbox.count()).toBe(0);
    expect((await local(db, HEAD))?.status).toBe('UNDER_CONSIDERATION');

    await reviewSuggestion(headContext(db), COMPANY, ID, { decision: 'APPROVED' });
    const second = reviewSuggestion(headContext(db), COMPANY, ID, { decision: 'REJECTED', comment: 'No' });
    await expect(second).rejects.toBeInstanceOf(ReviewRefusedError);
    await expect(second).rejects.toMatchObject({ reason: 'notOpen' });
    expect(await db.outbox.count()).toBe(1);
  });

  it('keeps the local change and the outbox row together: a failed enqueue leaves the proposal as it was', async () => {
    const db = openDb();
    await seed(db, HEAD);
    vi.spyOn(db.outbox, 'add').mockRejectedValueOnce(new Error('disk gone'));
    await expect(reviewSuggestion(headContext(db), COMPANY, ID, { decision: 'APPROVED' })).rejects.toThrow('disk gone');
    expect((await local(db, HEAD))?.status).toBe('UNDER_CONSIDERATION');
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('a distribution on the device', () => {
  it('moves the proposal, restarts its 5 days from now and records where it came from', async () => {
    const db = openDb();
    await seed(db, HEAD, { escalationLevel: 1, overdueAt: SUBMITTED });
    await distributeSuggestion(headContext(db), COMPANY, ID, { departmentId: LOGISTICS, comment: 'Theirs' });
    const row = await local(db, HEAD);
    expect(row).toMatchObject({ departmentId: LOGISTICS, dueAt: new Date(NOW.getTime() + 5 * DAY).toISOString(), escalationLevel: 0, overdueAt: null });
    expect(row?.history.at(-1)).toMatchObject({ kind: 'DISTRIBUTED', fromDepartmentId: PRODUCTION, departmentIds: [LOGISTICS], comment: 'Theirs', byName: 'Петров Пётр' });
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({ kind: SUGGESTION_DISTRIBUTE_KIND, path: `/api/v1/companies/${COMPANY}/suggestions/${ID}/distribute`, body: { departmentId: LOGISTICS, comment: 'Theirs' } }),
    ]);
  });

  it('refuses the department it is in already, and a department id that is no uuid', async () => {
    const db = openDb();
    await seed(db, HEAD);
    await expect(distributeSuggestion(headContext(db), COMPANY, ID, { departmentId: PRODUCTION })).rejects.toMatchObject({ fieldErrors: { departmentId: 'same' } });
    await expect(distributeSuggestion(headContext(db), COMPANY, ID, { departmentId: 'logistics' })).rejects.toMatchObject({ reason: 'invalid' });
    expect(await db.outbox.count()).toBe(0);
  });
});

describe("the author's resend", () => {
  const revision = { title: 'Shorter changeover on line 2', problem: 'Line 2 changeover takes 40 minutes', solution: 'Pre-stage the dies', expectedEffect: 'Half an hour a shift' };

  it('puts it back under consideration with the paused days added to its due date', async () => {
    const db = openDb();
    const asked = '2026-11-21T10:00:00.000Z';
    const dueAt = new Date(Date.parse(SUBMITTED) + 5 * DAY).toISOString();
    await seed(db, AUTHOR, { status: 'CLARIFICATION', clarificationAt: asked, reviewComment: 'Which line?', dueAt });
    await reviseSuggestion(contextOf(db, { id: AUTHOR, fullName: 'Сидоров Сидор' }), COMPANY, ID, revision);
    const row = await local(db, AUTHOR);
    expect(row).toMatchObject({ status: 'UNDER_CONSIDERATION', title: revision.title, clarificationAt: null, dueAt: new Date(Date.parse(dueAt) + DAY).toISOString() });
    expect(row?.history.at(-1)?.kind).toBe('RESENT');
    expect(await db.outbox.toArray()).toEqual([
      expect.objectContaining({ kind: SUGGESTION_REVISE_KIND, method: 'PATCH', path: `/api/v1/companies/${COMPANY}/suggestions/${ID}`, body: { ...revision, effectEstimate: null } }),
    ]);
  });

  it('revises a refused resend instead of queueing a second one, and refuses anyone but the author', async () => {
    const db = openDb();
    await seed(db, AUTHOR, { status: 'CLARIFICATION', clarificationAt: SUBMITTED });
    const author = contextOf(db, { id: AUTHOR, fullName: 'Сидоров Сидор' });
    await reviseSuggestion(author, COMPANY, ID, revision);
    const first = (await db.outbox.toArray())[0]!;
    await db.outbox.update(first.seq, { status: 'failed', lastError: { status: 400, message: 'Title too long' } });
    await reviseSuggestion(author, COMPANY, ID, { ...revision, title: 'Line 2' });
    const rows = await db.outbox.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ seq: first.seq, status: 'pending', body: { title: 'Line 2' } });
    expect(rows[0]?.id).not.toBe(first.id);

    await seed(db, HEAD, { status: 'CLARIFICATION' });
    await expect(reviseSuggestion(contextOf(db, { id: HEAD, fullName: 'x' }), COMPANY, ID, revision)).rejects.toMatchObject({ reason: 'notAllowed' });
  });
});

/** A main-service for decisions: each call answers `answer`; `GET /sync/rows` answers `current`. */
function server(answer: (path: string) => { status: number; body: unknown }, current: () => Suggestion) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    await Promise.resolve();
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://x');
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname.endsWith('/sync/rows')) {
      const row = current();
      return new Response(JSON.stringify({ data: { changes: [{ seq: '9', table: 'suggestions', op: 'upsert', id: row.id, row }] } }), { status: 200 });
    }
    const { status, body } = answer(url.pathname);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  const tokens = { getAccess: () => 't', getRefresh: () => 'r', set: () => undefined, clear: () => undefined };
  const http = createHttpClient({ prefix: '/main-service', tokens, fetch, getLocale: () => 'en', onAuthFailure: () => undefined });
  return { http, calls };
}

function replayerOf(db: AppDatabase, http: ReturnType<typeof server>['http']) {
  return createReplayer({
    db,
    http,
    getOwnerUserId: () => HEAD,
    clock: { now: () => NOW.getTime() },
    random: () => 0.5,
    handlers: { [SUGGESTION_REVIEW_KIND]: storeReviewedSuggestion, [SUGGESTION_DISTRIBUTE_KIND]: storeReviewedSuggestion },
  });
}

describe('sending a decision', () => {
  it("stores the server's proposal once it confirmed the decision", async () => {
    const db = openDb();
    await seed(db, HEAD);
    await reviewSuggestion(headContext(db), COMPANY, ID, { decision: 'REJECTED', comment: 'Too costly' });
    const confirmed = proposal({ status: 'REJECTED', reviewComment: 'Too costly', decidedById: HEAD, decidedByName: 'Петров Пётр Петрович', decidedAt: '2026-11-22T10:00:05.000Z' });
    const { http } = server(() => ({ status: 200, body: { data: confirmed, message: 'Proposal rejected.' } }), () => confirmed);
    const result = await replayerOf(db, http).drain();
    expect(result.sent).toBe(1);
    expect(await db.outbox.count()).toBe(0);
    expect(await local(db, HEAD)).toMatchObject({ ...confirmed, ownerUserId: HEAD });
  });

  it('keeps the local state while a later change of the same proposal still waits', async () => {
    const db = openDb();
    await seed(db, HEAD);
    const other = { id: HEAD, fullName: 'Петров Пётр' };
    await distributeSuggestion(headContext(db), COMPANY, ID, { departmentId: LOGISTICS });
    // Still the head of the new department too (say, the CEO): decides at once, offline.
    await reviewSuggestion(contextOf(db, other, { userId: HEAD, roles: ['CEO'], headOfDepartmentIds: [] }), COMPANY, ID, { decision: 'APPROVED' });
    const moved = proposal({ departmentId: LOGISTICS, dueAt: '2026-11-27T10:00:01.000Z' });
    let answers = 0;
    // The distribution is confirmed; the decision meets a server hiccup and waits for the next try.
    const { http } = server(() => (answers++ === 0 ? { status: 200, body: { data: moved, message: 'OK' } } : { status: 503, body: { message: 'busy' } }), () => moved);
    await replayerOf(db, http).drain();
    expect(await db.outbox.toArray()).toEqual([expect.objectContaining({ kind: SUGGESTION_REVIEW_KIND, status: 'pending' })]);
    // The server's answer to the distribution does not undo the decision still on its way.
    expect(await local(db, HEAD)).toMatchObject({ status: 'APPROVED', departmentId: LOGISTICS });
    expect(await db.staleRows.count()).toBe(1);
  });

  it('parks a decision someone else made first as a conflict with the server message, and brings the server version back after a discard', async () => {
    const db = openDb();
    await seed(db, HEAD);
    await reviewSuggestion(headContext(db), COMPANY, ID, { decision: 'REJECTED', comment: 'Too costly' });
    const byCeo = proposal({ status: 'APPROVED', decidedById: 'ceo', decidedByName: 'Иванов Иван', decidedAt: '2026-11-22T09:00:00.000Z' });
    const message = 'This proposal was already approved by Иванов Иван on 22 Nov 2026.';
    const { http, calls } = server(() => ({ status: 409, body: { message } }), () => byCeo);

    const result = await replayerOf(db, http).drain();
    expect(result.parked).toBe(1);
    const [parked] = await db.outbox.toArray();
    expect(parked).toMatchObject({ status: 'conflict', lastError: { status: 409, message }, body: { decision: 'REJECTED', comment: 'Too costly' } });
    // Nothing is overwritten silently: the device still shows the user's own decision until they choose.
    expect((await local(db, HEAD))?.status).toBe('REJECTED');

    // The Unsent screen's discard (features/outbox/store.ts discardUnsent): the row goes, the proposal is marked stale.
    await discard(db, parked!.id);
    await markStale(db, HEAD, [parked!.entityKey]);
    expect(await refreshStaleRows({ db, http, ownerUserId: HEAD, companyId: COMPANY })).toBe(1);
    expect(calls.at(-1)).toBe('GET /main-service/api/v1/sync/rows');
    expect(await local(db, HEAD)).toMatchObject({ status: 'APPROVED', decidedByName: 'Иванов Иван', reviewComment: null });
  });

  it("fetches the proposal again when the server's answer does not match the struct", async () => {
    const db = openDb();
    await seed(db, HEAD);
    const row = await writeWithOutbox(db, [db.suggestions], () =>
      enqueue(db, { ownerUserId: HEAD, kind: SUGGESTION_REVIEW_KIND, method: 'POST', path: '/x', body: {}, entityKey: entityKeyOf('suggestions', ID) }),
    );
    await db.outbox.delete(row.seq);
    await storeReviewedSuggestion({ db, row, data: { id: ID, status: 'nonsense' } });
    expect(await db.staleRows.count()).toBe(1);
    expect((await local(db, HEAD))?.status).toBe('UNDER_CONSIDERATION');
  });
});
