import { cleanup, render } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../../../locales/en.json';
import ru from '../../../../locales/ru.json';
import type { SuggestionStatus } from '../../../domain/suggestion';
import { DueText, daysUntilDue } from './due-text';

afterEach(() => cleanup());

// Local times, so the calendar-day wording does not depend on the machine's time zone.
const now = new Date(2025, 2, 10, 12, 0);
const at = (day: number, hour = 9) => new Date(2025, 2, day, hour, 0).toISOString();

function wording(locale: 'en' | 'ru', dueAt: string, status: SuggestionStatus = 'UNDER_CONSIDERATION'): string {
  const { container } = render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru}>
      <DueText dueAt={dueAt} status={status} now={now} />
    </IntlProvider>,
  );
  const text = container.querySelector('time')?.textContent ?? '';
  cleanup();
  return text;
}

describe('the due date in words', () => {
  it('counts calendar days ahead, whatever the hour', () => {
    expect(wording('en', at(11))).toBe('due in 1 day');
    expect(wording('en', at(12, 23))).toBe('due in 2 days');
    expect(wording('ru', at(11))).toBe('через 1 день');
    expect(wording('ru', at(12))).toBe('через 2 дня');
    expect(wording('ru', at(15))).toBe('через 5 дней');
  });

  it('says "due today" until the due moment, then overdue since today', () => {
    expect(wording('en', at(10, 18))).toBe('due today');
    expect(wording('ru', at(10, 18))).toBe('сегодня');
    expect(wording('en', at(10, 9))).toBe('overdue since today');
    expect(wording('ru', at(10, 9))).toBe('просрочено сегодня');
  });

  it('counts the days overdue with the right plural', () => {
    expect(wording('en', at(9))).toBe('1 day overdue');
    expect(wording('en', at(7))).toBe('3 days overdue');
    expect(wording('ru', at(9))).toBe('просрочено на 1 день');
    expect(wording('ru', at(7))).toBe('просрочено на 3 дня');
    expect(wording('ru', at(5))).toBe('просрочено на 5 дней');
    expect(wording('ru', new Date(2025, 1, 8, 9).toISOString())).toBe('просрочено на 30 дней');
  });

  it('shows a paused clock while the author clarifies, and nothing once decided', () => {
    expect(wording('en', at(7), 'CLARIFICATION')).toBe('waiting for the author');
    expect(wording('ru', at(7), 'CLARIFICATION')).toBe('ждёт ответа автора');
    expect(wording('en', at(7), 'APPROVED')).toBe('');
    expect(wording('en', at(7), 'REJECTED')).toBe('');
  });

  it('marks the state for styling and gives the exact date', () => {
    const { container } = render(
      <IntlProvider locale="en" messages={en}>
        <DueText dueAt={at(7)} status="UNDER_CONSIDERATION" now={now} />
      </IntlProvider>,
    );
    expect(container.querySelector('[data-due="overdue"]')).not.toBeNull();
    expect(container.querySelector('time')?.getAttribute('dateTime')).toBe(at(7));
    expect(container.querySelector('time')?.getAttribute('title')).toContain('2025');
  });

  it('shows nothing for a date that does not parse', () => {
    expect(daysUntilDue('not a date', now)).toBeNull();
    expect(wording('en', 'not a date')).toBe('');
  });
});
