import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemberView } from '../../domain/permissions';
import type { Suggestion } from '../../domain/suggestion';
import { AppDatabase } from '../../lib/db/database';
import { entityKeyOf } from '../../lib/outbox/outbox';
import { NO_FILTERS, filtersFromQuery, hasSuggestionsOfGoal, listSuggestionIds, loadSuggestionWindow, mayReviewAny, queryFromFilters, tabsFor, type ListFilters } from './list';

const ME = 'u-head';
const NOW = new Date('2026-03-10T12:00:00.000Z');
const day = (n: number) => new Date(NOW.getTime() + n * 86_400_000).toISOString();

function proposal(id: string, fields: Partial<Suggestion> = {}): Suggestion & { ownerUserId: string } {
  return {
    id,
    companyId: 'c1',
    title: `Proposal ${id}`,
    problem: 'Nothing special',
    solution: 's',
    expectedEffect: 'e',
    effectEstimate: null,
    departmentId: 'd-cast',
    goalId: null,
    images: [],
    authorId: 'u-author',
    authorName: 'Иванов Иван',
    status: 'UNDER_CONSIDERATION',
    dueAt: day(1),
    submittedAt: day(-4),
    receivedAt: day(-4),
    reviewComment: null,
    history: [],
    createdAt: day(-4),
    updatedAt: day(-4),
    ownerUserId: ME,
    ...fields,
  };
}

const head: MemberView = { userId: ME, roles: ['MIDDLE_MANAGER'], headOfDepartmentIds: ['d-cast'] };
const ceo: MemberView = { userId: ME, roles: ['CEO'], headOfDepartmentIds: [] };
const employee: MemberView = { userId: ME, roles: ['EMPLOYEE'], headOfDepartmentIds: [] };

let db: AppDatabase;
beforeEach(async () => {
  db = new AppDatabase(`list-test-${Math.random()}`);
  await db.open();
});
afterEach(async () => {
  db.close();
  await db.delete();
});

const all: ListFilters = { ...NO_FILTERS, tab: 'all' };
const list = (filters: Partial<ListFilters>, member: MemberView = head) => listSuggestionIds({ db, member, companyId: 'c1', now: NOW }, { ...all, ...filters });

async function seed(rows: (Suggestion & { ownerUserId: string })[]) {
  await db.suggestions.bulkPut(rows);
}

describe('the review list order', () => {
  it('puts proposals under consideration first by due date, then those waiting on the author, then decided ones latest first', async () => {
    await seed([
      proposal('late', { dueAt: day(3) }),
      proposal('approved-old', { status: 'APPROVED', dueAt: day(-20) }),
      proposal('overdue', { dueAt: day(-2) }),
      proposal('waiting', { status: 'CLARIFICATION', dueAt: day(2) }),
      proposal('rejected-new', { status: 'REJECTED', dueAt: day(-1) }),
      proposal('soon', { dueAt: day(1) }),
    ]);
    expect(await list({})).toEqual(['overdue', 'soon', 'late', 'waiting', 'rejected-new', 'approved-old']);
    // The first screen alone, read with limited scans, is the same list's beginning.
    for (const limit of [1, 2, 3, 4, 5, 6, 10]) {
      expect(await listSuggestionIds({ db, member: head, companyId: 'c1', now: NOW }, all, limit)).toEqual(['overdue', 'soon', 'late', 'waiting', 'rejected-new', 'approved-old'].slice(0, limit));
    }
  });

  it('lists only the signed-in user’s rows of that company', async () => {
    await seed([proposal('mine'), proposal('other-company', { companyId: 'c2' }), { ...proposal('other-user'), ownerUserId: 'u-else' }]);
    expect(await list({})).toEqual(['mine']);
    expect(await list({ query: 'proposal' })).toEqual(['mine']);
  });
});

