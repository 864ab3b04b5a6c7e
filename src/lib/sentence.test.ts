import { describe, expect, it } from 'vitest';
import { withoutStopAfterDate } from './sentence';

const dayAndMonth = (locale: string, at: Date) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }).format(at);
const withYear = (locale: string, at: Date) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(at);
const november28 = new Date(2026, 10, 28, 12);

describe('a date at the end of a sentence', () => {
  it('closes the sentence with the point of a Russian abbreviated month, not a second one', () => {
    const date = dayAndMonth('ru', november28);
    expect(date).toBe('28 нояб.');
    expect(withoutStopAfterDate(`Решение должно быть принято до ${date}.`, date)).toBe('Решение должно быть принято до 28 нояб.');
  });

  it('does the same for the point of a Russian year ("г.")', () => {
    const date = withYear('ru', november28);
    expect(date).toBe('28 нояб. 2026 г.');
    expect(withoutStopAfterDate(`Приглашение действует до ${date}. Ссылка придёт на почту.`, date)).toBe(
      'Приглашение действует до 28 нояб. 2026 г. Ссылка придёт на почту.',
    );
  });

  it('keeps the full stop after a date that ends without a point', () => {
    const may = dayAndMonth('ru', new Date(2026, 4, 5, 12));
    expect(may).toBe('5 мая');
    expect(withoutStopAfterDate(`Решение должно быть принято до ${may}.`, may)).toBe('Решение должно быть принято до 5 мая.');
    const english = dayAndMonth('en', november28);
    expect(withoutStopAfterDate(`It is to be decided by ${english}.`, english)).toBe('It is to be decided by Nov 28.');
  });
});
