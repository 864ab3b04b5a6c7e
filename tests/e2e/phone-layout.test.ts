import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
import { apiGet, apiSignIn } from './support/device';
import { startServer, type RunningServer } from './support/server';

const PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };

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
});
