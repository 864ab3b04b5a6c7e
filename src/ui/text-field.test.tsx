import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { enums, object, refine } from 'superstruct';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Email } from '../domain/auth';
import en from '../../locales/en.json';
import { Button } from './button';
import { DialogProvider } from './dialog';
import { FormError, useForm } from './form';
import { Select } from './select';
import { TextField } from './text-field';

const ContactInput = object({
  email: refine(Email, 'required', (value) => value.length > 0),
  channel: enums(['MAIL', 'PHONE']),
});

function ContactForm({ onSubmit }: { onSubmit: (value: { email: string; channel: string }) => Promise<void> }) {
  const form = useForm({ struct: ContactInput, initialValues: { email: '', channel: '' } });
  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)}>
      <TextField {...form.textField('email', 'E-mail')} type="email" />
      <Select
        {...form.selectField('channel', 'Channel')}
        placeholder="Choose"
        options={[
          { id: 'MAIL', title: 'Mail' },
          { id: 'PHONE', title: 'Phone' },
          // Offered but not accepted by the struct, to see a choice validated at once.
          { id: 'FAX', title: 'Fax' },
        ]}
      />
      <TextField label="Password" name="password" value="" onChange={() => undefined} type="password" />
      <Button type="submit">Send</Button>
    </form>
  );
}

function renderWithIntl(node: ReactNode) {
  return render(
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>{node}</DialogProvider>
    </IntlProvider>,
  );
}

afterEach(cleanup);

describe('validation timing (spec section 5)', () => {
  it('does not validate while the user types, but does when the field is left', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithIntl(<ContactForm onSubmit={vi.fn()} />);
    const email = screen.getByLabelText('E-mail');

    await user.type(email, 'not-an-address');
    expect(screen.queryByText(en['error.validation.email'])).toBeNull();
    expect(email.hasAttribute('aria-invalid')).toBe(false);

    await user.tab();
    const error = screen.getByText(en['error.validation.email']);
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(error.id);
  });

  it('keeps the message while the user retypes, and clears it when the fixed field is left', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithIntl(<ContactForm onSubmit={vi.fn()} />);
    const email = screen.getByLabelText('E-mail');
    await user.type(email, 'wrong');
    await user.tab();
    await user.clear(email);
    await user.type(email, 'anna@example.ru');
    expect(screen.getByText(en['error.validation.email'])).toBeTruthy();

    await user.tab();
    expect(screen.queryByText(en['error.validation.email'])).toBeNull();
    expect(email.hasAttribute('aria-invalid')).toBe(false);
  });

  it('shows the first failing rule: an empty required e-mail is "required", not "email"', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithIntl(<ContactForm onSubmit={vi.fn()} />);
    await user.click(screen.getByLabelText('E-mail'));
    await user.tab();
    expect(screen.getByText(en['error.validation.required'])).toBeTruthy();
    expect(screen.queryByText(en['error.validation.email'])).toBeNull();
  });

  it('validates a select on change, without waiting for blur', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithIntl(<ContactForm onSubmit={vi.fn()} />);
    const channel = screen.getByLabelText<HTMLSelectElement>('Channel');
    await user.selectOptions(channel, 'FAX');
    expect(document.activeElement).toBe(channel);
    expect(channel.getAttribute('aria-invalid')).toBe('true');

    await user.selectOptions(channel, 'PHONE');
    expect(channel.value).toBe('PHONE');
    expect(channel.hasAttribute('aria-invalid')).toBe(false);
  });

  it('validates on a model update from code', async () => {
    const user = userEvent.setup({ delay: null });
    function Prefilled() {
      const form = useForm({ struct: ContactInput, initialValues: { email: '', channel: 'MAIL' } });
      return (
        <form noValidate>
          <TextField {...form.textField('email', 'E-mail')} />
          <Button onClick={() => form.setValues({ email: 'no-at-sign' })}>Fill</Button>
        </form>
      );
    }
    renderWithIntl(<Prefilled />);
    await user.click(screen.getByRole('button', { name: 'Fill' }));
    expect(screen.getByLabelText<HTMLInputElement>('E-mail').value).toBe('no-at-sign');
    expect(screen.getByText(en['error.validation.email'])).toBeTruthy();
  });

  it('validates every field on submit, focuses the first invalid one and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn(() => Promise.resolve());
    renderWithIntl(<ContactForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Channel').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
  });

  it('submits the validated value when Enter is pressed in a field', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn(() => Promise.resolve());
    renderWithIntl(<ContactForm onSubmit={onSubmit} />);
    await user.selectOptions(screen.getByLabelText('Channel'), 'MAIL');
    await user.type(screen.getByLabelText('E-mail'), '  anna@example.ru{Enter}');
    expect(onSubmit).toHaveBeenCalledWith({ email: 'anna@example.ru', channel: 'MAIL' });
  });

  it("shows the server's field errors beside the fields", async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn(() => Promise.reject(new FormError({ message: 'Invalid input', fieldErrors: { email: 'This address is taken.' } })));
    renderWithIntl(<ContactForm onSubmit={onSubmit} />);
    await user.selectOptions(screen.getByLabelText('Channel'), 'MAIL');
    await user.type(screen.getByLabelText('E-mail'), 'anna@example.ru');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('This address is taken.')).toBeTruthy();
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
  });

  it('passes any other failure to the error dialog', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn(() => Promise.reject(new FormError({ message: 'The service is down for maintenance.' })));
    renderWithIntl(<ContactForm onSubmit={onSubmit} />);
    await user.selectOptions(screen.getByLabelText('Channel'), 'MAIL');
    await user.type(screen.getByLabelText('E-mail'), 'anna@example.ru');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByText('The service is down for maintenance.')).toBeTruthy());
  });
});

describe('TextField', () => {
  it('toggles password visibility with a Show / Hide button', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithIntl(<ContactForm onSubmit={vi.fn()} />);
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(password.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Hide' }).getAttribute('title')).toBe('Hide');
  });

  it('defaults to type text with spellcheck off and marks required fields', () => {
    renderWithIntl(<TextField label="Company" name="company" value="" onChange={() => undefined} required />);
    const input = screen.getByLabelText('Company');
    expect(input.getAttribute('type')).toBe('text');
    expect(input.getAttribute('spellcheck')).toBe('false');
    expect(input.getAttribute('name')).toBe('company');
    expect(input.getAttribute('aria-required')).toBe('true');
  });
});