describe('the review list filters', () => {
  beforeEach(async () => {
    await seed([
      proposal('cast-open', { dueAt: day(2), goalId: 'g1', title: 'Быстрая переналадка', problem: 'Переналадка пресса занимает 40 минут' }),
      proposal('cast-overdue', { dueAt: day(-3), title: 'Ёмкость для стружки', problem: 'Стружка на полу' }),
      proposal('cast-approved', { status: 'APPROVED', dueAt: day(-5), goalId: 'g1', title: 'Shorter changeover', problem: 'Die change takes forty minutes' }),
      proposal('paint-open', { departmentId: 'd-paint', dueAt: day(1), goalId: 'g1', title: 'Paint booth lights', problem: 'Dark corners' }),
      proposal('paint-clarify', { departmentId: 'd-paint', status: 'CLARIFICATION', dueAt: day(-1), title: 'Краска', problem: 'Пересохшая ЕМКОСТЬ' }),
      proposal('mine-open', { authorId: ME, departmentId: 'd-paint', dueAt: day(4), title: 'My own idea', problem: 'Changeover again' }),
    ]);
  });

  it('by status, ordered by due date (decided ones latest first)', async () => {
    expect(await list({ status: 'UNDER_CONSIDERATION' })).toEqual(['cast-overdue', 'paint-open', 'cast-open', 'mine-open']);
    expect(await list({ status: 'CLARIFICATION' })).toEqual(['paint-clarify']);
    expect(await list({ status: 'APPROVED' })).toEqual(['cast-approved']);
    expect(await list({ status: 'REJECTED' })).toEqual([]);
  });

  it('by department and by goal', async () => {
    expect(await list({ departmentId: 'd-cast' })).toEqual(['cast-overdue', 'cast-open', 'cast-approved']);
    expect(await list({ goalId: 'g1' })).toEqual(['paint-open', 'cast-open', 'cast-approved']);
    expect(await list({ departmentId: 'd-cast', goalId: 'g1' })).toEqual(['cast-open', 'cast-approved']);
    expect(await list({ departmentId: 'd-none' })).toEqual([]);
  });

  it('overdue only: under consideration and past the due date', async () => {
    expect(await list({ isOverdueOnly: true })).toEqual(['cast-overdue']);
    expect(await list({ isOverdueOnly: true, departmentId: 'd-paint' })).toEqual([]);
    expect(await list({ isOverdueOnly: true, status: 'APPROVED' })).toEqual([]);
  });

  it('search: word prefixes of title and problem, any case, ё as е, Russian and English', async () => {
    expect(await list({ query: 'переналад' })).toEqual(['cast-open']);
    expect(await list({ query: 'ПЕРЕНАЛАДКА пресс' })).toEqual(['cast-open']);
    expect(await list({ query: 'емкость' })).toEqual(['cast-overdue', 'paint-clarify']);
    expect(await list({ query: 'Ёмк' })).toEqual(['cast-overdue', 'paint-clarify']);
    expect(await list({ query: 'change' })).toEqual(['mine-open', 'cast-approved']);
    expect(await list({ query: 'CHANGEOVER forty' })).toEqual(['cast-approved']);
    expect(await list({ query: 'hangeover' })).toEqual([]);
    expect(await list({ query: '  ,, ' })).toEqual(['cast-overdue', 'paint-open', 'cast-open', 'mine-open', 'paint-clarify', 'cast-approved']);
  });

  it('gives the same first ids with a limit as without, whatever the filters', async () => {
    const cases: Partial<ListFilters>[] = [{}, { tab: 'company' }, { tab: 'review' }, { status: 'APPROVED' }, { departmentId: 'd-paint' }, { query: 'change' }, { isOverdueOnly: true }];
    for (const filters of cases) {
      const whole = await list(filters);
      for (const limit of [1, 2, 3]) {
        expect(await listSuggestionIds({ db, member: head, companyId: 'c1', now: NOW }, { ...all, ...filters }, limit)).toEqual(whole.slice(0, limit));
      }
    }
  });

  it('combines every filter', async () => {
    expect(await list({ query: 'change', status: 'APPROVED', departmentId: 'd-cast', goalId: 'g1' })).toEqual(['cast-approved']);
    expect(await list({ query: 'change', status: 'UNDER_CONSIDERATION', departmentId: 'd-cast' })).toEqual([]);
  });

  it('"To review": a head sees what waits on them in the departments they head', async () => {
    expect(await list({ tab: 'review' })).toEqual(['cast-overdue', 'cast-open']);
    expect(await list({ tab: 'review', status: 'APPROVED' })).toEqual([]);
    expect(await list({ tab: 'review', query: 'стружк' })).toEqual(['cast-overdue']);
  });

  it('"To review": the CEO sees every proposal under consideration', async () => {
    expect(await list({ tab: 'review' }, ceo)).toEqual(['cast-overdue', 'paint-open', 'cast-open', 'mine-open']);
    expect(await list({ tab: 'review', departmentId: 'd-paint' }, ceo)).toEqual(['paint-open', 'mine-open']);
  });

  it('"Company" leaves out the user’s own proposals, "All" keeps them', async () => {
    expect(await list({ tab: 'company' })).not.toContain('mine-open');
    expect(await list({ tab: 'company' })).toHaveLength(5);
    expect(await list({ tab: 'all' })).toContain('mine-open');
  });

  it('knows which goals have proposals', async () => {
    expect(await hasSuggestionsOfGoal(db, ME, 'c1', 'g1')).toBe(true);
    expect(await hasSuggestionsOfGoal(db, ME, 'c1', 'g2')).toBe(false);
    expect(await hasSuggestionsOfGoal(db, ME, 'c2', 'g1')).toBe(false);
  });
});

