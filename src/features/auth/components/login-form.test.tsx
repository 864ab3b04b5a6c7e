import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { DialogProvider } from '../../../ui/dialog';
import LoginPage from '../pages/login-page';
import { NewPasswordForm } from './new-password-form';

function renderInEnglish(node: ReactNode) {
  return render(
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>{node}</DialogProvider>
    </IntlProvider>,
  );
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return () => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('sign-in', () => {
  it("shows the server's refusal above the form and stores no token", async () => {
    const user = userEvent.setup({ delay: null });
    vi.stubGlobal('fetch', answer(401, { message: 'Wrong e-mail or password.' }));
    renderInEnglish(<LoginPage />);
    await user.type(screen.getByLabelText(en['auth.login.email']), 'owner@demo.local');
    await user.type(screen.getByLabelText(en['auth.login.password']), 'not-my-password');
    await user.click(screen.getByRole('button', { name: en['auth.login.submit'] }));

    const notice = await screen.findByText('Wrong e-mail or password.');
    expect(notice.closest('form')?.firstElementChild).toBe(notice);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('shows the throttling message of a 429', async () => {
    const user = userEvent.setup({ delay: null });
    vi.stubGlobal('fetch', answer(429, { message: 'Too many attempts. Try again in 15 minutes.' }, { 'Retry-After': '900' }));
    renderInEnglish(<LoginPage />);
    await user.type(screen.getByLabelText(en['auth.login.email']), 'owner@demo.local');
    await user.type(screen.getByLabelText(en['auth.login.password']), 'not-my-password{Enter}');
    expect(await screen.findByText('Too many attempts. Try again in 15 minutes.')).toBeTruthy();
  });

  it('does not call the server while a field is invalid', async () => {
    const user = userEvent.setup({ delay: null });
    const fetch = vi.fn(answer(200, {}));
    vi.stubGlobal('fetch', fetch);
    renderInEnglish(<LoginPage />);
    await user.type(screen.getByLabelText(en['auth.login.email']), 'owner');
    await user.click(screen.getByRole('button', { name: en['auth.login.submit'] }));
    expect(screen.getByText(en['error.validation.email'])).toBeTruthy();
    expect(screen.getByText(en['error.validation.required'])).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('new password', () => {
  it('refuses two different passwords beside the repeated one', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn(() => Promise.resolve());
    renderInEnglish(<NewPasswordForm onSubmit={onSubmit} />);
    await user.type(screen.getByLabelText(en['auth.recoveryConfirm.password']), 'newpass123');
    const repeat = screen.getByLabelText(en['auth.recoveryConfirm.passwordRepeat']);
    await user.type(repeat, 'newpass124');
    await user.tab();
    expect(repeat.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(en['auth.recoveryConfirm.mismatch'])).toBeTruthy();

    await user.clear(repeat);
    await user.type(repeat, 'newpass123{Enter}');
    expect(onSubmit).toHaveBeenCalledWith('newpass123');
  });
});
