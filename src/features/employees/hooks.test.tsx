import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import type { DepartmentRow } from '../../domain/suggestion';
import type { CurrentUser } from '../../domain/user';
import { AppStateProvider } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { EMPTY_FILTER, type EmployeeFilter } from './directory';
import { useCanManagePeople, useEmployee, useEmployeeList } from './hooks';
import { employeeRow as employee } from '../../../tests/fixtures/rows';

const AT = '2026-03-01T10:00:00.000Z';
const ME = 'user-hr';

const user: CurrentUser = {
  id: ME,
  email: 'hr@demo.local',
  telephone: null,
  hrInviterData: null,
  department: null,
  company: null,
  fullName: 'Кадрова Ольга',
  firstName: 'Ольга',
  lastName: 'Кадрова',
  middleName: null,
  position: null,
  otherPosition: null,
  mainGoal: null,
  role: 'HR',
  email_verified_at: AT,
  active: true,
  username: 'hr@demo.local',
  authorities: [],
  emailVerified: true,
  accountNonExpired: true,
  accountNonLocked: true,
  credentialsNonExpired: true,
  enabled: true,
  locale: 'en',
  companies: [
    { id: 'c1', name: 'Демо Завод', roles: ['HR'] },
    { id: 'c2', name: 'Другая', roles: ['EMPLOYEE'] },
  ],
};


const casting: DepartmentRow = { id: 'd1', companyId: 'c1', name: 'Литейный цех', headUserId: null, createdAt: AT, updatedAt: AT };

function ListProbe({ filter }: { filter: EmployeeFilter }) {
  const list = useEmployeeList('c1', filter);
  const canManage = useCanManagePeople('c1');
  const canManageOther = useCanManagePeople('c2');
  if (!list) return <p>loading</p>;
  return (
    <div>
      <p data-testid="total">{list.entries.length}</p>
      <p data-testid="rights">{`${canManage} ${canManageOther}`}</p>
      <ol data-testid="visible">
        {list.visible.map((entry) => (
          <li key={entry.employee.id}>{`${entry.fullName} | ${entry.departmentName ?? '-'} | ${entry.state}`}</li>
        ))}
      </ol>
    </div>
  );
}

function EmployeeProbe({ id }: { id: string }) {
  const view = useEmployee('c1', id);
  if (view === undefined) return <p>loading</p>;
  return <p data-testid="employee">{view === null ? 'none' : `${view.fullName} | ${view.department?.name ?? '-'}`}</p>;
}

function renderWithApp(children: React.ReactNode) {
  return render(
    <IntlProvider locale="ru" messages={en}>
      <AppStateProvider user={user} config={{ units: [], enums: {}, supportLink: '' }} reloadUser={() => Promise.resolve()}>
        {children}
      </AppStateProvider>
    </IntlProvider>,
  );
}

const visibleRows = () => Array.from(screen.getByTestId('visible').querySelectorAll('li')).map((li) => li.textContent);

beforeEach(async () => {
  const db = getAppDatabase();
  await db.open();
  await db.departments.put({ ...casting, ownerUserId: ME });
  await db.employees.bulkPut(
    [
      employee('e1', { lastName: 'Петров', firstName: 'Пётр', departmentId: 'd1', userId: 'u1' }),
      employee('e2', { lastName: 'Алексеева', firstName: 'Мария', email: 'maria@example.ru', invitedAt: AT }),
      employee('e3', { lastName: 'Сидоров', firstName: 'Семён', active: false, departmentId: 'd1' }),
    ].map((row) => ({ ...row, ownerUserId: ME })),
  );
  // Rows the list must never show: another company's, another user's copy, and one that fails its struct.
  await db.employees.put({ ...employee('x1', { companyId: 'c2', lastName: 'Чужой' }), ownerUserId: ME });
  await db.employees.put({ ...employee('x2', { lastName: 'Соседский' }), ownerUserId: 'someone-else' });
  await db.employees.put({ ...employee('x3', { lastName: 'Сломанный' }), roles: 'OWNER' as unknown as string[], ownerUserId: ME });
});

afterEach(async () => {
  cleanup();
  const db = getAppDatabase();
  await db.employees.clear();
  await db.departments.clear();
});

describe('the employees list hooks', () => {
  it('read the company’s employees of this user from the device, sorted, with department names and states', async () => {
    renderWithApp(<ListProbe filter={EMPTY_FILTER} />);
    await waitFor(() => expect(screen.getByTestId('total').textContent).toBe('3'));
    expect(visibleRows()).toEqual(['Алексеева Мария | - | invited', 'Петров Пётр | Литейный цех | active', 'Сидоров Семён | Литейный цех | inactive']);
    expect(screen.getByTestId('rights').textContent).toBe('true false');
  });

  it('apply the search and the filters in memory', async () => {
    const { rerender } = renderWithApp(<ListProbe filter={{ ...EMPTY_FILTER, search: 'MARIA@' }} />);
    await waitFor(() => expect(visibleRows()).toEqual(['Алексеева Мария | - | invited']));
    rerender(
      <IntlProvider locale="ru" messages={en}>
        <AppStateProvider user={user} config={{ units: [], enums: {}, supportLink: '' }} reloadUser={() => Promise.resolve()}>
          <ListProbe filter={{ search: '', departmentId: 'd1', state: 'active' }} />
        </AppStateProvider>
      </IntlProvider>,
    );
    await waitFor(() => expect(visibleRows()).toEqual(['Петров Пётр | Литейный цех | active']));
    expect(screen.getByTestId('total').textContent).toBe('3');
  });

  it('show a row written to the device at once (as after a save)', async () => {
    renderWithApp(<ListProbe filter={{ ...EMPTY_FILTER, search: 'новиков' }} />);
    await waitFor(() => expect(screen.getByTestId('total').textContent).toBe('3'));
    expect(visibleRows()).toEqual([]);
    await act(async () => {
      await getAppDatabase().employees.put({ ...employee('e9', { lastName: 'Новиков', firstName: 'Ник' }), ownerUserId: ME });
    });
    await waitFor(() => expect(visibleRows()).toEqual(['Новиков Ник | - | noAccount']));
  });

  it('read one employee with the department, and nothing for another company’s id', async () => {
    const { unmount } = renderWithApp(<EmployeeProbe id="e1" />);
    await waitFor(() => expect(screen.getByTestId('employee').textContent).toBe('Петров Пётр | Литейный цех'));
    unmount();
    renderWithApp(<EmployeeProbe id="x1" />);
    await waitFor(() => expect(screen.getByTestId('employee').textContent).toBe('none'));
  });
});
