// In-page benchmark of the review list (called by tests/bench/review-list.ts through `window.reviewBench`):
// the app's own SuggestionsPage, from source, over the browser's real IndexedDB holding 50,000 proposals of one
// company. Timings are taken here with performance.now and a MutationObserver; nothing is asserted.
import Dexie from 'dexie';
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import ru from '../../../locales/ru.json';
import type { Suggestion, SuggestionStatus } from '../../../src/domain/suggestion';
import type { CurrentUser } from '../../../src/domain/user';
import { AppStateProvider } from '../../../src/lib/app-state';
import { AppDatabase, getAppDatabase } from '../../../src/lib/db/database';
import type { HttpClient } from '../../../src/lib/http';
import { pullCompany } from '../../../src/lib/sync/pull';
import { filtersFromQuery, listSuggestionIds, loadSuggestionWindow, tabsFor } from '../../../src/features/suggestions/list';
import SuggestionsPage from '../../../src/features/suggestions/pages/suggestions-page';
import { DialogProvider } from '../../../src/ui/dialog';
import { sampleSuggestion } from '../sample';

const ME = '11111111-1111-4111-8111-111111111111';
const COMPANY = '22222222-2222-4222-8222-222222222222';
const DEPARTMENTS = Array.from({ length: 24 }, (_, i) => `33333333-3333-4333-8333-${i.toString(16).padStart(12, '0')}`);
const HEADED = DEPARTMENTS.slice(0, 3);
const WORDS = ['переналадка', 'оснастка', 'стружка', 'ёмкость', 'освещение', 'конвейер', 'пресс', 'смазка', 'упаковка', 'маркировка', 'склад', 'погрузчик', 'безопасность', 'шум', 'вентиляция', 'брак', 'контроль', 'инструмент', 'заготовка', 'сварка'];
const STATUSES: SuggestionStatus[] = ['UNDER_CONSIDERATION', 'UNDER_CONSIDERATION', 'UNDER_CONSIDERATION', 'CLARIFICATION', 'APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'REJECTED', 'REJECTED'];

function proposal(i: number, now: number): Suggestion & { ownerUserId: string } {
  const word = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length] ?? 'слово';
  const receivedAt = new Date(now - ((i * 7919) % (400 * 86_400_000 / 60_000)) * 60_000);
  return {
    ...sampleSuggestion(i, COMPANY, DEPARTMENTS[i % DEPARTMENTS.length] ?? '', i % 50 === 0 ? ME : `author-${i % 400}`),
    title: `${word(0)} ${word(1)}: предложение ${i}`,
    problem: `На участке ${word(2)} и ${word(3)}: теряется время. ${word(4)}.`,
    status: STATUSES[i % STATUSES.length] ?? 'APPROVED',
    receivedAt: receivedAt.toISOString(),
    dueAt: new Date(receivedAt.getTime() + 5 * 86_400_000).toISOString(),
    goalId: null,
    ownerUserId: ME,
  };
}

const user: CurrentUser = {
  id: ME,
  email: 'head@demo.local',
  telephone: null,
  hrInviterData: null,
  department: null,
  company: null,
  fullName: 'Начальников Пётр',
  firstName: 'Пётр',
  lastName: 'Начальников',
  middleName: null,
  position: null,
  otherPosition: null,
  mainGoal: null,
  role: 'MIDDLE_MANAGER',
  email_verified_at: '2026-01-01T00:00:00.000Z',
  active: true,
  username: 'head@demo.local',
  authorities: [],
  emailVerified: true,
  accountNonExpired: true,
  accountNonLocked: true,
  credentialsNonExpired: true,
  enabled: true,
  locale: 'ru',
  companies: [{ id: COMPANY, name: 'Демо Завод', roles: ['MIDDLE_MANAGER'] }],
};

