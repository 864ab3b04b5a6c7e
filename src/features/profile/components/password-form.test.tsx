import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import type { PasswordChangeInput } from '../../../domain/auth';
import { DialogProvider } from '../../../ui/dialog';
import { FormError } from '../../../ui/form';
import { PasswordForm } from './password-form';

afterEach(() => cleanup());

function renderForm(onSubmit: (input: PasswordChangeInput) => Promise<void>) {
  render(
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>
        <PasswordForm onSubmit={onSubmit} />
      </DialogProvider>
    </IntlProvider>,
  );
}

/** The error shown beside a field: the element its aria-describedby points at. */
function errorBeside(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim() || null;
}

function valueOf(label: RegExp): string {
  const input = screen.getByLabelText(label);
  if (!(input instanceof HTMLInputElement)) throw new Error(`${String(label)} is not an input`);
  return input.value;
}

describe('the password change', () => {
  it('checks the new password like registration and the repeat before anything is sent', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() => Promise.resolve());
    renderForm(onSubmit);
    await user.type(screen.getByLabelText(/^Current password/), 'old-password-1');
    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'other');
    await user.click(screen.getByRole('button', { name: 'Change the password' }));
    await waitFor(() => expect(errorBeside(screen.getByLabelText(/^New password/))).toBe('The password must be 8 to 128 characters long.'));
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText(/^New password/));
    await user.type(screen.getByLabelText(/^New password/), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Change the password' }));
    await waitFor(() => expect(errorBeside(screen.getByLabelText(/^Repeat the new password/))).toBe('The passwords do not match.'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("shows the server's 'passwordWrong' beside the current password and keeps the fields", async () => {
    const user = userEvent.setup();
    renderForm(() => Promise.reject(new FormError({ message: 'Validation failed', fieldErrors: { currentPassword: 'The current password is wrong.' } })));
    await user.type(screen.getByLabelText(/^Current password/), 'not-my-password');
    await user.type(screen.getByLabelText(/^New password/), 'new-password-2');
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Change the password' }));
    await waitFor(() => expect(errorBeside(screen.getByLabelText(/^Current password/))).toBe('The current password is wrong.'));
    expect(valueOf(/^New password/)).toBe('new-password-2');
  });

  it('sends the current and the new password only, then empties the fields and says it is done', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_input: PasswordChangeInput) => Promise.resolve());
    renderForm(onSubmit);
    await user.type(screen.getByLabelText(/^Current password/), 'old-password-1');
    await user.type(screen.getByLabelText(/^New password/), 'new-password-2');
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Change the password' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ currentPassword: 'old-password-1', newPassword: 'new-password-2' }));
    expect(await screen.findByText(/The password has been changed/)).toBeTruthy();
    expect(valueOf(/^Current password/)).toBe('');
  });
});
