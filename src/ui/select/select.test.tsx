import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { enums, object } from 'superstruct';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { DialogProvider } from '../dialog';
import { useForm } from '../form';
import { FILTER_DELAY_MS, Select, type MultipleSelectProps, type SelectOption, type SingleSelectProps } from '../select';

const CITIES: SelectOption[] = [
  { id: 'msk', title: 'Москва' },
  { id: 'spb', title: 'Санкт-Петербург' },
  { id: 'kzn', title: 'Казань' },
  { id: 'krd', title: 'Краснодар' },
];

function renderIn(locale: 'ru' | 'en', node: ReactNode) {
  return render(
    <IntlProvider locale={locale} messages={locale === 'ru' ? ru : en}>
      <DialogProvider>{node}</DialogProvider>
    </IntlProvider>,
  );
}

type SingleOverrides = Partial<Omit<SingleSelectProps, 'value' | 'onChange'>> & { initial?: string; onChange?: (value: string) => void };

/** A single select holding its own value, as a form would. */
function City({ initial = '', onChange, ...props }: SingleOverrides) {
  const [value, setValue] = useState(initial);
  return (
    <Select
      label="Город"
      name="city"
      options={CITIES}
      {...props}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange?.(next);
      }}
    />
  );
}

type MultipleOverrides = Partial<Omit<MultipleSelectProps, 'value' | 'onChange' | 'multiple'>> & {
  initial?: string[];
  onChange?: (value: string[]) => void;
};

function Cities({ initial = [], onChange, ...props }: MultipleOverrides) {
  const [value, setValue] = useState<string[]>(initial);
  return (
    <Select
      label="Города"
      name="cities"
      options={CITIES}
      {...props}
      multiple
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange?.(next);
      }}
    />
  );
}

const combobox = (name = 'Город') => screen.getByRole('combobox', { name });
const optionTitles = () => screen.queryAllByRole('option').map((option) => option.textContent);
const chips = (container: HTMLElement) => Array.from(container.querySelectorAll('.select__chip-title')).map((chip) => chip.textContent);

/**
 * Fake timers for the spec's delays. Testing Library drains React's work with a `setTimeout(0)` that
 * it advances only through a global `jest`; vitest's clock stands in for it.
 */
function useFakeClock() {
  vi.useFakeTimers();
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
}

/** Moves the fake clock, letting React render what the timers did. */
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('select: autocomplete (spec section 5)', () => {
  beforeEach(() => {
    useFakeClock();
  });

  it('filters case-insensitively 25 ms after the last keystroke, not before', async () => {
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City searchable placeholder="Выберите" />);
    await user.click(combobox());
    await user.keyboard('мос');
    // The menu is open, still unfiltered, until the post-input delay has passed since the last key.
    advance(FILTER_DELAY_MS - 1);
    expect(optionTitles()).toEqual(['Москва', 'Санкт-Петербург', 'Казань', 'Краснодар']);
    advance(1);
    expect(optionTitles()).toEqual(['Москва']);

    await user.clear(combobox());
    await user.keyboard('КРАС');
    advance(FILTER_DELAY_MS);
    expect(optionTitles()).toEqual(['Краснодар']);
  });

  it('waits for the typing to stop: each keystroke restarts the delay', async () => {
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City searchable placeholder="Выберите" />);
    await user.click(combobox());
    await user.keyboard('к');
    advance(20);
    await user.keyboard('а');
    advance(20);
    // 40 ms since the first key, 20 since the last: nothing filtered yet.
    expect(optionTitles()).toHaveLength(4);
    advance(5);
    expect(optionTitles()).toEqual(['Казань']);
  });

  it("says 'Ничего не найдено' when nothing matches, and 'Nothing found' in English", async () => {
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City searchable placeholder="Выберите" />);
    await user.type(combobox(), 'берлин');
    advance(FILTER_DELAY_MS);
    expect(screen.getByRole('status').textContent).toBe('Ничего не найдено');
    expect(optionTitles()).toEqual([]);
    cleanup();

    renderIn('en', <City searchable placeholder="Choose" />);
    await user.type(combobox(), 'berlin');
    advance(FILTER_DELAY_MS);
    expect(screen.getByRole('status').textContent).toBe('Nothing found');
  });

  it('takes the first match with Enter, shows its title and closes', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City searchable placeholder="Выберите" onChange={onChange} />);
    await user.type(combobox(), 'казань');
    advance(FILTER_DELAY_MS);
    expect(combobox().getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'Казань' }).id);
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledExactlyOnceWith('kzn');
    expect(combobox()).toHaveProperty('value', 'Казань');
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
  });

  it('restores the chosen title on Escape and does not change the value', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City searchable initial="spb" onChange={onChange} />);
    await user.clear(combobox());
    await user.keyboard('мос');
    advance(FILTER_DELAY_MS);
    await user.keyboard('{Escape}');
    expect(combobox()).toHaveProperty('value', 'Санкт-Петербург');
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('commits the active match when the user tabs away', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn(
      'ru',
      <>
        <City searchable placeholder="Выберите" onChange={onChange} />
        <button type="button">next</button>
      </>,
    );
    await user.type(combobox(), 'петер');
    advance(FILTER_DELAY_MS);
    await user.tab();
    expect(onChange).toHaveBeenCalledExactlyOnceWith('spb');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'next' }));
    expect(combobox()).toHaveProperty('value', 'Санкт-Петербург');
  });

  it('puts back the chosen title when the user leaves after typing a miss', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City searchable initial="kzn" onChange={onChange} />);
    await user.clear(combobox());
    await user.keyboard('берлин');
    advance(FILTER_DELAY_MS);
    await user.tab();
    expect(onChange).not.toHaveBeenCalled();
    expect(combobox()).toHaveProperty('value', 'Казань');
  });
});

