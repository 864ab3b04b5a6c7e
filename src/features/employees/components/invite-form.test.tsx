import { act, cleanup, render, screen, within } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import ru from '../../../../locales/ru.json';
import { DIALOG_CLOSE_MS, DIALOG_DELAY_MS, DialogProvider } from '../../../ui/dialog';
import { FormError } from '../../../ui/form';
import { InviteForm, type InviteFormProps } from './invite-form';
import { startFakeClock, stopFakeClock, type FakeClockUser } from '../../../../tests/unit/support/fake-clock';

// The dialogs appear after a delay and the select filters after one: the clock is faked and moved on by the
// test, so nothing here depends on how busy the machine is.
let clockUser: FakeClockUser;

beforeEach(() => {
  clockUser = startFakeClock();
});

afterEach(() => {
  cleanup();
  stopFakeClock();
});

const TITLES: Record<string, { en: string; ru: string }> = {
  EMPLOYEE: { en: 'Employee', ru: 'Сотрудник' },
  HR: { en: 'HR', ru: 'HR' },
  OWNER: { en: 'Owner', ru: 'Собственник' },
  CEO: { en: 'CEO', ru: 'Генеральный директор' },
  FINANCIAL_DIRECTOR: { en: 'Financial director', ru: 'Финансовый директор' },
  FINANCIAL_SPECIALIST: { en: 'Financial specialist', ru: 'Финансовый специалист' },
};

function renderForm(options: Partial<InviteFormProps> & { locale?: 'en' | 'ru' } = {}) {
  const locale = options.locale ?? 'en';
  const onSend = options.onSend ?? vi.fn(() => Promise.resolve());
  const onCancel = options.onCancel ?? vi.fn();
  render(
    <IntlProvider locale={locale} messages={locale === 'ru' ? ru : en}>
      <DialogProvider>
        <InviteForm
          fullName={options.fullName ?? 'Сидорова Анна'}
          companyName={options.companyName ?? 'ООО «Демо Завод»'}
          initialEmail={options.initialEmail === undefined ? 'anna@example.ru' : options.initialEmail}
          initialRoles={options.initialRoles ?? ['EMPLOYEE']}
          granterRoles={options.granterRoles ?? ['HR']}
          roleTitle={(role) => TITLES[role]?.[locale] ?? role}
          isOnline={options.isOnline ?? true}
          onSend={onSend}
          onCancel={onCancel}
        />
      </DialogProvider>
    </IntlProvider>,
  );
  return { onSend, onCancel, user: clockUser };
}

/** Lets the dialog host's delay run out, so an asked-for dialog is on screen (or a closed one is gone). */
async function passDialogDelay(): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(Math.max(DIALOG_DELAY_MS, DIALOG_CLOSE_MS) + 1);
  });
}

