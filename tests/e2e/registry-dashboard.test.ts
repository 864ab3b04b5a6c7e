// The end of the chain (issue 13) in Chromium, through the screens: the owner opens the registry the direction
// manager sent them (the demo's registry waiting on the owner), adjusts the final cost of one project with a
// reason and approves it; the server keeps the adjusted cost and its reason, and the dashboard's figures of the
// year change by exactly that: the costs by the adjustment, the approved remuneration by the registry's. Then the
// dashboard in Russian and in English on a 360 px phone and a tablet, without sideways scrolling, and with the
// network refused: the last figures stay on screen with the time they were computed.
// Nothing here waits on a fixed time: every step waits for a state, with loose bounds for a busy machine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../src/domain/dashboard';
import { periodPreset } from '../../src/domain/dashboard';
import type { Registry, RegistryItem } from '../../src/domain/registry';
import { paths } from '../../src/domain/paths';
import { CYRILLIC, signIn, switchToEnglish, waitForRoute, waitForServiceWorkerControl } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { apiGet, apiSignIn, type ServerSession } from './support/device';
import { startProxy, type TcpProxy } from './support/proxy';
import { startServer, type RunningServer } from './support/server';
import { waitUntil } from './support/wait';

const PASSWORD = 'demo1234';
const OWNER = 'owner@demo.local';
const PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };

let server: RunningServer;
let proxy: TcpProxy;
let owner: ServerSession;
const browsers: TestBrowser[] = [];

async function open(email: string, viewport = { width: 800, height: 1100 }): Promise<Page> {
  const browser = await launchBrowser({ viewport });
  browsers.push(browser);
  await signIn(browser.page, proxy.origin, email, PASSWORD);
  await waitForRoute(browser.page, 'Dashboard', 30_000);
  return browser.page;
}

/** This year on the server's calendar (UTC), as the dashboard's default period. */
const YEAR = periodPreset('year', new Date().toISOString().slice(0, 10));

async function serverDashboard(): Promise<Dashboard> {
  const answer = await apiGet<{ data: Dashboard }>(server.url, owner.accessToken, `/companies/${owner.companyId}/dashboard?from=${YEAR.from}&to=${YEAR.to}`);
  if (answer.status !== 200) throw new Error(`the dashboard answered ${answer.status}`);
  return answer.body.data;
}

async function serverRegistries(): Promise<Registry[]> {
  const answer = await apiGet<{ data: { registries: Registry[] } }>(server.url, owner.accessToken, `/companies/${owner.companyId}/registry`);
  if (answer.status !== 200) throw new Error(`the registry answered ${answer.status}`);
  return answer.body.data.registries;
}

const rub = (dashboard: Dashboard) => dashboard.money.find((money) => money.currency === 'RUB');

/** The figure's digits as the screen shows them ('1 234 567,89 ₽' -> '123456789'). */
async function digitsOf(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\D/g, '');
}

beforeAll(async () => {
  server = await startServer({ seedDemo: true, startTimeoutMs: 180_000 });
  proxy = await startProxy(server.port);
  owner = await apiSignIn(server.url, OWNER, PASSWORD);
}, 200_000);

afterAll(async () => {
  for (const browser of browsers) await browser.close().catch((error: unknown) => console.error('closing a browser failed', error));
  await proxy?.close().catch((error: unknown) => console.error('closing the proxy failed', error));
  await server?.stop();
}, 60_000);