/** Fills the app's database (the one the page reads) with `count` proposals and the departments. */
async function seed(count: number): Promise<{ seedMs: number }> {
  const db = getAppDatabase();
  await db.open();
  await db.suggestions.clear();
  await db.departments.clear();
  await db.departments.bulkPut(
    DEPARTMENTS.map((id, i) => ({ id, companyId: COMPANY, name: `Цех ${i + 1}`, headUserId: HEADED.includes(id) ? ME : null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ownerUserId: ME })),
  );
  const now = Date.now();
  const start = performance.now();
  for (let from = 0; from < count; from += 5000) {
    await db.suggestions.bulkPut(Array.from({ length: Math.min(5000, count - from) }, (_, k) => proposal(from + k, now)));
  }
  return { seedMs: performance.now() - start };
}

/** Resolves with the time when `check` first holds (checked after each DOM change), from `start`. */
function timeUntil(check: () => boolean, start: number, timeoutMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    if (check()) {
      resolve(performance.now() - start);
      return;
    }
    const observer = new MutationObserver(() => {
      if (!check()) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(performance.now() - start);
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error('timed out waiting for the list'));
    }, timeoutMs);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  });
}

const firstRowShown = () => document.querySelector('[data-suggestion-row] .suggestion-row__title') !== null;
const isPending = () => document.querySelector('[data-pending]') !== null;
const countShown = () => document.querySelector<HTMLElement>('[data-count]')?.dataset.count ?? null;

let root: Root | null = null;
let location = memoryLocation({ path: `/companies/${COMPANY}/suggestions` });

function mount(path: string): void {
  location = memoryLocation({ path });
  const container = document.getElementById('root');
  if (!container) throw new Error('no #root');
  root = createRoot(container);
  root.render(
    <IntlProvider locale="ru" messages={ru}>
      <AppStateProvider user={user} config={{ units: [], enums: {}, supportLink: '' }} reloadUser={() => Promise.resolve()}>
        <DialogProvider>
          <Router hook={location.hook}>
            <Route path="/companies/:companyId/suggestions">
              <SuggestionsPage />
            </Route>
          </Router>
        </DialogProvider>
      </AppStateProvider>
    </IntlProvider>,
  );
}

function unmount(): void {
  root?.unmount();
  root = null;
}

/** From mounting the page to its first row with a title, for the list at `query` (several runs). */
async function firstRows(query: string, runs: number): Promise<{ ms: number[]; count: string | null }> {
  const ms: number[] = [];
  let count: string | null = null;
  for (let run = -1; run < runs; run += 1) {
    unmount();
    const start = performance.now();
    mount(`/companies/${COMPANY}/suggestions${query}`);
    const took = await timeUntil(firstRowShown, start);
    count = countShown();
    if (run >= 0) ms.push(took);
  }
  unmount();
  return { ms, count };
}

interface FilterFigures {
  /** To the filtered list's first row on screen (its first screen, read with limited scans). */
  firstRowMs: number[];
  /** To the whole filtered list counted. */
  countedMs: number[];
  count: string | null;
}

/** From a filter change in the URL (what the controls do) to the new first row, and to the new count. */
async function filterRuns(queries: readonly string[], runs: number): Promise<Record<string, FilterFigures>> {
  const base = `/companies/${COMPANY}/suggestions?tab=all`;
  mount(base);
  await timeUntil(() => countShown() === String(TOTAL) && firstRowShown(), performance.now());
  const figures: Record<string, FilterFigures> = {};
  for (const query of queries) figures[query] = { firstRowMs: [], countedMs: [], count: null };
  for (let run = -1; run < runs; run += 1) {
    for (const query of queries) {
      // Back to the unfiltered list first, so each change is a real one.
      location.navigate(base);
      await timeUntil(() => countShown() === String(TOTAL) && firstRowShown(), performance.now());
      const start = performance.now();
      location.navigate(`${base}&${query}`);
      // The old list stays, marked pending, until the new first screen replaces it (uncounted or counted).
      await timeUntil(isPending, start);
      const firstRow = timeUntil(() => !isPending() && (firstRowShown() || countShown() === '0'), start);
      const counted = await timeUntil(() => !isPending() && countShown() !== null && (firstRowShown() || countShown() === '0'), start);
      const entry = figures[query];
      if (entry && run >= 0) {
        entry.firstRowMs.push(await firstRow);
        entry.countedMs.push(counted);
        entry.count = countShown();
      }
    }
  }
  unmount();
  return figures;
}

