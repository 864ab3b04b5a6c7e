import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { AppIntlProvider, useLocale } from '../../lib/intl';
import { DialogProvider } from '../../ui/dialog';
import LoginPage from './pages/login-page';
import RecoveryPasswordPage from './pages/recovery-password-page';
import RegisterPage from './pages/register-page';

/**
 * The auth layout's language switch as far as these pages are concerned: buttons outside the form that change the
 * language of the app's messages (features do not import the app shell; the browser test clicks the real one).
 */
function LanguageButtons() {
  const { setLocale } = useLocale();
  return (
    <div role="group">
      <button type="button" data-locale="ru" onClick={() => setLocale('ru')}>
        RU
      </button>
      <button type="button" data-locale="en" onClick={() => setLocale('en')}>
        EN
      </button>
    </div>
  );
}

/** An auth page as the app shows it: beside a language switch, under the app's messages. */
async function renderPage(page: ReactNode, { path, locale = 'ru' }: { path: string; locale?: 'ru' | 'en' }) {
  window.localStorage.setItem('appLocale', locale);
  const location = memoryLocation({ path, record: true });
  // The catalogue suspends the first render until it has loaded: React retries it inside an awaited act.
  await act(() => {
    render(
      <Router hook={location.hook}>
        <AppIntlProvider>
          <DialogProvider>
            <LanguageButtons />
            <main>{page}</main>
          </DialogProvider>
        </AppIntlProvider>
      </Router>,
    );
    return Promise.resolve();
  });
  await screen.findByRole('heading', { level: 1 });
  return location;
}

function switchButton(locale: 'ru' | 'en'): HTMLElement {
  const button = document.querySelector<HTMLElement>(`[data-locale="${locale}"]`);
  if (!button) throw new Error(`no ${locale} language switch`);
  return button;
}

async function switchTo(user: UserEvent, locale: 'ru' | 'en', title: string) {
  await user.click(switchButton(locale));
  await screen.findByRole('heading', { level: 1, name: title });
}

/** The error shown beside a field: the element its aria-describedby points at. */
function errorBeside(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const id = field.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

/** Every field of the page that is marked invalid, by name. */
function invalidFields(): string[] {
  return Array.from(document.querySelectorAll<HTMLInputElement>('input[aria-invalid="true"]'), (input) => input.name);
}

const ERROR_TEXTS = [en['error.validation.required'], ru['error.validation.required'], en['error.validation.email'], ru['error.validation.email']];

function shownErrorTexts(): string[] {
  const text = document.body.textContent ?? '';
  return ERROR_TEXTS.filter((message) => text.includes(message));
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('switching the language on an untouched auth form', () => {
  it('leaves the e-mail of the login page valid, though the page put the cursor in it', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<LoginPage />, { path: '/auth/login' });
    const email = screen.getByLabelText(ru['auth.login.email']);
    // The page focuses the e-mail on arrival: the language switch takes that focus away.
    expect(document.activeElement).toBe(email);

    await switchTo(user, 'en', en['auth.login.title']);
    expect(invalidFields()).toEqual([]);
    expect(shownErrorTexts()).toEqual([]);

    await switchTo(user, 'ru', ru['auth.login.title']);
    expect(invalidFields()).toEqual([]);
    expect(shownErrorTexts()).toEqual([]);
  });

  it('leaves the e-mail of the password recovery valid', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<RecoveryPasswordPage />, { path: '/auth/recovery-password' });
    expect(document.activeElement).toBe(screen.getByLabelText(ru['auth.recovery.email']));

    await switchTo(user, 'en', en['auth.recovery.title']);
    expect(invalidFields()).toEqual([]);
    expect(shownErrorTexts()).toEqual([]);
  });

  it('leaves every field of the registration valid', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<RegisterPage />, { path: '/auth/register' });

    await switchTo(user, 'en', en['auth.register.title']);
    expect(invalidFields()).toEqual([]);
    expect(shownErrorTexts()).toEqual([]);
  });

  it('still checks the e-mail the person typed in and left, in the language shown', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<LoginPage />, { path: '/auth/login' });
    const email = screen.getByLabelText(ru['auth.login.email']);
    await user.type(email, 'owner');
    await user.tab();
    expect(errorBeside(email)).toBe(ru['error.validation.email']);

    // The cursor now stands in the empty password; the switch takes it away without marking the password.
    await switchTo(user, 'en', en['auth.login.title']);
    expect(errorBeside(email)).toBe(en['error.validation.email']);
    expect(invalidFields()).toEqual(['email']);
  });

  it('marks nothing when the person has put the cursor in a field and switches the language', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<RegisterPage />, { path: '/auth/register' });
    await user.click(screen.getByLabelText(ru['auth.register.company']));

    await switchTo(user, 'en', en['auth.register.title']);
    expect(invalidFields()).toEqual([]);
    expect(shownErrorTexts()).toEqual([]);
  });

  it('checks an empty field the person moves on from within the form', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<LoginPage />, { path: '/auth/login', locale: 'en' });
    const email = screen.getByLabelText(en['auth.login.email']);
    await user.click(switchButton('en'));
    expect(invalidFields()).toEqual([]);

    await user.click(email);
    await user.tab();
    expect(errorBeside(email)).toBe(en['error.validation.required']);
  });

  it('checks every field on submit, and keeps the errors in the language switched to', async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(<LoginPage />, { path: '/auth/login' });
    await user.click(screen.getByRole('button', { name: ru['auth.login.submit'] }));
    const email = screen.getByLabelText(ru['auth.login.email']);
    expect(errorBeside(email)).toBe(ru['error.validation.required']);

    await switchTo(user, 'en', en['auth.login.title']);
    expect(errorBeside(email)).toBe(en['error.validation.required']);
    expect(invalidFields()).toEqual(['email', 'password']);
  });
});

