import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { apiGet, apiSignIn } from './support/device';
import { startServer, type RunningServer } from './support/server';

const PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };
const LANDSCAPE_TABLET = { width: 1024, height: 768 };
const DEMO_COMPANY = 'ООО «Демо Завод»';
const MORE = { ru: 'Ещё', en: 'More' } as const;

/**
 * Puts a change the server refused into `userId`'s outbox on this device, as the outbox stores one (a failed row
 * waits for the user on the Unsent screen and is never sent on its own), so the header shows the unsent count.
 * Written raw, so the page is reloaded to read it.
 */
async function storeRefusedChange(page: Page, userId: string, companyId: string): Promise<void> {
  const now = Date.now();
  const row = {
    id: randomUUID(),
    ownerUserId: userId,
    kind: 'notification.read',
    method: 'POST',
    path: `/api/v1/companies/${companyId}/notifications/read`,
    body: { ids: [randomUUID()] },
    fileIds: [],
    entityKey: `notifications:${randomUUID()}`,
    dependsOn: null,
    status: 'failed',
    attempts: 1,
    nextAttemptAt: now,
    lastError: { status: 422, message: 'Refused' },
    createdAt: now,
    updatedAt: now,
  };
  await page.evaluate(async (value) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dashboard');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    await new Promise<void>((resolve, reject) => {
      const transaction = db.transaction('outbox', 'readwrite');
      transaction.objectStore('outbox').add(value);
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error ?? new Error('the outbox write failed'));
    });
    db.close();
  }, row);
  await page.reload();
}

/** Chooses the language in the "More" sheet (a phone) or the header (wider), and waits until the nav speaks it. */
async function useLanguage(page: Page, locale: 'ru' | 'en'): Promise<void> {
  const isPhone = (await page.locator('nav.app-nav[data-layout="bar"]').count()) > 0;
  if (isPhone) {
    await page.locator('[data-action="nav-more"]').click();
    await page.locator(`[role="dialog"] [data-locale="${locale}"]`).click();
    await page.keyboard.press('Escape');
  } else {
    await page.locator(`.app-header__tools [data-locale="${locale}"]`).click();
  }
  await page.locator('[data-action="nav-more"]', { hasText: MORE[locale] }).waitFor();
}

/** What a phone's header and bottom bar show: cut names, targets too small, anything off screen. */
async function phoneProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    for (const label of document.querySelectorAll<HTMLElement>('nav.app-nav .app-nav__label')) {
      const box = label.getBoundingClientRect();
      if (label.scrollWidth > label.clientWidth) problems.push(`label cut: ${label.textContent}`);
      if (box.left < 0 || box.right > width) problems.push(`label off screen: ${label.textContent}`);
    }
    for (const link of document.querySelectorAll<HTMLElement>('nav.app-nav .app-nav__link')) {
      const box = link.getBoundingClientRect();
      if (box.width < 44 || box.height < 44) problems.push(`small target: ${link.textContent} ${box.width}x${box.height}`);
    }
    const name = document.querySelector<HTMLElement>('.company-switcher__name, .company-switcher__select');
    const badge = document.querySelector<HTMLElement>('.unsent-badge');
    if (!name) problems.push('no company name');
    if (!badge) problems.push('no unsent badge');
    if (name && badge) {
      const [a, b] = [name.getBoundingClientRect(), badge.getBoundingClientRect()];
      if (name.scrollWidth > name.clientWidth) problems.push(`company name cut: ${name.textContent}`);
      if (a.right > width || b.right > width) problems.push('company name or badge off screen');
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) problems.push('company name under the badge');
    }
    if (document.documentElement.scrollWidth > width) problems.push(`sideways scroll: ${document.documentElement.scrollWidth}px`);
    return problems;
  });
}

