import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuggestionPage, type Suggestion } from '../../../src/domain/suggestion';
import { createManualClock } from '../../clock';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, insertGoal, signUpMember, type Fixture, type Login } from './fixtures';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const clock = createManualClock(new Date('2026-11-20T09:00:00.000Z'));

let t: TestApp;
let author: Login;
let head: Login;
let headB: Login;
let ceo: Login;
let owner: Login;
let hr: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;
const goal = randomUUID();
type Name = 'old' | 'goal' | 'inB' | 'decided' | 'asked' | 'fresh';
const proposals = new Map<Name, Suggestion>();
/** A proposal of Acme by its short name. */
function p(name: Name): Suggestion {
  const found = proposals.get(name);
  if (!found) throw new Error(`no proposal ${name}`);
  return found;
}

const headers = (who: Login) => ({ authorization: `Bearer ${who.access}`, Language: 'en' });

async function submit(title: string, overrides: Record<string, unknown> = {}): Promise<Suggestion> {
  const res = await t.app.inject({
    method: 'POST',
    url: api(`/companies/${acme.companyId}/suggestions`),
    headers: headers(author),
    payload: { title, problem: 'A problem', solution: 'A solution', expectedEffect: 'An effect', departmentId: acme.departments.A, imageIds: [], ...overrides },
  });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: Suggestion }>(res).data;
}

beforeAll(async () => {
  t = await createTestApp({}, undefined, { clock });
  [author, head, headB, ceo, owner, hr, outsider] = await Promise.all([signUpMember(t), signUpMember(t), signUpMember(t), signUpMember(t), signUpMember(t), signUpMember(t), signUpMember(t)]);
  acme = await createCompany(
    t.db,
    'Acme',
    { [author.id]: ['EMPLOYEE'], [head.id]: ['MIDDLE_MANAGER'], [headB.id]: ['MIDDLE_MANAGER'], [ceo.id]: ['CEO'], [owner.id]: ['OWNER'], [hr.id]: ['HR'] },
    { A: head.id, B: headB.id },
  );
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
  await insertGoal(t.db, acme.companyId, goal);
  // Received an hour apart, so each is due an hour after the one before.
  proposals.set('old', await submit('Старый станок: 100% загрузка'));
  clock.advance(HOUR);
  proposals.set('goal', await submit('Goal_linked idea', { goalId: goal }));
  clock.advance(HOUR);
  proposals.set('inB', await submit('In department B', { departmentId: acme.departments.B }));
  clock.advance(HOUR);
  proposals.set('decided', await submit('Decided already'));
  await t.db.query("UPDATE suggestions SET status = 'APPROVED' WHERE id = $1", [p('decided').id]);
  clock.advance(HOUR);
  proposals.set('asked', await submit('Waiting on the author'));
  await t.db.query("UPDATE suggestions SET status = 'CLARIFICATION', clarification_at = $2 WHERE id = $1", [p('asked').id, clock.now()]);
  clock.advance(HOUR);
  proposals.set('fresh', await submit('Fresh one', { problem: 'The problem mentions GOALLINKED in capitals' }));
  // Five days and a half later the first three are overdue; the fresh one too, all open ones in fact: move the
  // fresh one's due date on so that one open proposal is on time.
  clock.advance(5 * DAY);
  await t.db.query('UPDATE suggestions SET due_at = $2 WHERE id = $1', [p('fresh').id, new Date(clock.now().getTime() + DAY)]);
});
afterAll(() => t.close());

function list(who: Login, query: string, companyId = acme.companyId) {
  return t.app.inject({ method: 'GET', url: api(`/companies/${companyId}/suggestions${query}`), headers: headers(who) });
}

async function titles(who: Login, query: string): Promise<string[]> {
  const res = await list(who, query);
  expect(res.statusCode, res.body).toBe(200);
  const page = json<{ data: SuggestionPage }>(res).data;
  expect(SuggestionPage.is(page)).toBe(true);
  return page.items.map((s) => s.title);
}

