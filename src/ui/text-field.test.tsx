import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { enums, object, refine } from 'superstruct';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Email } from '../domain/auth';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { Button } from './button';
import { DIALOG_DELAY_MS, DialogProvider } from './dialog';
import { FormError, useForm, type SelectFieldBinding } from './form';
import { PASTE_CHECK_DELAY_MS, TextField, type TextFieldProps } from './text-field';
import { startFakeClock, stopFakeClock } from '../../tests/unit/support/fake-clock';

/** Moves the fake clock; React renders what the timers changed. */
const advance = (ms: number): void => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

const ContactInput = object({
  email: refine(Email, 'required', (value) => value.length > 0),
  channel: enums(['MAIL', 'PHONE']),
});

/**
 * A plain native select bound with `selectField`: these tests are about when the form validates a
 * committed choice, not about the kit's Select control (which has tests of its own).
 */
function NativeChoice({ name, label, value, error, onChange, onBlur, options }: SelectFieldBinding & { options: { id: string; title: string }[] }) {
  return (
    <div>
      <label htmlFor={name}>{label}</label>
      <select id={name} name={name} value={value} aria-invalid={error ? true : undefined} onChange={(event) => onChange(event.currentTarget.value)} onBlur={onBlur}>
        <option value="" disabled>
          Choose
        </option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.title}
          </option>
        ))}
      </select>
      {error && <p role="alert">{error}</p>}
    </div>
  );
}

function ContactForm({ onSubmit }: { onSubmit: (value: { email: string; channel: string }) => Promise<void> }) {
  const form = useForm({ struct: ContactInput, initialValues: { email: '', channel: '' } });
  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)}>
      <TextField {...form.textField('email', 'E-mail')} type="email" />
      <NativeChoice
        {...form.selectField('channel', 'Channel')}
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

afterEach(() => {
  cleanup();
  stopFakeClock();
});

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
    // The dialog shows after its delay (a quick answer never flashes one): fake time passes it, so a busy
    // machine cannot make the wait run out first.
    const user = withFakeTimers();
    const onSubmit = vi.fn(() => Promise.reject(new FormError({ message: 'The service is down for maintenance.' })));
    renderWithIntl(<ContactForm onSubmit={onSubmit} />);
    await user.selectOptions(screen.getByLabelText('Channel'), 'MAIL');
    await user.type(screen.getByLabelText('E-mail'), 'anna@example.ru');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.queryByText('The service is down for maintenance.')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(DIALOG_DELAY_MS));
    expect(screen.getByRole('dialog').textContent).toContain('The service is down for maintenance.');
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

function Controlled(props: Partial<TextFieldProps> & { initial?: string; locale?: 'en' | 'ru' }) {
  const { initial = '', locale = 'en', ...rest } = props;
  const [value, setValue] = useState(initial);
  return (
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru}>
      <TextField label="Amount" name="amount" value={value} onChange={setValue} {...rest} />
      <output data-testid="model">{value}</output>
    </IntlProvider>
  );
}

const model = () => screen.getByTestId('model').textContent;
const amount = () => screen.getByLabelText<HTMLInputElement>('Amount');
const wrapper = () => amount().closest('.field');

describe('text field defaults and states (spec section 4, 5)', () => {
  it('is boxed (styleType 1) unless styleType 2 asks for the underlined look', () => {
    const { unmount } = render(<Controlled />);
    expect(wrapper()?.classList.contains('field--style-1')).toBe(true);
    unmount();
    render(<Controlled styleType={2} />);
    expect(wrapper()?.classList.contains('field--style-2')).toBe(true);
    expect(wrapper()?.classList.contains('field--style-1')).toBe(false);
  });

  it('is focused while it has focus and active while it holds a value', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Controlled />);
    expect(wrapper()?.classList.contains('field--focused')).toBe(false);
    await user.click(amount());
    expect(wrapper()?.classList.contains('field--focused')).toBe(true);
    expect(wrapper()?.classList.contains('field--active')).toBe(false);
    await user.type(amount(), 'x');
    expect(wrapper()?.classList.contains('field--active')).toBe(true);
    await user.tab();
    expect(wrapper()?.classList.contains('field--focused')).toBe(false);
    expect(wrapper()?.classList.contains('field--active')).toBe(true);
  });

  it('titles the password toggle Показать / Скрыть in Russian', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Controlled type="password" locale="ru" />);
    expect(amount().getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Показать' }));
    expect(amount().getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Скрыть' }).getAttribute('title')).toBe('Скрыть');
  });

  it('shows its tip, and an error instead of the tip in the invalid style', () => {
    const { rerender } = render(
      <IntlProvider locale="en" messages={en}>
        <TextField label="Amount" name="amount" value="" onChange={() => undefined} tip="Whole roubles" />
      </IntlProvider>,
    );
    expect(screen.getByText('Whole roubles').id).toBe(amount().getAttribute('aria-describedby'));
    expect(wrapper()?.classList.contains('field--invalid')).toBe(false);
    rerender(
      <IntlProvider locale="en" messages={en}>
        <TextField label="Amount" name="amount" value="" onChange={() => undefined} tip="Whole roubles" error="Amount is not valid." />
      </IntlProvider>,
    );
    expect(screen.queryByText('Whole roubles')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Amount is not valid.');
    expect(wrapper()?.classList.contains('field--invalid')).toBe(true);
    expect(amount().getAttribute('aria-invalid')).toBe('true');
  });
});