let TOTAL = 50_000;

/** Scrolls the list from the top by `stepPx` per animation frame for `frames` frames; frame deltas (ms). */
async function scrollRun(query: string, stepPx: number, frames: number): Promise<{ deltas: number[]; blankAtEnd: number }> {
  mount(`/companies/${COMPANY}/suggestions${query}`);
  await timeUntil(firstRowShown, performance.now());
  const box = document.querySelector<HTMLElement>('[data-suggestion-list]');
  if (!box) throw new Error('no list');
  const deltas: number[] = [];
  await new Promise<void>((resolve) => {
    let last = performance.now();
    let left = frames;
    const frame = (at: number) => {
      deltas.push(at - last);
      last = at;
      box.scrollTop += stepPx;
      left -= 1;
      if (left > 0) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame((at) => {
      last = at;
      requestAnimationFrame(frame);
    });
  });
  const blankAtEnd = document.querySelectorAll('.suggestion-row--loading').length;
  unmount();
  return { deltas, blankAtEnd };
}

/**
 * The pull of `rows` proposals through src/lib/sync into the app's database, with the search-word middleware
 * and without it (Dexie's unuse), alternating, so the middleware's cost shows beside the pull's own.
 */
async function pullCost(rowCount: number, runs: number): Promise<{ withWordsMs: number[]; withoutWordsMs: number[] }> {
  const rows = Array.from({ length: rowCount }, (_, i) => proposal(i, Date.now()));
  const http: Pick<HttpClient, 'get'> = {
    get: <T,>(_url: string, params?: Record<string, string | number | boolean | undefined>) => {
      const start = Number(params?.cursor ?? 0);
      const slice = rows.slice(start, start + Number(params?.limit ?? 500));
      const end = start + slice.length;
      const changes = slice.map((row, i) => ({ seq: String(start + i + 1), table: 'suggestions', op: 'upsert', id: row.id, row: { ...row, ownerUserId: undefined } }));
      return Promise.resolve(JSON.parse(JSON.stringify({ data: { changes, nextCursor: String(end), hasMore: end < rows.length, reset: false } })) as T);
    },
  };
  const withWordsMs: number[] = [];
  const withoutWordsMs: number[] = [];
  for (let run = -1; run < runs; run += 1) {
    for (const withWords of [true, false]) {
      const db = new AppDatabase(`bench-review-pull-${run}-${withWords}`);
      if (!withWords) db.unuse({ stack: 'dbcore', name: 'suggestionSearchWords' });
      const start = performance.now();
      await pullCompany({ db, http, ownerUserId: ME, companyId: COMPANY });
      const took = performance.now() - start;
      const sample = await db.suggestions.get([ME, rows[0]?.id ?? '']);
      if ((await db.suggestions.count()) !== rowCount || (sample?.searchWords !== undefined) !== withWords) throw new Error('the pull did not store the rows as expected');
      db.close();
      await db.delete();
      if (run >= 0) (withWords ? withWordsMs : withoutWordsMs).push(took);
    }
  }
  return { withWordsMs, withoutWordsMs };
}

/** The list's query alone (list.ts, no React): ids for `query`, then the first window's rows. */
async function queryRuns(query: string, runs: number, limit?: number): Promise<{ idsMs: number[]; windowMs: number[]; count: number }> {
  const db = getAppDatabase();
  const member = { userId: ME, roles: ['MIDDLE_MANAGER'], headOfDepartmentIds: HEADED };
  const filters = filtersFromQuery(query, tabsFor(member));
  const idsMs: number[] = [];
  const windowMs: number[] = [];
  let count = 0;
  for (let run = -1; run < runs; run += 1) {
    let start = performance.now();
    const ids = await listSuggestionIds({ db, member, companyId: COMPANY, now: new Date() }, filters, limit);
    const took = performance.now() - start;
    start = performance.now();
    await loadSuggestionWindow(db, ME, COMPANY, ids.slice(0, 80));
    if (run >= 0) {
      idsMs.push(took);
      windowMs.push(performance.now() - start);
    }
    count = ids.length;
  }
  return { idsMs, windowMs, count };
}

/** Single index scans (Dexie primaryKeys, and plain IndexedDB getAllKeys), to show where a query's time goes. */
async function rawScans(runs: number): Promise<Record<string, { ms: number[]; keys: number }>> {
  const db = getAppDatabase();
  const out: Record<string, { ms: number[]; keys: number }> = {};
  const time = async (name: string, scan: () => Promise<readonly unknown[]>) => {
    const start = performance.now();
    const keys = await scan();
    const entry = (out[name] ??= { ms: [], keys: 0 });
    entry.ms.push(performance.now() - start);
    entry.keys = keys.length;
  };
  const department = DEPARTMENTS[5] ?? '';
  for (let run = 0; run < runs; run += 1) {
    await time('department', () => db.suggestions.where('[ownerUserId+companyId+departmentId+dueAt]').between([ME, COMPANY, department, Dexie.minKey], [ME, COMPANY, department, Dexie.maxKey]).primaryKeys());
    await time('underConsideration', () => db.suggestions.where('[ownerUserId+companyId+status+dueAt]').between([ME, COMPANY, 'UNDER_CONSIDERATION', Dexie.minKey], [ME, COMPANY, 'UNDER_CONSIDERATION', Dexie.maxKey]).primaryKeys());
    await time('dueAll', () => db.suggestions.where('[ownerUserId+companyId+dueAt]').between([ME, COMPANY, Dexie.minKey], [ME, COMPANY, Dexie.maxKey]).primaryKeys());
    await time('wordPrefix', () => db.suggestions.where('searchWords').startsWith('перенал').primaryKeys());
    await time('wordPrefixCount', async () => [await db.suggestions.where('searchWords').startsWith('перенал').count()]);
    await time('twoWordsSequential', async () => [...(await db.suggestions.where('searchWords').startsWith('емкость').primaryKeys()), ...(await db.suggestions.where('searchWords').startsWith('шум').primaryKeys())]);
    await time('twoWordsParallel', async () => (await Promise.all(['емкость', 'шум'].map((word) => db.suggestions.where('searchWords').startsWith(word).primaryKeys()))).flat());
    await time('rows300', async () => db.suggestions.bulkGet((await db.suggestions.where('[ownerUserId+companyId+status+dueAt]').between([ME, COMPANY, 'UNDER_CONSIDERATION', Dexie.minKey], [ME, COMPANY, 'UNDER_CONSIDERATION', Dexie.maxKey]).limit(300).primaryKeys())));
    await time('plainIdbUnderConsideration', () =>
      new Promise<unknown[]>((resolve, reject) => {
        const request = db.backendDB().transaction('suggestions').objectStore('suggestions').index('[ownerUserId+companyId+status+dueAt]').getAllKeys(IDBKeyRange.bound([ME, COMPANY, 'UNDER_CONSIDERATION'], [ME, COMPANY, 'UNDER_CONSIDERATION', []]));
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error('getAllKeys failed'));
      }),
    );
  }
  return out;
}

/** Mounts the page at `query` and leaves it on screen (to look at it, e.g. at 360 px). */
async function show(query: string): Promise<void> {
  unmount();
  mount(`/companies/${COMPANY}/suggestions${query}`);
  await timeUntil(firstRowShown, performance.now());
}

async function prepare(count: number) {
  TOTAL = count;
  return seed(count);
}

declare global {
  interface Window {
    reviewBench: { prepare: typeof prepare; show: typeof show; queryRuns: typeof queryRuns; rawScans: typeof rawScans; firstRows: typeof firstRows; filterRuns: typeof filterRuns; scrollRun: typeof scrollRun; pullCost: typeof pullCost };
  }
}

window.reviewBench = { prepare, show, queryRuns, rawScans, firstRows, filterRuns, scrollRun, pullCost };
const state = document.getElementById('state');
if (state) state.textContent = 'ready';