describe('the page to open after sign-in (?next=)', () => {
  const next = '/companies/c1/projects/p1';

  it('is announced on the login page and handed on to registration and password recovery', async () => {
    await renderPage(<LoginPage />, { path: `/auth/login?next=${next}`, locale: 'en' });
    expect(screen.getByText(en['auth.login.nextLead'])).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe(`/auth/register?next=${next}`);
    expect(screen.getByRole('link', { name: en['auth.login.forgot'] }).getAttribute('href')).toBe(`/auth/recovery-password?next=${next}`);
  });

  it('comes back to the login page from registration and from password recovery', async () => {
    await renderPage(<RegisterPage />, { path: `/auth/register?next=${next}`, locale: 'en' });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(`/auth/login?next=${next}`);
    cleanup();

    await renderPage(<RecoveryPasswordPage />, { path: `/auth/recovery-password?next=${next}`, locale: 'en' });
    expect(screen.getByRole('link', { name: en['auth.recovery.backToLogin'] }).getAttribute('href')).toBe(`/auth/login?next=${next}`);
  });

  it('follows the forgotten-password link with the page to open', async () => {
    const user = userEvent.setup({ delay: null });
    const location = await renderPage(<LoginPage />, { path: `/auth/login?next=${next}`, locale: 'en' });
    await user.click(screen.getByRole('link', { name: en['auth.login.forgot'] }));
    await waitFor(() => expect(location.history.at(-1)).toBe(`/auth/recovery-password?next=${next}`));
  });

  it.each(['//evil.com', 'https://evil.com', '/auth/login', 'javascript:alert(1)', '%2F%2Fevil.com'])('ignores the hostile %j', async (hostile) => {
    await renderPage(<LoginPage />, { path: `/auth/login?next=${encodeURIComponent(hostile)}`, locale: 'en' });
    expect(screen.queryByText(en['auth.login.nextLead'])).toBeNull();
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/auth/register');
    expect(screen.getByRole('link', { name: en['auth.login.forgot'] }).getAttribute('href')).toBe('/auth/recovery-password');
  });
});
