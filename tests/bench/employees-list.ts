// The employees list with 10,000 people, in Debian's Chromium against the real main-service (issue 5):
// the demo company is filled up to 10,000 employees through the import API (one CSV upload), the demo owner
// signs in, and the built app's employees page (/companies/{id}/employees, read from the device's mirror) is
// measured:
// - time to first rows: from the navigation's start (performance.timeOrigin) to the first row in the page,
//   seen by a MutationObserver installed before any script runs;
//     cold  a new browser profile: the session loads, the first pull brings the company, the first rows show
//           as soon as the first pages of employees are stored (the pull goes on behind them);
//     warm  a reload once the mirror holds all 10,000;
//     in-app  a click on the header's link from the dashboard (no page load), to the first row;
// - scrolling frame time: the list's scroll box is scrolled programmatically from top to bottom, a fixed step
//   per animation frame, and the deltas between animation frames are collected (median and p95, and the share
//   of frames over 20 ms and 40 ms, i.e. one or two 60 Hz frames missed);
// - search: from typing a surname into the search field to the filtered count shown (includes the 200 ms
//   debounce of the field).
// Each figure is taken in several runs and reported with its median. Timings are never asserted.
// Run: npm run build && node --import tsx tests/bench/employees-list.ts [--people=10000] [--runs=3] [--step=1000]
import { cpus } from 'node:os';
import type { Page } from 'playwright-core';
import { paths } from '../../src/domain/paths';
import { waitForRoute } from '../e2e/support/app';
import { launchBrowser } from '../e2e/support/browser';
import { startServer, type RunningServer } from '../e2e/support/server';
import { waitUntil } from '../e2e/support/wait';
import { median, percentile, report, round } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const PEOPLE = arg('people', 10_000);
const RUNS = arg('runs', 3);
/** Pixels scrolled per animation frame: about 15 rows (68 px each) enter the window every frame. */
const STEP_PX = arg('step', 1000);
const OWNER = { email: 'owner@demo.local', password: 'demo1234' };

const log = (message: string) => process.stderr.write(`${message}\n`);

async function api<T>(server: RunningServer, method: string, path: string, token: string, body?: BodyInit): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}/main-service/api/v1${path}`, {
    method,
    headers: { Accept: 'application/json', Language: 'en', Authorization: `Bearer ${token}`, ...(typeof body === 'string' ? { 'Content-Type': 'application/json' } : {}) },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

const SURNAMES = ['Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Новиков', 'Фёдоров', 'Морозов', 'Волков', 'Алексеев', 'Лебедев', 'Семёнов', 'Егоров', 'Павлов', 'Козлов', 'Степанов', 'Николаев'];
const NAMES = ['Александр', 'Дмитрий', 'Максим', 'Сергей', 'Андрей', 'Алексей', 'Артём', 'Илья', 'Кирилл', 'Михаил'];
const POSITIONS = ['Оператор станка с ЧПУ', 'Слесарь-ремонтник', 'Наладчик оборудования', 'Контролёр ОТК', 'Кладовщик', 'Мастер участка', 'Инженер-технолог', 'Водитель погрузчика'];

/** A CSV (semicolons, as Excel saves it in Russia) of `count` employees with unique service numbers and e-mails. */
function staffCsv(count: number): string {
  const lines = ['Фамилия;Имя;Отчество;Должность;E-mail;Таб. №;Подразделение'];
  for (let i = 0; i < count; i += 1) {
    const surname = SURNAMES[i % SURNAMES.length] ?? 'Иванов';
    const name = NAMES[Math.floor(i / SURNAMES.length) % NAMES.length] ?? 'Иван';
    lines.push([`${surname}-${i}`, name, 'Иванович', POSITIONS[i % POSITIONS.length], `bench.${i}@example.com`, `B-${100_000 + i}`, `Участок ${(i % 40) + 1}`].join(';'));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Fills the demo company up to PEOPLE employees through `POST .../employees/import`. */
async function seed(server: RunningServer): Promise<{ companyId: string; total: number; importMs: number }> {
  const login = await fetch(`${server.url}/main-service/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(OWNER),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const me = await api<{ data: { companies: { id: string }[] } }>(server, 'GET', '/user', token);
  const companyId = me.body.data.companies[0]?.id;
  if (!companyId) throw new Error('the demo owner has no company');
  const before = await api<{ data: { total: number } }>(server, 'GET', `/companies/${companyId}/employees?limit=1`, token);
  const missing = PEOPLE - before.body.data.total;
  let importMs = 0;
  if (missing > 0) {
    const form = new FormData();
    form.append('file', new Blob([staffCsv(missing)], { type: 'text/csv' }), 'staff.csv');
    const started = performance.now();
    const imported = await api<{ data?: { created: number; rejected: unknown[] } }>(server, 'POST', `/companies/${companyId}/employees/import`, token, form);
    importMs = performance.now() - started;
    if (imported.status !== 201) throw new Error(`the import answered ${imported.status}: ${JSON.stringify(imported.body).slice(0, 500)}`);
    log(`imported ${imported.body.data?.created ?? '?'} employees in ${Math.round(importMs)} ms`);
  }
  const after = await api<{ data: { total: number } }>(server, 'GET', `/companies/${companyId}/employees?limit=1`, token);
  return { companyId, total: after.body.data.total, importMs };
}

