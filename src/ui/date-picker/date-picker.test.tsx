import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { DatePicker, loadCalendar, type DatePickerProps, type DateRangeValue } from './date-picker';
import { startFakeClock, stopFakeClock, type FakeClockUser } from '../../../tests/unit/support/fake-clock';

// "Today" is Friday 15 March 2024 in every test. The clock is fake as a whole, not only Date: user-event's
// pauses between keys and clicks, and Testing Library's drain after each action, then move fake time instead
// of waiting for real timers, which a busy machine runs late (a long typed date used to hit the test timeout).
const TODAY = new Date(2024, 2, 15, 10, 0, 0);

type SingleOptions = Omit<Extract<DatePickerProps, { range?: false }>, 'label' | 'name' | 'value' | 'onChange' | 'range'>;
type RangeOptions = Omit<Extract<DatePickerProps, { range: true }>, 'label' | 'name' | 'value' | 'onChange' | 'range'>;

function SingleHarness({ initial, onChange, options }: { initial: string | null; onChange: (value: string | null) => void; options: SingleOptions }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DatePicker
        {...options}
        label="Due date"
        name="due"
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
      />
      <output data-testid="model">{value ?? 'null'}</output>
      <button type="button">elsewhere</button>
    </>
  );
}

function RangeHarness({ initial, onChange, options }: { initial: DateRangeValue | null; onChange: (value: DateRangeValue | null) => void; options: RangeOptions }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DatePicker
        {...options}
        range
        label="Period of the report"
        name="period"
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
      />
      <output data-testid="model">{value ? value.join(' / ') : 'null'}</output>
    </>
  );
}

function inIntl(node: React.ReactNode, appLocale: 'ru' | 'en') {
  return (
    <IntlProvider locale={appLocale} messages={appLocale === 'en' ? en : ru} defaultLocale="en">
      {node}
    </IntlProvider>
  );
}

function renderSingle(options: SingleOptions & { initial?: string | null; appLocale?: 'ru' | 'en' } = {}) {
  const { initial = null, appLocale = 'en', ...rest } = options;
  const onChange = vi.fn<(value: string | null) => void>();
  const view = render(inIntl(<SingleHarness initial={initial} onChange={onChange} options={rest} />, appLocale));
  return { ...view, onChange, input: screen.getByRole('combobox', { name: 'Due date' }) };
}

function renderRange(options: RangeOptions & { initial?: DateRangeValue | null; appLocale?: 'ru' | 'en' } = {}) {
  const { initial = null, appLocale = 'en', ...rest } = options;
  const onChange = vi.fn<(value: DateRangeValue | null) => void>();
  const view = render(inIntl(<RangeHarness initial={initial} onChange={onChange} options={rest} />, appLocale));
  return { ...view, onChange, input: screen.getByRole('combobox', { name: 'Period of the report' }) };
}

const menu = () => screen.getByRole('dialog');
const grid = () => within(menu()).getByRole('grid');
/** The day button of a date in the shown month, found by its place in the grid, not by its label. */
const day = (isoDate: string) => {
  const cell = menu().querySelector(`[data-day="${isoDate}"]:not([data-outside]) button`);
  if (!(cell instanceof HTMLButtonElement)) throw new Error(`no day ${isoDate} in the calendar`);
  return cell;
};
const monthShown = () => (within(menu()).getAllByRole('combobox')[0] as HTMLSelectElement).selectedOptions[0]?.textContent;
const yearSelect = () => within(menu()).getAllByRole('combobox')[1] as HTMLSelectElement;

let user: FakeClockUser;

// The month grid is its own module, loaded when a field is first focused or opened: loaded here once, so the
// tests below see the menu as a user does after that first moment.
beforeAll(async () => {
  await loadCalendar();
});

beforeEach(() => {
  user = startFakeClock();
  vi.setSystemTime(TODAY);
});

afterEach(() => {
  cleanup();
  stopFakeClock();
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1024 });
});

