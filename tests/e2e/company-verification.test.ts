import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { fillAndSubmit, setField, submit } from './support/forms';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };

/** A legal entity's INN with a correct check digit, random so that it is not registered yet. */
function randomLegalEntityInn(): string {
  const weights = [2, 4, 10, 3, 5, 9, 4, 6, 8];
  for (;;) {
    const digits = [1 + Math.floor(Math.random() * 9), ...Array.from({ length: 8 }, () => Math.floor(Math.random() * 10))];
    const check = (digits.reduce((sum, digit, index) => sum + digit * (weights[index] ?? 0), 0) % 11) % 10;
    const inn = [...digits, check].join('');
    if (inn !== '7712345671') return inn;
  }
}

/** A 1x1 PNG for the logo. */
const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function overflowOrFail(overflowing: string[]): void {
  expect(overflowing).toEqual([]);
}

/** Pages wider than the viewport (sideways scrolling), by route name. */
async function overflowOf(page: Page, route: string, width: number): Promise<string[]> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  return scrollWidth > width ? [`${route}: ${scrollWidth}px`] : [];
}

describe('an owner verifies a new company and the platform admin confirms the payment', () => {
  let server: RunningServer;
  let owner: TestBrowser;
  let admin: TestBrowser;

  beforeAll(async () => {
    server = await startServer({ seedDemo: true });
    owner = await launchBrowser({ viewport: PHONE });
    admin = await launchBrowser({ viewport: TABLET });
  });

  afterAll(async () => {
    await owner?.close();
    await admin?.close();
    await server?.stop();
  });

  let ownerEmail = '';
  const ownerPassword = 'correct-horse-42';

  it('creates a company, downloads the invoice, reports the payment, and sees the admin confirm it without a reload', { timeout: 300_000 }, async () => {
    const { page } = owner;
    const overflowing: string[] = [];
    const pulledCompanies = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/api/v1/sync/pull')) pulledCompanies.add(url.searchParams.get('companyId') ?? '');
    });

    // A new owner: registration, the mailed link, sign-in.
    const email = `owner.${Date.now()}@example.com`;
    const password = ownerPassword;
    ownerEmail = email;
    await page.goto(`${server.url}/auth/register`);
    await fillAndSubmit(await waitForRoute(page, 'AuthRegister'), {
      lastName: 'Петрова',
      firstName: 'Анна',
      position: 'OWNER',
      company: 'Ромашка',
      inn: randomLegalEntityInn(),
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

    // No company yet: the header and the dashboard offer to add one, and nothing company-specific.
    expect(await page.locator('.company-switcher').count()).toBe(0);
    expect(await page.locator('[data-section="no-company"] a[href="/companies/create"]').count()).toBe(1);
    await page.locator('header a[href="/companies/create"]').first().click();
    const form = await waitForRoute(page, 'CompaniesCreate');
    overflowing.push(...(await overflowOf(page, 'CompaniesCreate', PHONE.width)));

    // A wrong checksum is refused beside the field before anything is sent.
    await setField(form, 'inn', '7707083894');
    await waitUntil(async () => (await form.locator('input[name="inn"]').getAttribute('aria-invalid')) === 'true', { message: 'the INN error beside the field' });

    const inn = randomLegalEntityInn();
    const companyName = `ООО «Тест ${Date.now()}»`;
    await setField(form, 'legalForm', 'LEGAL_ENTITY');
    await setField(form, 'name', companyName);
    await setField(form, 'inn', inn);
    await setField(form, 'kpp', '770101001');
    await setField(form, 'website', 'romashka.example.ru');
    await setField(form, 'employeeCount', '120');
    await form.locator('[data-field="logo"] input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
    await form.locator('[data-field="logo"] [data-status="finished"]').waitFor({ timeout: 20_000 });
    await submit(form);

    const created = await waitForRoute(page, 'CompaniesCreated');
    const companyId = (await created.locator('[data-company-id]').first().getAttribute('data-company-id')) ?? '';
    expect(companyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await created.textContent()).toContain(companyName);
    overflowing.push(...(await overflowOf(page, 'CompaniesCreated', PHONE.width)));

    // GET /user was fetched again: the header shows the company and its links, and the pulls include it, without a reload.
    await page.locator(`.company-switcher[data-company-id="${companyId}"]`).waitFor();
    expect(await page.locator(`header a[href="/companies/${companyId}/employees"]`).count()).toBe(1);
    expect(await page.locator(`header a[href="/companies/${companyId}/verification-payment"]`).count()).toBe(1);
    await waitUntil(() => pulledCompanies.has(companyId), { message: 'a pull of the new company', timeoutMs: 20_000 });

    // The invoice: details, a PDF download, and "I paid" after a confirmation.
    await created.locator('[data-action="to-verification"]').click();
    const payment = await waitForRoute(page, 'CompanyVerificationPayment');
    overflowing.push(...(await overflowOf(page, 'CompanyVerificationPayment', PHONE.width)));
    expect(await payment.textContent()).toContain(inn);
    const invoiceNumber = ((await payment.locator('[data-field="invoiceNumber"]').textContent()) ?? '').trim();
    expect(invoiceNumber).not.toBe('');

    const [download] = await Promise.all([page.waitForEvent('download'), payment.locator('[data-action="download-invoice"]').click()]);
    expect(download.suggestedFilename()).toBe(`invoice-${invoiceNumber}.pdf`);
    const file = await download.path();
    expect((await readFile(file)).subarray(0, 4).toString('latin1')).toBe('%PDF');

    await payment.locator('[data-action="report-payment"]').click();
    await page.locator('[data-dialog="confirm"] [data-action="dialog-confirm"]').click();
    const check = await waitForRoute(page, 'CompanyVerificationPaymentCheck');
    await check.locator('section[data-status="PAYMENT_REPORTED"]').waitFor();
    expect(await check.locator('[data-field="reviewDueAt"]').count()).toBe(1);
    overflowing.push(...(await overflowOf(page, 'CompanyVerificationPaymentCheck', PHONE.width)));

    // The platform admin finds the company among the payments to review and confirms it.
    const adminPage = admin.page;
    await signIn(adminPage, server.url, 'admin@demo.local', 'demo1234');
    await waitForRoute(adminPage, 'Dashboard');
    await adminPage.goto(`${server.url}/profile/admin`);
    const review = await waitForRoute(adminPage, 'ProfileAdmin');
    const card = review.locator(`[data-company-id="${companyId}"]`);
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getAttribute('data-status')).toBe('PAYMENT_REPORTED');
    expect(await card.locator('[data-field="invoiceNumber"]').textContent()).toBe(invoiceNumber);
    await card.locator('[data-action="confirm-verification"]').click();
    await adminPage.locator('[data-dialog="confirm"] [data-action="dialog-confirm"]').click();
    await waitUntil(async () => (await card.getAttribute('data-status')) === 'VERIFIED', { message: 'the company to show as verified to the admin' });
    expect(await overflowOf(adminPage, 'ProfileAdmin', TABLET.width)).toEqual([]);
    // On a tablet every header link is on screen (they wrap), none hidden behind a sideways scroll.
    const nav = await adminPage.locator('header nav').evaluate((element) => ({ scroll: element.scrollWidth, visible: element.clientWidth }));
    expect(nav.scroll).toBeLessThanOrEqual(nav.visible);

    // The owner comes back to the tab: the pull brings the decision into the mirror and the screen follows.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await check.locator('section[data-status="VERIFIED"]').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe(`/companies/${companyId}/verification-payment-check`);

    // The dashboard greets the owner with the company they work in, not the name typed at registration.
    await page.locator('header nav a[href="/dashboard"]').click();
    const dashboard = await waitForRoute(page, 'Dashboard');
    expect(await dashboard.locator('.dashboard__who').textContent()).toContain(companyName);

    expect(overflowing).toEqual([]);
    expect([...owner.problems(), ...admin.problems()].filter((problem) => problem.startsWith('pageerror'))).toEqual([]);
  });

  it('lets the owner edit their own data and change the password, refusing a wrong current password beside its field', { timeout: 120_000 }, async () => {
    const { page } = owner;
    await page.goto(`${server.url}/profile`);
    const profile = await waitForRoute(page, 'Profile');
    overflowOrFail(await overflowOf(page, 'Profile', PHONE.width));

    const personal = profile.locator('form[data-form="personal"]');
    await setField(personal, 'middleName', 'Сергеевна');
    await setField(personal, 'phone', '+7 900 765-43-21');
    await submit(personal);
    await personal.locator('[role="status"]').waitFor();
    await waitUntil(async () => ((await profile.locator('#profile-title').textContent()) ?? '').includes('Сергеевна'), {
      message: 'the new middle name in the profile title',
    });

    const passwordForm = profile.locator('form[data-form="password"]');
    const newPassword = 'battery-staple-43';
    await setField(passwordForm, 'currentPassword', 'not-my-password');
    await setField(passwordForm, 'newPassword', newPassword);
    await setField(passwordForm, 'newPasswordRepeat', newPassword);
    await submit(passwordForm);
    const current = passwordForm.locator('input[name="currentPassword"]');
    await waitUntil(async () => (await current.getAttribute('aria-invalid')) === 'true', { message: 'the wrong current password refused beside its field' });

    await setField(passwordForm, 'currentPassword', ownerPassword);
    await submit(passwordForm);
    await passwordForm.locator('xpath=following-sibling::p[@role="status"]').waitFor();
    await waitUntil(async () => (await current.inputValue()) === '', { message: 'the password fields emptied after the change' });

    // This session goes on (the new token pair was kept); the new password signs in elsewhere.
    await page.reload();
    await waitForRoute(page, 'Profile');
    const other = await launchBrowser({ viewport: PHONE });
    try {
      await signIn(other.page, server.url, ownerEmail, newPassword);
      await waitForRoute(other.page, 'Dashboard');
    } finally {
      await other.close();
    }
  });
});
