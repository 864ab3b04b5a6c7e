import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CYRILLIC, signIn, storedTokens, switchToEnglish, visibleText, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { fillAndSubmit } from './support/forms';
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
