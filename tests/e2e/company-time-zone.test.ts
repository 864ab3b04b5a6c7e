// Issue 14 in Chromium: the name and INN given at registration arrive in the first company form, and the invoice's
// date reads the same on the verification page and in the PDF, on devices in Vladivostok and in New York alike
// (Chromium's own time zone emulation, `timezoneId`), in the company's time zone and naming it.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, waitForRoute } from './support/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser';
import { fillAndSubmit, setField, submit } from './support/forms';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

/** A legal entity's INN with a correct check digit, random so that it is not registered yet. */
function randomLegalEntityInn(): string {
  const weights = [2, 4, 10, 3, 5, 9, 4, 6, 8];
  const digits = [1 + Math.floor(Math.random() * 9), ...Array.from({ length: 8 }, () => Math.floor(Math.random() * 10))];
  const check = (digits.reduce((sum, digit, index) => sum + digit * (weights[index] ?? 0), 0) % 11) % 10;
  return [...digits, check].join('');
}

interface Device {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Chromium on a device whose own clock is in `timezoneId`. */
async function deviceIn(timezoneId: string): Promise<Device> {
  const profileDir = await mkdtemp(join(tmpdir(), 'e2e-profile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1024, height: 800 },
    timezoneId,
    acceptDownloads: true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}

/** The text of a downloaded PDF as a viewer extracts it (poppler's pdftotext), white space as single spaces. */
function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

describe("the company's time zone and the details given at registration", () => {
  let server: RunningServer;
  let east: Device;
  let west: Device;

  beforeAll(async () => {
    server = await startServer();
    east = await deviceIn('Asia/Vladivostok');
    west = await deviceIn('America/New_York');
  });

  afterAll(async () => {
    await east?.close();
    await west?.close();
    await server?.stop();
  });

  it('carries the name and INN into the first company form, and shows the invoice date of the PDF on every device', { timeout: 300_000 }, async () => {
    const { page } = east;
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Asia/Vladivostok');
    const pulled = new Set<string>();
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/api/v1/sync/pull')) pulled.add(url.searchParams.get('companyId') ?? '');
    });

    // Registration names the company; the e-mail is confirmed; sign-in is a new page load.
    const email = `tz.${Date.now()}@example.com`;
    const password = 'correct-horse-42';
    const inn = randomLegalEntityInn();
    const companyName = `ООО «Восток ${Date.now()}»`;
    await page.goto(`${server.url}/auth/register`);
    await fillAndSubmit(await waitForRoute(page, 'AuthRegister'), {
      lastName: 'Петрова',
      firstName: 'Анна',
      position: 'OWNER',
      company: companyName,
      inn,
      mainGoal: 'COST_REDUCTION',
      phone: '+7 900 123-45-67',
      email,
      role: 'OWNER',
      password,
    });
    await waitForRoute(page, 'AuthRegisterConfirmEmail');
    await page.goto((await server.waitForMail(email)).link);
    await waitForRoute(page, 'AuthRegisterVerified');
    await signIn(page, server.url, email, password);
    await waitForRoute(page, 'Dashboard');

    // "Add company" starts with what registration asked for, and on the device's own zone.
    await page.locator('header a[href="/companies/create"]').first().click();
    const create = await waitForRoute(page, 'CompaniesCreate');
    await waitUntil(async () => (await create.locator('input[name="name"]').inputValue()) === companyName, { message: 'the registered name in the form' });
    expect(await create.locator('input[name="inn"]').inputValue()).toBe(inn);
    expect(await create.locator('input[name="inn"]').getAttribute('aria-invalid')).not.toBe('true');
    expect(await create.locator('[data-state="from-registration"]').count()).toBe(1);
    expect(await create.locator('input[type="hidden"][name="timeZone"]').inputValue()).toBe('Asia/Vladivostok');
    await setField(create, 'kpp', '770101001');
    await submit(create);

    const created = await waitForRoute(page, 'CompaniesCreated');
    const companyId = (await created.locator('[data-company-id]').first().getAttribute('data-company-id')) ?? '';
    expect(companyId).toMatch(/^[0-9a-f-]{36}$/);

    // The verification page, once the pull has brought the company's row (the mirror's copy, not the answer).
    await waitUntil(() => pulled.has(companyId), { message: 'a pull of the new company', timeoutMs: 30_000 });
    await page.goto(`${server.url}/companies/${companyId}/verification-payment`);
    const payment = await waitForRoute(page, 'CompanyVerificationPayment');
    const invoiceDate = ((await payment.locator('[data-field="invoiceDate"]').textContent()) ?? '').trim();
    expect(invoiceDate).toMatch(/^\d{2}\.\d{2}\.\d{4} \(Asia\/Vladivostok, UTC\+10\)$/);
    expect(await payment.locator('[data-field="timeZone"]').textContent()).toBe('Asia/Vladivostok (UTC+10)');

    // The PDF says the same date, naming the same zone.
    const [download] = await Promise.all([page.waitForEvent('download'), payment.locator('[data-action="download-invoice"]').click()]);
    const text = pdfText(await download.path());
    expect(text).toContain(`Дата счёта: ${invoiceDate}`);
    expect(text).toContain(`от ${invoiceDate.slice(0, 10)}`);

    // On a device in New York the page reads the same.
    expect(await west.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');
    await signIn(west.page, server.url, email, password);
    await waitForRoute(west.page, 'Dashboard');
    await west.page.goto(`${server.url}/companies/${companyId}/verification-payment`);
    const far = await waitForRoute(west.page, 'CompanyVerificationPayment');
    await far.locator('[data-field="invoiceDate"]').waitFor();
    expect(((await far.locator('[data-field="invoiceDate"]').textContent()) ?? '').trim()).toBe(invoiceDate);

    // Once the company exists, the registration's details are forgotten: the next company starts empty.
    await page.goto(`${server.url}/companies/create`);
    const next = await waitForRoute(page, 'CompaniesCreate');
    expect(await next.locator('input[name="name"]').inputValue()).toBe('');
    expect(await next.locator('input[name="inn"]').inputValue()).toBe('');
    expect(await next.locator('[data-state="from-registration"]').count()).toBe(0);
  });
});
