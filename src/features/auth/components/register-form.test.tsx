import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import ru from '../../../../locales/ru.json';
import { DialogProvider } from '../../../ui/dialog';
import RegisterPage from '../pages/register-page';
import type { RegistrationRequest } from '../hooks';
import { RegisterForm } from './register-form';

type Catalogue = Record<string, string>;

function renderIn(locale: 'ru' | 'en', node: ReactNode) {
  const messages: Catalogue = locale === 'ru' ? ru : en;
  return render(
    <IntlProvider locale={locale} messages={messages}>
      <DialogProvider>{node}</DialogProvider>
    </IntlProvider>,
  );
}

/** The error shown beside a field: the element its aria-describedby points at. */
function errorBeside(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const id = field.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

/** Chooses in the UI kit's select as a person does: opens the combobox, clicks the option. */
async function choose(user: UserEvent, label: string, id: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  const option = screen.getAllByRole('option').find((candidate) => candidate.dataset.id === id);
  if (!option) throw new Error(`no option ${id} in ${label}`);
  await user.click(option);
}

async function fillOwner(user: UserEvent, t: Catalogue) {
  await user.type(screen.getByLabelText(t['auth.register.lastName']!), 'Иванов');
  await user.type(screen.getByLabelText(t['auth.register.firstName']!), 'Иван');
  await choose(user, t['auth.register.position']!, 'GENERAL_DIRECTOR');
  await user.type(screen.getByLabelText(t['auth.register.company']!), ' ООО «Ромашка» ');
  await user.type(screen.getByLabelText(t['auth.register.inn']!), '7707083893');
  await choose(user, t['auth.register.mainGoal']!, 'QUALITY');
  await user.type(screen.getByLabelText(t['auth.register.phone']!), '+7 912 345-67-89');
  await user.type(screen.getByLabelText(t['auth.register.email']!), 'ivan@example.ru');
  await choose(user, t['auth.register.role']!, 'OWNER');
  await user.type(screen.getByLabelText(t['auth.register.password']!), 'secret123');
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('registration form', () => {
  it('shows a bad taxpayer number beside its field, in Russian', async () => {
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <RegisterForm onSubmit={vi.fn()} />);
    const inn = screen.getByLabelText(ru['auth.register.inn']);
    await user.type(inn, '7707083894');
    await user.tab();
    expect(errorBeside(inn)).toBe(ru['error.validation.inn']);
  });

  it('shows a bad taxpayer number beside its field, in English', async () => {
    const user = userEvent.setup({ delay: null });
    renderIn('en', <RegisterForm onSubmit={vi.fn()} />);
    const inn = screen.getByLabelText(en['auth.register.inn']);
    await user.type(inn, '123');
    await user.tab();
    expect(errorBeside(inn)).toBe(en['error.validation.inn']);
  });

  it('asks for the position when "other position" is chosen, and requires it', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn(() => Promise.resolve());
    renderIn('ru', <RegisterForm onSubmit={onSubmit} />);
    expect(screen.queryByLabelText(ru['auth.register.otherPosition'])).toBeNull();

    await choose(user, ru['auth.register.position'], 'OTHER');
    const other = screen.getByLabelText(ru['auth.register.otherPosition']);
    expect(other.getAttribute('name')).toBe('otherPosition');
    await user.click(other);
    await user.tab();
    expect(errorBeside(other)).toBe(ru['error.validation.required']);

    await user.click(screen.getByRole('button', { name: ru['auth.register.submit'] }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the owner registration with trimmed values and without an unused other position', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn((_request: RegistrationRequest) => Promise.resolve());
    renderIn('ru', <RegisterForm onSubmit={onSubmit} />);
    await fillOwner(user, ru);
    await user.click(screen.getByRole('button', { name: ru['auth.register.submit'] }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      kind: 'owner',
      input: {
        lastName: 'Иванов',
        firstName: 'Иван',
        position: 'GENERAL_DIRECTOR',
        company: 'ООО «Ромашка»',
        inn: '7707083893',
        mainGoal: 'QUALITY',
        // The phone mask shows +7 (912) 345-67-89 and gives the model the digits.
        phone: '+79123456789',
        email: 'ivan@example.ru',
        role: 'OWNER',
        password: 'secret123',
      },
    });
  });

  it('registers HR without a role or a goal', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn((_request: RegistrationRequest) => Promise.resolve());
    renderIn('en', <RegisterForm onSubmit={onSubmit} />);
    await fillOwner(user, en);
    await user.click(screen.getByRole('switch', { name: /I register as HR/ }));
    expect(screen.queryByLabelText(en['auth.register.role'])).toBeNull();
    expect(screen.queryByLabelText(en['auth.register.mainGoal'])).toBeNull();
    await user.click(screen.getByRole('button', { name: en['auth.register.submitHr'] }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    const request = onSubmit.mock.calls[0]?.[0];
    expect(request?.kind).toBe('hr');
    expect(request?.input).not.toHaveProperty('role');
    expect(request?.input).not.toHaveProperty('mainGoal');
    expect(request?.input.email).toBe('ivan@example.ru');
  });
});

describe('registration page', () => {
  it('posts the registration to the main-service and moves on to the e-mail confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const fetch = vi.fn((_url: string, _init?: RequestInit) =>
      Promise.resolve(new Response(JSON.stringify({ data: null, message: 'OK' }), { status: 200, headers: { 'Content-Type': 'application/json' } })),
    );
    vi.stubGlobal('fetch', fetch);
    window.history.replaceState(null, '', '/auth/register');
    renderIn('ru', <RegisterPage />);
    await fillOwner(user, ru);
    await user.click(screen.getByRole('button', { name: ru['auth.register.submit'] }));

    await waitFor(() => expect(window.location.pathname).toBe('/auth/register/confirm-email'));
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/main-service/api/v1/auth/register');
    expect(init?.method).toBe('POST');
    expect(typeof init?.body).toBe('string');
    expect(JSON.parse(typeof init?.body === 'string' ? init.body : '')).toMatchObject({ email: 'ivan@example.ru', inn: '7707083893', role: 'OWNER' });
    expect(sessionStorage.getItem('pendingEmail')).toBe('ivan@example.ru');
  });

  it("shows the server's field errors beside the fields", async () => {
    const user = userEvent.setup({ delay: null });
    const answer = { message: 'Проверьте поля формы.', errors: { email: 'Адрес указан неверно (сервер).' } };
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(answer), { status: 400, headers: { 'Content-Type': 'application/json' } })));
    window.history.replaceState(null, '', '/auth/register');
    renderIn('ru', <RegisterPage />);
    await fillOwner(user, ru);
    await user.click(screen.getByRole('button', { name: ru['auth.register.submit'] }));

    const email = screen.getByLabelText(ru['auth.register.email']);
    await waitFor(() => expect(errorBeside(email)).toBe('Адрес указан неверно (сервер).'));
    expect(window.location.pathname).toBe('/auth/register');
  });
});