describe('select: texts of spec section 8', () => {
  it("says 'Нет данных' without options, 'No data' in English", async () => {
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City options={[]} placeholder="Выберите" />);
    await user.click(combobox());
    expect(screen.getByRole('status').textContent).toBe('Нет данных');
    cleanup();
    renderIn('en', <City options={[]} placeholder="Choose" />);
    await user.click(combobox());
    expect(screen.getByRole('status').textContent).toBe('No data');
  });

  it("says 'Loading...' in both languages while loading, instead of the options", async () => {
    const user = userEvent.setup({ delay: null });
    for (const locale of ['ru', 'en'] as const) {
      renderIn(locale, <City loading placeholder="…" />);
      await user.click(combobox());
      expect(screen.getByRole('status').textContent).toBe('Loading...');
      expect(screen.queryAllByRole('option')).toEqual([]);
      cleanup();
    }
    expect(ru['ui.select.loading']).toBe('Loading...');
    expect(en['ui.select.loading']).toBe('Loading...');
  });
});

describe('select: values (spec section 5)', () => {
  it('falls back to the first option when a non-nullable single value is empty', () => {
    const onChange = vi.fn();
    const { container } = renderIn('ru', <City onChange={onChange} />);
    expect(onChange).toHaveBeenCalledExactlyOnceWith('msk');
    expect(combobox().textContent).toBe('Москва');
    expect(container.querySelector<HTMLInputElement>('input[type="hidden"][name="city"]')?.value).toBe('msk');
  });

  it('falls back to the first option when a non-nullable value is not in the list, the first of a group included', () => {
    const onChange = vi.fn();
    renderIn('ru', <City initial="berlin" options={[{ id: 'ru', title: 'Россия', group: true, items: CITIES }]} onChange={onChange} />);
    expect(onChange).toHaveBeenCalledExactlyOnceWith('msk');
  });

  it('keeps a nullable select empty and shows its placeholder', () => {
    const onChange = vi.fn();
    renderIn('ru', <City placeholder="Выберите город" onChange={onChange} />);
    expect(onChange).not.toHaveBeenCalled();
    expect(combobox().textContent).toBe('Выберите город');
    cleanup();
    renderIn('ru', <City nullable onChange={onChange} />);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('leaves the value alone while the options are loading, and falls back once they are in', () => {
    const onChange = vi.fn();
    const { rerender } = renderIn('ru', <Select label="Город" name="city" options={[]} loading value="kzn" onChange={onChange} />);
    expect(onChange).not.toHaveBeenCalled();
    rerender(
      <IntlProvider locale="ru" messages={ru}>
        <DialogProvider>
          <Select label="Город" name="city" options={CITIES.slice(0, 2)} value="kzn" onChange={onChange} />
        </DialogProvider>
      </IntlProvider>,
    );
    expect(onChange).toHaveBeenCalledExactlyOnceWith('msk');
  });

  it('drops values of a multiple select that are not in the list', () => {
    const onChange = vi.fn();
    const { container } = renderIn('ru', <Cities initial={['kzn', 'berlin', 'msk']} onChange={onChange} />);
    expect(onChange).toHaveBeenCalledExactlyOnceWith(['kzn', 'msk']);
    expect(chips(container)).toEqual(['Казань', 'Москва']);
    expect(container.querySelector<HTMLInputElement>('input[type="hidden"][name="cities"]')?.value).toBe('kzn,msk');
  });
});

describe('select: options with pictures, icons, classes and groups (spec section 3)', () => {
  it('renders a group as a labelled group whose heading cannot be chosen', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn(
      'ru',
      <City
        placeholder="Выберите"
        onChange={onChange}
        options={[
          { id: 'none', title: 'Не указан' },
          { id: 'ru', title: 'Россия', group: true, items: CITIES.slice(0, 2) },
          { id: 'by', title: 'Беларусь', items: [{ id: 'msq', title: 'Минск', img: '/flags/by.png', icon: <b>★</b>, cls: 'city--capital' }] },
        ]}
      />,
    );
    await user.click(combobox());
    const russia = screen.getByRole('group', { name: 'Россия' });
    expect(within(russia).getAllByRole('option').map((o) => o.textContent)).toEqual(['Москва', 'Санкт-Петербург']);
    expect(screen.queryByRole('option', { name: 'Россия' })).toBeNull();

    const minsk = screen.getByRole('option', { name: 'Минск' });
    expect(minsk.classList.contains('city--capital')).toBe(true);
    expect(minsk.querySelector('img')?.getAttribute('src')).toBe('/flags/by.png');
    expect(minsk.querySelector('.select__option-icon')?.textContent).toBe('★');

    await user.click(screen.getByText('Россия'));
    expect(onChange).not.toHaveBeenCalled();
    await user.click(minsk);
    expect(onChange).toHaveBeenCalledExactlyOnceWith('msq');
  });
});

describe('select: WAI-ARIA select-only combobox', () => {
  it('is a labelled combobox that controls a listbox, with the active option as its active descendant', async () => {
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City initial="spb" />);
    const box = combobox();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.getAttribute('aria-haspopup')).toBe('listbox');
    const listbox = document.getElementById(box.getAttribute('aria-controls') ?? '');
    expect(listbox?.getAttribute('role')).toBe('listbox');

    await user.tab();
    expect(document.activeElement).toBe(box);
    await user.keyboard('{ArrowDown}');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    // Opening keeps the chosen option active and marks it selected.
    const chosen = screen.getByRole('option', { name: 'Санкт-Петербург' });
    expect(box.getAttribute('aria-activedescendant')).toBe(chosen.id);
    expect(chosen.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('option', { name: 'Москва' }).getAttribute('aria-selected')).toBe('false');
  });

  it('moves with Down, Up, Home and End and chooses with Enter', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City placeholder="Выберите" onChange={onChange} />);
    await user.tab();
    const active = () => document.getElementById(combobox().getAttribute('aria-activedescendant') ?? '')?.textContent;
    await user.keyboard('{ArrowDown}');
    expect(active()).toBe('Москва');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(active()).toBe('Казань');
    await user.keyboard('{ArrowUp}');
    expect(active()).toBe('Санкт-Петербург');
    await user.keyboard('{End}');
    expect(active()).toBe('Краснодар');
    // The ends do not wrap around.
    await user.keyboard('{ArrowDown}');
    expect(active()).toBe('Краснодар');
    await user.keyboard('{Home}');
    expect(active()).toBe('Москва');
    expect(onChange).not.toHaveBeenCalled();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledExactlyOnceWith('spb');
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
    expect(combobox().textContent).toBe('Санкт-Петербург');
  });

  it('closes on Escape and keeps the value it had', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City initial="msk" onChange={onChange} />);
    await user.tab();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Escape}');
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
    expect(combobox().textContent).toBe('Москва');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('keeps Escape inside the field while its menu is open (a dialog around it stays open)', async () => {
    const escapesHeardByDocument = vi.fn();
    const listener = (event: KeyboardEvent) => {
      if (event.key === 'Escape') escapesHeardByDocument();
    };
    document.addEventListener('keydown', listener);
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City initial="msk" />);
    await user.tab();
    await user.keyboard('{ArrowDown}{Escape}');
    expect(escapesHeardByDocument).not.toHaveBeenCalled();
    // With the menu closed, Escape belongs to the dialog again.
    await user.keyboard('{Escape}');
    expect(escapesHeardByDocument).toHaveBeenCalledTimes(1);
    document.removeEventListener('keydown', listener);
  });

  it('takes the active option when the user tabs on, and focus moves on', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn(
      'ru',
      <>
        <City initial="msk" onChange={onChange} />
        <button type="button">next</button>
      </>,
    );
    await user.tab();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await user.tab();
    expect(onChange).toHaveBeenCalledExactlyOnceWith('spb');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'next' }));
  });

  it('jumps to the option whose title starts with the typed letter, opening the menu', async () => {
    useFakeClock();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City initial="msk" />);
    await user.tab();
    const active = () => document.getElementById(combobox().getAttribute('aria-activedescendant') ?? '')?.textContent;
    await user.keyboard('к');
    expect(combobox().getAttribute('aria-expanded')).toBe('true');
    expect(active()).toBe('Казань');
    await user.keyboard('к');
    expect(active()).toBe('Краснодар');
    // After a pause a new word starts.
    advance(600);
    await user.keyboard('с');
    expect(active()).toBe('Санкт-Петербург');
    await user.keyboard('{Enter}');
    expect(combobox().textContent).toBe('Санкт-Петербург');
  });

  it('opens and chooses with the pointer, and focuses the combobox from its label', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City placeholder="Выберите" onChange={onChange} />);
    await user.click(screen.getByText('Город'));
    expect(document.activeElement).toBe(combobox());
    await user.click(combobox());
    expect(combobox().getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('option', { name: 'Казань' }));
    expect(onChange).toHaveBeenCalledExactlyOnceWith('kzn');
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
    // Choosing did not take focus away from the field.
    expect(document.activeElement).toBe(combobox());
  });

  it('cannot be opened or focused when disabled', async () => {
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City placeholder="Выберите" disabled />);
    await user.click(combobox());
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
    expect(combobox().getAttribute('aria-disabled')).toBe('true');
    await user.tab();
    expect(document.activeElement).toBe(document.body);
  });
});