describe('date picker: formats', () => {
  it('shows the model value (year-month-day) as day.month.year', () => {
    const { input } = renderSingle({ initial: '2024-03-05' });
    expect(input).toHaveProperty('value', '05.03.2024');
  });

  it('accepts a date typed as day.month.year and commits it as year-month-day', async () => {
    const { input, onChange } = renderSingle();
    await user.type(input, '20.04.2024{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2024-04-20');
    expect(input).toHaveProperty('value', '20.04.2024');
  });

  it('commits a typed date when the field loses focus', async () => {
    const { input, onChange } = renderSingle();
    await user.type(input, '01.12.2023');
    await user.click(screen.getByText('elsewhere'));
    expect(onChange).toHaveBeenLastCalledWith('2023-12-01');
  });

  it('refuses a typed text that is not a real date in the display format, and says how to type it', async () => {
    const { input, onChange } = renderSingle({ initial: '2024-03-05' });
    await user.clear(input);
    await user.type(input, '31.02.2024{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Enter the date as dd.mm.yyyy');
    await user.clear(input);
    await user.type(input, '2024-03-07{Enter}');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('refuses a typed date outside the minimum and maximum', async () => {
    const { input, onChange } = renderSingle({ minDate: '2024-03-10', maxDate: '2024-03-20' });
    await user.type(input, '09.03.2024{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('This date cannot be chosen');
    await user.clear(input);
    await user.type(input, '21.03.2024{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    await user.clear(input);
    await user.type(input, '10.03.2024{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2024-03-10');
  });

  it('says how to type a date in Russian in a Russian app', async () => {
    const { input } = renderSingle({ appLocale: 'ru' });
    expect(input.getAttribute('placeholder')).toBe('дд.мм.гггг');
    await user.type(input, '15 марта{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('Введите дату в формате дд.мм.гггг');
  });
});

describe('date picker: language and calendar', () => {
  it('is Russian by default: capitalised month names, weeks from Monday', async () => {
    const { input } = renderSingle({ appLocale: 'ru' });
    await user.click(input);
    expect(monthShown()).toBe('Март');
    const months = within(menu()).getAllByRole('combobox')[0]?.querySelectorAll('option') ?? [];
    expect(Array.from(months, (option) => option.textContent)).toEqual([
      'Январь', 'Февраль', 'Март', 'Апрель', 'Май', 'Июнь', 'Июль', 'Август', 'Сентябрь', 'Октябрь', 'Ноябрь', 'Декабрь',
    ]);
    expect(grid().getAttribute('aria-label')).toBe('Март 2024');
    // The weekday headers are hidden from screen readers (each day's label names its weekday).
    const weekdays = grid().querySelectorAll('thead th');
    expect(weekdays[0]?.getAttribute('aria-label')).toBe('понедельник');
    expect(weekdays[6]?.getAttribute('aria-label')).toBe('воскресенье');
  });

  it('is Russian when the locale is asked for, even in an English app', async () => {
    const { input } = renderSingle({ appLocale: 'en', locale: 'ru' });
    await user.click(input);
    expect(monthShown()).toBe('Март');
  });

  it('is English in an English app, still with weeks from Monday', async () => {
    const { input } = renderSingle({ appLocale: 'en' });
    await user.click(input);
    expect(monthShown()).toBe('March');
    expect(grid().querySelector('thead th')?.getAttribute('aria-label')).toBe('Monday');
  });

  it('does not highlight today: its day looks like any other day', async () => {
    const { input } = renderSingle();
    await user.click(input);
    const today = menu().querySelector('[data-day="2024-03-15"]');
    const otherDay = menu().querySelector('[data-day="2024-03-14"]');
    expect(today?.hasAttribute('data-today')).toBe(true);
    expect(today?.className).toBe(otherDay?.className);
  });

  it('offers the years 1900 to 2100', async () => {
    const { input } = renderSingle();
    await user.click(input);
    const years = Array.from(yearSelect().options, (option) => option.value);
    expect(years[0]).toBe('1900');
    expect(years.at(-1)).toBe('2100');
    expect(years).toHaveLength(201);
  });

  it('shows six weeks for every month with the six-week option only', async () => {
    // February 2021 starts on a Monday and fills exactly four weeks.
    const first = renderSingle({ initial: '2021-02-10' });
    await user.click(first.input);
    expect(within(grid()).getAllByRole('row')).toHaveLength(4);
    cleanup();
    const second = renderSingle({ initial: '2021-02-10', sixWeeks: true });
    await user.click(second.input);
    expect(within(grid()).getAllByRole('row')).toHaveLength(6);
  });

  it('disables days before the minimum, after the maximum and the disabled dates', async () => {
    const { input } = renderSingle({ minDate: '2024-03-05', maxDate: '2024-03-25', disabledDates: ['2024-03-12'] });
    await user.click(input);
    expect(day('2024-03-04').disabled).toBe(true);
    expect(day('2024-03-05').disabled).toBe(false);
    expect(day('2024-03-12').disabled).toBe(true);
    expect(day('2024-03-25').disabled).toBe(false);
    expect(day('2024-03-26').disabled).toBe(true);
    // Months wholly outside the bounds are not offered either.
    expect(Array.from(yearSelect().options, (option) => option.value)).toEqual(['2024']);
  });

  it('accepts a test function for disabled dates', async () => {
    const { input } = renderSingle({ disabledDates: (date) => date.endsWith('-20') });
    await user.click(input);
    expect(day('2024-03-20').disabled).toBe(true);
    expect(day('2024-03-21').disabled).toBe(false);
  });
});

describe('date picker: the menu', () => {
  it('opens and closes, and says so on the trigger', async () => {
    const { input } = renderSingle();
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(input);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(input.getAttribute('aria-controls')).toBe(menu().id);
    await user.click(within(menu()).getByRole('button', { name: 'Close' }));
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('commits only with Select, which stays disabled until the date has changed', async () => {
    const { input, onChange } = renderSingle({ initial: '2024-03-05' });
    await user.click(input);
    const select = within(menu()).getByRole('button', { name: 'Select' });
    expect(select).toHaveProperty('disabled', true);
    await user.click(day('2024-03-05'));
    expect(select).toHaveProperty('disabled', true);
    await user.click(day('2024-03-21'));
    expect(onChange).not.toHaveBeenCalled();
    expect(select).toHaveProperty('disabled', false);
    await user.click(select);
    expect(onChange).toHaveBeenLastCalledWith('2024-03-21');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(input).toHaveProperty('value', '21.03.2024');
  });

  it('closes without committing on Close', async () => {
    const { input, onChange } = renderSingle({ initial: '2024-03-05' });
    await user.click(input);
    await user.click(day('2024-03-21'));
    await user.click(within(menu()).getByRole('button', { name: 'Close' }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByTestId('model').textContent).toBe('2024-03-05');
    // Opened again, the calendar shows the committed date, not the dropped one.
    await user.click(input);
    expect(day('2024-03-05').closest('[data-selected]')).not.toBeNull();
    expect(day('2024-03-21').closest('[data-selected]')).toBeNull();
  });

  it('names Select and Close in Russian as the spec writes them', async () => {
    const { input } = renderSingle({ appLocale: 'ru' });
    await user.click(input);
    expect(within(menu()).getByRole('button', { name: 'Выбрать' })).toBeTruthy();
    expect(within(menu()).getByRole('button', { name: 'Закрыть' })).toBeTruthy();
  });

  it('commits a chosen day at once with auto-apply, without a Select button', async () => {
    const { input, onChange } = renderSingle({ autoApply: true });
    await user.click(input);
    expect(within(menu()).queryByRole('button', { name: 'Select' })).toBeNull();
    await user.click(day('2024-03-08'));
    expect(onChange).toHaveBeenLastCalledWith('2024-03-08');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lines the menu up with the right edge of the field by default, the left one when asked', async () => {
    const first = renderSingle();
    await user.click(first.input);
    expect(menu().dataset.position).toBe('right');
    expect(menu().classList.contains('date-picker__menu--right')).toBe(true);
    cleanup();
    const second = renderSingle({ position: 'left' });
    await user.click(second.input);
    expect(menu().classList.contains('date-picker__menu--left')).toBe(true);
  });

  it('is a full-width sheet below a 600 px viewport and a drop-down from 600 px', async () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 599 });
    const { input } = renderSingle();
    await user.click(input);
    expect(menu().dataset.layout).toBe('mobile');
    expect(menu().classList.contains('date-picker__menu--mobile')).toBe(true);
    // The first tap puts focus in the sheet (no on-screen keyboard over it); a second one is for typing.
    expect(document.activeElement?.closest('[role="grid"]')).not.toBeNull();
    await user.click(input);
    expect(document.activeElement).toBe(input);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 600 });
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(menu().dataset.layout).toBe('desktop');
  });
});

describe('date picker: time', () => {
  it('has no time picker unless asked', async () => {
    const { input } = renderSingle();
    await user.click(input);
    expect(within(menu()).queryByRole('combobox', { name: 'Hours' })).toBeNull();
  });

  it('offers a 24-hour clock with minutes and seconds in steps of 5, and stores the time', async () => {
    const { input, onChange } = renderSingle({ enableTime: true });
    await user.click(input);
    const hours = within(menu()).getByRole<HTMLSelectElement>('combobox', { name: 'Hours' });
    const minutes = within(menu()).getByRole<HTMLSelectElement>('combobox', { name: 'Minutes' });
    const seconds = within(menu()).getByRole<HTMLSelectElement>('combobox', { name: 'Seconds' });
    expect(Array.from(hours.options, (option) => option.text)).toEqual(Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0')));
    const steps = ['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55'];
    expect(Array.from(minutes.options, (option) => option.text)).toEqual(steps);
    expect(Array.from(seconds.options, (option) => option.text)).toEqual(steps);

    await user.click(day('2024-03-08'));
    await user.selectOptions(hours, '17');
    await user.selectOptions(minutes, '45');
    await user.selectOptions(seconds, '5');
    await user.click(within(menu()).getByRole('button', { name: 'Select' }));
    expect(onChange).toHaveBeenLastCalledWith('2024-03-08 17:45:05');
    expect(input).toHaveProperty('value', '08.03.2024 17:45:05');
  });
});

describe('date picker: clearing', () => {
  it('is not clearable by default: no clear button, and an emptied input keeps the value', async () => {
    const { input, onChange } = renderSingle({ initial: '2024-03-05' });
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    await user.clear(input);
    await user.keyboard('{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    expect(input).toHaveProperty('value', '05.03.2024');
  });

  it('is cleared by its clear button or by emptying the input when clearable', async () => {
    const { input, onChange } = renderSingle({ initial: '2024-03-05', clearable: true });
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(input).toHaveProperty('value', '');
    await user.type(input, '06.03.2024{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2024-03-06');
    await user.clear(input);
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});

describe('date picker: ranges', () => {
  it('commits a range [from, to] chosen with two clicks and Select', async () => {
    const { input, onChange } = renderRange();
    await user.click(input);
    await user.click(day('2024-03-12'));
    expect(within(menu()).getByRole('button', { name: 'Select' })).toHaveProperty('disabled', true);
    await user.click(day('2024-03-05'));
    await user.click(within(menu()).getByRole('button', { name: 'Select' }));
    expect(onChange).toHaveBeenLastCalledWith(['2024-03-05', '2024-03-12']);
    expect(input).toHaveProperty('value', '05.03.2024 – 12.03.2024');
  });

  it('with auto-apply commits a range only when both ends are chosen', async () => {
    const { input, onChange } = renderRange({ autoApply: true });
    await user.click(input);
    await user.click(day('2024-03-05'));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.click(day('2024-03-09'));
    expect(onChange).toHaveBeenLastCalledWith(['2024-03-05', '2024-03-09']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps a range within the maximum length in days', async () => {
    const { input, onChange } = renderRange({ maxRange: 7 });
    await user.click(input);
    await user.click(day('2024-03-10'));
    expect(day('2024-03-17').disabled).toBe(false);
    expect(day('2024-03-18').disabled).toBe(true);
    expect(day('2024-03-03').disabled).toBe(false);
    expect(day('2024-03-02').disabled).toBe(true);
    await user.click(within(menu()).getByRole('button', { name: 'Close' }));
    await user.type(input, '01.03.2024 – 09.03.2024{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('A period can be at most 7 days long');
    await user.clear(input);
    await user.type(input, '01.03.2024 – 08.03.2024{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['2024-03-01', '2024-03-08']);
  });

  it('refuses a typed range that ends before it starts', async () => {
    const { input, onChange } = renderRange();
    await user.type(input, '09.03.2024 – 01.03.2024{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('The end date is before the start date');
  });

  it('sets the range directly from a preset, and opens the calendar for the custom choice', async () => {
    const presets = [
      { id: 'week', title: 'This week', range: ['2024-03-11', '2024-03-17'] as const },
      { id: 'month', title: 'This month', range: ['2024-03-01', '2024-03-31'] as const },
      { id: 'custom', title: 'Custom period', range: 'custom' as const },
    ];
    const { input, onChange } = renderRange({ presets });
    const selector = screen.getByRole('combobox', { name: 'Period' });
    await user.selectOptions(selector, 'month');
    expect(onChange).toHaveBeenLastCalledWith(['2024-03-01', '2024-03-31']);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(input).toHaveProperty('value', '01.03.2024 – 31.03.2024');
    expect(selector).toHaveProperty('value', 'month');

    await user.selectOptions(selector, 'custom');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement?.closest('[role="grid"]')).not.toBeNull();
    await user.click(day('2024-03-04'));
    await user.click(day('2024-03-06'));
    await user.click(within(menu()).getByRole('button', { name: 'Select' }));
    expect(onChange).toHaveBeenLastCalledWith(['2024-03-04', '2024-03-06']);
    expect(selector).toHaveProperty('value', 'custom');
  });
});

describe('date picker: gestures', () => {
  it('turns the month on a sideways touch swipe of more than 10 px, not of 10 px', async () => {
    const { input } = renderSingle();
    await user.click(input);
    // A finger down on the calendar, moved sideways, lifted (user-event's touch pointer).
    const swipe = (fromX: number, toX: number, pointer: 'TouchA' | 'MouseLeft' = 'TouchA') => {
      const target = grid();
      const name = pointer === 'TouchA' ? 'TouchA' : 'mouse';
      return user.pointer([
        { keys: `[${pointer}>]`, target, coords: { clientX: fromX, clientY: 100 } },
        { pointerName: name, target, coords: { clientX: (fromX + toX) / 2, clientY: 100 } },
        { pointerName: name, target, coords: { clientX: toX, clientY: 100 } },
        { keys: `[/${pointer}]`, target, coords: { clientX: toX, clientY: 100 } },
      ]);
    };
    await swipe(200, 190);
    expect(monthShown()).toBe('March');
    await swipe(200, 189);
    expect(monthShown()).toBe('April');
    await swipe(100, 111);
    expect(monthShown()).toBe('March');
    // A mouse that slips while clicking is not a swipe.
    await swipe(200, 150, 'MouseLeft');
    expect(monthShown()).toBe('March');
  });

  it('turns the month on the wheel, throttled by how hard it scrolls', async () => {
    const { input } = renderSingle();
    await user.click(input);
    const calendar = grid();
    const wheel = (deltaY: number) => fireEvent.wheel(calendar, { deltaY });
    const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

    wheel(1);
    expect(monthShown()).toBe('April');
    later(499);
    wheel(1);
    expect(monthShown()).toBe('April');
    later(1);
    wheel(1);
    expect(monthShown()).toBe('May');

    later(99);
    wheel(-50);
    expect(monthShown()).toBe('May');
    later(1);
    wheel(-50);
    expect(monthShown()).toBe('April');

    wheel(-150);
    wheel(-150);
    expect(monthShown()).toBe('February');
  });

  it('keeps the page from scrolling while the wheel turns months', async () => {
    const { input } = renderSingle();
    await user.click(input);
    const event = new WheelEvent('wheel', { deltaY: 120, bubbles: true, cancelable: true });
    grid().dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
  });
});

describe('date picker: accessibility', () => {
  it('labels its input and describes it with the tip or the error', () => {
    renderSingle({ tip: 'When the work is due' });
    const input = screen.getByLabelText('Due date');
    expect(input.getAttribute('role')).toBe('combobox');
    expect(input.getAttribute('aria-haspopup')).toBe('dialog');
    expect(screen.getByText('When the work is due').id).toBe(input.getAttribute('aria-describedby'));
  });

  it('is used by keyboard alone: open, move through the grid, choose, confirm', async () => {
    const { input, onChange } = renderSingle({ initial: '2024-03-05' });
    await user.tab();
    expect(document.activeElement).toBe(input);
    await user.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(day('2024-03-05'));
    await user.keyboard('{ArrowRight}{ArrowDown}');
    expect(document.activeElement).toBe(day('2024-03-13'));
    await user.keyboard('{Enter}');
    // Tab walks to the actions: Close, then Select.
    await user.tab();
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Select');
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2024-03-13');
    expect(document.activeElement).toBe(input);
  });

  it('closes on Escape and gives focus back to the input', async () => {
    const { input, onChange } = renderSingle();
    await user.click(screen.getByRole('button', { name: 'Choose in the calendar' }));
    expect(document.activeElement?.closest('[role="grid"]')).not.toBeNull();
    await user.keyboard('{ArrowRight}{Enter}{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(input);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('stays open when a click lands on the calendar between its buttons', async () => {
    const { input } = renderSingle();
    await user.click(input);
    await user.click(grid());
    await user.click(menu());
    expect(input.getAttribute('aria-expanded')).toBe('true');
  });

  it('closes when the focus leaves it, without committing', async () => {
    const { input, onChange } = renderSingle();
    await user.click(input);
    await user.click(day('2024-03-20'));
    await user.click(screen.getByText('elsewhere'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('shows its states: focused, filled, invalid, disabled', async () => {
    const { input, container } = renderSingle({ initial: '2024-03-05', error: 'Due date is not valid.' });
    const field = container.querySelector('.date-picker');
    expect(field?.classList.contains('field--active')).toBe(true);
    expect(field?.classList.contains('field--invalid')).toBe(true);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await user.click(input);
    expect(field?.classList.contains('field--focused')).toBe(true);
    cleanup();
    renderSingle({ disabled: true });
    const disabledInput = screen.getByRole('combobox', { name: 'Due date' });
    expect(disabledInput).toHaveProperty('disabled', true);
    await user.click(disabledInput);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
