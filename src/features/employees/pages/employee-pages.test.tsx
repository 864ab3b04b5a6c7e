import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EmployeeRow } from '../../../domain/suggestion';
import type * as ConnectivityModule from '../../../lib/connectivity';
import type { ConnectivityState } from '../../../lib/connectivity';
import { getAppDatabase } from '../../../lib/db/database';
import { clearAppDatabase, renderPage, testUser } from '../../../../tests/fixtures/render-page';
import { employeeRow } from '../../../../tests/fixtures/rows';
import EmployeeCreateSuccessPage from './employee-create-success-page';
import EmployeePage from './employee-page';

// The connection as the test sets it (the app's probe would ask a server that is not there).
const device = vi.hoisted((): { network: ConnectivityState } => ({ network: 'online' }));
vi.mock('../../../lib/connectivity', async (importOriginal) => ({
  ...(await importOriginal<typeof ConnectivityModule>()),
  useConnectivity: () => device.network,
}));

const HR = testUser('u-hr', 'Кадрова Ольга', ['HR'], { companies: [{ id: 'c1', name: 'ООО «Завод»', roles: ['HR'] }] });
const INVITED_AT = '2026-03-05T10:00:00.000Z';

async function store(...rows: EmployeeRow[]): Promise<void> {
  await getAppDatabase().employees.bulkPut(rows.map((row) => ({ ...row, ownerUserId: HR.id })));
}

function openCard(id: string, locale: 'en' | 'ru' = 'ru') {
  renderPage(`/companies/c1/employees/${id}`, <Route path="/companies/:companyId/employees/:employeeId" component={EmployeePage} />, { user: HR, locale });
}

beforeEach(async () => {
  device.network = 'online';
  await clearAppDatabase();
});
afterEach(cleanup);

describe('the employee card in Russian', () => {
  it('speaks of a woman in the feminine', async () => {
    await store(employeeRow('e1', { lastName: 'Сидорова', firstName: 'Анна', email: 'anna@example.ru', invitedAt: INVITED_AT, imported: true }));
    openCard('e1');
    expect(await screen.findByText('Приглашена 5 мар. 2026 г., ещё не присоединилась')).toBeTruthy();
    expect(screen.getByText('Добавлена')).toBeTruthy();
    expect(screen.getByText(/^Импортирована из файла/)).toBeTruthy();
  });

  it('speaks of a man in the masculine', async () => {
    await store(employeeRow('e2', { lastName: 'Черных', firstName: 'Иван', middleName: 'Петрович', active: false }));
    openCard('e2');
    expect(await screen.findByText('Неактивен: не может войти в эту компанию')).toBeTruthy();
    expect(screen.getByText('Добавлен')).toBeTruthy();
  });

  it('words it without gender when the name does not tell', async () => {
    await store(employeeRow('e3', { lastName: 'Ким', firstName: 'Саша' }));
    openCard('e3');
    expect(await screen.findByText('Приглашение на платформу ещё не отправлялось')).toBeTruthy();
    expect(screen.getByText('Добавлено')).toBeTruthy();
  });
});

describe('inviting from the employee card', () => {
  it('opens the invitation form with the card’s address instead of sending at once', async () => {
    await store(employeeRow('e4', { lastName: 'Сидорова', firstName: 'Анна', email: 'anna@example.ru' }));
    openCard('e4', 'en');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite by e-mail' }));
    const form = await screen.findByRole('form', { name: 'Invite by e-mail' });
    expect(form.querySelector<HTMLInputElement>('input[name="email"]')?.value).toBe('anna@example.ru');
    expect(form.querySelector<HTMLInputElement>('input[name="roles"]')?.value).toBe('EMPLOYEE');
    expect(form.textContent).toContain('Сидорова Анна gets a link by e-mail to join ООО «Завод»');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.getByRole('button', { name: 'Invite by e-mail' })).toBeTruthy();
  });

  it('invites a person with no address on the card: the form asks for one', async () => {
    await store(employeeRow('e5', { lastName: 'Петров', firstName: 'Пётр', email: null, roles: ['HR'] }));
    openCard('e5', 'en');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Invite by e-mail' }));
    const form = await screen.findByRole('form', { name: 'Invite by e-mail' });
    expect(form.querySelector<HTMLInputElement>('input[name="email"]')?.value).toBe('');
    expect(form.querySelector<HTMLInputElement>('input[name="roles"]')?.value).toBe('HR');
  });

  it('says offline that inviting needs a connection, and offers no form', async () => {
    device.network = 'offline';
    await store(employeeRow('e10', { lastName: 'Сидорова', firstName: 'Анна', email: 'anna@example.ru' }));
    openCard('e10', 'en');
    expect(await screen.findByText(/^Inviting needs a connection/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Invite by e-mail' }).disabled).toBe(true);
  });

  it('leaves a leader’s invitation to the owner', async () => {
    await store(employeeRow('e6', { lastName: 'Директоров', firstName: 'Пётр', email: 'ceo@example.ru', roles: ['CEO'] }));
    openCard('e6', 'en');
    expect(await screen.findByText('Only the owner (or the CEO) may invite a person with these roles.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Invite by e-mail' })).toBeNull();
  });
});

describe('the page after adding an employee, in Russian', () => {
  function openSuccess(id: string) {
    renderPage(`/companies/c1/employees/create-success?employeeId=${id}`, <Route path="/companies/:companyId/employees/create-success" component={EmployeeCreateSuccessPage} />, {
      user: HR,
      locale: 'ru',
    });
  }

  it('agrees with a woman’s name', async () => {
    await store(employeeRow('e7', { lastName: 'Сидорова', firstName: 'Анна' }));
    openSuccess('e7');
    const text = await screen.findByText(/добавлена в список компании/);
    expect(text.textContent).toBe('Сотрудница Сидорова Анна добавлена в список компании. Пригласите её по почте, чтобы она могла войти и подавать предложения.');
  });

  it('agrees with a man’s name, and words it neutrally when the name does not tell', async () => {
    await store(employeeRow('e8', { lastName: 'Сидоров', firstName: 'Иван' }), employeeRow('e9', { lastName: 'Ким', firstName: 'Саша' }));
    openSuccess('e8');
    expect((await screen.findByText(/добавлен в список компании/)).textContent).toBe(
      'Сотрудник Сидоров Иван добавлен в список компании. Пригласите его по почте, чтобы он мог войти и подавать предложения.',
    );
    cleanup();
    openSuccess('e9');
    expect((await screen.findByText(/запись добавлена/)).textContent).toBe(
      'Ким Саша: запись добавлена в список компании. Отправьте приглашение по почте — по ссылке из него можно будет войти и подавать предложения.',
    );
  });
});