describe('select: multiple', () => {
  it('toggles with Enter and keeps the menu open; the listbox is multiselectable', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    const { container } = renderIn('ru', <Cities placeholder="Выберите" onChange={onChange} />);
    await user.tab();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['msk']);
    expect(combobox('Города').getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('listbox').getAttribute('aria-multiselectable')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['msk', 'kzn']);
    expect(screen.getByRole('option', { name: 'Казань' }).getAttribute('aria-selected')).toBe('true');
    expect(chips(container)).toEqual(['Москва', 'Казань']);
    // Enter again takes it out.
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['msk']);
    expect(combobox('Города').getAttribute('aria-expanded')).toBe('true');
  });

  it('toggles with the pointer and keeps the menu open', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <Cities placeholder="Выберите" onChange={onChange} />);
    await user.click(combobox('Города'));
    await user.click(screen.getByRole('option', { name: 'Краснодар' }));
    await user.click(screen.getByRole('option', { name: 'Москва' }));
    expect(onChange).toHaveBeenLastCalledWith(['krd', 'msk']);
    expect(combobox('Города').getAttribute('aria-expanded')).toBe('true');
  });

  it('removes the last chip with Backspace in an empty autocomplete input, not while text is typed', async () => {
    useFakeClock();
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    const { container } = renderIn('ru', <Cities searchable initial={['msk', 'kzn']} onChange={onChange} />);
    await user.click(combobox('Города'));
    await user.keyboard('к{Backspace}');
    expect(onChange).not.toHaveBeenCalled();
    await user.keyboard('{Backspace}');
    expect(onChange).toHaveBeenLastCalledWith(['msk']);
    expect(chips(container)).toEqual(['Москва']);
    await user.keyboard('{Backspace}');
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('removes the last chip with Backspace in a select-only multiple select, and a chip by its button', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('en', <Cities initial={['msk', 'kzn', 'krd']} onChange={onChange} />);
    await user.tab();
    await user.keyboard('{Backspace}');
    expect(onChange).toHaveBeenLastCalledWith(['msk', 'kzn']);
    await user.click(screen.getByRole('button', { name: 'Remove Москва' }));
    expect(onChange).toHaveBeenLastCalledWith(['kzn']);
    expect(document.activeElement).toBe(combobox('Города'));
  });

  it('filters, then takes the match with Enter and clears the typed text for the next one', async () => {
    useFakeClock();
    const onChange = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <Cities searchable onChange={onChange} />);
    await user.click(combobox('Города'));
    await user.keyboard('сан');
    advance(FILTER_DELAY_MS);
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['spb']);
    expect(combobox('Города')).toHaveProperty('value', '');
    expect(optionTitles()).toHaveLength(4);
  });
});

