// Steps shared by the browser tests, written against the app's conventions only: route containers carry
// data-route, language switches data-locale, sign-out controls data-action="sign-out", inputs their field name.
import type { Locator, Page } from 'playwright-core';
import { fillAndSubmit } from './forms';
import { waitUntil } from './wait';

export function routeOf(page: Page, name: string): Locator {
  return page.locator(`[data-route="${name}"]`);
}

export async function waitForRoute(page: Page, name: string, timeoutMs = 20_000): Promise<Locator> {
  const route = routeOf(page, name);
  await route.first().waitFor({ state: 'visible', timeout: timeoutMs });
  return route.first();
}

/**
 * Waits until the service worker controls `page` (on `route`), so a load with the network cut is served from its
 * cache: `ready` first, then a reload if the worker has not claimed the page yet (the claim can lag behind `ready`
 * on a loaded machine, and a reload is how a real visitor gets a controlled page anyway).
 */
export async function waitForServiceWorkerControl(page: Page, route: string): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.reload();
    await waitForRoute(page, route);
  }
  await waitUntil(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeoutMs: 30_000, message: 'the service worker to control the page' });
}

export async function signIn(page: Page, origin: string, email: string, password: string): Promise<void> {
  if (!page.url().startsWith(`${origin}/auth/login`)) await page.goto(`${origin}/auth/login`);
  const form = await waitForRoute(page, 'AuthLogin');
  await fillAndSubmit(form, { email, password });
}

/** Visible text of the page, leaving out the language switches (each names its language in that language). */
export async function visibleText(page: Page): Promise<string> {
  // A page that just arrived fades in (src/app/page-transition.css): let running finite animations end first,
  // or its text would count as invisible. Endless ones (spinners) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.then(() => undefined, () => undefined)),
    ).then(() => undefined),
  );
  return page.evaluate(() => {
    const parts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('[data-locale], script, style, template')) continue;
      if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      parts.push(node.textContent ?? '');
    }
    return parts.join(' ').replace(/\s+/g, ' ').trim();
  });
}

export const CYRILLIC = /[А-Яа-яЁё]/;

/** Clicks the English switch where it is (auth pages, or the profile for a signed-in user). */
export async function switchToEnglish(page: Page, origin: string): Promise<void> {
  let control = page.locator('[data-locale="en"]:visible');
  if ((await control.count()) === 0) {
    await page.goto(`${origin}/profile`);
    await waitForRoute(page, 'Profile');
    control = page.locator('[data-locale="en"]:visible');
  }
  await control.first().click();
  await waitUntil(async () => page.evaluate(() => localStorage.getItem('appLocale') === 'en'), {
    message: 'appLocale to become en',
  });
}

export async function storedTokens(page: Page): Promise<{ access: string | null; refresh: string | null }> {
  return page.evaluate(() => ({
    access: localStorage.getItem('accessToken'),
    refresh: localStorage.getItem('refreshToken'),
  }));
}
