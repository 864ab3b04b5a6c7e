// The employees list on a 360 px phone and a 1024 px tablet (issue 14), in Debian's Chromium against the real
// main-service: the demo company gets 300 more employees with long positions and department names (through the
// import API); HR opens the list. On the phone the page itself scrolls (no box of its own showing five rows),
// still windowed (a few dozen rows in the page out of 300+), each row lays the name on its own lines, the
// state below it and the position and department wrapped in full (not cut to a letter beside the badge); the
// pending invitations come before the list, and scrolling the page reaches the last employee. The same in
// English. On the tablet the list keeps its scroll box of fixed-height rows.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { signIn, switchToEnglish, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const HR = { email: 'hr@demo.local', password: 'demo1234' };
const PHONE = { width: 360, height: 740 };
const TABLET = { width: 1024, height: 768 };
const ADDED = 300;
const POSITION = 'Оператор станка с числовым программным управлением';
const DEPARTMENT = 'Участок механической обработки корпусных деталей';

/** A CSV of `count` employees, each with the long position and department above. */
function staffCsv(count: number): string {
  const lines = ['Фамилия;Имя;Отчество;Должность;E-mail;Таб. №;Подразделение'];
  for (let i = 0; i < count; i += 1) {
    const woman = i % 2 === 0;
    lines.push([`${woman ? 'Смирнова' : 'Смирнов'}-${i}`, woman ? 'Анна' : 'Олег', woman ? 'Сергеевна' : 'Сергеевич', POSITION, `phone.${i}@example.com`, `PH-${i}`, DEPARTMENT].join(';'));
  }
  return `${lines.join('\r\n')}\r\n`;
}

interface RowLayout {
  rowWidth: number;
  nameBottom: number;
  badgeTop: number;
  badgeBottom: number;
  detailsTop: number;
  detailsWidth: number;
  detailsText: string;
  /** The details' text overflows its box (cut by an ellipsis or hidden). */
  isDetailsCut: boolean;
}

interface ListLayout {
  scroll: string | null;
  /** The list box scrolls by itself: its content is taller than the box and its overflow scrolls. */
  isScrollBox: boolean;
  rowsInPage: number;
  total: number;
  documentHeight: number;
  viewportHeight: number;
  sidewaysScroll: boolean;
  invitationsBeforeList: boolean;
  row: RowLayout | null;
}