describe('screens on a 360 px phone and a tablet', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ seedDemo: true });
  });

  afterAll(async () => {
    await server?.stop();
  });

  for (const [device, viewport] of [['phone', PHONE], ['tablet', TABLET]] as const) {
    it(`shows the sign-in screens and the dashboard without sideways scrolling on a ${device}`, async () => {
      const browser: TestBrowser = await launchBrowser({ viewport });
      try {
        const { page } = browser;
        const overflowing: string[] = [];
        const check = async (route: string) => {
          await waitForRoute(page, route);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > viewport.width) overflowing.push(`${route}: ${width}px`);
        };
        for (const [path, route] of [
          ['/auth/login', 'AuthLogin'],
          ['/auth/register', 'AuthRegister'],
          ['/auth/recovery-password', 'AuthRecoveryPassword'],
          ['/no/such/page', 'NotFound'],
        ] as const) {
          await page.goto(`${server.url}${path}`);
          await check(route);
        }
        await signIn(page, server.url, 'owner@demo.local', 'demo1234');
        // Measured with its figures and charts (issue 13), not while they load.
        await page.getByTestId('dashboard-chart-effect').first().waitFor({ timeout: 60_000 });
        await check('Dashboard');
        await page.goto(`${server.url}/profile`);
        await check('Profile');
        // Goals and projects (issue 12): the lists, a goal and a project of the demo (with their history, team
        // and payments), and both forms.
        const owner = await apiSignIn(server.url, 'owner@demo.local', 'demo1234');
        const company = `/companies/${owner.companyId}`;
        const goals = await apiGet<{ data: { items: Array<{ id: string; status: string }> } }>(server.url, owner.accessToken, `${company}/goals`);
        const projects = await apiGet<{ data: { items: Array<{ id: string; status: string }> } }>(server.url, owner.accessToken, `${company}/projects`);
        const goal = goals.body.data.items.find((item) => item.status === 'APPROVED') ?? goals.body.data.items[0];
        const project = projects.body.data.items.find((item) => item.status === 'COMPLETED') ?? projects.body.data.items[0];
        if (!goal || !project) throw new Error('the demo has no goal or no project');
        for (const [path, route] of [
          [`${company}/goals`, 'Goals'],
          [`${company}/goals/${goal.id}`, 'Goal'],
          [`${company}/goals/create`, 'GoalCreate'],
          [`${company}/projects`, 'Projects'],
          [`${company}/projects/${project.id}`, 'Project'],
          [`${company}/projects/create`, 'ProjectCreate'],
          // The registry (issue 13): the open and past registries, and the owner's approval of the one sent.
          [`${company}/registry`, 'Registry'],
          [`${company}/registry-approve`, 'RegistryApprove'],
        ] as const) {
          await page.goto(`${server.url}${path}`);
          // Measured once the screen holds its data (its heading comes with it), not while it loads.
          await page.locator(`[data-route="${route}"] h1`).first().waitFor({ timeout: 30_000 });
          await check(route);
        }
        expect(overflowing).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  }

  it('gives a phone a bottom bar and a "More" sheet, legible in both languages with the unsent count showing', async () => {
    const browser: TestBrowser = await launchBrowser({ viewport: PHONE });
    try {
      const { page } = browser;
      const head = await apiSignIn(server.url, 'head@demo.local', 'demo1234');
      await signIn(page, server.url, 'head@demo.local', 'demo1234');
      await waitForRoute(page, 'Dashboard');
      // A department head's bar starts with the proposals to review (read from the device's departments).
      await page.locator('nav.app-nav[data-layout="bar"] li:first-child a[data-nav="review"]').waitFor({ timeout: 30_000 });
      await storeRefusedChange(page, head.userId, head.companyId);
      await waitForRoute(page, 'Dashboard');
      await page.locator('.unsent-badge').waitFor({ timeout: 30_000 });

      for (const locale of ['en', 'ru'] as const) {
        await useLanguage(page, locale);
        expect(await page.locator('.company-switcher').textContent()).toContain(DEMO_COMPANY);
        expect(await phoneProblems(page), locale).toEqual([]);
        // The page's end stays above the bar.
        const hidden = await page.evaluate(() => {
          window.scrollTo(0, document.documentElement.scrollHeight);
          const last = document.querySelector('main')?.lastElementChild?.getBoundingClientRect();
          const bar = document.querySelector('nav.app-nav')?.getBoundingClientRect();
          return last && bar ? last.bottom - bar.top : null;
        });
        expect(hidden, locale).not.toBeNull();
        expect(hidden ?? 1, locale).toBeLessThanOrEqual(0);
      }

      // "More": a modal sheet with the other pages, closed by Escape, and a way to them.
      const more = page.locator('[data-action="nav-more"]');
      await more.click();
      const sheet = page.locator('[role="dialog"][aria-modal="true"]');
      await sheet.waitFor();
      expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('nav-more');
      await more.click();
      await sheet.locator('a[data-nav="employees"]').click();
      await waitForRoute(page, 'Employees');
      await sheet.waitFor({ state: 'hidden' });
      expect(await more.getAttribute('class')).toContain('app-nav__link--current');
      await more.click();
      expect(await sheet.locator('a[data-nav="employees"]').getAttribute('aria-current')).toBe('page');
      expect(browser.problems().filter((problem) => problem.startsWith('pageerror'))).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("shows each project row's status and money whole on a 360 px phone, in Russian and English", async () => {
    const browser: TestBrowser = await launchBrowser({ viewport: PHONE });
    try {
      const { page } = browser;
      await signIn(page, server.url, 'owner@demo.local', 'demo1234');
      await waitForRoute(page, 'Dashboard');
      const owner = await apiSignIn(server.url, 'owner@demo.local', 'demo1234');
      for (const locale of ['ru', 'en'] as const) {
        await useLanguage(page, locale);
        await page.goto(`${server.url}/companies/${owner.companyId}/projects`);
        await page.locator('[data-project-row] .project-row__money').first().waitFor({ timeout: 30_000 });
        const cut = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('[data-project-row]')].flatMap((row) => {
            const problems: string[] = [];
            for (const part of row.querySelectorAll<HTMLElement>('.project-row__status, .project-row__money')) {
              if (part.scrollWidth > part.clientWidth) problems.push(`cut: ${part.textContent}`);
            }
            const link = row.querySelector<HTMLElement>('.project-row__link');
            if (link && link.scrollHeight > row.clientHeight) problems.push(`taller than its row: ${link.textContent}`);
            return problems;
          }),
        );
        expect(cut, locale).toEqual([]);
      }
    } finally {
      await browser.close();
    }
  });

  it("keeps the owner's header links on one row on a 1024 px tablet in Russian", async () => {
    const browser: TestBrowser = await launchBrowser({ viewport: LANDSCAPE_TABLET });
    try {
      const { page } = browser;
      await signIn(page, server.url, 'owner@demo.local', 'demo1234');
      await waitForRoute(page, 'Dashboard');
      await useLanguage(page, 'ru');
      const row = await page.evaluate(() => {
        const nav = document.querySelector<HTMLElement>('nav.app-nav[data-layout="row"]');
        const items = [...document.querySelectorAll<HTMLElement>('nav.app-nav > ul > li')];
        return {
          found: nav !== null,
          tops: [...new Set(items.map((item) => item.offsetTop))],
          names: items.map((item) => item.querySelector('a, button')?.textContent ?? ''),
          overflow: nav ? nav.scrollWidth - nav.clientWidth : null,
          pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
        };
      });
      expect(row.found).toBe(true);
      expect(row.names).toEqual(['Цели', 'Реестр', 'Дашборд', 'К рассмотрению', 'Ещё']);
      expect(row.tops).toHaveLength(1);
      expect(row.overflow).toBeLessThanOrEqual(0);
      expect(row.pageOverflow).toBeLessThanOrEqual(0);
      // The profile is one tap away, behind "More".
      await page.locator('[data-action="nav-more"]').click();
      await page.locator('[role="dialog"] a[data-nav="profile"]').click();
      await waitForRoute(page, 'Profile');
    } finally {
      await browser.close();
    }
  });
});
