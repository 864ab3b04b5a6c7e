import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Suggestion } from '../../../src/domain/suggestion';
import { createManualClock } from '../../clock';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from './fixtures';

const DAY = 24 * 60 * 60 * 1000;
const clock = createManualClock(new Date('2026-11-20T09:00:00.000Z'));

let t: TestApp;
let author: Login;
let colleague: Login;
let head: Login;
let headB: Login;
let director: Login;
let ceo: Login;
let owner: Login;
let hr: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;
/** A department of Acme nobody heads. */
let headless: string;

beforeAll(async () => {
  t = await createTestApp({}, undefined, { clock });
  const member = (lastName: string) => signUpMember(t, { lastName });
  [author, colleague, head, headB, director, ceo, owner, hr, outsider] = await Promise.all([
    member('Автор'),
    member('Коллега'),
    member('Головин'),
    member('Бобров'),
    member('Директоров'),
    member('Царёв'),
    member('Хозяинов'),
    member('Кадрова'),
    member('Чужой'),
  ]);
  acme = await createCompany(
    t.db,
    'Acme',
    {
      [author.id]: ['EMPLOYEE'],
      [colleague.id]: ['EMPLOYEE'],
      [head.id]: ['MIDDLE_MANAGER'],
      [headB.id]: ['MIDDLE_MANAGER'],
      // Sees every proposal (a company-wide role) and heads B, yet may not decide A's.
      [director.id]: ['DIRECTION_MANAGER'],
      [ceo.id]: ['CEO'],
      [owner.id]: ['OWNER'],
      [hr.id]: ['HR'],
    },
    { A: head.id, B: headB.id },
  );
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
  const row = await t.db.one<{ id: string }>('INSERT INTO departments (company_id, name) VALUES ($1, $2) RETURNING id', [acme.companyId, 'C']);
  headless = row!.id;
});
afterAll(() => t.close());

interface Answer {
  data: Suggestion;
  message: string;
  errors?: Record<string, string>;
}