function errorBeside(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const id = field.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

const emailField = () => screen.getByLabelText(/^E-mail|^Электронная почта/);
const hiddenRoles = (container: ParentNode = document) => container.querySelector<HTMLInputElement>('input[name="roles"]')?.value;

describe('the invitation form of an employee card', () => {
  it('starts with the address on the card and the role Employee', () => {
    renderForm();
    expect((emailField() as HTMLInputElement).value).toBe('anna@example.ru');
    expect(hiddenRoles()).toBe('EMPLOYEE');
    expect(screen.getByRole('heading', { name: 'Invite by e-mail' })).toBeTruthy();
  });

  it('offers only the roles the inviter may grant: HR no leading roles, the owner every role', async () => {
    const hr = renderForm({ granterRoles: ['HR'] });
    await hr.user.click(screen.getByRole('combobox', { name: /^Roles/ }));
    const offered = screen.getAllByRole('option').map((option) => option.dataset.id);
    expect(offered).toContain('EMPLOYEE');
    expect(offered).toContain('FINANCIAL_SPECIALIST');
    expect(offered).not.toContain('OWNER');
    expect(offered).not.toContain('CEO');
    expect(offered).not.toContain('FINANCIAL_DIRECTOR');
    cleanup();

    const owner = renderForm({ granterRoles: ['OWNER'] });
    await owner.user.click(screen.getByRole('combobox', { name: /^Roles/ }));
    expect(screen.getAllByRole('option').map((option) => option.dataset.id)).toEqual(expect.arrayContaining(['OWNER', 'CEO', 'FINANCIAL_DIRECTOR', 'EMPLOYEE']));
  });

  it('asks for a valid address and sends nothing without one', async () => {
    const { user, onSend } = renderForm({ initialEmail: null });
    expect((emailField() as HTMLInputElement).value).toBe('');
    expect(emailField().getAttribute('aria-required') ?? String((emailField() as HTMLInputElement).required)).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(errorBeside(emailField())).toBe('Enter a valid e-mail address.');
    await user.type(emailField(), 'anna@');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(errorBeside(emailField())).toBe('Enter a valid e-mail address.');
    await passDialogDelay();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('confirms who is invited, to which address and as what before it sends', async () => {
    const { user, onSend } = renderForm({ initialEmail: null });
    await user.type(emailField(), ' anna.s@example.ru ');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await passDialogDelay();
    const dialog = screen.getByRole('dialog', { name: 'Send the invitation?' });
    expect(dialog.textContent).toContain(
      'Сидорова Анна is invited to ООО «Демо Завод» as Employee. The link goes to anna.s@example.ru and works for 14 days.',
    );
    expect(onSend).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));
    await passDialogDelay();
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend).toHaveBeenCalledWith({ email: 'anna.s@example.ru', roles: ['EMPLOYEE'] });
  });

  it('sends nothing when the confirmation is declined, and keeps what was entered', async () => {
    const { user, onSend } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await passDialogDelay();
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Back' }));
    await passDialogDelay();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onSend).not.toHaveBeenCalled();
    expect((emailField() as HTMLInputElement).value).toBe('anna@example.ru');
  });

  it('names several roles in the confirmation, in Russian too', async () => {
    const { user, onSend } = renderForm({ locale: 'ru', initialRoles: ['HR', 'EMPLOYEE'] });
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    await passDialogDelay();
    const dialog = screen.getByRole('dialog', { name: 'Отправить приглашение?' });
    expect(dialog.textContent).toContain(
      'Сидорова Анна получит приглашение в ООО «Демо Завод» с ролями: HR и Сотрудник. Ссылка придёт на anna@example.ru и будет действовать 14 дней.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Отправить приглашение' }));
    await passDialogDelay();
    expect(onSend).toHaveBeenCalledWith({ email: 'anna@example.ru', roles: ['HR', 'EMPLOYEE'] });
  });

  it('names one role in Russian with its title in quotes', async () => {
    const { user } = renderForm({ locale: 'ru' });
    await user.click(screen.getByRole('button', { name: 'Далее' }));
    await passDialogDelay();
    expect(screen.getByRole('dialog').textContent).toContain('получит приглашение в ООО «Демо Завод» с ролью «Сотрудник».');
  });

  it('shows the server’s field errors beside the fields, as the server worded them', async () => {
    const onSend = vi.fn(() => Promise.reject(new FormError({ fieldErrors: { email: 'У другого сотрудника уже указан этот адрес.' } })));
    const { user } = renderForm({ onSend });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await passDialogDelay();
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send the invitation' }));
    await passDialogDelay();
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(errorBeside(emailField())).toBe('У другого сотрудника уже указан этот адрес.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a refusal without a field (already invited) in the error dialog', async () => {
    const onSend = vi.fn(() => Promise.reject(new FormError({ message: 'This person has a pending invitation already.' })));
    const { user } = renderForm({ onSend });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await passDialogDelay();
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send the invitation' }));
    await passDialogDelay();
    expect(screen.getByRole('dialog').textContent).toContain('This person has a pending invitation already.');
  });

  it('says inviting needs a connection and sends nothing while offline', async () => {
    const { user, onSend } = renderForm({ isOnline: false });
    expect(screen.getByText(/^Inviting needs a connection/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await passDialogDelay();
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('The server cannot be reached');
    expect(dialog.textContent).not.toContain('Send the invitation?');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('closes on Cancel', async () => {
    const { user, onCancel } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
