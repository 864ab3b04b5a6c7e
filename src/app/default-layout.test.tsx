import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../domain/user';
import { SESSION_ANSWER_BOUND_MS, useAppConfig, useCurrentUser } from '../lib/app-state';
import { rememberSession, stopOffline } from '../lib/offline';
import { AppIntlProvider } from '../lib/intl';
import { startEarlySessionRequests, takeEarlySessionRequests } from '../lib/session-requests';
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

/** How long polling waits for the page: a loaded machine is slow, never wrong. */
const PATIENCE = { timeout: 10_000, interval: 20 };

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

async function renderLayout(children: ReactNode = <Page />, { path = '/dashboard', locale = 'en' } = {}) {
  window.localStorage.setItem('appLocale', locale);
  const location = memoryLocation({ path, record: true });
  // The catalogue suspends the first render until it has loaded: React retries it inside an awaited act.
  await act(() => {
    render(
      <AppIntlProvider>
        <DialogProvider>
          <Router hook={location.hook}>
            <DefaultLayout>{children}</DefaultLayout>
          </Router>
        </DialogProvider>
      </AppIntlProvider>,
    );
    // An async act: React retries the render the catalogue suspended once it has loaded.
    return Promise.resolve();
  });
  // The English catalogue loads on demand. (vi.waitFor polls on real timers, also under fake ones.)
  await vi.waitFor(() => expect(screen.getByRole('banner')).toBeTruthy(), PATIENCE);
  return location;
}

afterEach(() => {
  stopOffline();
  vi.useRealTimers();
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
    const server = hangingServer();
    await renderLayout();
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    act(() => {
      server.answer('/api/v1/enums', () => json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }));
      server.answer('/api/v1/units', () =>
        json(200, { data: [{ id: 'HOURS', title: 'Hours', type: 'BASE_INDICATOR' }, { id: 'RUB', title: 'Rouble', type: 'CURRENCY' }] }),
      );
      server.answer('/api/v1/user', () => json(200, { data: user }));
    });
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
      document.querySelector<HTMLButtonElement>('header [data-locale="ru"]')?.click();
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
    expect(fetch.mock.calls.some(([input]) => urlOf(input).endsWith('/api/v1/user'))).toBe(true);
  });

  it('asks for the config beside GET /user, not after its answer: one round trip before the first screen', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    const server = hangingServer();
    await renderLayout();
    await vi.waitFor(() => {
      const asked = server.fetch.mock.calls.map(([input]) => urlOf(input));
      expect(['/api/v1/user', '/api/v1/enums', '/api/v1/units'].every((path) => asked.some((url) => url.endsWith(path)))).toBe(true);
    }, PATIENCE);
    act(() => {
      server.answer('/api/v1/units', () => json(200, { data: [{ id: 'HOURS', title: 'Hours', type: 'BASE_INDICATOR' }] }));
      server.answer('/api/v1/enums', () => json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }));
      server.answer('/api/v1/user', () => json(200, { data: user }));
    });
    expect(await screen.findByText('Hello Ivan Ivanov, 1 unit(s)')).toBeTruthy();
    expect(server.fetch.mock.calls.filter(([input]) => urlOf(input).endsWith('/api/v1/enums'))).toHaveLength(1);
  });

  it('takes the session requests started with the app (before React rendered): each is asked for once', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    const server = hangingServer();
    startEarlySessionRequests();
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalledTimes(3), PATIENCE);
    await renderLayout();
    act(() => {
      server.answer('/api/v1/units', () => json(200, { data: [{ id: 'HOURS', title: 'Hours', type: 'BASE_INDICATOR' }] }));
      server.answer('/api/v1/enums', () => json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }));
      server.answer('/api/v1/user', () => json(200, { data: user }));
    });
    expect(await screen.findByText('Hello Ivan Ivanov, 1 unit(s)')).toBeTruthy();
    const asked = server.fetch.mock.calls.map(([input]) => urlOf(input));
    for (const path of ['/api/v1/user', '/api/v1/enums', '/api/v1/units']) expect(asked.filter((url) => url.endsWith(path)), path).toHaveLength(1);
    // Taken once: a later session check (another mount) asks the server anew.
    expect(takeEarlySessionRequests()).toBeNull();
  });

  it('starts no early session requests without a token (the page goes to sign-in)', () => {
    const fetch = serve({});
    startEarlySessionRequests();
    expect(takeEarlySessionRequests()).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the broken screen with a reload button when the user cannot be loaded', async () => {
    window.localStorage.setItem('accessToken', 'a1');
    window.localStorage.setItem('refreshToken', 'r1');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    serve({ '/api/v1/user': () => json(500, { message: 'Internal error' }) });
    await renderLayout();
    expect(await screen.findByRole('heading', { name: 'Could not load your account' })).toBeTruthy();
    // The server answered 500: its fault, not the connection's, and worth another try in a minute.
    expect(screen.getByText(/we already know about it/i)).toBeTruthy();
    expect(screen.queryByText(/check your internet connection/i)).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
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
    // The profile is behind "More", with the other entries of the account.
    expect(screen.queryByRole('link', { name: 'Profile' })).toBeNull();
    act(() => screen.getByRole('button', { name: 'More' }).click());
    expect(within(screen.getByRole('dialog', { name: 'More' })).getByRole('link', { name: 'Profile' }).getAttribute('href')).toBe('/profile');
    const tools = document.querySelector('.app-header__tools');
    expect(tools?.querySelector('[data-locale="ru"]')).not.toBeNull();
    expect(tools?.querySelector('[data-locale="en"]')).not.toBeNull();
    expect(tools?.querySelector('[data-action="sign-out"]')).not.toBeNull();
  });
});