// In-page code is passed as source text: tsx compiles this file with esbuild's keepNames, whose `__name`
// helper would not exist in the page.

/** Records, in the page, when the first employee row enters the document (relative to the navigation's start). */
const FIRST_ROW_WATCH = `
  window.__watchRows = () => {
    window.__firstRowAt = undefined;
    const observer = new MutationObserver(() => {
      if (window.__firstRowAt === undefined && document.querySelector('[data-employee-row]') !== null) {
        window.__firstRowAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  };
  window.__watchRows();
`;

async function firstRowAt(page: Page): Promise<number> {
  await page.locator('[data-employee-row]').first().waitFor({ timeout: 120_000 });
  const at = await page.evaluate<number | undefined>('window.__firstRowAt');
  if (at === undefined) throw new Error('the first row was not seen by the observer');
  return at;
}

async function listTotal(page: Page): Promise<number> {
  return Number((await page.locator('[data-total]').getAttribute('data-total')) ?? '0');
}

/** Scrolls the list from top to bottom, STEP_PX per animation frame; answers the deltas between frames. */
async function scrollThrough(page: Page): Promise<{ deltas: number[]; rowsAtEnd: number; reachedEnd: boolean }> {
  return page.evaluate(`(async (step) => {
    const box = document.querySelector('[data-employee-list]');
    if (!box) throw new Error('no list');
    box.scrollTop = 0;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const deltas = [];
    await new Promise((resolve) => {
      let last = 0;
      const frame = (now) => {
        if (last !== 0) deltas.push(now - last);
        last = now;
        if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) {
          resolve();
          return;
        }
        box.scrollTop += step;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const rows = Array.from(document.querySelectorAll('[data-employee-row]'));
    const lastRow = rows.at(-1);
    return {
      deltas,
      rowsAtEnd: rows.length,
      reachedEnd: lastRow !== undefined && lastRow.getAttribute('aria-posinset') === lastRow.getAttribute('aria-setsize'),
    };
  })(${STEP_PX})`);
}

/** Types a surname into the search field and times until the filtered count is on screen. */
async function searchOnce(page: Page, text: string): Promise<{ ms: number; found: number }> {
  await page.locator('input[name="search"]').fill('');
  await waitUntil(async () => (await page.locator('[data-count]').getAttribute('data-count')) === (await page.locator('[data-count]').getAttribute('data-total')), {
    message: 'the search to be cleared',
  });
  return page.evaluate(`(async (query) => {
    const input = document.querySelector('input[name="search"]');
    const before = document.querySelector('[data-count]').dataset.count;
    const started = performance.now();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, query);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    return new Promise((resolve) => {
      const check = () => {
        const now = document.querySelector('[data-count]');
        if (now && now.dataset.count !== before) resolve({ ms: performance.now() - started, found: Number(now.dataset.count) });
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
  })(${JSON.stringify(text)})`);
}

