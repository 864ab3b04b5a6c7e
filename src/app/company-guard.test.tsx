import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../domain/user';
import { AppIntlProvider } from '../lib/intl';
import { rememberSession, stopOffline } from '../lib/offline';
import { DialogProvider } from '../ui/dialog';
import { AppRoutes } from './app';
import { CompanyGuard } from './company-guard';
import { DefaultLayout } from './default-layout';

// The update prompt reads a module of the PWA build plugin, which unit tests do not run.
vi.mock('./pwa-update', () => ({ PwaUpdatePrompt: () => null }));

const demoCompany = { id: 'c1', name: 'Demo Plant', roles: ['OWNER'] };
const member: CurrentUser = {
  id: 'u1',
  email: 'owner@demo.local',
  telephone: null,
  hrInviterData: null,
  department: null,
  company: null,
  fullName: 'Ivan Ivanov',
  firstName: 'Ivan',
  lastName: 'Ivanov',
  middleName: null,
  position: null,
  otherPosition: null,
  mainGoal: 'COST_REDUCTION',
  role: 'OWNER',
  email_verified_at: '2025-01-01T00:00:00Z',
  active: true,
  username: 'owner@demo.local',
  authorities: [{ authority: 'ROLE_OWNER' }],
  emailVerified: true,
  accountNonExpired: true,
  accountNonLocked: true,
  credentialsNonExpired: true,
  enabled: true,
  locale: 'en',
  companies: [demoCompany],
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const urlOf = (input: RequestInfo | URL) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** A token whose payload names `sub` (the device never checks the signature). */
const tokenOf = (sub: string) => `header.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.signature`;

function signInAs(sub: string) {
  window.localStorage.setItem('accessToken', tokenOf(sub));
  window.localStorage.setItem('refreshToken', tokenOf(sub));
}

function serveMember() {
  signInAs('u1');
  const answers: Record<string, () => Response> = {
    '/api/v1/user': () => json(200, { data: member }),
    '/api/v1/enums': () => json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }),
    '/api/v1/units': () => json(200, { data: [] }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = urlOf(input);
      const answer = Object.entries(answers).find(([path]) => url.endsWith(path))?.[1];
      return Promise.resolve(answer ? answer() : json(404, { message: 'Not found' }));
    }),
  );
}

async function renderLayout(children: ReactNode, { path, locale = 'en' }: { path: string; locale?: string }) {
  window.localStorage.setItem('appLocale', locale);
  const location = memoryLocation({ path, record: true });
  // The catalogue suspends the first render until it has loaded: React retries it inside an awaited act.
  await act(() => {
    render(
      <Router hook={location.hook}>
        <AppIntlProvider>
          <DialogProvider>
            <DefaultLayout>{children}</DefaultLayout>
          </DialogProvider>
        </AppIntlProvider>
      </Router>,
    );
    // An async act: React retries the render the catalogue suspended once it has loaded.
    return Promise.resolve();
  });
  await screen.findByRole('banner');
}

afterEach(() => {
  stopOffline();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe('company pages of a company the user does not belong to', () => {
  it('shows the not-found screen for a foreign company id, never the company page', async () => {
    serveMember();
    await renderLayout(
      <CompanyGuard companyId="foreign">
        <p>Import your staff</p>
      </CompanyGuard>,
      { path: '/companies/foreign/employees' },
    );
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.queryByText('Import your staff')).toBeNull();
  });

  it('says so in Russian too', async () => {
    serveMember();
    await renderLayout(
      <CompanyGuard companyId="foreign">
        <p>Import your staff</p>
      </CompanyGuard>,
      { path: '/companies/foreign/employees', locale: 'ru' },
    );
    expect(await screen.findByRole('heading', { name: '404 Страница не найдена' })).toBeTruthy();
    expect(screen.queryByText('Import your staff')).toBeNull();
  });

  it("shows a page of the user's own company offline, from the remembered user", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signInAs('u1');
    await rememberSession({ user: member, enums: { enums: {}, supportLink: 'https://t.me/support' }, units: [] });
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await renderLayout(
      <CompanyGuard companyId="c1">
        <p>The company page</p>
      </CompanyGuard>,
      { path: '/companies/c1/employees' },
    );
    expect(await screen.findByText('The company page')).toBeTruthy();
  });

  it('guards every company route of the routes table', async () => {
    serveMember();
    window.localStorage.setItem('appLocale', 'en');
    const location = memoryLocation({ path: '/companies/foreign/my-suggestions', record: true });
    await act(() => {
      render(
        <Router hook={location.hook}>
          <AppIntlProvider>
            <DialogProvider>
              <AppRoutes />
            </DialogProvider>
          </AppIntlProvider>
        </Router>,
      );
      // An async act: React retries the render the catalogue suspended once it has loaded.
      return Promise.resolve();
    });
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(document.querySelector('[data-screen="not-found"]')).not.toBeNull();
  });
});

describe('a company page opened signed out (a mailed link)', () => {
  async function openSignedOut(path: string) {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(json(401, { message: 'Unauthorized' }))));
    window.localStorage.setItem('appLocale', 'en');
    const location = memoryLocation({ path, record: true });
    await act(() => {
      render(
        <Router hook={location.hook}>
          <AppIntlProvider>
            <DialogProvider>
              <AppRoutes />
            </DialogProvider>
          </AppIntlProvider>
        </Router>,
      );
      // An async act: React retries the render the catalogue suspended once it has loaded.
      return Promise.resolve();
    });
    return location;
  }

  it('goes to the login route naming the page, which the login page announces and hands on', async () => {
    const location = await openSignedOut('/companies/c1/projects/p1?tab=team');
    await vi.waitFor(() => expect(location.history.at(-1)).toBe('/auth/login?next=/companies/c1/projects/p1%3Ftab%3Dteam'));
    expect(await screen.findByText('Sign in to open the page you were going to.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/auth/register?next=/companies/c1/projects/p1%3Ftab%3Dteam');
  });

  it('goes to the plain login route from the dashboard, where a sign-in lands anyway', async () => {
    const location = await openSignedOut('/dashboard');
    await vi.waitFor(() => expect(location.history.at(-1)).toBe('/auth/login'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('Sign in to open the page you were going to.')).toBeNull();
  });
});