/** A token whose payload names `sub` (the device never checks the signature). */
const tokenOf = (sub: string) => `header.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.signature`;

function signInAs(sub: string) {
  window.localStorage.setItem('accessToken', tokenOf(sub));
  window.localStorage.setItem('refreshToken', tokenOf(sub));
}

const demoCompany = { id: 'c1', name: 'Demo Plant', roles: ['OWNER'] };
const member: CurrentUser = { ...user, companies: [demoCompany] };
const rememberedConfig = { enums: { ROLE: [{ id: 'OWNER', title: 'Owner' }] }, supportLink: 'https://t.me/support' };

/** The session this device remembers from the last time `who` was signed in. */
async function rememberOnDevice(who: CurrentUser) {
  await rememberSession({ user: who, enums: rememberedConfig, units: [{ id: 'HOURS', title: 'Hours', type: 'BASE_INDICATOR' }] });
}

/**
 * Answers the session calls only once the test says so (a hanging network: accepted, never answered); from
 * then on, later calls of that path get the same answer at once.
 */
function hangingServer() {
  const waiting = new Map<string, ((response: Response) => void)[]>();
  const answers = new Map<string, () => Response>();
  const fetch = vi.fn((input: RequestInfo | URL) => {
    const url = urlOf(input);
    const path = ['/api/v1/user', '/api/v1/enums', '/api/v1/units'].find((candidate) => url.endsWith(candidate));
    if (!path) return Promise.resolve(json(404, { message: 'Not found' }));
    const answer = answers.get(path);
    if (answer) return Promise.resolve(answer());
    return new Promise<Response>((resolve) => waiting.set(path, [...(waiting.get(path) ?? []), resolve]));
  });
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    answer(path: string, response: () => Response) {
      answers.set(path, response);
      for (const resolve of waiting.get(path) ?? []) resolve(response());
      waiting.delete(path);
    },
  };
}