const headers = (who: Login, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who.access}`, Language: 'en', ...extra });
const path = (id: string, action = '', companyId = acme.companyId) => api(`/companies/${companyId}/suggestions/${id}${action}`);

async function submit(overrides: Record<string, unknown> = {}, who: Login = author): Promise<Suggestion> {
  const res = await t.app.inject({
    method: 'POST',
    url: api(`/companies/${acme.companyId}/suggestions`),
    headers: headers(who),
    payload: { title: 'Fewer steps', problem: 'Too many steps', solution: 'Remove two', expectedEffect: 'Faster', departmentId: acme.departments.A, imageIds: [], ...overrides },
  });
  expect(res.statusCode, res.body).toBe(201);
  return json<Answer>(res).data;
}

function review(who: Login, id: string, body: Record<string, unknown>, extra: Record<string, string> = {}, companyId = acme.companyId) {
  return t.app.inject({ method: 'POST', url: path(id, '/review', companyId), headers: headers(who, extra), payload: body });
}

function distribute(who: Login, id: string, body: Record<string, unknown>, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: path(id, '/distribute'), headers: headers(who, extra), payload: body });
}

const revision = { title: 'Fewer steps, clarified', problem: 'Seven steps where four would do', solution: 'Remove steps 3, 5 and 6', expectedEffect: '10 minutes a shift' };

function revise(who: Login, id: string, body: Record<string, unknown> = revision, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'PATCH', url: path(id), headers: headers(who, extra), payload: body });
}

function ok(response: Awaited<ReturnType<typeof review>>): Answer {
  expect(response.statusCode, response.body).toBe(200);
  const body = json<Answer>(response);
  expect(Suggestion.is(body.data)).toBe(true);
  return body;
}

const messageOf = (response: Awaited<ReturnType<typeof review>>) => json<{ message: string }>(response).message;

async function notificationsOf(suggestionId: string): Promise<{ user_id: string; kind: string; params: Record<string, string | null> }[]> {
  return t.db.query('SELECT user_id, kind, params FROM notifications WHERE suggestion_id = $1 ORDER BY created_at, kind', [suggestionId]);
}

async function stored(id: string): Promise<{ status: string; history: unknown[]; due_at: Date; review_comment: string | null }> {
  const row = await t.db.one<{ status: string; history: unknown[]; due_at: Date; review_comment: string | null }>('SELECT status, history, due_at, review_comment FROM suggestions WHERE id = $1', [id]);
  if (!row) throw new Error('no proposal');
  return row;
}

const nameOf = (lastName: string) => `${lastName} Иван Сергеевич`;

describe('submitting', () => {
  it('answers the review fields of a new proposal', async () => {
    const s = await submit();
    expect(s).toMatchObject({ decidedById: null, decidedByName: null, decidedAt: null, clarificationAt: null, escalationLevel: 0, overdueAt: null, reviewComment: null });
  });

  it('tells the head of the department, with the due date, and nobody else', async () => {
    const s = await submit();
    expect(await notificationsOf(s.id)).toEqual([
      {
        user_id: head.id,
        kind: 'SUGGESTION_SUBMITTED',
        params: { title: 'Fewer steps', byName: nameOf('Автор'), departmentName: 'A', dueAt: s.dueAt },
      },
    ]);
    expect(Date.parse(s.dueAt) - clock.now().getTime()).toBe(5 * DAY);
  });

  it('tells the CEO when the department has no head, and never the author who heads it', async () => {
    const toCeo = await submit({ departmentId: headless });
    expect((await notificationsOf(toCeo.id)).map((n) => n.user_id)).toEqual([ceo.id]);
    const own = await submit({}, head);
    expect(await notificationsOf(own.id)).toEqual([]);
  });
});

describe('POST .../suggestions/{id}/review', () => {
  it('approves: status, who decided and when, the history entry, and the author is told', async () => {
    const s = await submit();
    const body = ok(await review(head, s.id, { decision: 'APPROVED', comment: '  Good idea  ' }));
    expect(body.message).toBe('Proposal approved.');
    expect(body.data).toMatchObject({
      status: 'APPROVED',
      reviewComment: 'Good idea',
      decidedById: head.id,
      decidedByName: nameOf('Головин'),
      decidedAt: clock.now().toISOString(),
      clarificationAt: null,
    });
    expect(body.data.history.at(-1)).toEqual({ at: clock.now().toISOString(), kind: 'APPROVED', byUserId: head.id, byName: nameOf('Головин'), comment: 'Good idea' });
    const notes = await notificationsOf(s.id);
    expect(notes.filter((n) => n.kind === 'SUGGESTION_APPROVED')).toEqual([
      { user_id: author.id, kind: 'SUGGESTION_APPROVED', params: { title: 'Fewer steps', byName: nameOf('Головин'), comment: 'Good idea' } },
    ]);
    // The reader gets the same row.
    const read = await t.app.inject({ method: 'GET', url: path(s.id), headers: headers(author) });
    expect(json<Answer>(read).data).toEqual(body.data);
  });

  it('approves without a comment', async () => {
    const s = await submit();
    expect((ok(await review(ceo, s.id, { decision: 'APPROVED' }))).data).toMatchObject({ status: 'APPROVED', reviewComment: null, decidedById: ceo.id });
  });

  it('refuses to reject without a reason (400 { comment }) and changes nothing', async () => {
    const s = await submit();
    for (const body of [{ decision: 'REJECTED' }, { decision: 'REJECTED', comment: '   ' }, { decision: 'CLARIFICATION', comment: null }]) {
      const res = await review(head, s.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(json<{ errors: Record<string, string> }>(res).errors).toEqual({ comment: 'Fill in this field.' });
    }
    expect((await review(head, s.id, { decision: 'MAYBE' })).statusCode).toBe(400);
    expect((await stored(s.id)).status).toBe('UNDER_CONSIDERATION');
  });

  it('rejects with a reason: the author sees the reason and who decided, and is told', async () => {
    const s = await submit();
    const body = ok(await review(head, s.id, { decision: 'REJECTED', comment: 'Too costly' }, { Language: 'ru' }));
    expect(body.message).toBe('Предложение отклонено.');
    const read = json<Answer>(await t.app.inject({ method: 'GET', url: path(s.id), headers: headers(author) })).data;
    expect(read).toMatchObject({ status: 'REJECTED', reviewComment: 'Too costly', decidedByName: nameOf('Головин') });
    expect((await notificationsOf(s.id)).filter((n) => n.kind === 'SUGGESTION_REJECTED')).toEqual([
      { user_id: author.id, kind: 'SUGGESTION_REJECTED', params: { title: 'Fewer steps', byName: nameOf('Головин'), comment: 'Too costly' } },
    ]);
  });

  it('answers a second decision with 409 naming the first, in the request language, and keeps the first', async () => {
    const s = await submit();
    ok(await review(head, s.id, { decision: 'APPROVED' }));
    const en = await review(ceo, s.id, { decision: 'REJECTED', comment: 'No' });
    expect(en.statusCode).toBe(409);
    expect(messageOf(en)).toMatch(new RegExp(`^This proposal was already approved by ${nameOf('Головин')} on [A-Z][a-z]{2} \\d{1,2}, \\d{4}\\.$`));
    const ru = await review(ceo, s.id, { decision: 'APPROVED' }, { Language: 'ru' });
    expect(ru.statusCode).toBe(409);
    expect(messageOf(ru)).toMatch(new RegExp(`^Это предложение уже одобрено: ${nameOf('Головин')}, \\d{2}\\.\\d{2}\\.\\d{4}\\.$`));
    const rejected = await submit();
    ok(await review(ceo, rejected.id, { decision: 'REJECTED', comment: 'No' }));
    expect(messageOf(await review(head, rejected.id, { decision: 'APPROVED' }))).toMatch(/^This proposal was already rejected by Царёв Иван Сергеевич on /);
    const row = await stored(s.id);
    expect(row.status).toBe('APPROVED');
    expect(row.history).toHaveLength(2);
  });

  it('lets only one of two concurrent decisions through', async () => {
    const s = await submit();
    const answers = await Promise.all([review(head, s.id, { decision: 'APPROVED' }), review(ceo, s.id, { decision: 'REJECTED', comment: 'No' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await stored(s.id)).history).toHaveLength(2);
  });

  it('refuses whoever may not decide: 403 when they see it, 404 when they do not', async () => {
    const s = await submit();
    expect((await review(author, s.id, { decision: 'APPROVED' })).statusCode).toBe(403);
    expect((await review(hr, s.id, { decision: 'APPROVED' })).statusCode).toBe(403);
    // A head of another department: 403 when a company-wide role shows them the proposal, else 404.
    await t.db.query('UPDATE departments SET head_user_id = $1 WHERE id = $2', [director.id, headless]);
    expect((await review(director, s.id, { decision: 'APPROVED' })).statusCode).toBe(403);
    await t.db.query('UPDATE departments SET head_user_id = NULL WHERE id = $1', [headless]);
    expect((await review(headB, s.id, { decision: 'APPROVED' })).statusCode).toBe(404);
    expect((await review(colleague, s.id, { decision: 'APPROVED' })).statusCode).toBe(404);
    expect((await stored(s.id)).status).toBe('UNDER_CONSIDERATION');
  });

  it("answers 404 for another company's ids, a missing id and a malformed one, before reading the body", async () => {
    const s = await submit();
    expect((await review(outsider, s.id, { decision: 'APPROVED' }, {}, rival.companyId)).statusCode).toBe(404);
    expect((await review(outsider, s.id, { nonsense: true })).statusCode).toBe(404);
    expect((await review(ceo, s.id, { decision: 'APPROVED' }, {}, rival.companyId)).statusCode).toBe(404);
    expect((await review(ceo, randomUUID(), { decision: 'APPROVED' })).statusCode).toBe(404);
    expect((await review(ceo, 'nope', { decision: 'APPROVED' })).statusCode).toBe(404);
    expect((await stored(s.id)).status).toBe('UNDER_CONSIDERATION');
  });

  it('replays a decision sent again under its Idempotency-Key: the same answer, one history entry, one notification', async () => {
    const s = await submit();
    const key = randomUUID();
    const first = await review(head, s.id, { decision: 'REJECTED', comment: 'Too costly' }, { 'Idempotency-Key': key });
    clock.advance(60_000);
    const again = await review(head, s.id, { decision: 'REJECTED', comment: 'Too costly' }, { 'Idempotency-Key': key });
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual(json(first));
    expect((await stored(s.id)).history).toHaveLength(2);
    expect((await notificationsOf(s.id)).filter((n) => n.kind === 'SUGGESTION_REJECTED')).toHaveLength(1);
    const other = await review(head, s.id, { decision: 'APPROVED' }, { 'Idempotency-Key': key });
    expect(other.statusCode).toBe(422);
  });

  it('applies a decision pushed in a batch exactly as the direct call, and the push replays a direct call', async () => {
    const direct = await submit();
    const pushed = await submit();
    const directAnswer = ok(await review(head, direct.id, { decision: 'REJECTED', comment: 'Too costly' }));
    const key = randomUUID();
    const res = await t.app.inject({
      method: 'POST',
      url: api('/sync/push'),
      headers: headers(head),
      payload: { operations: [{ id: key, method: 'POST', path: `/api/v1/companies/${acme.companyId}/suggestions/${pushed.id}/review`, body: { decision: 'REJECTED', comment: 'Too costly' } }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = json<{ data: { results: { id: string; status: number; body: Answer }[] } }>(res).data.results;
    expect(result?.status).toBe(200);
    const strip = (a: Answer) => ({ ...a, data: { ...a.data, id: '', history: a.data.history.map((h) => h.kind), createdAt: '', updatedAt: '', submittedAt: '', receivedAt: '', dueAt: '' } });
    expect(strip(result!.body)).toEqual(strip(directAnswer));
    // The same key sent again directly is the same request: the stored answer, nothing applied twice.
    const replay = await review(head, pushed.id, { decision: 'REJECTED', comment: 'Too costly' }, { 'Idempotency-Key': key });
    expect(json(replay)).toEqual(result!.body);
    // A conflict inside a batch answers 409 for that operation.
    const conflict = await t.app.inject({
      method: 'POST',
      url: api('/sync/push'),
      headers: headers(ceo),
      payload: { operations: [{ id: randomUUID(), method: 'POST', path: `/api/v1/companies/${acme.companyId}/suggestions/${pushed.id}/review`, body: { decision: 'APPROVED' } }] },
    });
    const [refused] = json<{ data: { results: { status: number; body: { message: string } }[] } }>(conflict).data.results;
    expect(refused?.status).toBe(409);
    expect(refused?.body.message).toMatch(/^This proposal was already rejected by Головин Иван Сергеевич on /);
  });
});

describe('clarification and the resend', () => {
  it('pauses the clock while the author clarifies and moves the due date on by the pause', async () => {
    const s = await submit();
    clock.advance(DAY);
    const asked = ok(await review(head, s.id, { decision: 'CLARIFICATION', comment: 'Which steps?' }));
    expect(asked.message).toBe('The question has been sent to the author.');
    expect(asked.data).toMatchObject({ status: 'CLARIFICATION', reviewComment: 'Which steps?', clarificationAt: clock.now().toISOString(), decidedById: head.id });
    expect(asked.data.history.at(-1)).toMatchObject({ kind: 'CLARIFICATION_REQUESTED', byUserId: head.id, comment: 'Which steps?' });
    expect((await notificationsOf(s.id)).filter((n) => n.kind === 'SUGGESTION_CLARIFICATION')).toEqual([
      { user_id: author.id, kind: 'SUGGESTION_CLARIFICATION', params: { title: 'Fewer steps', byName: nameOf('Головин'), comment: 'Which steps?' } },
    ]);

    // While it waits on the author nobody decides or moves it.
    const meanwhile = await review(ceo, s.id, { decision: 'APPROVED' });
    expect(meanwhile.statusCode).toBe(409);
    expect(messageOf(meanwhile)).toMatch(new RegExp(`^This proposal is waiting for the author's clarification: ${nameOf('Головин')} asked for it on `));
    expect((await distribute(head, s.id, { departmentId: acme.departments.B })).statusCode).toBe(409);
    expect((await revise(head, s.id)).statusCode).toBe(403);
    expect((await revise(colleague, s.id)).statusCode).toBe(404);
    expect((await revise(author, s.id, { ...revision, title: '' })).statusCode).toBe(400);

    clock.advance(2 * DAY);
    const resent = ok(await revise(author, s.id, { ...revision, effectEstimate: { amountMinor: 500000, currency: 'RUB' } }));
    expect(resent.message).toBe('The clarified proposal has been sent for consideration again.');
    expect(resent.data).toMatchObject({ ...revision, effectEstimate: { amountMinor: 500000, currency: 'RUB' }, status: 'UNDER_CONSIDERATION', clarificationAt: null, reviewComment: null });
    expect(Date.parse(resent.data.dueAt) - Date.parse(s.dueAt)).toBe(2 * DAY);
    expect(resent.data.receivedAt).toBe(s.receivedAt);
    expect(resent.data.history.map((h) => h.kind)).toEqual(['SUBMITTED', 'CLARIFICATION_REQUESTED', 'RESENT']);
    expect((await notificationsOf(s.id)).filter((n) => n.kind === 'SUGGESTION_RESENT')).toEqual([
      { user_id: head.id, kind: 'SUGGESTION_RESENT', params: { title: revision.title, byName: nameOf('Автор'), dueAt: resent.data.dueAt } },
    ]);

    // Resent once: a second resend (another device's) is a conflict; now the head may decide.
    const twice = await revise(author, s.id);
    expect(twice.statusCode).toBe(409);
    expect(messageOf(twice)).toBe('This proposal no longer waits for clarification: it is under consideration again.');
    ok(await review(head, s.id, { decision: 'APPROVED' }));
    const late = await revise(author, s.id, revision, { Language: 'ru' });
    expect(late.statusCode).toBe(409);
    expect(messageOf(late)).toMatch(new RegExp(`^Это предложение больше не ждёт уточнения: оно уже одобрено \\(${nameOf('Головин')}, \\d{2}\\.\\d{2}\\.\\d{4}\\)\\.$`));
  });

  it('tells the holder at its escalation level of a resend', async () => {
    const s = await submit();
    ok(await review(head, s.id, { decision: 'CLARIFICATION', comment: 'Which steps?' }));
    await t.db.query('UPDATE suggestions SET escalation_level = 1 WHERE id = $1', [s.id]);
    ok(await revise(author, s.id));
    expect((await notificationsOf(s.id)).filter((n) => n.kind === 'SUGGESTION_RESENT').map((n) => n.user_id)).toEqual([ceo.id]);
  });
});

