import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Suggestion, SuggestionPage } from '../../../src/domain/suggestion';
import { CurrentUser } from '../../../src/domain/user';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, insertGoal, signUpMember, type Fixture, type Login } from './fixtures';

let t: TestApp;
let author: Login;
let head: Login;
let ceo: Login;
let other: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;

const login = () => signUpMember(t);

beforeAll(async () => {
  t = await createTestApp();
  [author, head, ceo, other, outsider] = await Promise.all([login(), login(), login(), login(), login()]);
  acme = await createCompany(t.db, 'Acme', { [author.id]: ['EMPLOYEE'], [head.id]: ['MIDDLE_MANAGER'], [ceo.id]: ['CEO'], [other.id]: ['EMPLOYEE'] }, { A: head.id });
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
});
afterAll(() => t.close());

const headers = (who: Login, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who.access}`, Language: 'en', ...extra });

function input(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Fewer steps', problem: 'Too many steps', solution: 'Remove two', expectedEffect: 'Faster', departmentId: acme.departments.A, imageIds: [], ...overrides };
}

function submit(who: Login, body: Record<string, unknown>, companyId = acme.companyId, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: api(`/companies/${companyId}/suggestions`), headers: headers(who, extra), payload: body });
}

const count = async (companyId = acme.companyId) => Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM suggestions WHERE company_id = $1', [companyId]))?.n);

describe('POST /companies/{companyId}/suggestions', () => {
  it('creates a proposal with due date 5 days after receipt and keeps the earlier submittedAt', async () => {
    const id = randomUUID();
    const submittedAt = new Date(Date.now() - 3_600_000).toISOString();
    const res = await submit(author, input({ id, submittedAt, effectEstimate: { amountMinor: 150000, currency: 'RUB' } }));
    expect(res.statusCode).toBe(201);
    const body = json<{ data: unknown; message: string }>(res);
    expect(body.message).toBe('Proposal submitted.');
    const s = body.data as Suggestion;
    expect(Suggestion.is(s)).toBe(true);
    expect(s.id).toBe(id);
    expect(s.status).toBe('UNDER_CONSIDERATION');
    expect(s.submittedAt).toBe(submittedAt);
    expect(Date.parse(s.dueAt) - Date.parse(s.receivedAt)).toBe(5 * 24 * 3600 * 1000);
    expect(s.effectEstimate).toEqual({ amountMinor: 150000, currency: 'RUB' });
    expect(s.authorId).toBe(author.id);
    expect(s.history).toEqual([{ at: submittedAt, kind: 'SUBMITTED', byUserId: author.id, comment: null }]);
  });

  it('keeps now for a submittedAt in the future', async () => {
    const res = await submit(author, input({ submittedAt: new Date(Date.now() + 86_400_000).toISOString() }));
    const s = json<{ data: Suggestion }>(res).data;
    expect(s.submittedAt).toBe(s.receivedAt);
  });

  it('refuses bad input with field errors and creates nothing', async () => {
    const before = await count();
    for (const [body, field] of [
      [input({ title: '' }), 'title'],
      [input({ title: 'x'.repeat(201) }), 'title'],
      [input({ problem: 'x'.repeat(4001) }), 'problem'],
      [input({ imageIds: [randomUUID(), randomUUID(), randomUUID(), randomUUID()] }), 'imageIds'],
      [input({ effectEstimate: { amountMinor: 1.5, currency: 'RUB' } }), 'effectEstimate.amountMinor'],
      [input({ effectEstimate: { amountMinor: 1, currency: 'EUR' } }), 'effectEstimate.currency'],
      [input({ id: 'not-a-uuid' }), 'id'],
      [input({ departmentId: rival.departments.A }), 'departmentId'],
      [input({ imageIds: [randomUUID()] }), 'imageIds'],
      [input({ goalId: randomUUID() }), 'goalId'],
    ] as const) {
      const res = await submit(author, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(json<{ errors: Record<string, string> }>(res).errors)).toContain(field);
    }
    expect(await count()).toBe(before);
  });

  it("serves one of the company's goals, and no goal of another company", async () => {
    const [own, foreign] = [await insertGoal(t.db, acme.companyId), await insertGoal(t.db, rival.companyId)];
    const served = await submit(author, input({ goalId: own.toUpperCase() }));
    expect(served.statusCode).toBe(201);
    expect(json<{ data: Suggestion }>(served).data.goalId).toBe(own);
    const refused = await submit(author, input({ goalId: foreign }));
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: Record<string, string> }>(refused).errors)).toEqual(['goalId']);
  });

  it('answers 404 for another company, a missing company and a malformed id', async () => {
    for (const companyId of [rival.companyId, randomUUID(), 'nope']) {
      expect((await submit(author, input(), companyId)).statusCode).toBe(404);
    }
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: api(`/companies/${acme.companyId}/suggestions`), payload: input() });
    expect(res.statusCode).toBe(401);
  });

  it('answers 409 companyNotReady naming what is missing, in the request language, until the company may start', async () => {
    const founder = await login();
    const fresh = await createCompany(t.db, 'Fresh', { [founder.id]: ['OWNER'], [author.id]: ['EMPLOYEE'] }, {}, { ready: false });
    const body = input({ departmentId: fresh.departments.A });
    const en = await submit(author, body, fresh.companyId);
    expect(en.statusCode).toBe(409);
    expect(json<{ message: string }>(en).message).toBe(
      'The company cannot start its improvement work yet: it still needs a manager, a financial director. Invite them from the Employees page.',
    );
    const ru = await submit(founder, body, fresh.companyId, { Language: 'ru' });
    expect(ru.statusCode).toBe(409);
    expect(json<{ message: string }>(ru).message).toBe(
      'Компания пока не может начать работу с улучшениями: не хватает руководителя, финансового директора. Пригласите их на странице «Сотрудники».',
    );
    // A financial director joins; a manager is still missing. An inactive manager does not count.
    const director = await login();
    const manager = await login();
    await t.db.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3), ($1, $4, $5)', [fresh.companyId, director.id, ['FINANCIAL_DIRECTOR'], manager.id, ['CEO']]);
    await t.db.query('UPDATE company_members SET active = false WHERE company_id = $1 AND user_id = $2', [fresh.companyId, manager.id]);
    const still = await submit(author, body, fresh.companyId);
    expect(json<{ message: string }>(still).message).toContain('it still needs a manager.');
    expect(await count(fresh.companyId)).toBe(0);
    await t.db.query('UPDATE company_members SET active = true WHERE company_id = $1 AND user_id = $2', [fresh.companyId, manager.id]);
    expect((await submit(author, body, fresh.companyId)).statusCode).toBe(201);
    expect(await count(fresh.companyId)).toBe(1);
  });

  it('answers 409 for an id that already exists (without an idempotency key)', async () => {
    const id = randomUUID();
    expect((await submit(author, input({ id }))).statusCode).toBe(201);
    expect((await submit(author, input({ id }))).statusCode).toBe(409);
  });
});

describe('GET suggestions', () => {
  let mine: Suggestion;
  let inB: Suggestion;
  beforeAll(async () => {
    mine = json<{ data: Suggestion }>(await submit(other, input({ title: 'other in A' }))).data;
    inB = json<{ data: Suggestion }>(await submit(other, input({ title: 'other in B', departmentId: acme.departments.B }))).data;
  });

  const list = (who: Login, query: string, companyId = acme.companyId) =>
    t.app.inject({ method: 'GET', url: api(`/companies/${companyId}/suggestions${query}`), headers: headers(who) });

  it('shows the author their own, the department head their department, the CEO everything', async () => {
    const ids = async (who: Login, q: string) => {
      const res = await list(who, q);
      expect(res.statusCode, res.body).toBe(200);
      return json<{ data: { items: Suggestion[] } }>(res).data.items.map((s) => s.id);
    };
    expect(await ids(other, '?scope=mine')).toEqual(expect.arrayContaining([mine.id, inB.id]));
    expect(await ids(author, '?scope=all')).not.toContain(mine.id);
    const headIds = await ids(head, '?scope=company');
    expect(headIds).toContain(mine.id);
    expect(headIds).not.toContain(inB.id);
    expect(await ids(ceo, '?scope=company')).toEqual(expect.arrayContaining([mine.id, inB.id]));
  });

  it('answers 403 for scope=company to a plain employee', async () => {
    expect((await list(author, '?scope=company')).statusCode).toBe(403);
  });

  it('pages with an opaque cursor without doubles', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(ceo, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const page = json<{ data: unknown }>(res).data as SuggestionPage;
      expect(SuggestionPage.is(page)).toBe(true);
      seen.push(...page.items.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(await count());
  });

  it('filters by status and refuses bad query values', async () => {
    expect(json<{ data: { items: unknown[] } }>(await list(ceo, '?status=APPROVED')).data.items).toEqual([]);
    for (const q of ['?status=NOPE', '?scope=nope', '?limit=0', '?limit=201', '?cursor=%%%']) expect((await list(ceo, q)).statusCode, q).toBe(400);
  });

  it('answers 404 to another company', async () => {
    expect((await list(author, '', rival.companyId)).statusCode).toBe(404);
  });

  it('reads one proposal when visible, 404 otherwise', async () => {
    const get = (who: Login, id: string, companyId = acme.companyId) =>
      t.app.inject({ method: 'GET', url: api(`/companies/${companyId}/suggestions/${id}`), headers: headers(who) });
    expect(json<{ data: Suggestion }>(await get(head, mine.id)).data.title).toBe('other in A');
    expect((await get(author, mine.id)).statusCode).toBe(404);
    expect((await get(outsider, mine.id, rival.companyId)).statusCode).toBe(404);
    expect((await get(outsider, mine.id)).statusCode).toBe(404);
  });

  it('lists memberships in GET /user', async () => {
    const res = await t.app.inject({ method: 'GET', url: api('/user'), headers: headers(head) });
    const user = json<{ data: CurrentUser }>(res).data;
    expect(CurrentUser.is(user)).toBe(true);
    expect(user.companies).toEqual([{ id: acme.companyId, name: 'Acme', roles: ['MIDDLE_MANAGER'] }]);
  });
});
