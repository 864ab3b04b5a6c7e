import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { CYRILLIC, signIn, storedTokens, switchToEnglish, visibleText, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { fillAndSubmit } from './support/forms';
import { demoRouteParams, demoTokens } from './support/route-sizes';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

/** Words of Russian text with a little context, so a failure names the untranslated string. */
function russianFragments(text: string): string[] {
  return [...text.matchAll(/.{0,30}[А-Яа-яЁё]+.{0,30}/g)].map((m) => m[0]);
}

describe('a new owner in a real browser', () => {
  let server: RunningServer;
  let browser: TestBrowser;

  beforeAll(async () => {
    server = await startServer({ seedDemo: false });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('registers, confirms the e-mail through the mailed link, signs in, switches to English and signs out', async () => {
    const { page } = browser;
    const email = `owner.${Date.now()}@example.com`;
    const password = 'correct-horse-42';

    await page.goto(`${server.url}/auth/register`);
    const form = await waitForRoute(page, 'AuthRegister');
    expect(await visibleText(page)).toMatch(CYRILLIC); // Russian is the default language
    await fillAndSubmit(form, {
      lastName: 'Smith',
      firstName: 'Anna',
      middleName: 'Maria',
      position: 'OWNER',
      company: 'Acme Works LLC',
      inn: '7712345671',
      mainGoal: 'COST_REDUCTION',
      phone: '+7 900 123-45-67',
      email,
      role: 'OWNER',
      password,
    });
    await waitForRoute(page, 'AuthRegisterConfirmEmail');

    const mail = await server.waitForMail(email);
    expect(new URL(mail.link).pathname).toBe('/auth/register/verified');
    await page.goto(mail.link);
    await waitForRoute(page, 'AuthRegisterVerified');

    await signIn(page, server.url, email, password);
    await waitForRoute(page, 'Dashboard');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect((await storedTokens(page)).access).toBeTruthy();

    await switchToEnglish(page, server.url);
    let shown = '';
    await waitUntil(
      async () => {
        shown = await visibleText(page);
        return /[A-Za-z]{3}/.test(shown) && !CYRILLIC.test(shown);
      },
      { message: 'the page to show English text only' },
    ).catch(() => undefined); // the assertion below shows what is still in Russian
    expect(russianFragments(shown)).toEqual([]);

    await page.locator('[data-action="sign-out"]:visible').first().click();
    await waitForRoute(page, 'AuthLogin');
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(await storedTokens(page)).toEqual({ access: null, refresh: null });
    // The chosen language outlives the session.
    expect(russianFragments(await visibleText(page))).toEqual([]);

    // And the account signs in again from the login form.
    await signIn(page, server.url, email, password);
    await waitForRoute(page, 'Dashboard');
    expect(browser.problems().filter((p) => p.startsWith('pageerror'))).toEqual([]);
  });
});

const HEAD = { email: 'head@demo.local', password: 'demo1234' };

/** The fields of the page marked invalid, and the validation texts shown, in either language. */
async function shownInvalidity(page: Page): Promise<{ invalid: string[]; texts: string[] }> {
  const invalid = await page.locator('[aria-invalid="true"]').evaluateAll((fields) => fields.map((field) => field.getAttribute('name') ?? field.id));
  const text = await page.locator('body').innerText();
  const texts = ['Fill in this field.', 'Заполните это поле.', 'Enter a valid e-mail address.', 'Введите корректный адрес электронной почты.'].filter((message) =>
    text.includes(message),
  );
  return { invalid, texts };
}

describe('a link opened while signed out, in a real browser', () => {
  let server: RunningServer;
  let browser: TestBrowser;

  beforeAll(async () => {
    server = await startServer({ seedDemo: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens the project of a mailed link after the sign-in, past a language switch and the password recovery page', async () => {
    const { page } = browser;
    const tokens = await demoTokens(server.url, HEAD.email, HEAD.password);
    const { companyId, projectId } = await demoRouteParams(server.url, tokens.accessToken);
    if (!companyId || !projectId) throw new Error('the demo data has no project for the head');
    const project = paths.company.project(companyId, projectId);

    await page.goto(`${server.url}${project}`);
    await waitForRoute(page, 'AuthLogin');
    const login = new URL(page.url());
    expect(login.pathname).toBe(paths.auth.login);
    expect(login.searchParams.get('next')).toBe(project);

    // The page put the cursor in the e-mail; switching the language marks nothing.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    await page.locator('[data-locale="en"]:visible').first().click();
    await waitUntil(async () => (await page.locator('h1').innerText()) === 'Sign in', { message: 'the login page to show English' });
    expect(await shownInvalidity(page)).toEqual({ invalid: [], texts: [] });

    // A detour through the password recovery keeps the page to open.
    await page.locator(`a[href^="${paths.auth.recoveryPassword}"]`).first().click();
    await waitForRoute(page, 'AuthRecoveryPassword');
    expect(new URL(page.url()).searchParams.get('next')).toBe(project);
    await page.locator(`a[href^="${paths.auth.login}"]`).first().click();
    const form = await waitForRoute(page, 'AuthLogin');
    expect(new URL(page.url()).searchParams.get('next')).toBe(project);

    await fillAndSubmit(form, HEAD);
    await waitForRoute(page, 'Project');
    expect(new URL(page.url()).pathname).toBe(project);
    expect((await storedTokens(page)).access).toBeTruthy();
  });

  it('ignores a return address of another site and lands on the dashboard', async () => {
    const { page } = browser;
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${server.url}${paths.auth.login}?next=${encodeURIComponent('//example.com/companies')}`);
    const form = await waitForRoute(page, 'AuthLogin');
    await fillAndSubmit(form, HEAD);
    await waitForRoute(page, 'Dashboard');
    expect(new URL(page.url()).origin).toBe(server.url);
    expect(new URL(page.url()).pathname).toBe(paths.dashboard);
    expect(browser.problems().filter((p) => p.startsWith('pageerror'))).toEqual([]);
  });
});
