import 'fake-indexeddb/auto';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Suggestion } from '../../../domain/suggestion';
import type { CurrentUser } from '../../../domain/user';
import { getAppDatabase } from '../../../lib/db/database';
import { renderPage as renderPageAt, testUser } from '../../../../tests/fixtures/render-page';
import { departmentRow, pulledToEnd } from '../../../../tests/fixtures/rows';
import type * as ConnectivityModule from '../../../lib/connectivity';
import SuggestionsPage from './suggestions-page';

/** What the device knows of the network in each test ('online' unless a test says otherwise). */
const device = vi.hoisted(() => ({ network: 'online' }));

vi.mock('../../../lib/connectivity', async (importOriginal) => ({
  ...(await importOriginal<typeof ConnectivityModule>()),
  useConnectivity: () => device.network,
}));

const ME = 'u-head';
const AT = '2026-03-01T10:00:00.000Z';
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

function userWith(roles: string[]): CurrentUser {
  return testUser(ME, 'Начальников Пётр', roles, {
    firstName: 'Пётр',
    lastName: 'Начальников',
    email: 'head@demo.local',
    username: 'head@demo.local',
    role: roles[0] ?? 'EMPLOYEE',
    companies: [{ id: 'c1', name: 'Демо Завод', roles }],
  });
}

function proposal(id: string, title: string, fields: Partial<Suggestion> = {}): Suggestion & { ownerUserId: string } {
  return {
    id,
    companyId: 'c1',
    title,
    problem: 'Problem',
    solution: 's',
    expectedEffect: 'e',
    effectEstimate: null,
    departmentId: 'd-cast',
    goalId: null,
    images: [],
    authorId: 'u-author',
    authorName: 'Иванов Иван',
    status: 'UNDER_CONSIDERATION',
    dueAt: day(2),
    submittedAt: AT,
    receivedAt: AT,
    reviewComment: null,
    history: [],
    createdAt: AT,
    updatedAt: AT,
    ownerUserId: ME,
    ...fields,
  };
}

beforeEach(async () => {
  // jsdom lays nothing out: give the list's scroll box a tablet's size, so the windowed list shows rows.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(768);
  const db = getAppDatabase();
  await db.departments.bulkPut([
    { ...departmentRow('d-cast', 'Casting', { companyId: 'c1', headUserId: ME }), ownerUserId: ME },
    { ...departmentRow('d-paint', 'Paint shop', { companyId: 'c1', headUserId: 'someone-else' }), ownerUserId: ME },
  ]);
  await db.suggestions.bulkPut([
    proposal('s1', 'Quick die change', { dueAt: day(-3) }),
    proposal('s2', 'Brighter lamps', { departmentId: 'd-paint' }),
    proposal('s3', 'Swarf container', { status: 'APPROVED' }),
    proposal('s4', 'Sharper knives', { dueAt: day(1) }),
  ]);
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  device.network = 'online';
  const db = getAppDatabase();
  await Promise.all([db.suggestions.clear(), db.departments.clear(), db.syncState.clear()]);
});

function renderPage(path: string, roles: string[] = ['MIDDLE_MANAGER']) {
  return renderPageAt(
    path,
    <Route path="/companies/:companyId/suggestions">
      <SuggestionsPage />
    </Route>,
    { user: userWith(roles) },
  );
}

const titles = () =>
  within(screen.getByRole('region', { name: /^Proposals,/ }))
    .getAllByRole('link')
    .map((link) => link.querySelector('.suggestion-row__title')?.textContent);

describe('the proposals list page', () => {
  it('opens a head on what waits on them, by due date, with the due date in words', async () => {
    renderPage('/companies/c1/suggestions');
    expect(await screen.findByText('Quick die change')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'To review' }).getAttribute('aria-selected')).toBe('true');
    expect(titles()).toEqual(['Quick die change', 'Sharper knives']);
    expect(screen.getByText('3 days overdue')).toBeTruthy();
    expect(screen.getByText('due in 1 day')).toBeTruthy();
    expect(screen.getAllByText('Иванов Иван · Casting')).toHaveLength(2);
  });

  it('applies the tab and filters of the URL', async () => {
    renderPage('/companies/c1/suggestions?tab=all&department=d-paint');
    expect(await screen.findByText('Brighter lamps')).toBeTruthy();
    expect(titles()).toEqual(['Brighter lamps']);
    expect(screen.getByRole('tab', { name: 'All' }).getAttribute('aria-selected')).toBe('true');
  });

  it('finds by a word prefix from the URL', async () => {
    renderPage('/companies/c1/suggestions?tab=all&q=SWAR');
    expect(await screen.findByText('Swarf container')).toBeTruthy();
    expect(titles()).toEqual(['Swarf container']);
    expect(screen.getByText('Approved')).toBeTruthy();
  });

  it('puts a changed filter into the URL', async () => {
    const location = renderPage('/companies/c1/suggestions?tab=all');
    await screen.findByText('Swarf container');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Overdue only' }));
    expect(await screen.findByText('1 proposal')).toBeTruthy();
    expect(titles()).toEqual(['Quick die change']);
    expect(location.history?.at(-1)).toBe('/companies/c1/suggestions?tab=all&overdue=1');
  });

  it('gives a member who may decide nothing no "To review" tab', async () => {
    await getAppDatabase().departments.update([ME, 'd-cast'], { headUserId: 'someone-else' });
    renderPage('/companies/c1/suggestions', ['EMPLOYEE']);
    expect(await screen.findByText('Swarf container')).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'To review' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Company' }).getAttribute('aria-selected')).toBe('true');
  });

  it('opens a proposal with this list as its back link', async () => {
    const location = renderPage('/companies/c1/suggestions?overdue=1');
    await userEvent.click(await screen.findByText('Quick die change'));
    expect(location.history?.at(-1)).toBe('/companies/c1/suggestions/s1');
    expect(location.state).toEqual({ backTo: '/companies/c1/suggestions?overdue=1' });
  });

  describe('with no proposals on the device', () => {
    beforeEach(async () => {
      await getAppDatabase().suggestions.clear();
    });

    it('says the list is loading while the company\'s first pull is on its way, neither empty nor counted', async () => {
      renderPage('/companies/c1/suggestions?tab=all');
      expect(await screen.findByText("The company's proposals are loading…")).toBeTruthy();
      expect(screen.queryByText(/No proposals match/)).toBeNull();
      // One line says it: no "counting" beside it, and no number.
      expect(screen.queryByText('Counting the proposals…')).toBeNull();
      expect(screen.queryByText(/\d+ proposals?$/)).toBeNull();
    });

    it('says there are none once the first pull has come to its end', async () => {
      await getAppDatabase().syncState.put(pulledToEnd(ME, 'c1'));
      renderPage('/companies/c1/suggestions?tab=all');
      expect(await screen.findByText(/No proposals match/)).toBeTruthy();
      expect(screen.queryByText("The company's proposals are loading…")).toBeNull();
      expect(screen.getByText('0 proposals')).toBeTruthy();
    });

    it('asks to connect once when the device is offline and has never pulled the company', async () => {
      device.network = 'offline';
      renderPage('/companies/c1/suggestions?tab=all');
      expect(await screen.findByText('No proposals match. If you expect some, connect once so the list can load.')).toBeTruthy();
    });
  });
});
