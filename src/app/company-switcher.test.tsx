import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../domain/user';
import { pickCurrentCompany, readStoredCompanyId, setCurrentCompany } from '../lib/current-company';
import { AppIntlProvider } from '../lib/intl';
import { stopOffline } from '../lib/offline';
import { DialogProvider } from '../ui/dialog';
import { DefaultLayout } from './default-layout';

const FACTORY = { id: '11111111-1111-4111-8111-111111111111', name: 'Demo Factory LLC', roles: ['OWNER'] };
const BAKERY = { id: '22222222-2222-4222-8222-222222222222', name: 'Bakery', roles: ['EMPLOYEE'] };

function userWith(companies: CurrentUser['companies'], id = 'u1'): CurrentUser {
  return {
    id,
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
    mainGoal: null,
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
    companies,
  };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const urlOf = (input: RequestInfo | URL) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** A main-service that answers the session calls for `user`; everything else (pulls, probes) answers 404. */
function serve(user: CurrentUser) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = urlOf(input);
      if (url.endsWith('/api/v1/user')) return Promise.resolve(json(200, { data: user }));
      if (url.endsWith('/api/v1/enums')) return Promise.resolve(json(200, { data: { enums: {}, supportLink: 'https://t.me/support' } }));
      if (url.endsWith('/api/v1/units')) return Promise.resolve(json(200, { data: [] }));
      return Promise.resolve(json(404, { message: 'Not found' }));
    }),
  );
}

async function renderLayout(user: CurrentUser, path = '/dashboard') {
  window.localStorage.setItem('appLocale', 'en');
  window.localStorage.setItem('accessToken', 'a1');
  window.localStorage.setItem('refreshToken', 'r1');
  serve(user);
  const location = memoryLocation({ path, record: true });
  render(
    <AppIntlProvider>
      <DialogProvider>
        <Router hook={location.hook}>
          <DefaultLayout>
            <p>Page</p>
          </DefaultLayout>
        </Router>
      </DialogProvider>
    </AppIntlProvider>,
  );
  await screen.findByText('Page');
  return location;
}

/** The id the switcher shows as chosen. */
function selectedCompanyId(): string {
  const switcher = screen.getByRole('combobox', { name: 'Current company' });
  if (!(switcher instanceof HTMLSelectElement)) throw new Error('the switcher is not a select');
  return switcher.value;
}

const nav = () => within(screen.getByRole('navigation', { name: 'Main navigation' }));
/** A link of the navigation, on its row or behind "More" (the closed sheet keeps its links, hidden). */
const navLink = (name: string) => nav().queryByRole('link', { name, hidden: true });
const hrefOf = (name: string) => navLink(name)?.getAttribute('href');

afterEach(() => {
  cleanup();
  stopOffline();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe('the current company', () => {
  it('is the stored one while the user belongs to it, else the first of their companies, else none', () => {
    expect(pickCurrentCompany([FACTORY, BAKERY], BAKERY.id)).toBe(BAKERY);
    expect(pickCurrentCompany([FACTORY, BAKERY], 'a-company-the-user-left')).toBe(FACTORY);
    expect(pickCurrentCompany([FACTORY, BAKERY], null)).toBe(FACTORY);
    expect(pickCurrentCompany([], FACTORY.id)).toBeNull();
    expect(pickCurrentCompany(undefined, null)).toBeNull();
  });

  it('is remembered per user on this device', () => {
    setCurrentCompany('u1', BAKERY.id);
    setCurrentCompany('u2', FACTORY.id);
    expect(readStoredCompanyId('u1')).toBe(BAKERY.id);
    expect(readStoredCompanyId('u2')).toBe(FACTORY.id);
  });
});

describe('the company switcher and the company links in the header', () => {
  it("lets a user with several companies switch, and shows the links each of their roles allows", async () => {
    await renderLayout(userWith([FACTORY, BAKERY]));
    const switcher = screen.getByRole('combobox', { name: 'Current company' });
    expect(selectedCompanyId()).toBe(FACTORY.id);
    expect(within(switcher).getAllByRole('option').map((option) => option.textContent)).toEqual([FACTORY.name, BAKERY.name]);
    // An OWNER of the factory: every company link, the verification among them.
    expect(hrefOf('Employees')).toBe(`/companies/${FACTORY.id}/employees`);
    expect(hrefOf('Departments')).toBe(`/companies/${FACTORY.id}/departaments`);
    expect(hrefOf('My proposals')).toBe(`/companies/${FACTORY.id}/my-suggestions`);
    expect(hrefOf('Verification')).toBe(`/companies/${FACTORY.id}/verification-payment`);
    expect(hrefOf('Add company')).toBe('/companies/create');

    // Queried again right before the change: on a busy machine the header may have rendered anew since.
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Current company' }), { target: { value: BAKERY.id } });
    });
    await waitFor(() => expect(selectedCompanyId()).toBe(BAKERY.id));
    expect(readStoredCompanyId('u1')).toBe(BAKERY.id);
    // An EMPLOYEE of the bakery: its own links, no verification.
    expect(hrefOf('Employees')).toBe(`/companies/${BAKERY.id}/employees`);
    expect(hrefOf('My proposals')).toBe(`/companies/${BAKERY.id}/my-suggestions`);
    expect(navLink('Verification')).toBeNull();
  });

  it('starts with the company chosen before, and ignores a stored company the user has left', async () => {
    setCurrentCompany('u1', BAKERY.id);
    await renderLayout(userWith([FACTORY, BAKERY]));
    expect(selectedCompanyId()).toBe(BAKERY.id);
    cleanup();

    setCurrentCompany('u1', 'a-company-the-user-left');
    await renderLayout(userWith([FACTORY, BAKERY]));
    expect(selectedCompanyId()).toBe(FACTORY.id);
  });

  it("stays on the same page of the other company when switching on a company's page", async () => {
    const location = await renderLayout(userWith([FACTORY, BAKERY]), `/companies/${FACTORY.id}/employees`);
    act(() => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Current company' }), { target: { value: BAKERY.id } });
    });
    expect(location.history.at(-1)).toBe(`/companies/${BAKERY.id}/employees`);
    expect(readStoredCompanyId('u1')).toBe(BAKERY.id);
  });

  it("makes the company of the page the current one when a page of another of the user's companies is opened", async () => {
    await renderLayout(userWith([FACTORY, BAKERY]), `/companies/${BAKERY.id}/my-suggestions`);
    await vi.waitFor(() => expect(readStoredCompanyId('u1')).toBe(BAKERY.id));
    expect(selectedCompanyId()).toBe(BAKERY.id);
  });

  it('shows the name of the only company without a choice', async () => {
    await renderLayout(userWith([FACTORY]));
    expect(screen.queryByRole('combobox', { name: 'Current company' })).toBeNull();
    expect(screen.getByText(`Current company: ${FACTORY.name}`)).toBeTruthy();
    expect(hrefOf('Employees')).toBe(`/companies/${FACTORY.id}/employees`);
  });

  it('offers a user without companies to add one, and no company links', async () => {
    await renderLayout(userWith([]));
    expect(screen.queryByRole('combobox', { name: 'Current company' })).toBeNull();
    expect(hrefOf('Add company')).toBe('/companies/create');
    expect(navLink('Employees')).toBeNull();
    expect(navLink('My proposals')).toBeNull();
  });
});