describe('POST .../suggestions/{id}/distribute', () => {
  it('passes it on: a fresh 5 days for the new department, escalation reset, the move in the history, the new head told', async () => {
    const s = await submit();
    clock.advance(6 * DAY);
    await t.db.query("UPDATE suggestions SET escalation_level = 1, escalated_at = now(), overdue_at = now(), reminded_at = now() WHERE id = $1", [s.id]);
    const body = ok(await distribute(head, s.id, { departmentId: String(acme.departments.B).toUpperCase(), comment: 'Yours' }));
    expect(body.message).toBe('The proposal has been passed to the department “B”.');
    expect(body.data).toMatchObject({ departmentId: acme.departments.B, status: 'UNDER_CONSIDERATION', escalationLevel: 0, overdueAt: null, receivedAt: s.receivedAt });
    expect(Date.parse(body.data.dueAt) - clock.now().getTime()).toBe(5 * DAY);
    expect(body.data.history.at(-1)).toEqual({
      at: clock.now().toISOString(),
      kind: 'DISTRIBUTED',
      byUserId: head.id,
      byName: nameOf('Головин'),
      comment: 'Yours',
      fromDepartmentId: acme.departments.A,
      departmentIds: [acme.departments.B],
    });
    const reset = await t.db.one<{ reminded_at: Date | null; escalated_at: Date | null }>('SELECT reminded_at, escalated_at FROM suggestions WHERE id = $1', [s.id]);
    expect(reset).toEqual({ reminded_at: null, escalated_at: null });
    expect((await notificationsOf(s.id)).filter((n) => n.kind === 'SUGGESTION_DISTRIBUTED')).toEqual([
      { user_id: headB.id, kind: 'SUGGESTION_DISTRIBUTED', params: { title: 'Fewer steps', byName: nameOf('Головин'), comment: 'Yours', departmentName: 'B', dueAt: body.data.dueAt } },
    ]);

    // The old head, deciding late, hears where it went; the new head decides.
    const late = await review(head, s.id, { decision: 'APPROVED' });
    expect(late.statusCode).toBe(409);
    expect(messageOf(late)).toMatch(new RegExp(`^This proposal was passed to the department “B” by ${nameOf('Головин')} on `));
    ok(await review(headB, s.id, { decision: 'APPROVED' }));
  });

  it('refuses the same department, an unknown one and another company\'s with 400 { departmentId }', async () => {
    const s = await submit();
    const same = await distribute(head, s.id, { departmentId: acme.departments.A });
    expect(same.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string> }>(same).errors).toEqual({ departmentId: 'The proposal is already in this department: choose another one.' });
    for (const departmentId of [randomUUID(), rival.departments.A]) {
      const res = await distribute(head, s.id, { departmentId });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(json<{ errors: Record<string, string> }>(res).errors)).toEqual(['departmentId']);
    }
    expect((await distribute(head, s.id, { departmentId: 'nope' })).statusCode).toBe(400);
    expect((await stored(s.id)).history).toHaveLength(1);
  });

  it('is for the head of its department, HR, the CEO and the owner', async () => {
    const s = await submit();
    expect((await distribute(author, s.id, { departmentId: acme.departments.B })).statusCode).toBe(403);
    expect((await distribute(director, s.id, { departmentId: acme.departments.B })).statusCode).toBe(403);
    expect((await distribute(headB, s.id, { departmentId: acme.departments.B })).statusCode).toBe(404);
    ok(await distribute(hr, s.id, { departmentId: acme.departments.B }));
    ok(await distribute(ceo, s.id, { departmentId: headless }));
    ok(await distribute(owner, s.id, { departmentId: acme.departments.A }));
    expect((await stored(s.id)).history).toHaveLength(4);
  });

  it('refuses to move a decided proposal with 409 naming the decision', async () => {
    const s = await submit();
    ok(await review(ceo, s.id, { decision: 'REJECTED', comment: 'No' }));
    const res = await distribute(head, s.id, { departmentId: acme.departments.B });
    expect(res.statusCode).toBe(409);
    expect(messageOf(res)).toMatch(/^This proposal was already rejected by Царёв Иван Сергеевич on /);
    expect((await stored(s.id)).status).toBe('REJECTED');
  });
});
