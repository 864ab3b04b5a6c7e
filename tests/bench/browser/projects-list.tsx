// In-page benchmark of the projects list (called by tests/bench/projects-list.ts through `window.projectsBench`):
// the app's own ProjectsPage, from source, over the browser's real IndexedDB holding 5,000 projects of one
// company. Timings are taken here with performance.now and a MutationObserver; nothing is asserted.
import { createRoot, type Root } from 'react-dom/client';
import { IntlProvider } from 'react-intl';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import ru from '../../../locales/ru.json';
import { PROJECT_FILTER_STATUSES, PROJECT_STATUSES, type ProjectListFilter } from '../../../src/domain/project';
import type { CurrentUser } from '../../../src/domain/user';
import { AppStateProvider } from '../../../src/lib/app-state';
import { getAppDatabase } from '../../../src/lib/db/database';
import { listProjectIds, loadProjectWindow } from '../../../src/features/projects/list';
import ProjectsPage from '../../../src/features/projects/pages/projects-page';
import { DialogProvider } from '../../../src/ui/dialog';
import { projectRow } from '../../fixtures/rows';

const ME = '11111111-1111-4111-8111-111111111111';
const COMPANY = '22222222-2222-4222-8222-222222222222';
const EMPLOYEES = Array.from({ length: 50 }, (_, i) => `44444444-4444-4444-8444-${i.toString(16).padStart(12, '0')}`);
const WORDS = ['Переналадка', 'Оснастка', 'Освещение', 'Конвейер', 'Пресс', 'Смазка', 'Упаковка', 'Маркировка', 'Склад', 'Сварка'];

const user: CurrentUser = {
  id: ME,
  email: 'direction@demo.local',
  telephone: null,
  hrInviterData: null,
  department: null,
  company: null,
  fullName: 'Направленцев Олег',
  firstName: 'Олег',
  lastName: 'Направленцев',
  middleName: null,
  position: null,
  otherPosition: null,
  mainGoal: null,
  role: 'TOP_MANAGER',
  email_verified_at: '2026-01-01T00:00:00.000Z',
  active: true,
  username: 'direction@demo.local',
  authorities: [],
  emailVerified: true,
  accountNonExpired: true,
  accountNonLocked: true,
  credentialsNonExpired: true,
  enabled: true,
  locale: 'ru',
  companies: [{ id: COMPANY, name: 'Демо Завод', roles: ['DIRECTION_MANAGER'] }],
};

let TOTAL = 5000;

/** Fills the app's database (the one the page reads) with `count` projects spread over every status. */
async function prepare(count: number): Promise<{ seedMs: number }> {
  TOTAL = count;
  const db = getAppDatabase();
  await db.open();
  await db.projects.clear();
  await db.employees.clear();
  await db.employees.bulkPut(
    EMPLOYEES.map((id, i) => ({
      id,
      companyId: COMPANY,
      userId: null,
      lastName: `Сотрудник${i}`,
      firstName: 'Иван',
      middleName: null,
      position: null,
      email: null,
      serviceNumber: String(1000 + i),
      departmentId: null,
      roles: ['EMPLOYEE'],
      active: true,
      imported: false,
      invitedAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      ownerUserId: ME,
    })),
  );
  const start = performance.now();
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  for (let from = 0; from < count; from += 1000) {
    await db.projects.bulkPut(
      Array.from({ length: Math.min(1000, count - from) }, (_, k) => {
        const i = from + k;
        const status = PROJECT_STATUSES[(i * 7) % PROJECT_STATUSES.length] ?? 'NEW';
        const calculated = status !== 'NEW' && status !== 'CALCULATING';
        const updatedAt = new Date(base + ((i * 7919) % (300 * 24 * 60)) * 60_000).toISOString();
        return {
          ...projectRow(`55555555-5555-4555-8555-${i.toString(16).padStart(12, '0')}`, {
            companyId: COMPANY,
            name: `${WORDS[i % WORDS.length] ?? 'Проект'}: проект ${i}`,
            status,
            projectManagerEmployeeId: EMPLOYEES[i % EMPLOYEES.length] ?? '',
            expectedEffect12mMinor: calculated ? 10_000_000 + i * 100 : null,
            estimatedCostsMinor: calculated ? 2_000_000 : null,
            remunerationMinor: calculated ? 1_000_000 + i * 10 : null,
            actualCompletionDate: status === 'COMPLETED' ? '2026-10-01' : null,
            updatedAt,
          }),
          ownerUserId: ME,
        };
      }),
    );
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
      reject(new Error(`timed out waiting for the list; on screen: ${document.body.innerText.slice(0, 300)}`));
    }, timeoutMs);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  });
}