describe('default layout on a hanging network', () => {
  it('shows the remembered session once GET /user has not answered within the bound, then obeys a late 401', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    signInAs('u1');
    await rememberOnDevice(member);
    const server = hangingServer();
    const location = await renderLayout();
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(SESSION_ANSWER_BOUND_MS));
    await vi.waitFor(() => expect(screen.getByText('Hello Ivan Ivanov, 1 unit(s) (Owner)')).toBeTruthy(), PATIENCE);

    // The request went on in the background; its answer, when it comes, is obeyed.
    await act(async () => {
      server.answer('/api/v1/user', () => json(401, { message: 'Unauthorized' }));
      await vi.advanceTimersByTimeAsync(0);
    });
    await vi.waitFor(() => expect(location.history.at(-1)).toBe('/auth/login'), PATIENCE);
  });

  it('takes the user of a late answer and stays on the remembered session when a late answer fails', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    signInAs('u1');
    await rememberOnDevice(member);
    const server = hangingServer();
    const location = await renderLayout();
    await act(() => vi.advanceTimersByTimeAsync(SESSION_ANSWER_BOUND_MS));
    await vi.waitFor(() => expect(screen.getByText(/Hello Ivan Ivanov/)).toBeTruthy(), PATIENCE);

    await act(async () => {
      server.answer('/api/v1/user', () => json(502, { message: 'Bad gateway' }));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText(/Hello Ivan Ivanov/)).toBeTruthy();

    // Asked again when the connection seems back (focus), a changed user is taken.
    await act(async () => {
      server.answer('/api/v1/user', () => json(200, { data: { ...member, fullName: 'Ivan Petrov' } }));
      window.dispatchEvent(new Event('focus'));
      await vi.advanceTimersByTimeAsync(0);
    });
    await vi.waitFor(() => expect(screen.getByText(/Hello Ivan Petrov/)).toBeTruthy(), PATIENCE);
    expect(location.history.at(-1)).toBe('/dashboard');
  });

  it("never stands in with another person's remembered session", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    signInAs('u1');
    await rememberOnDevice({ ...member, id: 'u2', fullName: 'Somebody Else' });
    const server = hangingServer();
    await renderLayout();
    await act(() => vi.advanceTimersByTimeAsync(SESSION_ANSWER_BOUND_MS * 4));
    expect(screen.queryByText(/Somebody Else/)).toBeNull();
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();

    await act(async () => {
      server.answer('/api/v1/enums', () => json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }));
      server.answer('/api/v1/units', () => json(200, { data: [] }));
      server.answer('/api/v1/user', () => json(200, { data: member }));
      await vi.advanceTimersByTimeAsync(0);
    });
    await vi.waitFor(() => expect(screen.getByText('Hello Ivan Ivanov, 0 unit(s)')).toBeTruthy(), PATIENCE);
  });

  it('stands in with the remembered enums and units when only they hang', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    signInAs('u1');
    await rememberOnDevice(member);
    const server = hangingServer();
    await renderLayout();
    await act(async () => {
      server.answer('/api/v1/user', () => json(200, { data: member }));
      await vi.advanceTimersByTimeAsync(SESSION_ANSWER_BOUND_MS);
    });
    await vi.waitFor(() => expect(screen.getByText('Hello Ivan Ivanov, 1 unit(s) (Owner)')).toBeTruthy(), PATIENCE);
  });
});