describe('GET suggestions?scope=review', () => {
  it('lists to a head the open proposals of the departments they head, soonest due first', async () => {
    expect(await titles(head, '?scope=review')).toEqual(['Старый станок: 100% загрузка', 'Goal_linked idea', 'Fresh one']);
    expect(await titles(headB, '?scope=review')).toEqual(['In department B']);
  });

  it('lists every open proposal of the company to the CEO and the owner', async () => {
    const all = ['Старый станок: 100% загрузка', 'Goal_linked idea', 'In department B', 'Fresh one'];
    expect(await titles(ceo, '?scope=review')).toEqual(all);
    expect(await titles(owner, '?scope=review')).toEqual(all);
  });

  it('answers 403 to whoever decides nothing (an employee, HR), 404 to another company', async () => {
    expect((await list(author, '?scope=review')).statusCode).toBe(403);
    expect((await list(hr, '?scope=review')).statusCode).toBe(403);
    expect((await list(outsider, '?scope=review')).statusCode).toBe(404);
    expect((await list(ceo, '?scope=review', rival.companyId)).statusCode).toBe(404);
  });

  it('pages by due date with an exact cursor, and refuses a cursor of the newest-first order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(ceo, `?scope=review&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      const page: SuggestionPage = json<{ data: SuggestionPage }>(res).data;
      seen.push(...page.items.map((s) => s.title));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(await titles(ceo, '?scope=review'));

    const newest = json<{ data: SuggestionPage }>(await list(ceo, '?limit=1')).data.nextCursor;
    expect(newest).not.toBeNull();
    expect((await list(ceo, `?scope=review&cursor=${newest}`)).statusCode).toBe(400);
    const byDue = json<{ data: SuggestionPage }>(await list(ceo, '?scope=review&limit=1')).data.nextCursor;
    expect((await list(ceo, `?cursor=${byDue}`)).statusCode).toBe(400);
  });

  it('pages proposals due at the very same instant without doubles or gaps', async () => {
    const due = new Date(clock.now().getTime() + 3 * DAY);
    await t.db.query("UPDATE suggestions SET due_at = $2 WHERE company_id = $1 AND status = 'UNDER_CONSIDERATION'", [acme.companyId, due]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: SuggestionPage = json<{ data: SuggestionPage }>(await list(ceo, `?scope=review&limit=1${cursor ? `&cursor=${cursor}` : ''}`)).data;
      seen.push(...page.items.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([p('old'), p('goal'), p('inB'), p('fresh')].map((s) => s.id).sort());
    // Back as they were for the other tests.
    for (const s of [p('old'), p('goal'), p('inB')]) await t.db.query('UPDATE suggestions SET due_at = $2 WHERE id = $1', [s.id, s.dueAt]);
    await t.db.query('UPDATE suggestions SET due_at = $2 WHERE id = $1', [p('fresh').id, new Date(clock.now().getTime() + DAY)]);
  });
});

describe('GET suggestions filters', () => {
  it('filters by department and goal', async () => {
    expect(await titles(ceo, `?scope=review&departmentId=${acme.departments.B}`)).toEqual(['In department B']);
    expect(await titles(head, `?scope=review&departmentId=${acme.departments.B}`)).toEqual([]);
    expect(await titles(ceo, `?goalId=${goal.toUpperCase()}`)).toEqual(['Goal_linked idea']);
    expect(await titles(author, `?scope=mine&departmentId=${acme.departments.A}&status=APPROVED`)).toEqual(['Decided already']);
  });

  it('filters overdue (under consideration and past the due date, by the service clock) and on time', async () => {
    expect(await titles(ceo, '?scope=review&overdue=true')).toEqual(['Старый станок: 100% загрузка', 'Goal_linked idea', 'In department B']);
    expect(await titles(ceo, '?scope=review&overdue=false')).toEqual(['Fresh one']);
    // Decided and waiting ones are never overdue.
    expect(await titles(ceo, '?scope=all&overdue=false')).toEqual(['Fresh one', 'Waiting on the author', 'Decided already']);
  });

  it('searches title and problem case-insensitively, taking % and _ literally', async () => {
    expect(await titles(ceo, `?q=${encodeURIComponent('goal_LINKED')}`)).toEqual(['Goal_linked idea']);
    expect(await titles(ceo, `?q=${encodeURIComponent('goallinked')}`)).toEqual(['Fresh one']);
    expect(await titles(ceo, `?q=${encodeURIComponent('100%')}`)).toEqual(['Старый станок: 100% загрузка']);
    expect(await titles(ceo, `?q=${encodeURIComponent('СТАНОК')}`)).toEqual(['Старый станок: 100% загрузка']);
    expect(await titles(ceo, `?q=${encodeURIComponent('%')}`)).toEqual(['Старый станок: 100% загрузка']);
    expect(await titles(ceo, `?q=${encodeURIComponent('_')}`)).toEqual(['Goal_linked idea']);
    expect(await titles(ceo, `?q=${encodeURIComponent('\\')}`)).toEqual([]);
    // Only what the caller may see.
    expect(await titles(headB, `?q=${encodeURIComponent('idea')}`)).toEqual([]);
  });

  it('refuses bad filter values with 400', async () => {
    for (const q of ['?departmentId=nope', '?goalId=1', '?overdue=maybe', `?q=${'x'.repeat(201)}`, '?scope=reviews']) {
      expect((await list(ceo, q)).statusCode, q).toBe(400);
    }
  });
});