const firstRowShown = () => document.querySelector('[data-project-row] .project-row__title') !== null;
const isPending = () => document.querySelector('[data-pending]') !== null;
const countShown = () => document.querySelector<HTMLElement>('[data-count]')?.dataset.count ?? null;

let root: Root | null = null;
let location = memoryLocation({ path: `/companies/${COMPANY}/projects` });

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
            <Route path="/companies/:companyId/projects">
              <ProjectsPage />
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

/** From mounting the page to its first row with a name, for the list at `query` (several runs). */
async function firstRows(query: string, runs: number): Promise<{ ms: number[]; count: string | null }> {
  const ms: number[] = [];
  let count: string | null = null;
  for (let run = -1; run < runs; run += 1) {
    unmount();
    const start = performance.now();
    mount(`/companies/${COMPANY}/projects${query}`);
    const took = await timeUntil(firstRowShown, start);
    // The first rows come with the first screen only; the count (not timed here) once the whole list is read.
    await timeUntil(() => countShown() !== null, start);
    count = countShown();
    if (run >= 0) ms.push(took);
  }
  unmount();
  return { ms, count };
}

interface FilterFigures {
  firstRowMs: number[];
  countedMs: number[];
  count: string | null;
}

/** From a filter change in the URL (what the filter chips do) to the new first row, and to the new count. */
async function filterRuns(filters: readonly ProjectListFilter[], runs: number): Promise<Record<string, FilterFigures>> {
  const base = `/companies/${COMPANY}/projects`;
  mount(base);
  await timeUntil(() => countShown() === String(TOTAL) && firstRowShown(), performance.now());
  const figures: Record<string, FilterFigures> = {};
  for (const filter of filters) figures[filter] = { firstRowMs: [], countedMs: [], count: null };
  for (let run = -1; run < runs; run += 1) {
    for (const filter of filters) {
      location.navigate(base);
      await timeUntil(() => countShown() === String(TOTAL) && firstRowShown(), performance.now());
      const start = performance.now();
      location.navigate(`${base}?filter=${filter}`);
      // The last list stays, marked pending, until the new filter's first screen replaces it. Its first row may be
      // the very same project (the latest one of "all" can be of this filter), so a new row id proves nothing: done
      // when the pending mark is gone and a first row of one of the filter's statuses shows, then its count.
      await timeUntil(isPending, start);
      const statuses: readonly string[] = PROJECT_FILTER_STATUSES[filter];
      const firstRowOfFilter = () => statuses.includes(document.querySelector('[data-project-row]')?.getAttribute('data-status') ?? '');
      const firstRow = timeUntil(() => !isPending() && firstRowShown() && firstRowOfFilter(), start);
      // Settled here if the count below fails first, so it is never an unhandled rejection.
      firstRow.catch(() => undefined);
      const counted = await timeUntil(() => !isPending() && countShown() !== null && countShown() !== String(TOTAL), start);
      const entry = figures[filter];
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

/** The list's query alone (list.ts, no React): ids of a filter (the first screen, or all), then 80 rows. */
async function queryRuns(filter: ProjectListFilter, runs: number, limit?: number): Promise<{ idsMs: number[]; windowMs: number[]; count: number }> {
  const db = getAppDatabase();
  const idsMs: number[] = [];
  const windowMs: number[] = [];
  let count = 0;
  for (let run = -1; run < runs; run += 1) {
    let start = performance.now();
    const ids = await listProjectIds({ db, ownerUserId: ME, companyId: COMPANY }, filter, limit);
    const took = performance.now() - start;
    start = performance.now();
    await loadProjectWindow(db, ME, COMPANY, ids.slice(0, 80));
    if (run >= 0) {
      idsMs.push(took);
      windowMs.push(performance.now() - start);
    }
    count = ids.length;
  }
  return { idsMs, windowMs, count };
}

declare global {
  interface Window {
    projectsBench: { prepare: typeof prepare; firstRows: typeof firstRows; filterRuns: typeof filterRuns; queryRuns: typeof queryRuns };
  }
}

window.projectsBench = { prepare, firstRows, filterRuns, queryRuns };
const state = document.getElementById('state');
if (state) state.textContent = 'ready';
