import 'fake-indexeddb/auto';
import { cleanup, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import type { Suggestion } from '../../domain/suggestion';
import type { CurrentUser } from '../../domain/user';
import { AppStateProvider } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import ProjectCreatePage from './pages/project-create-page';

const ME = 'head-1';
const COMPANY = 'c1';
const AT = '2026-11-20T08:00:00.000Z';

const user = {
  id: ME,
  email: 'head@example.ru',
  telephone: null,
  hrInviterData: null,
  department: null,
  company: null,
  fullName: 'Петров Пётр',
  firstName: 'Пётр',
  lastName: 'Петров',
  middleName: null,
  position: null,
  otherPosition: null,
  mainGoal: null,
  role: 'EMPLOYEE',
  email_verified_at: AT,
  active: true,
  username: 'head@example.ru',
  authorities: [],
  emailVerified: true,
  accountNonExpired: true,
  accountNonLocked: true,
  credentialsNonExpired: true,
  enabled: true,
  locale: 'en',
  companies: [{ id: COMPANY, name: 'Завод', roles: ['MIDDLE_MANAGER'] }],
} satisfies CurrentUser;

const approved: Suggestion = {
  id: 's1',
  companyId: COMPANY,
  title: 'Shorter changeover',
  problem: 'Changeover takes 40 minutes',
  solution: 'Pre-stage the dies',
  expectedEffect: 'Half an hour a shift',
  effectEstimate: null,
  departmentId: 'd1',
  goalId: null,
  images: [
    { imageId: 'i1', imageLink: '/uploads/i1', name: 'a.jpg' },
    { imageId: 'i2', imageLink: '/uploads/i2', name: 'b.jpg' },
  ],
  authorId: 'author-1',
  authorName: 'Сидоров Сидор',
  status: 'APPROVED',
  dueAt: AT,
  submittedAt: AT,
  receivedAt: AT,
  reviewComment: null,
  history: [],
  createdAt: AT,
  updatedAt: AT,
};

beforeEach(async () => {
  await getAppDatabase().suggestions.clear();
});
afterEach(cleanup);

function renderAt(search: string) {
  const { hook, searchHook } = memoryLocation({ path: `/companies/${COMPANY}/projects/create`, searchPath: search });
  render(
    <IntlProvider locale="en" messages={en}>
      <AppStateProvider user={user} config={{ units: [], enums: {}, supportLink: '' }} reloadUser={() => Promise.resolve()}>
        <Router hook={hook} searchHook={searchHook}>
          <Route path="/companies/:companyId/projects/create" component={ProjectCreatePage} />
        </Router>
      </AppStateProvider>
    </IntlProvider>,
  );
}

describe('the project form reached by "Make a project"', () => {
  it('shows the approved proposal it is made from: title, author, photos', async () => {
    await getAppDatabase().suggestions.put({ ...approved, ownerUserId: ME });
    renderAt('fromSuggestion=s1');
    expect((await screen.findByRole('link', { name: 'Shorter changeover' })).getAttribute('href')).toBe(`/companies/${COMPANY}/suggestions/s1`);
    expect(screen.getByText('Author: Сидоров Сидор. 2 photos.')).toBeTruthy();
    expect(screen.queryByText(/not approved/)).toBeNull();
  });

  it('says when the proposal is not on the device, and shows the plain page without one', async () => {
    renderAt('fromSuggestion=s1');
    expect(await screen.findByText('The proposal this project is to be made from is not on this device.')).toBeTruthy();
    cleanup();
    renderAt('');
    expect(screen.getByText('New project')).toBeTruthy();
    expect(screen.queryByText('Made from the proposal')).toBeNull();
  });
});
