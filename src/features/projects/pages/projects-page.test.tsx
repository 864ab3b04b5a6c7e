import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../domain/user';
import { getAppDatabase } from '../../../lib/db/database';
import type * as ConnectivityModule from '../../../lib/connectivity';
import { renderPage as renderPageAt, testUser } from '../../../../tests/fixtures/render-page';
import { projectRow, pulledToEnd } from '../../../../tests/fixtures/rows';
import ProjectsPage from './projects-page';

/** What the device knows of the network in each test ('online' unless a test says otherwise). */
const device = vi.hoisted(() => ({ network: 'online' }));

vi.mock('../../../lib/connectivity', async (importOriginal) => ({
  ...(await importOriginal<typeof ConnectivityModule>()),
  useConnectivity: () => device.network,
}));

const ME = 'u-owner';

function owner(): CurrentUser {
  return testUser(ME, 'Собственников Олег', ['OWNER'], {
    firstName: 'Олег',
    lastName: 'Собственников',
    email: 'owner@demo.local',
    username: 'owner@demo.local',
    role: 'OWNER',
    companies: [{ id: 'c1', name: 'Демо Завод', roles: ['OWNER'] }],
  });
}

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  device.network = 'online';
  const db = getAppDatabase();
  await Promise.all([db.projects.clear(), db.syncState.clear()]);
});

function renderPage(locale: 'en' | 'ru' = 'en') {
  return renderPageAt(
    '/companies/c1/projects',
    <Route path="/companies/:companyId/projects">
      <ProjectsPage />
    </Route>,
    { user: owner(), locale },
  );
}

describe('the projects list rows', () => {
  it('show a whole amount without its zero kopecks, so a phone has room for the status', async () => {
    // jsdom lays nothing out: give the list's scroll box a phone's size, so the windowed list shows rows.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(700);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(360);
    await getAppDatabase().projects.bulkPut([
      { ...projectRow('p1', { name: 'Стружка', status: 'APPROVED', remunerationMinor: 5_000_000 }), ownerUserId: ME },
      { ...projectRow('p2', { name: 'Оснастка', status: 'CALCULATING', expectedEffect12mMinor: 12_345_650 }), ownerUserId: ME },
    ]);
    await getAppDatabase().syncState.put(pulledToEnd(ME, 'c1'));
    renderPage('ru');
    expect((await screen.findByText(/Вознаграждение/)).textContent).toBe('Вознаграждение 50\u00a0000\u00a0₽');
    expect(screen.getByText(/Ожидаемый эффект/).textContent).toBe('Ожидаемый эффект 123\u00a0456,50\u00a0₽');
  });
});

describe('the projects list on a device that holds none of the company', () => {
  it('says the projects are loading while the first pull is on its way, with no count in its tabs or under them', async () => {
    // The counts are read first (the tabs say "(0)" once the pull has ended), so the loading screen below is drawn
    // with the counts known: it is the page, not a count still on its way, that leaves the number out.
    const pulled = pulledToEnd(ME, 'c1');
    await getAppDatabase().syncState.put(pulled);
    renderPage();
    expect(await screen.findByRole('tab', { name: 'All (0)' })).toBeTruthy();
    await getAppDatabase().syncState.put({ ...pulled, caughtUpAt: null });

    expect(await screen.findByText("The company's projects are loading…")).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'All' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: /\(0\)/ })).toBeNull();
    expect(screen.queryByText('Counting the projects…')).toBeNull();
    expect(screen.queryByText(/No projects here/)).toBeNull();
  });

  it('counts none and says so once the first pull has come to its end', async () => {
    await getAppDatabase().syncState.put(pulledToEnd(ME, 'c1'));
    renderPage();
    expect(await screen.findByText(/No projects here/)).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'All (0)' })).toBeTruthy();
    expect(screen.getByText('0 projects')).toBeTruthy();
    expect(screen.queryByText("The company's projects are loading…")).toBeNull();
  });

  it('asks to connect once when the device is offline and has never pulled the company', async () => {
    device.network = 'offline';
    renderPage();
    expect(await screen.findByText(/No projects here. If you expect some, connect once/)).toBeTruthy();
    expect(screen.queryByText("The company's projects are loading…")).toBeNull();
  });
});