/** How the list and its first row with our long texts are laid out. */
function listLayout(page: Page): Promise<ListLayout> {
  return page.evaluate((position) => {
    const list = document.querySelector<HTMLElement>('[data-employee-list]');
    if (!list) throw new Error('no list');
    const overflow = getComputedStyle(list).overflowY;
    const rows = [...document.querySelectorAll<HTMLElement>('[data-employee-row]')];
    const row = rows.find((candidate) => candidate.textContent?.includes(position));
    let layout: RowLayout | null = null;
    if (row) {
      const rect = (selector: string) => {
        const element = row.querySelector<HTMLElement>(selector);
        if (!element) throw new Error(`no ${selector}`);
        return { box: element.getBoundingClientRect(), element };
      };
      const name = rect('.employee-row__name');
      const badge = rect('.state-badge');
      const details = rect('.employee-row__details');
      layout = {
        rowWidth: row.getBoundingClientRect().width,
        nameBottom: name.box.bottom,
        badgeTop: badge.box.top,
        badgeBottom: badge.box.bottom,
        detailsTop: details.box.top,
        detailsWidth: details.box.width,
        detailsText: details.element.textContent ?? '',
        isDetailsCut: details.element.scrollWidth > details.element.clientWidth + 1 || details.element.scrollHeight > details.element.clientHeight + 1,
      };
    }
    const invitations = document.querySelector('[data-section="invitations"]');
    return {
      scroll: list.getAttribute('data-scroll'),
      isScrollBox: (overflow === 'auto' || overflow === 'scroll') && list.scrollHeight > list.clientHeight + 1,
      rowsInPage: rows.length,
      total: Number(document.querySelector('[data-total]')?.getAttribute('data-total') ?? '0'),
      documentHeight: document.documentElement.scrollHeight,
      viewportHeight: window.innerHeight,
      sidewaysScroll: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      invitationsBeforeList: invitations !== null && (invitations.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
      row: layout,
    };
  }, POSITION);
}

/** Scrolls the page down until the last employee's row is in the page and on screen; answers its position in the list. */
async function scrollToLastRow(page: Page): Promise<{ position: string | null; size: string | null } | null> {
  return waitUntil(
    () =>
      page.evaluate(() => {
        // Rows are measured as they come in, so the page grows while it is scrolled: scroll again until the end holds.
        window.scrollTo(0, document.documentElement.scrollHeight);
        const rows = [...document.querySelectorAll<HTMLElement>('[data-employee-row]')];
        const last = rows.find((row) => row.getAttribute('aria-posinset') === row.getAttribute('aria-setsize'));
        if (!last) return null;
        const box = last.getBoundingClientRect();
        if (box.top < 0 || box.bottom > window.innerHeight) return null;
        return { position: last.getAttribute('aria-posinset'), size: last.getAttribute('aria-setsize') };
      }),
    { timeoutMs: 20_000, message: 'the last employee to be on screen' },
  );
}

describe('the employees list on a phone and a tablet', () => {
  let server: RunningServer;
  let companyId = '';
  let total = 0;

  beforeAll(async () => {
    server = await startServer({ seedDemo: true });
    const login = await fetch(`${server.url}/main-service/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(HR),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    const me = (await (await fetch(`${server.url}/main-service/api/v1/user`, { headers })).json()) as { data: { companies: { id: string }[] } };
    companyId = me.data.companies[0]?.id ?? '';
    const form = new FormData();
    form.append('file', new Blob([staffCsv(ADDED)], { type: 'text/csv' }), 'staff.csv');
    const imported = await fetch(`${server.url}/main-service/api/v1/companies/${companyId}/employees/import`, { method: 'POST', headers, body: form });
    expect(imported.status).toBe(201);
    const count = (await (await fetch(`${server.url}/main-service/api/v1/companies/${companyId}/employees?limit=1`, { headers })).json()) as { data: { total: number } };
    total = count.data.total;
    expect(total).toBeGreaterThanOrEqual(ADDED);
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** Opens the list, waits for everyone, then filters it to the 300 added (by their position). */
  async function openList(page: Page): Promise<void> {
    await page.goto(`${server.url}${paths.company.employees(companyId)}`);
    await waitForRoute(page, 'Employees');
    await waitUntil(async () => Number(await page.locator('[data-total]').getAttribute('data-total')) === total, {
      timeoutMs: 60_000,
      message: `the list to hold all ${total} employees`,
    });
    expect(await page.locator('[data-count]').textContent()).toContain(String(total));
    await page.locator('input[name="search"]').fill('числовым программным');
    await waitUntil(async () => Number(await page.locator('[data-count]').getAttribute('data-count')) === ADDED, { message: `the list filtered to the ${ADDED} added` });
  }

  function expectPhoneLayout(layout: ListLayout): void {
    expect(layout.scroll).toBe('page');
    expect(layout.isScrollBox).toBe(false);
    // The page scrolls through the whole list, yet only a window of rows is in it.
    expect(layout.documentHeight).toBeGreaterThan(20 * layout.viewportHeight);
    expect(layout.rowsInPage).toBeGreaterThan(0);
    expect(layout.rowsInPage).toBeLessThan(60);
    expect(layout.sidewaysScroll).toBe(false);
    expect(layout.invitationsBeforeList).toBe(true);
    const row = layout.row;
    if (!row) throw new Error('no row with the long position on screen');
    // The name has its own lines, the badge its own line below, the details below the badge at (nearly) the row's
    // whole width, wrapped in full.
    expect(row.badgeTop).toBeGreaterThanOrEqual(row.nameBottom - 1);
    expect(row.detailsTop).toBeGreaterThanOrEqual(row.badgeBottom - 1);
    expect(row.detailsWidth).toBeGreaterThan(row.rowWidth * 0.75);
    expect(row.detailsText).toBe(`${POSITION} · ${DEPARTMENT}`);
    expect(row.isDetailsCut).toBe(false);
  }

  it('lets the page scroll on a phone, rows wrapped in full, in Russian and in English', async () => {
    const browser: TestBrowser = await launchBrowser({ viewport: PHONE });
    try {
      const { page } = browser;
      await signIn(page, server.url, HR.email, HR.password);
      await waitForRoute(page, 'Dashboard', 30_000);

      await openList(page);
      expect(await page.locator('[data-count]').textContent()).toContain('сотрудник');
      expectPhoneLayout(await listLayout(page));
      expect(await scrollToLastRow(page)).toEqual({ position: String(ADDED), size: String(ADDED) });
      expect((await listLayout(page)).rowsInPage).toBeLessThan(60);

      await switchToEnglish(page, server.url);
      await openList(page);
      expect(await page.locator('[data-count]').textContent()).toBe(`Found ${ADDED} of ${total} employees`);
      expectPhoneLayout(await listLayout(page));
      expect(await scrollToLastRow(page)).toEqual({ position: String(ADDED), size: String(ADDED) });
      expect(browser.problems()).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('keeps the scroll box of fixed-height rows on a tablet, the details readable', async () => {
    const browser: TestBrowser = await launchBrowser({ viewport: TABLET });
    try {
      const { page } = browser;
      await signIn(page, server.url, HR.email, HR.password);
      await waitForRoute(page, 'Dashboard', 30_000);
      await openList(page);
      const layout = await listLayout(page);
      expect(layout.scroll).toBe('box');
      expect(layout.isScrollBox).toBe(true);
      expect(layout.rowsInPage).toBeLessThan(60);
      expect(layout.sidewaysScroll).toBe(false);
      const heights = await page.locator('[data-employee-row]').evaluateAll((rows) => [...new Set(rows.map((row) => Math.round(row.getBoundingClientRect().height)))]);
      expect(heights).toEqual([68]);
      const row = layout.row;
      if (!row) throw new Error('no row with the long position on screen');
      expect(row.detailsWidth).toBeGreaterThan(300);
      expect(browser.problems()).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
