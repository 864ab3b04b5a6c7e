// HR imports the staff list (issue 5, "Import"), in Chromium against the real server: hr@demo.local downloads
// the template, picks an XLSX of 200 employees made in the test (5 rows broken on purpose), sees the preview
// with every column detected, imports, and lands on the report: 195 imported and the 5 rejected rows, each
// with its number and reason, offered as a CSV. The report still shows after a reload without a network. A
// small CSV of women, men and a name that does not tell is reported in Russian with words that agree. The
// same file imported again, in English on a 360 px wide phone (chosen while offline, which the page says, and
// read once the connection is back), creates nobody: the 195 are found unchanged and the server holds each of
// them once.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { signIn, storedTokens, switchToEnglish, visibleText, waitForRoute, waitForServiceWorkerControl } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { STAFF_FIELDS, STAFF_HEADERS, buildStaffXlsx, type StaffDefect, type StaffFile } from './support/staff-xlsx';
import { waitUntil } from './support/wait';

const HR = { email: 'hr@demo.local', password: 'demo1234' };
const FILE_NAME = 'Штатное расписание.xlsx';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Row index (0 = first employee) -> what is broken in it. */
const DEFECTS = new Map<number, StaffDefect>([
  [6, 'noFirstName'],
  [41, 'badEmail'],
  [99, 'noLastName'],
  [150, 'badEmail'],
  [187, 'noFirstName'],
]);

interface ReportOnScreen {
  counts: Record<string, string>;
  rejected: { row: number; code: string; text: string }[];
}

/** What the report page shows: the counts and every rejected row. */
async function reportOnScreen(page: Page): Promise<ReportOnScreen> {
  return page.evaluate(() => {
    const counts: Record<string, string> = {};
    for (const element of document.querySelectorAll('[data-count]')) {
      counts[element.getAttribute('data-count') ?? ''] = element.querySelector('dd')?.textContent?.replace(/\s/g, '') ?? '';
    }
    const rejected = [...document.querySelectorAll('[data-section="rejected"] [data-row]')].map((element) => ({
      row: Number(element.getAttribute('data-row')),
      code: element.querySelector('[data-code]')?.getAttribute('data-code') ?? '',
      text: element.textContent ?? '',
    }));
    return { counts, rejected };
  });
}

/** The values of the mapping selects (hidden inputs `column-<n>`), in column order. */
async function detectedFields(page: Page): Promise<string[]> {
  return page.locator('[data-step="mapping"] input[type="hidden"][name^="column-"]').evaluateAll((inputs) =>
    inputs.map((input) => (input as HTMLInputElement).value),
  );
}

async function pickFile(page: Page, staff: StaffFile): Promise<void> {
  await page.locator('input[type="file"][name="file"]').setInputFiles({ name: FILE_NAME, mimeType: XLSX_TYPE, buffer: staff.buffer });
  await page.locator('[data-step="mapping"]').waitFor({ state: 'visible', timeout: 30_000 });
}

async function runImport(page: Page): Promise<void> {
  const button = page.locator('[data-action="import"]');
  await waitUntil(() => button.isEnabled(), { message: 'the import button to be enabled' });
  await button.click();
  await waitForRoute(page, 'EmployeesImportReport', 60_000);
  await page.locator('[data-count="imported"]').waitFor({ state: 'visible', timeout: 30_000 });
}