describe('validate option: keys that do not fit are blocked', () => {
  it("'int' takes only the digit keys 48-57", async () => {
    const user = userEvent.setup({ delay: null });
    render(<Controlled validate="int" />);
    await user.type(amount(), '1a2.3-4 5');
    expect(amount().value).toBe('12345');
    expect(model()).toBe('12345');
  });

  it("'float' also takes '.' (key 46), once", async () => {
    const user = userEvent.setup({ delay: null });
    render(<Controlled validate="float" />);
    await user.type(amount(), '1a2.3,4.5');
    expect(amount().value).toBe('12.345');
  });

  it("'pattern|<regex>' takes the characters the pattern matches", async () => {
    const user = userEvent.setup({ delay: null });
    render(<Controlled validate="pattern|[A-F0-9]" />);
    await user.type(amount(), 'A1z-F9g');
    expect(amount().value).toBe('A1F9');
  });

  it('leaves a field without the option alone', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Controlled />);
    await user.type(amount(), '1a.');
    expect(amount().value).toBe('1a.');
  });
});

/**
 * Fake timers for the spec's delays. Testing Library drains its async wrapper with a 0 ms timer, which
 * it only advances when it sees Jest's fake timers; the stub lets it see Vitest's.
 */
function withFakeTimers() {
  return startFakeClock();
}

describe('paste check (spec section 9: 50 ms)', () => {
  afterEach(() => {
    stopFakeClock();
  });

  it('clears a pasted invalid number 50 ms after the paste', async () => {
    const user = withFakeTimers();
    render(<Controlled validate="int" />);
    await user.click(amount());
    await user.paste('12ab');
    expect(amount().value).toBe('12ab');
    advance(PASTE_CHECK_DELAY_MS - 1);
    expect(amount().value).toBe('12ab');
    advance(1);
    expect(amount().value).toBe('');
    expect(model()).toBe('');
  });

  it('keeps a pasted valid number', async () => {
    const user = withFakeTimers();
    render(<Controlled validate="float" />);
    await user.click(amount());
    await user.paste('12.5');
    advance(100);
    expect(amount().value).toBe('12.5');
  });
});

describe('min and max', () => {
  it('clamp the value when the field is left, not while typing', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Controlled validate="int" min={10} max={100} />);
    await user.type(amount(), '150');
    expect(amount().value).toBe('150');
    await user.tab();
    expect(amount().value).toBe('100');
    await user.clear(amount());
    await user.type(amount(), '5');
    expect(amount().value).toBe('5');
    await user.tab();
    expect(model()).toBe('10');
  });

  it('clamp before Enter submits', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn();
    render(<Controlled validate="int" max={100} onSubmit={onSubmit} />);
    await user.type(amount(), '250{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(amount().value).toBe('100');
  });
});

describe('Enter', () => {
  it('calls the onSubmit handler instead of submitting the form', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn();
    const onFormSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <form onSubmit={onFormSubmit}>
        <Controlled onSubmit={onSubmit} />
      </form>,
    );
    await user.type(amount(), 'abc{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onFormSubmit).not.toHaveBeenCalled();
  });

  it('submits the enclosing form when there is no onSubmit handler', async () => {
    const user = userEvent.setup({ delay: null });
    const onFormSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <form onSubmit={onFormSubmit}>
        <Controlled />
      </form>,
    );
    await user.type(amount(), 'abc{Enter}');
    expect(onFormSubmit).toHaveBeenCalledTimes(1);
  });
});