const server = await startServer({ seedDemo: true, startTimeoutMs: 120_000 });
try {
  const { companyId, total, importMs } = await seed(server);
  log(`the company has ${total} employees`);
  const employeesUrl = `${server.url}${paths.company.employees(companyId)}`;

  const cold: number[] = [];
  const warm: number[] = [];
  const inApp: number[] = [];
  const frames: number[] = [];
  const scrollRuns: { frames: number; medianMs: number; p95Ms: number }[] = [];
  const searches: number[] = [];
  let version = '';
  let reachedEnd = true;
  let searchFound = 0;

  for (let run = 0; run < RUNS; run += 1) {
    // Cold: a new profile; the sign-in page is left before the dashboard can start the pull, so the employees
    // page is the first to read (and wait for) the mirror.
    const browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
    try {
      version = browser.context.browser()?.version() ?? version;
      await browser.context.addInitScript({ content: FIRST_ROW_WATCH });
      const { page } = browser;
      const login = await fetch(`${server.url}/main-service/api/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(OWNER) });
      const pair = (await login.json()) as { access_token: string; refresh_token: string };
      await page.goto(`${server.url}${paths.auth.login}`);
      await page.evaluate((tokens) => {
        localStorage.setItem('accessToken', tokens.access_token);
        localStorage.setItem('refreshToken', tokens.refresh_token);
      }, pair);
      await page.goto(employeesUrl);
      cold.push(await firstRowAt(page));
      await waitUntil(async () => (await listTotal(page)) === total, { timeoutMs: 180_000, message: 'the whole company to be pulled' });

      // Warm: the same profile reloaded, every employee on the device.
      await page.reload();
      warm.push(await firstRowAt(page));
      await waitUntil(async () => (await listTotal(page)) === total, { message: 'the list to show everyone' });
      await new Promise((resolve) => setTimeout(resolve, 500));

      const scroll = await scrollThrough(page);
      reachedEnd &&= scroll.reachedEnd;
      frames.push(...scroll.deltas);
      scrollRuns.push({ frames: scroll.deltas.length, medianMs: round(median(scroll.deltas), 2), p95Ms: round(percentile(scroll.deltas, 95), 2) });
      log(`run ${run + 1}: cold ${Math.round(cold.at(-1) ?? 0)} ms, warm ${Math.round(warm.at(-1) ?? 0)} ms, scroll ${scroll.deltas.length} frames (median ${round(median(scroll.deltas), 2)} ms, p95 ${round(percentile(scroll.deltas, 95), 2)} ms)`);

      const search = await searchOnce(page, 'Фёдоров-1');
      searches.push(search.ms);
      searchFound = search.found;

      // In the app: from the dashboard, the header's link to the employees (no page load).
      await page.goto(`${server.url}${paths.dashboard}`);
      await waitForRoute(page, 'Dashboard');
      const link = page.locator(`a[href="${paths.company.employees(companyId)}"]:visible`).first();
      if ((await link.count()) > 0) {
        const started = await page.evaluate<number>('(window.__watchRows(), performance.now())');
        await link.click();
        inApp.push((await firstRowAt(page)) - started);
      }
    } finally {
      await browser.close();
    }
  }

  report('employees-list', {
    environment: `Chromium ${version} (headless, ${process.platform}), ${cpus().length} vCPUs, Node ${process.version}`,
    people: total,
    runs: RUNS,
    importOfSeedMs: round(importMs),
    firstRows: {
      coldMedianMs: round(median(cold)),
      coldRunsMs: cold.map((v) => round(v)),
      warmMedianMs: round(median(warm)),
      warmRunsMs: warm.map((v) => round(v)),
      inAppMedianMs: inApp.length > 0 ? round(median(inApp)) : null,
      inAppRunsMs: inApp.map((v) => round(v)),
    },
    scrolling: {
      stepPx: STEP_PX,
      reachedEnd,
      frames: frames.length,
      medianMs: round(median(frames), 2),
      p95Ms: round(percentile(frames, 95), 2),
      maxMs: round(Math.max(...frames), 1),
      /** Frames that took longer than one 60 Hz frame (with 20 % slack), and than two. */
      over20MsPercent: round((100 * frames.filter((d) => d > 20).length) / frames.length, 1),
      over40MsPercent: round((100 * frames.filter((d) => d > 40).length) / frames.length, 1),
      runs: scrollRuns,
    },
    search: { query: 'Фёдоров-1', found: searchFound, medianMs: round(median(searches)), runsMs: searches.map((v) => round(v)), debounceMs: 200 },
  });
} finally {
  await server.stop();
}
