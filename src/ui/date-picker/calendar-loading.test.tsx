// The month grid is a module of its own, loaded when a date field is focused or opened (date-picker.tsx,
// loadCalendar). When it cannot be loaded (a deploy removed the old chunk, say, with no network to fetch the new
// one), the open menu says so and tells the user how to type the date; typing keeps working.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { DatePicker } from './date-picker';

vi.mock('./calendar', () => {
  throw new Error('chunk gone');
});

afterEach(cleanup);

function renderField(locale: 'ru' | 'en', onChange: (value: string | null) => void) {
  render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru} defaultLocale="en">
      <DatePicker label="Due" name="due" value={null} onChange={onChange} />
    </IntlProvider>,
  );
}

describe('a date picker whose calendar cannot be loaded', () => {
  it.each([
    ['en', 'The calendar could not be loaded. Type the date as dd.mm.yyyy.'],
    ['ru', 'Календарь не загрузился. Введите дату в виде дд.мм.гггг.'],
  ] as const)('says so in the open menu (%s), and a typed date is still taken', async (locale, text) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onChange = vi.fn<(value: string | null) => void>();
    renderField(locale, onChange);
    fireEvent.click(screen.getByRole('button', { name: locale === 'en' ? 'Choose in the calendar' : /календар/i }));
    expect(await screen.findByText(text)).toBeTruthy();
    expect(errors).toHaveBeenCalled();
    const input = screen.getByRole('combobox');
    fireEvent.change(input, { target: { value: '01.04.2024' } });
    act(() => {
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    expect(onChange).toHaveBeenCalledWith('2024-04-01');
    errors.mockRestore();
  });
});