describe('select: field states and validation hooks (spec section 5)', () => {
  it('shows the error with aria-invalid and aria-describedby, and the tip otherwise', () => {
    const { rerender } = renderIn('ru', <Select label="Город" name="city" options={CITIES} value="msk" onChange={vi.fn()} tip="Где вы работаете" />);
    expect(combobox().getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById(combobox().getAttribute('aria-describedby') ?? '')?.textContent).toBe('Где вы работаете');
    rerender(
      <IntlProvider locale="ru" messages={ru}>
        <Select label="Город" name="city" options={CITIES} value="msk" onChange={vi.fn()} tip="Где вы работаете" error="Выберите город" required />
      </IntlProvider>,
    );
    expect(combobox().getAttribute('aria-invalid')).toBe('true');
    expect(combobox().getAttribute('aria-required')).toBe('true');
    expect(document.getElementById(combobox().getAttribute('aria-describedby') ?? '')?.textContent).toBe('Выберите город');
    expect(screen.queryByText('Где вы работаете')).toBeNull();
  });

  it('marks the field focused while focus is in it and active while it has a value', async () => {
    const user = userEvent.setup({ delay: null });
    const { container } = renderIn('ru', <City placeholder="Выберите" />);
    const field = container.querySelector('.field');
    expect(field?.classList.contains('field--active')).toBe(false);
    await user.tab();
    expect(field?.classList.contains('field--focused')).toBe(true);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(field?.classList.contains('field--active')).toBe(true);
    await user.tab();
    expect(field?.classList.contains('field--focused')).toBe(false);
  });

  it('calls onBlur when focus leaves, and onChange only for a committed choice', async () => {
    useFakeClock();
    const onChange = vi.fn();
    const onBlur = vi.fn();
    const user = userEvent.setup({ delay: null });
    renderIn('ru', <City searchable placeholder="Выберите" onChange={onChange} onBlur={onBlur} />);
    await user.click(combobox());
    await user.keyboard('мо');
    advance(FILTER_DELAY_MS);
    await user.keyboard('{ArrowDown}{ArrowUp}');
    expect(onChange).not.toHaveBeenCalled();
    expect(onBlur).not.toHaveBeenCalled();
    await user.click(screen.getByRole('option', { name: 'Москва' }));
    expect(onBlur).not.toHaveBeenCalled(); // a pointer choice does not leave the field
    await user.click(document.body);
    expect(onBlur).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledExactlyOnceWith('msk');
  });

  it('is validated by the form at once on a choice (useForm.selectField)', async () => {
    const Contact = object({ channel: enums(['MAIL', 'PHONE']) });
    function ContactForm() {
      const form = useForm({ struct: Contact, initialValues: { channel: '' } });
      return (
        <form noValidate onSubmit={form.handleSubmit(vi.fn())}>
          <Select
            {...form.selectField('channel', 'Channel')}
            placeholder="Choose"
            options={[
              { id: 'MAIL', title: 'Mail' },
              { id: 'FAX', title: 'Fax' },
            ]}
          />
        </form>
      );
    }
    const user = userEvent.setup({ delay: null });
    renderIn('en', <ContactForm />);
    await user.click(combobox('Channel'));
    await user.click(screen.getByRole('option', { name: 'Fax' }));
    expect(combobox('Channel').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Channel is not valid.');
    await user.click(combobox('Channel'));
    await user.click(screen.getByRole('option', { name: 'Mail' }));
    expect(combobox('Channel').getAttribute('aria-invalid')).toBeNull();
  });
});

describe('select: menu placement switches at 768 px (spec section 9)', () => {
  function stubViewport(width: number, height: number, fieldTop: number) {
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(width);
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(height);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
      x: 16,
      y: fieldTop,
      top: fieldTop,
      bottom: fieldTop + 44,
      left: 16,
      right: 316,
      width: 300,
      height: 44,
      toJSON: () => ({}),
    });
  }
  const menu = (container: HTMLElement) => container.querySelector('.select__menu');

  it('drops down under the field from 768 px when there is room below', async () => {
    stubViewport(768, 900, 100);
    const user = userEvent.setup({ delay: null });
    const { container } = renderIn('ru', <City placeholder="Выберите" />);
    await user.click(combobox());
    expect(menu(container)?.className).toContain('select__menu--down');
  });

  it('opens upward from 768 px when there is no room below the field', async () => {
    stubViewport(1024, 768, 660);
    const user = userEvent.setup({ delay: null });
    const { container } = renderIn('ru', <City placeholder="Выберите" />);
    await user.click(combobox());
    expect(menu(container)?.className).toContain('select__menu--up');
  });

  it('below 768 px is field-wide under the field and never flips', async () => {
    stubViewport(767, 640, 560);
    const user = userEvent.setup({ delay: null });
    const { container } = renderIn('ru', <City placeholder="Выберите" />);
    await user.click(combobox());
    expect(menu(container)?.className).toContain('select__menu--phone');
    expect(menu(container)?.className).not.toContain('select__menu--up');
  });
});
