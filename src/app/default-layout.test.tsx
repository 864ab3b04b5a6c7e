import { act, cleanup, render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../domain/user';
import { useAppConfig, useCurrentUser } from '../lib/app-state';
import { AppIntlProvider } from '../lib/intl';
import { DialogProvider } from '../ui/dialog';
import { DefaultLayout } from './default-layout';

const user: CurrentUser = {
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
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A main-service that answers the three session calls from `answers`. */
const urlOf = (input: RequestInfo | URL) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

function serve(answers: Record<string, (language: string) => Response>) {
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = urlOf(input);
    const language = (init?.headers as Record<string, string> | undefined)?.Language ?? '';
    const answer = Object.entries(answers).find(([path]) => url.endsWith(path))?.[1];
    return Promise.resolve(answer ? answer(language) : json(404, { message: 'Not found' }));
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function Page() {
  const current = useCurrentUser();
  const config = useAppConfig();
  return (
    <p>
      Hello {current.fullName}, {config.units.length} unit(s)
      {config.enums.ROLE?.map((option) => ` (${option.title})`)}
    </p>
  );
}

async function renderLayout() {
  window.localStorage.setItem('appLocale', 'en');
  const location = memoryLocation({ path: '/dashboard', record: true });
  render(
    <AppIntlProvider>
      <DialogProvider>
        <Router hook={location.hook}>
          <DefaultLayout>
            <Page />
          </DefaultLayout>
        </Router>
      </DialogProvider>
    </AppIntlProvider>,
  );
  // The English catalogue loads on demand.
  await screen.findByRole('banner');
  return location;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('default layout: session rules in action', () => {
  it('sends a visitor without a token to the login route', async () => {
    const fetch = serve({});
    const location = await renderLayout();
    await vi.waitFor(() => expect(location.history.at(-1)).toBe('/auth/login'));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the spinner while loading, then the page with the user and the config', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    serve({
      '/api/v1/user': () => json(200, { data: user }),
      '/api/v1/enums': () => json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }),
      '/api/v1/units': () => json(200, { data: [{ id: 'HOURS', title: 'Hours', type: 'BASE_INDICATOR' }, { id: 'RUB', title: 'Rouble', type: 'CURRENCY' }] }),
    });
    await renderLayout();
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    expect(await screen.findByText('Hello Ivan Ivanov, 1 unit(s)')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Loading…' })).toBeNull();
  });

  it('fetches the app config again in the new language when the language is switched', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    const fetch = serve({
      '/api/v1/user': () => json(200, { data: user }),
      '/api/v1/enums': (language) =>
        json(200, { data: { enums: { ROLE: [{ id: 'OWNER', title: language === 'ru' ? 'Собственник' : 'Owner' }] }, supportLink: 'https://t.me/support' } }),
      '/api/v1/units': () => json(200, { data: [] }),
    });
    await renderLayout();
    expect(await screen.findByText(/\(Owner\)/)).toBeTruthy();
    await act(async () => {
      screen.getByRole('button', { name: 'Russian' }).click();
      await Promise.resolve();
    });
    expect(await screen.findByText(/\(Собственник\)/)).toBeTruthy();
    // The server is told the new language too (the user is signed in).
    expect(fetch.mock.calls.some(([input, init]) => urlOf(input).endsWith('/api/v1/user') && init?.method === 'PATCH')).toBe(true);
  });

  it('sends a user whose e-mail is not verified to the confirmation route', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    const fetch = serve({ '/api/v1/user': () => json(200, { data: { ...user, emailVerified: false, email_verified_at: null } }) });
    const location = await renderLayout();
    await vi.waitFor(() => expect(location.history.at(-1)).toBe('/auth/register/confirm-email'));
    expect(fetch.mock.calls.some(([input]) => urlOf(input).includes('/enums'))).toBe(false);
  });

  it('shows the broken screen with a reload button when the user cannot be loaded', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve({ '/api/v1/user': () => json(500, { message: 'Internal error' }) });
    await renderLayout();
    expect(await screen.findByRole('heading', { name: 'Could not load your account' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('shows the broken screen when the app config cannot be loaded', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    serve({
      '/api/v1/user': () => json(200, { data: user }),
      '/api/v1/enums': () => json(502, { message: 'Bad gateway' }),
      '/api/v1/units': () => json(200, { data: [] }),
    });
    await renderLayout();
    expect(await screen.findByRole('heading', { name: 'Could not load the app settings' })).toBeTruthy();
  });

  it('has a header with the product name, the main links, a language switch and sign-out', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    serve({ '/api/v1/user': () => json(200, { data: user }) });
    await renderLayout();
    expect(screen.getByRole('link', { name: /Improvement platform/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Profile' })).toBeTruthy();
    expect(document.querySelector('[data-locale="ru"]')).not.toBeNull();
    expect(document.querySelector('[data-locale="en"]')).not.toBeNull();
    expect(document.querySelector('[data-action="sign-out"]')).not.toBeNull();
  });
});