describe('the first screen of a long list', () => {
  it('is the beginning of the whole list, also with hundreds of proposals due at the same moment', async () => {
    const statuses = ['UNDER_CONSIDERATION', 'CLARIFICATION', 'APPROVED', 'REJECTED'] as const;
    const rows = Array.from({ length: 1200 }, (_, i) =>
      proposal(`p${String(i).padStart(4, '0')}`, {
        status: statuses[i % 4],
        // Few distinct due dates: more than a chunk of keys (50 here) share each one.
        dueAt: day((i % 2) - 1),
        departmentId: i % 5 === 0 ? 'd-paint' : 'd-cast',
        authorId: i % 7 === 0 ? ME : 'u-author',
      }),
    );
    await seed(rows);
    const cases: Partial<ListFilters>[] = [{}, { status: 'APPROVED' }, { departmentId: 'd-paint' }, { tab: 'company' }, { tab: 'company', isOverdueOnly: true }, { departmentId: 'd-paint', status: 'REJECTED' }, { tab: 'review' }];
    for (const filters of cases) {
      const whole = await list(filters);
      for (const limit of [1, 49, 51, 130, 700]) {
        expect(await listSuggestionIds({ db, member: head, companyId: 'c1', now: NOW, keyChunk: 50 }, { ...all, ...filters }, limit)).toEqual(whole.slice(0, limit));
      }
    }
  });
});

describe('the tabs', () => {
  it('gives "To review" only to whoever may decide something', () => {
    expect(tabsFor(head)).toEqual(['review', 'company', 'all']);
    expect(tabsFor(ceo)).toEqual(['review', 'company', 'all']);
    expect(tabsFor({ ...ceo, roles: ['OWNER'] })).toEqual(['review', 'company', 'all']);
    expect(tabsFor(employee)).toEqual(['company', 'all']);
    expect(tabsFor({ ...employee, roles: ['HR'] })).toEqual(['company', 'all']);
    expect(mayReviewAny(employee)).toBe(false);
  });
});

describe('filters in the URL', () => {
  const tabs = tabsFor(head);

  it('round-trip through the query', () => {
    const filters: ListFilters = { tab: 'company', status: 'APPROVED', departmentId: 'd-cast', goalId: 'g1', isOverdueOnly: true, query: 'смена ёмкости' };
    expect(filtersFromQuery(queryFromFilters(filters, tabs), tabs)).toEqual(filters);
    expect(queryFromFilters({ ...NO_FILTERS, tab: 'review' }, tabs)).toBe('');
  });

  it('ignore what they do not know, and a tab the user does not get', () => {
    expect(filtersFromQuery('?tab=review&status=BOGUS&overdue=yes&department=', tabsFor(employee))).toEqual({ ...NO_FILTERS, tab: 'company' });
    expect(filtersFromQuery('', tabs).tab).toBe('review');
    expect(filtersFromQuery('?status=APPROVED', tabs)).toEqual({ ...NO_FILTERS, tab: 'review' });
  });
});

describe('the rows on screen', () => {
  it('reads only the asked rows, checked, with the unsent mark', async () => {
    await seed([proposal('a'), proposal('b'), proposal('c', { companyId: 'c2' }), { ...proposal('broken'), title: 42 } as unknown as Suggestion & { ownerUserId: string }]);
    const at = Date.now();
    await db.outbox.add({
      id: 'k1',
      ownerUserId: ME,
      kind: 'suggestion.review',
      method: 'POST',
      path: '/x',
      body: {},
      fileIds: [],
      entityKey: entityKeyOf('suggestions', 'b'),
      status: 'conflict',
      attempts: 1,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: at,
      updatedAt: at,
    });
    const rows = await loadSuggestionWindow(db, ME, 'c1', ['b', 'a', 'c', 'broken', 'gone']);
    expect([...rows.keys()].sort()).toEqual(['a', 'b']);
    expect(rows.get('a')?.unsent).toBeNull();
    expect(rows.get('b')?.unsent).toBe('conflict');
    expect(rows.get('b')?.suggestion.title).toBe('Proposal b');
  });
});