describe('default layout: proposals and notifications in the header', () => {
  const emptyPage = { data: { changes: [], nextCursor: '1', hasMore: false, reset: false } };

  /** The session calls, and an empty pull, so the device's mirror stays as the test stored it. */
  function serveMember(who: CurrentUser) {
    const fetch = vi.fn((input: RequestInfo | URL) => {
      const url = urlOf(input);
      if (url.includes('/api/v1/sync/pull')) return Promise.resolve(json(200, emptyPage));
      if (url.endsWith('/api/v1/user')) return Promise.resolve(json(200, { data: who }));
      if (url.endsWith('/api/v1/enums')) return Promise.resolve(json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }));
      if (url.endsWith('/api/v1/units')) return Promise.resolve(json(200, { data: [] }));
      return Promise.resolve(json(404, { message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetch);
  }

  const memberWith = (roles: string[]): CurrentUser => ({ ...user, companies: [{ ...demoCompany, roles }] });
  const at = '2026-03-01T10:00:00.000Z';

  afterEach(async () => {
    const { getAppDatabase } = await import('../lib/db/database');
    const db = getAppDatabase();
    await Promise.all([db.departments.clear(), db.notifications.clear()]);
  });

  it('gives the owner "To review" beside "My proposals" and a bell with the unread count', async () => {
    const { getAppDatabase } = await import('../lib/db/database');
    await getAppDatabase().notifications.bulkPut(
      ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'].map((id) => ({
        id,
        companyId: 'c1',
        userId: 'u1',
        kind: 'SUGGESTION_SUBMITTED',
        suggestionId: 's1',
        params: { title: 'T' },
        readAt: null,
        createdAt: at,
        ownerUserId: 'u1',
      })),
    );
    signInAs('u1');
    serveMember(memberWith(['OWNER']));
    await renderLayout();
    const review = await screen.findByRole('link', { name: 'To review' }, PATIENCE);
    expect(review.getAttribute('href')).toBe('/companies/c1/suggestions');
    // The owner's own proposals are behind "More": the bar holds their work (goals, registry, dashboard, review).
    expect(screen.getByRole('link', { name: 'My proposals', hidden: true }).closest('[role="dialog"]')).not.toBeNull();
    expect((await screen.findByRole('link', { name: 'Notifications, 2 unread' }, PATIENCE)).getAttribute('href')).toBe('/notifications');
  });

  it('gives a department head "To review", read from the mirrored departments', async () => {
    const { getAppDatabase } = await import('../lib/db/database');
    await getAppDatabase().departments.put({ id: 'd1', companyId: 'c1', name: 'Production', headUserId: 'u1', createdAt: at, updatedAt: at, ownerUserId: 'u1' });
    signInAs('u1');
    serveMember(memberWith(['EMPLOYEE']));
    await renderLayout();
    expect(await screen.findByRole('link', { name: 'To review' }, PATIENCE)).toBeTruthy();
  });

  it('gives HR "Proposals" to see, and an employee only "My proposals"', async () => {
    signInAs('u1');
    serveMember(memberWith(['HR']));
    await renderLayout();
    expect(await screen.findByRole('link', { name: 'Proposals' }, PATIENCE)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'To review' })).toBeNull();
    stopOffline();
    cleanup();

    serveMember(memberWith(['EMPLOYEE']));
    await renderLayout();
    expect(await screen.findByRole('link', { name: 'Notifications' }, PATIENCE)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My proposals' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Proposals' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'To review' })).toBeNull();
  });
});

describe('default layout on a phone', () => {
  afterEach(() => {
    Reflect.deleteProperty(window, 'matchMedia');
  });

  it('keeps the company and the notifications in the header, and the language and sign-out behind "More"', async () => {
    // A 360 px screen, as matchMedia answers it (the bottom bar itself is CSS).
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({ matches: false, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }),
    });
    signInAs('u1');
    serve({
      '/api/v1/user': () => json(200, { data: member }),
      '/api/v1/enums': () => json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }),
      '/api/v1/units': () => json(200, { data: [] }),
    });
    await renderLayout();
    const header = within(screen.getByRole('banner'));
    expect(await header.findByText('Current company: Demo Plant', {}, PATIENCE)).toBeTruthy();
    expect(await header.findByRole('link', { name: 'Notifications' }, PATIENCE)).toBeTruthy();
    const tools = document.querySelector('.app-header__tools');
    expect(tools?.querySelector('[data-locale]')).toBeNull();
    expect(tools?.querySelector('[data-action="sign-out"]')).toBeNull();

    const nav = within(header.getByRole('navigation', { name: 'Main navigation' }));
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['Goals', 'Registry', 'Dashboard', 'Review']);
    act(() => nav.getByRole('button', { name: 'More' }).click());
    const sheet = within(screen.getByRole('dialog', { name: 'More' }));
    expect(sheet.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(document.querySelector('[role="dialog"] [data-locale="en"]')).not.toBeNull();
  });
});
