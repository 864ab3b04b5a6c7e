import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, storedTokens, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { fillAndSubmit } from './support/forms';
import { startServer, type RunningServer } from './support/server';

describe('password recovery in a real browser', () => {
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

  it('sets a new password through the mailed link, refuses the old one and signs in with the new one', async () => {
    const { page } = browser;
    const email = 'owner@demo.local';
    const newPassword = 'a-brand-new-secret-7';
    const mailsBefore = server.mails().length;

    await page.goto(`${server.url}/auth/recovery-password`);
    const request = await waitForRoute(page, 'AuthRecoveryPassword');
    await fillAndSubmit(request, { email });

    const mail = await server.waitForMail(email, { since: mailsBefore });
    const link = new URL(mail.link);
    expect(link.pathname).toBe('/auth/recovery-password-confirm');
    expect(link.searchParams.get('token')).toBeTruthy();

    await page.goto(mail.link);
    const confirm = await waitForRoute(page, 'AuthRecoveryPasswordConfirm');
    await fillAndSubmit(confirm, { password: newPassword });
    await waitForRoute(page, 'AuthRecoveryPasswordSuccess');

    const oldPasswordAnswer = page.waitForResponse(
      (r) => r.url().endsWith('/main-service/api/v1/auth/login') && r.request().method() === 'POST',
    );
    await signIn(page, server.url, email, 'demo1234');
    // The old password no longer opens the account: the login page stays, without tokens.
    expect((await oldPasswordAnswer).status()).toBe(401);
    await waitForRoute(page, 'AuthLogin');
    expect((await storedTokens(page)).access).toBeNull();

    await page.goto(`${server.url}/auth/login`);
    await signIn(page, server.url, email, newPassword);
    await waitForRoute(page, 'Dashboard');
    expect((await storedTokens(page)).access).toBeTruthy();
  });
});