describe('the first screen with departments and common search words', () => {
  const words = ['press', 'chip', 'light', 'noise'];
  beforeEach(async () => {
    const statuses = ['UNDER_CONSIDERATION', 'CLARIFICATION', 'APPROVED', 'REJECTED', 'UNDER_CONSIDERATION'] as const;
    await seed(
      Array.from({ length: 600 }, (_, i) =>
        proposal(`q${String(i).padStart(4, '0')}`, {
          status: statuses[i % 5],
          dueAt: day((i % 13) - 6),
          departmentId: ['d-cast', 'd-paint', 'd-weld'][i % 3],
          authorId: i % 7 === 0 ? ME : 'u-author',
          // "press" and "chip" are common but together only in the rows divisible by 97; "noise" is in 2 rows.
          title: `${words[i % 2]} ${i % 97 === 0 ? 'chip press' : ''} ${i === 5 || i === 300 ? 'noise' : ''}`,
          problem: i % 3 === 0 ? 'Light is dim' : 'Nothing',
        }),
      ),
    );
  });
  const headOfTwo: MemberView = { userId: ME, roles: ['MIDDLE_MANAGER'], headOfDepartmentIds: ['d-cast', 'd-weld'] };

  it('gives the beginning of the whole list, whichever way it is read', async () => {
    const cases: Partial<ListFilters>[] = [
      { tab: 'review' },
      { tab: 'review', departmentId: 'd-weld' },
      { departmentId: 'd-paint' },
      { departmentId: 'd-paint', tab: 'company', isOverdueOnly: true },
      { query: 'press' },
      { query: 'pres lig' },
      { query: 'chip press' },
      { query: 'press', departmentId: 'd-cast', status: 'APPROVED' },
      { query: 'light', tab: 'company' },
      { query: 'noise press' },
      { tab: 'review', query: 'chip' },
    ];
    for (const member of [head, headOfTwo, ceo]) {
      for (const filters of cases) {
        const whole = await list(filters, member);
        for (const limit of [1, 7, 60, 250]) {
          for (const tuning of [{}, { keyChunk: 25, wordKeysMax: 5, rowBudget: 40 }, { keyChunk: 10, wordKeysMax: 0, rowBudget: 2000 }]) {
            const first = await listSuggestionIds({ db, member, companyId: 'c1', now: NOW, ...tuning }, { ...all, ...filters }, limit);
            expect(first, JSON.stringify({ member, filters, limit, tuning })).toEqual(whole.slice(0, limit));
          }
        }
      }
    }
    // Many full reads of fake-indexeddb: seconds on a busy machine, well past the default 5 s.
  }, 60_000);

  it('merges the departments a head heads by due date on "To review", and keeps to them', async () => {
    const review = await list({ tab: 'review' }, headOfTwo);
    const rows = await db.suggestions.bulkGet(review.map((id): [string, string] => [ME, id]));
    expect(rows.every((row) => row?.status === 'UNDER_CONSIDERATION' && row.departmentId !== 'd-paint')).toBe(true);
    expect(rows.map((row) => row?.dueAt)).toEqual(rows.map((row) => row?.dueAt).sort());
    expect(review).toHaveLength(160);
    expect(await list({ tab: 'review', departmentId: 'd-paint' }, headOfTwo)).toEqual([]);
  });

  it('finds what rare words together match, and nothing at once for a word no proposal has', async () => {
    expect(await list({ query: 'noise' })).toEqual(['q0300', 'q0005']);
    expect(await list({ query: 'press zebra' })).toEqual([]);
    expect(await listSuggestionIds({ db, member: head, companyId: 'c1', now: NOW, wordKeysMax: 5, rowBudget: 40 }, { ...all, query: 'press zebra' }, 60)).toEqual([]);
    const together = await listSuggestionIds({ db, member: head, companyId: 'c1', now: NOW, wordKeysMax: 5, rowBudget: 40 }, { ...all, query: 'chip press' }, 60);
    expect([...together].sort()).toEqual(['q0000', 'q0097', 'q0194', 'q0291', 'q0388', 'q0485', 'q0582']);
    // More than a few hundred match: after the rows' budget the walk goes on with the word's key set.
    const many = await list({ query: 'press' });
    expect(many.length).toBeGreaterThan(300);
    expect(await listSuggestionIds({ db, member: head, companyId: 'c1', now: NOW, keyChunk: 20, wordKeysMax: 5, rowBudget: 40 }, { ...all, query: 'press' }, 250)).toEqual(many.slice(0, 250));
  });
});
