import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { DialogProvider } from '../../../ui/dialog';
import { FormError } from '../../../ui/form';
import { inputOf, patchOf } from '../drafts';
import { EmployeeForm, type EmployeeDraft } from './employee-form';

afterEach(() => cleanup());

const CASTING = '0b9c5d1e-4a6f-4c1e-9d2a-3f5b6c7d8e01';
const ASSEMBLY = '0b9c5d1e-4a6f-4c1e-9d2a-3f5b6c7d8e02';
const departments = [
  { id: CASTING, title: 'Casting' },
  { id: ASSEMBLY, title: 'Assembly' },
];

const roleTitle = (role: string) => `role:${role}`;

function renderForm(options: { onSubmit: (draft: EmployeeDraft) => Promise<void>; granterRoles?: string[]; initial?: EmployeeDraft; isOnline?: boolean }) {
  render(
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>
        <EmployeeForm
          initial={options.initial}
          departments={departments}
          granterRoles={options.granterRoles ?? ['HR']}
          roleTitle={roleTitle}
          isOnline={options.isOnline ?? true}
          onSubmit={options.onSubmit}
        />
      </DialogProvider>
    </IntlProvider>,
  );
}

/** The error shown beside a field: the element its aria-describedby points at. */
function errorBeside(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const id = field.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

const existing: EmployeeDraft = {
  lastName: 'Petrov',
  firstName: 'Petr',
  middleName: null,
  position: 'Owner',
  email: 'petrov@example.ru',
  serviceNumber: '7',
  departmentId: null,
  roles: ['OWNER'],
  active: true,
};

describe('the employee form', () => {
  it('sends nothing and shows the errors beside the fields when the names are empty or the e-mail is wrong', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() => Promise.resolve());
    renderForm({ onSubmit });
    await user.type(screen.getByLabelText(/^E-mail/), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Add the employee' }));
    await waitFor(() => expect(errorBeside(screen.getByLabelText(/^Last name/))).toBe('Fill in this field.'));
    expect(errorBeside(screen.getByLabelText(/^First name/))).toBe('Fill in this field.');
    expect(errorBeside(screen.getByLabelText(/^E-mail/))).toBe('Enter a valid e-mail address.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('creates a plain employee by default, trimmed, with empty optional fields as null', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_draft: EmployeeDraft) => Promise.resolve());
    renderForm({ onSubmit });
    await user.type(screen.getByLabelText(/^Last name/), '  Ivanova ');
    await user.type(screen.getByLabelText(/^First name/), 'Anna');
    await user.type(screen.getByLabelText(/^Service number/), ' 0042 ');
    await user.click(screen.getByRole('combobox', { name: /^Department/ }));
    const option = screen.getAllByRole('option').find((candidate) => candidate.dataset.id === ASSEMBLY);
    if (!option) throw new Error('no Assembly option');
    await user.click(option);
    await user.click(screen.getByRole('button', { name: 'Add the employee' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      lastName: 'Ivanova',
      firstName: 'Anna',
      middleName: null,
      position: null,
      email: null,
      serviceNumber: '0042',
      departmentId: ASSEMBLY,
      roles: ['EMPLOYEE'],
      active: true,
    });
  });

  it('offers HR only the staff roles; the leading ones are there but disabled', async () => {
    const user = userEvent.setup();
    renderForm({ onSubmit: () => Promise.resolve() });
    await user.click(screen.getByRole('combobox', { name: /^Roles/ }));
    const listbox = screen.getByRole('listbox');
    const disabled = within(listbox)
      .getAllByRole('option')
      .filter((option) => option.getAttribute('aria-disabled') === 'true')
      .map((option) => option.dataset.id);
    expect(disabled.sort()).toEqual(['CEO', 'DIRECTION_MANAGER', 'FINANCIAL_DIRECTOR', 'FIRST_LINE_MANAGER', 'MIDDLE_MANAGER', 'OWNER', 'TOP_MANAGER']);
  });

  it('lets the owner give a leading role', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_draft: EmployeeDraft) => Promise.resolve());
    renderForm({ onSubmit, granterRoles: ['OWNER'] });
    await user.type(screen.getByLabelText(/^Last name/), 'Finn');
    await user.type(screen.getByLabelText(/^First name/), 'Dora');
    await user.click(screen.getByRole('combobox', { name: /^Roles/ }));
    const findir = screen.getAllByRole('option').find((option) => option.dataset.id === 'FINANCIAL_DIRECTOR');
    if (!findir) throw new Error('no FINANCIAL_DIRECTOR option');
    await user.click(findir);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Add the employee' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0].roles).toEqual(['EMPLOYEE', 'FINANCIAL_DIRECTOR']);
  });

  it('refuses, beside the roles, to let HR take away a leading role', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() => Promise.resolve());
    renderForm({ onSubmit, initial: existing });
    await user.click(screen.getByRole('button', { name: 'Remove role:OWNER' }));
    await user.click(screen.getByRole('combobox', { name: /^Roles/ }));
    const employeeRole = screen.getAllByRole('option').find((option) => option.dataset.id === 'EMPLOYEE');
    if (!employeeRole) throw new Error('no EMPLOYEE option');
    await user.click(employeeRole);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(errorBeside(screen.getByRole('combobox', { name: /^Roles/ }))).toBe('Only the owner (or the CEO) may give or take away: role:OWNER.'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the server’s “taken” beside the e-mail and keeps what was typed', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() => Promise.reject(new FormError({ message: 'Conflict', fieldErrors: { email: 'This e-mail is already taken in the company.' } })));
    renderForm({ onSubmit });
    await user.type(screen.getByLabelText(/^Last name/), 'Ivanova');
    await user.type(screen.getByLabelText(/^First name/), 'Anna');
    await user.type(screen.getByLabelText(/^E-mail/), 'anna@example.ru');
    await user.click(screen.getByRole('button', { name: 'Add the employee' }));
    await waitFor(() => expect(errorBeside(screen.getByLabelText(/^E-mail/))).toBe('This e-mail is already taken in the company.'));
    expect(screen.getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Ivanova');
  });

  it('says so and sends nothing while offline', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() => Promise.resolve());
    renderForm({ onSubmit, isOnline: false });
    expect(screen.getByText(/You are offline. Saving needs a connection/)).toBeTruthy();
    await user.type(screen.getByLabelText(/^Last name/), 'Ivanova');
    await user.type(screen.getByLabelText(/^First name/), 'Anna');
    await user.click(screen.getByRole('button', { name: 'Add the employee' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('The server cannot be reached');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('the employee drafts', () => {
  it('patch only what changed, roles compared as a set', () => {
    expect(patchOf(existing, { ...existing })).toEqual({});
    expect(patchOf({ ...existing, roles: ['OWNER', 'HR'] }, { ...existing, roles: ['HR', 'OWNER'] })).toEqual({});
    expect(patchOf(existing, { ...existing, email: null, departmentId: CASTING, active: false, roles: ['OWNER', 'HR'] })).toEqual({
      email: null,
      departmentId: CASTING,
      active: false,
      roles: ['OWNER', 'HR'],
    });
  });

  it('create without the empty optional fields', () => {
    expect(inputOf({ ...existing, position: null, serviceNumber: null })).toEqual({
      lastName: 'Petrov',
      firstName: 'Petr',
      email: 'petrov@example.ru',
      roles: ['OWNER'],
      active: true,
    });
  });
});