describe('importing employees from a spreadsheet', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  let page: Page;
  let companyId: string;
  let staff: StaffFile;
  let reportUrl: string;

  async function api<T>(path: string): Promise<{ status: number; body: T }> {
    const { access } = await storedTokens(page);
    const response = await fetch(`${server.url}/main-service/api/v1${path}`, { headers: { Authorization: `Bearer ${access ?? ''}` } });
    return { status: response.status, body: (await response.json()) as T };
  }

  beforeAll(async () => {
    staff = await buildStaffXlsx(200, DEFECTS);
    server = await startServer({ seedDemo: true });
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(`${server.url}/auth/login`);
    await signIn(page, server.url, HR.email, HR.password);
    await waitForRoute(page, 'Dashboard');
    const me = await api<{ data: { companies: { id: string; name: string; roles: string[] }[] } }>('/user');
    const demo = me.body.data.companies.find((company) => company.name.includes('Демо Завод'));
    if (!demo) throw new Error(`hr@demo.local is not in the demo company: ${JSON.stringify(me.body.data.companies)}`);
    expect(demo.roles).toContain('HR');
    companyId = demo.id;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('offers the template in the app’s language', async () => {
    await page.goto(`${server.url}${paths.company.employeesImport(companyId)}`);
    await waitForRoute(page, 'EmployeesImport');
    expect(await visibleText(page)).toContain('CSV в кодировке UTF-8 или Windows-1251');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-template="xlsx"]').click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const path = await download.path();
    const rows = await readSheet(await readFile(path));
    expect(rows[0]).toEqual(expect.arrayContaining(['Фамилия', 'Имя']));
  });

  it('previews the file with every column detected, imports it and reports 195 imported and 5 rejected', async () => {
    await pickFile(page, staff);
    expect(await detectedFields(page)).toEqual([...STAFF_FIELDS]);
    const preview = await visibleText(page);
    expect(preview).toContain(`«${FILE_NAME}»: 200 строк`);
    for (const header of STAFF_HEADERS) expect(preview).toContain(header);
    expect(await page.locator('[data-step="mapping"] tbody tr').count()).toBe(10);

    await runImport(page);
    reportUrl = page.url();
    expect(new URL(reportUrl).searchParams.get('importId')).toBeTruthy();
    const report = await reportOnScreen(page);
    expect(report.counts).toEqual({ imported: '195', created: '195', updated: '0', unchanged: '0', rejected: '5' });
    expect(report.rejected.map(({ row, code }) => ({ row, code }))).toEqual(staff.rejected.map(({ row, code }) => ({ row, code })));
    for (const row of report.rejected) expect(row.text).toMatch(new RegExp(`^Строка ${row.row}\\S`));
    expect(report.rejected.find((row) => row.row === 43)?.text).toContain('worker0042(at)zavod');
    expect(await visibleText(page)).toContain('Импортировано с ошибками');
    // Every generated name is a man's (a patronymic in -вич): the Russian words agree.
    const actions = await page.locator('[data-section="imported"] [data-row]').evaluateAll((rows) => rows.map((row) => row.querySelector('.import-row__action')?.textContent));
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions)).toEqual(new Set(['добавлен']));
  });

  it('offers the rejected rows as a CSV with their numbers and reasons', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="download-rejected"]').click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const text = (await readFile(await download.path())).toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines).toHaveLength(1 + DEFECTS.size);
    expect(lines[0]).toBe(['Строка', 'Причина', ...STAFF_HEADERS].join(';'));
    expect(lines.slice(1).map((line) => Number(line.split(';')[0]))).toEqual(staff.rejected.map((row) => row.row));
  });

  it('still shows the report after a reload without a network', async () => {
    await waitForServiceWorkerControl(page, 'EmployeesImportReport');
    await page.context().setOffline(true);
    try {
      await page.reload();
      await waitForRoute(page, 'EmployeesImportReport', 30_000);
      await page.locator('[data-count="imported"]').waitFor({ state: 'visible', timeout: 30_000 });
      expect((await reportOnScreen(page)).counts).toMatchObject({ imported: '195', rejected: '5' });
    } finally {
      await page.context().setOffline(false);
    }
  });

  it('words the report in Russian by each person’s gender, neutrally when the name does not tell', async () => {
    await page.goto(`${server.url}${paths.company.employeesImport(companyId)}`);
    await waitForRoute(page, 'EmployeesImport');
    const csv = ['Фамилия;Имя;Отчество;Табельный номер', 'Сидорова;Анна;;ЖН-1', 'Черных;Саша;;ЖН-2', 'Алиев;Рашид;Гусейн оглы;ЖН-3', 'Кузнецова;Мария;Ивановна;ЖН-4'].join('\r\n');
    await page.locator('input[type="file"][name="file"]').setInputFiles({ name: 'Пол.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\r\n`, 'utf8') });
    await page.locator('[data-step="mapping"]').waitFor({ state: 'visible', timeout: 30_000 });
    await runImport(page);
    const rows = await page.locator('[data-section="imported"] [data-row]').evaluateAll((elements) =>
      elements.map((row) => [row.querySelector('.import-row__name')?.textContent ?? '', row.querySelector('.import-row__action')?.textContent ?? '']),
    );
    expect(Object.fromEntries(rows)).toEqual({
      'Сидорова Анна': 'добавлена',
      'Черных Саша': 'запись добавлена',
      'Алиев Рашид Гусейн оглы': 'добавлен',
      'Кузнецова Мария Ивановна': 'добавлена',
    });
  });

  it('imports the same file again, in English on a phone, without creating anybody twice', async () => {
    await switchToEnglish(page, server.url);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(reportUrl);
    await waitForRoute(page, 'EmployeesImportReport');
    await page.getByRole('link', { name: 'Import another file' }).click();
    await waitForRoute(page, 'EmployeesImport');

    // Offline the page says so and keeps the chosen file; back online it reads the file by itself.
    await page.context().setOffline(true);
    try {
      await page.locator('[data-problem="offline"]').waitFor({ state: 'visible', timeout: 20_000 });
      expect(await visibleText(page)).toContain('You are offline. Importing needs a connection to the server');
      await page.locator('input[type="file"][name="file"]').setInputFiles({ name: FILE_NAME, mimeType: XLSX_TYPE, buffer: staff.buffer });
      await page.locator(`[data-file-name="${FILE_NAME}"]`).waitFor({ state: 'visible' });
      expect(await page.locator('[data-step="mapping"]').count()).toBe(0);
    } finally {
      await page.context().setOffline(false);
    }
    await page.locator('[data-step="mapping"]').waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('[data-problem="offline"]').waitFor({ state: 'hidden' });
    expect(await detectedFields(page)).toEqual([...STAFF_FIELDS]);
    expect(await visibleText(page)).toContain(`“${FILE_NAME}”: 200 rows of employees.`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await runImport(page);
    expect(page.url()).not.toBe(reportUrl);
    const report = await reportOnScreen(page);
    expect(report.counts).toEqual({ imported: '195', created: '0', updated: '0', unchanged: '195', rejected: '5' });
    expect(report.rejected.map((row) => row.row)).toEqual(staff.rejected.map((row) => row.row));
    expect(await visibleText(page)).toContain('Imported with errors');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const found = await api<{ data: { total: number } }>(
      `/companies/${companyId}/employees?${new URLSearchParams({ search: staff.serviceNumberPrefix, limit: '1' }).toString()}`,
    );
    expect(found.status).toBe(200);
    expect(found.body.data.total).toBe(195);
  });
});
