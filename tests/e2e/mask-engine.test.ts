// The masked fields of the build in Chromium, on the proposal form's estimate (a currency mask, empty at first):
// imask is not downloaded until the field is used; what is typed while it is on its way is formatted when it
// takes over and reaches the server as the right amount; when it cannot be loaded, what is typed is kept as typed
// and sent. The chunk's requests are held or refused by the test, so nothing here depends on timing; service
// workers are blocked so every chunk comes from the network.
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/domain/paths';
import { routeOf, waitForRoute } from './support/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/browser';
import { setField, submit } from './support/forms';
import { demoTokens, type DemoTokens } from './support/route-sizes';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const IMASK_CHUNK = '**/assets/masks-imask-*.js';

describe('masked fields load imask when first edited (Chromium, the build)', () => {
  let server: RunningServer;
  let browser: Browser;
  let tokens: DemoTokens;
  let companyId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startServer({ seedDemo: true });
    tokens = await demoTokens(server.url, 'employee@demo.local', 'demo1234');
    const me = await fetch(`${server.url}/main-service/api/v1/user`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    const body = (await me.json()) as { data: { companies: Array<{ id: string }> } };
    companyId = body.data.companies[0]?.id ?? '';
    if (companyId === '') throw new Error('the demo employee belongs to no company');
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
  });

  /** The estimate of the caller's proposal titled `title` on the server; undefined until it is there. */
  async function sentEstimate(title: string): Promise<{ amountMinor: number; currency: string } | null | undefined> {
    const response = await fetch(`${server.url}/main-service/api/v1/companies/${companyId}/suggestions?scope=mine`, {
      headers: { Authorization: `Bearer ${tokens.accessToken}` },
    });
    const list = (await response.json()) as { data: { items: Array<{ title: string; effectEstimate: { amountMinor: number; currency: string } | null }> } };
    return list.data.items.find((item) => item.title === title)?.effectEstimate;
  }

  /** A signed-in proposal form whose requests for the imask chunk go to `onImask`. */
  async function openForm(onImask: (route: Route) => Promise<void>): Promise<{ page: Page; imaskRequests: () => number }> {
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 800, height: 1000 }, locale: 'en-US' });
    contexts.push(context);
    await context.addInitScript((pair: DemoTokens) => {
      localStorage.setItem('accessToken', pair.accessToken);
      localStorage.setItem('refreshToken', pair.refreshToken);
      localStorage.setItem('appLocale', 'en');
    }, tokens);
    let requests = 0;
    await context.route(IMASK_CHUNK, async (route) => {
      requests += 1;
      await onImask(route);
    });
    const page = await context.newPage();
    await page.goto(`${server.url}${paths.company.suggestionsCreate(companyId)}`);
    await waitForRoute(page, 'SuggestionCreate');
    await page.locator('input[name="estimate"]').waitFor();
    return { page, imaskRequests: () => requests };
  }

  /** Fills the rest of the proposal form, sends it and answers the estimate the server stored. */
  async function sendProposal(page: Page, title: string) {
    const form = routeOf(page, 'SuggestionCreate');
    await setField(form, 'title', title);
    await setField(form, 'problem', 'Changeovers take forty minutes.');
    await setField(form, 'solution', 'Keep the tooling at the machine.');
    await setField(form, 'expectedEffect', 'Twenty minutes less per changeover.');
    await setField(form, 'departmentId', '');
    await submit(form);
    await waitForRoute(page, 'SuggestionCreateResult');
    await waitUntil(async () => (await sentEstimate(title)) !== undefined, { timeoutMs: 30_000, message: 'the proposal to reach the server' });
    return sentEstimate(title);
  }

  it('asks for imask only when the field is used, formats what was typed meanwhile and sends the right amount', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const { page, imaskRequests } = await openForm(async (route) => {
      await released;
      await route.continue();
    });
    const estimate = page.locator('input[name="estimate"]');
    await page.waitForLoadState('networkidle');
    expect(imaskRequests()).toBe(0);
    expect(await estimate.getAttribute('data-mask')).toBe('none');

    await estimate.focus();
    await waitUntil(() => imaskRequests() === 1, { message: 'the focus to ask for imask' });
    await estimate.pressSequentially('1200');
    expect(await estimate.inputValue()).toBe('1200');

    release();
    await waitUntil(async () => (await estimate.getAttribute('data-mask')) === 'imask', { timeoutMs: 30_000, message: 'imask to take the field' });
    expect(await estimate.inputValue()).toBe('1,200');
    await estimate.pressSequentially('.5');
    expect(await estimate.inputValue()).toBe('1,200.5');
    await estimate.press('End');
    // The k shortcut multiplies what is there; the whole amount shows while editing, its cents once the field is left.
    await estimate.pressSequentially('k');
    expect(await estimate.inputValue()).toBe('1,200,500');
    await estimate.blur();
    expect(await estimate.inputValue()).toBe('1,200,500.00');

    expect(await sendProposal(page, `Mask hand-over ${Date.now()}`)).toEqual({ amountMinor: 120_050_000, currency: 'RUB' });
  });

  it('keeps what is typed as typed, asks again on the next use and sends it, when imask cannot be loaded', async () => {
    const { page, imaskRequests } = await openForm((route) => route.abort('failed'));
    const estimate = page.locator('input[name="estimate"]');
    await estimate.focus();
    await waitUntil(() => imaskRequests() >= 1, { message: 'the focus to ask for imask' });
    await estimate.pressSequentially('1234.5');
    await estimate.blur();
    expect(await estimate.inputValue()).toBe('1234.5');
    expect(await estimate.getAttribute('data-mask')).toBe('none');

    const before = imaskRequests();
    await estimate.focus();
    await waitUntil(() => imaskRequests() > before, { message: 'the next focus to ask for imask again' });
    expect(await estimate.inputValue()).toBe('1234.5');

    expect(await sendProposal(page, `Mask missing ${Date.now()}`)).toEqual({ amountMinor: 123_450, currency: 'RUB' });
  });
});
