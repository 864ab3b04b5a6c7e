import { describe, expect, it } from 'vitest';
import { countDateFormatters } from '../../../tests/unit/support/date-formatters';
import { timeZoneOptions } from './time-zone';

const TITLES = { russia: 'Россия', all: 'Все часовые пояса' };

/** The zone titles of the options, by zone. */
function titlesOf(locale: string, at: Date): Map<string, string> {
  return new Map(timeZoneOptions(locale, TITLES, at).flatMap((group) => (group.items ?? []).map((item) => [item.id, item.title] as const)));
}

describe('the time zones of the company form', () => {
  it('titles the zones of a language once in an hour: asking again builds no date formatter and answers the same', () => {
    const at = new Date('2026-01-15T09:05:00Z');
    const first = titlesOf('ru', at);
    let again = new Map<string, string>();
    expect(countDateFormatters(() => (again = titlesOf('ru', new Date('2026-01-15T09:55:00Z'))))).toBe(0);
    expect(again).toEqual(first);
    expect(first.get('Europe/Moscow')).toBe('Europe/Moscow (UTC+3) — Москва, стандартное время');
  });

  it('keeps each language its own names', () => {
    const at = new Date('2026-01-15T09:05:00Z');
    expect(titlesOf('ru', at).get('Europe/Moscow')).toBe('Europe/Moscow (UTC+3) — Москва, стандартное время');
    expect(titlesOf('en', at).get('Europe/Moscow')).toBe('Europe/Moscow (UTC+3) — Moscow Standard Time');
    expect(titlesOf('ru', at).get('Europe/Moscow')).toBe('Europe/Moscow (UTC+3) — Москва, стандартное время');
  });

  it('shows the offsets of the hour asked, so a list made in winter is not shown in summer', () => {
    expect(titlesOf('en', new Date('2026-01-15T12:00:00Z')).get('America/New_York')).toBe('America/New_York (UTC-5)');
    expect(titlesOf('en', new Date('2026-07-15T12:00:00Z')).get('America/New_York')).toBe('America/New_York (UTC-4)');
  });
});