describe('the registry and the dashboard, in Chromium', () => {
  it('the owner adjusts one cost and approves the registry, and the dashboard’s totals change by it', async () => {
    const sent = (await serverRegistries()).find((registry) => registry.status === 'SENT');
    if (!sent) throw new Error('the demo has no registry waiting on the owner');
    const item = sent.items.find((candidate): candidate is RegistryItem => candidate.currency === 'RUB' && candidate.estimatedCostsMinor >= 200_000);
    if (!item) throw new Error('the sent registry has no project in roubles to adjust');
    const before = await serverDashboard();
    const rubBefore = rub(before);
    if (!rubBefore) throw new Error('the demo dashboard has no figures in roubles this year');

    const page = await open(OWNER);
    await page.goto(`${proxy.origin}${paths.dashboard}`);
    await page.getByTestId('dashboard-figures').waitFor({ timeout: 60_000 });
    await waitUntil(async () => (await digitsOf(page, 'dashboard-costs-RUB')) !== '', { timeoutMs: 60_000, message: 'the costs on the dashboard' });
    const costsOnScreen = await digitsOf(page, 'dashboard-costs-RUB');

    // The adjusted final cost: 1,000.00 RUB less than calculated (entered as the owner types it).
    const adjustedMinor = item.estimatedCostsMinor - 100_000;
    const adjustedText = (adjustedMinor / 100).toFixed(2).replace('.', ',');
    await page.goto(`${proxy.origin}${paths.company.registryApprove(owner.companyId)}?id=${sent.id}`);
    await waitForRoute(page, 'RegistryApprove', 30_000);
    await page.getByTestId(`registry-item-${item.projectId}`).waitFor({ timeout: 60_000 });
    await page.getByTestId(`registry-final-cost-${item.projectId}`).fill(adjustedText);
    await page.getByTestId(`registry-reason-${item.projectId}`).fill('Поставщик дал скидку на датчики');
    await page.getByTestId('registry-approve').click();
    await waitForRoute(page, 'RegistryApproveSuccess', 30_000);

    await waitUntil(async () => (await serverRegistries()).find((registry) => registry.id === sent.id)?.status === 'APPROVED', {
      timeoutMs: 60_000,
      intervalMs: 300,
      message: 'the approval on the server',
    });
    const approved = (await serverRegistries()).find((registry) => registry.id === sent.id);
    expect(approved?.items.find((candidate) => candidate.projectId === item.projectId)).toMatchObject({
      finalCostMinor: adjustedMinor,
      adjustmentReason: 'Поставщик дал скидку на датчики',
    });
    expect(approved?.history.filter((entry) => entry.action === 'APPROVE')).toHaveLength(1);

    // The year's figures: the project's cost is the adjusted one now (where it was approved this year), and the
    // registry's remuneration is approved remuneration of this year.
    const after = await serverDashboard();
    const rubAfter = rub(after);
    const remunerationOfRub = sent.items.filter((candidate) => candidate.currency === 'RUB').reduce((sum, candidate) => sum + candidate.remunerationMinor, 0);
    expect(rubAfter?.approvedRemunerationMinor).toBe(rubBefore.approvedRemunerationMinor + remunerationOfRub);
    // The project counts in this year's costs when the direction manager approved it this year (its history says).
    const project = await apiGet<{ data: { history: Array<{ at: string; toStatus: string }> } }>(server.url, owner.accessToken, `/companies/${owner.companyId}/projects/${item.projectId}`);
    const approvedAt = project.body.data.history.filter((entry) => entry.toStatus === 'APPROVED').at(-1)?.at.slice(0, 10) ?? '';
    const approvedThisYear = approvedAt >= YEAR.from && approvedAt <= YEAR.to;
    expect(rubAfter?.costsMinor).toBe(approvedThisYear ? rubBefore.costsMinor - 100_000 : rubBefore.costsMinor);

    // And the screen shows the new figures.
    await page.goto(`${proxy.origin}${paths.dashboard}`);
    await page.getByTestId('dashboard-figures').waitFor({ timeout: 60_000 });
    await waitUntil(async () => (await digitsOf(page, 'dashboard-approved-remuneration-RUB')) === String(rubAfter?.approvedRemunerationMinor ?? ''), {
      timeoutMs: 60_000,
      intervalMs: 300,
      message: 'the approved remuneration on the dashboard',
    });
    if (approvedThisYear) expect(await digitsOf(page, 'dashboard-costs-RUB')).not.toBe(costsOnScreen);
  }, 300_000);

  for (const [device, viewport] of [['phone', PHONE], ['tablet', TABLET]] as const) {
    it(`shows the dashboard in Russian and English on a ${device} without sideways scrolling, and offline with the date of its figures`, async () => {
      const page = await open(OWNER, viewport);
      const widths: string[] = [];
      const figuresShown = async (language: string) => {
        await page.getByTestId('dashboard-figures').waitFor({ timeout: 60_000 });
        await page.getByTestId('dashboard-chart-effect').waitFor({ timeout: 60_000 });
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > viewport.width) widths.push(`${language}: ${width}px`);
      };
      await figuresShown('ru');
      expect(await page.getByTestId('dashboard-figures').innerText()).toMatch(CYRILLIC);

      await switchToEnglish(page, proxy.origin);
      await page.goto(`${proxy.origin}${paths.dashboard}`);
      await waitForRoute(page, 'Dashboard', 30_000);
      await figuresShown('en');
      const english = await page.getByTestId('dashboard-figures').innerText();
      expect(english).toMatch(/Economic effect|Efficiency|EBITDA/);
      expect(widths).toEqual([]);

      // Offline: the connection refused, the page reloaded from the service worker's cache (once it controls the page).
      await waitForServiceWorkerControl(page, 'Dashboard');
      await proxy.set('refuse');
      try {
        await page.reload();
        await waitForRoute(page, 'Dashboard', 60_000);
        await page.getByTestId('dashboard-figures').waitFor({ timeout: 60_000 });
        const asOf = await page.getByTestId('dashboard-as-of').innerText();
        expect(asOf).toMatch(/\d/);
      } finally {
        await proxy.set('up');
      }
    }, 300_000);
  }
});
