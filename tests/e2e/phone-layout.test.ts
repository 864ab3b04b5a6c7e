import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, waitForRoute } from './support/app';
import { launchBrowser, type TestBrowser } from './support/browser';
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
        await check('Dashboard');
        await page.goto(`${server.url}/profile`);
        await check('Profile');
        expect(overflowing).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  }
});
