import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import type { EmployeeRow } from '../../domain/suggestion';
import type { CurrentUser } from '../../domain/user';
import { AppStateProvider } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { StartBlockedNotice } from './components/start-blocked-notice';
import { useStartBlockers } from './hooks';

const AT = '2026-03-01T10:00:00.000Z';
const ME = 'user-me';

const user = {
  id: ME,
  email: 'me@example.ru',
  telephone: null,
  hrInviterData: null,
  department: null,
  company: null,
  fullName: 'Я',
  firstName: 'Я',
  lastName: 'Я',
  middleName: null,
  position: null,
  otherPosition: null,
  mainGoal: null,
  role: 'EMPLOYEE',
  email_verified_at: AT,
  active: true,
  username: 'me@example.ru',
  authorities: [],
  emailVerified: true,
  accountNonExpired: true,
  accountNonLocked: true,
  credentialsNonExpired: true,
  enabled: true,
  locale: 'en',
  companies: [{ id: 'c1', name: 'Завод', roles: ['EMPLOYEE'] }],
} satisfies CurrentUser;

function member(id: string, roles: string[], fields: Partial<EmployeeRow> = {}): EmployeeRow & { ownerUserId: string } {
  return {
    id,
    companyId: 'c1',
    userId: `u-${id}`,
    lastName: 'Иванов',
    firstName: 'Иван',
    middleName: null,
    position: null,
    email: null,
    serviceNumber: null,
    departmentId: null,
    roles,
    active: true,
    imported: false,
    invitedAt: null,
    createdAt: AT,
    updatedAt: AT,
    ownerUserId: ME,
    ...fields,
  };
}

function Probe() {
  const blockers = useStartBlockers('c1');
  if (blockers === undefined) return <p>loading</p>;
  return blockers.length > 0 ? <StartBlockedNotice missing={blockers} /> : <p>ready</p>;
}

function renderProbe() {
  return render(
    <IntlProvider locale="en" messages={en}>
      <AppStateProvider user={user} config={{ units: [], enums: {}, supportLink: '' }} reloadUser={() => Promise.resolve()}>
        <Probe />
      </AppStateProvider>
    </IntlProvider>,
  );
}

beforeEach(async () => {
  await getAppDatabase().open();
});

afterEach(async () => {
  cleanup();
  await getAppDatabase().employees.clear();
});

describe('the start rule on the proposal form', () => {
  it('names what the company lacks, counting only active members who joined', async () => {
    await getAppDatabase().employees.bulkPut([
      member('me', ['EMPLOYEE']),
      member('owner', ['OWNER']),
      // Neither counts: an inactive CEO and an invited financial director who has not joined.
      member('ceo', ['CEO'], { active: false }),
      member('fd', ['FINANCIAL_DIRECTOR'], { userId: null, invitedAt: AT }),
      // Another company's manager does not count for this one.
      member('other', ['CEO'], { companyId: 'c2' }),
    ]);
    renderProbe();
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('To start, it needs: a manager and a financial director.'));
  });

  it('lets the form show once owner, manager and financial director have joined', async () => {
    await getAppDatabase().employees.bulkPut([member('owner', ['OWNER']), member('head', ['MIDDLE_MANAGER']), member('fd', ['FINANCIAL_DIRECTOR'])]);
    renderProbe();
    await waitFor(() => expect(screen.getByText('ready')).toBeTruthy());
  });

  it('leaves the decision to the server while the mirror holds no member of the company', async () => {
    renderProbe();
    await waitFor(() => expect(screen.getByText('ready')).toBeTruthy());
  });
});
