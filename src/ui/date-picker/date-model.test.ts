import { describe, expect, it } from 'vitest';
import { parseDisplay, parseDisplayRange, parseModel, rangeLength, toDisplay, toDisplayRange, toModel } from './date-model';

describe('date formats', () => {
  it('shows day.month.year and stores year-month-day', () => {
    const date = parseModel('2024-03-05');
    expect(date).not.toBeNull();
    if (!date) return;
    expect(toDisplay(date)).toBe('05.03.2024');
    expect(toModel(date)).toBe('2024-03-05');
  });

  it('stores a date with its time as yyyy-MM-dd HH:mm:ss on a 24-hour clock', () => {
    const date = parseDisplay('05.03.2024 17:45:30', true);
    expect(date).not.toBeNull();
    if (!date) return;
    expect(toModel(date, true)).toBe('2024-03-05 17:45:30');
    expect(toDisplay(date, true)).toBe('05.03.2024 17:45:30');
  });

  it('accepts a typed date only in the display format, and only a real one', () => {
    expect(parseDisplay('15.03.2024')?.getDate()).toBe(15);
    expect(parseDisplay('31.02.2024')).toBeNull();
    expect(parseDisplay('2024-03-15')).toBeNull();
    expect(parseDisplay('1.3.24')).toBeNull();
    expect(parseDisplay('15/03/2024')).toBeNull();
    expect(parseDisplay('')).toBeNull();
  });

  it('keeps dates within the years 1900 to 2100', () => {
    expect(parseDisplay('31.12.1899')).toBeNull();
    expect(parseDisplay('01.01.1900')).not.toBeNull();
    expect(parseDisplay('31.12.2100')).not.toBeNull();
    expect(parseDisplay('01.01.2101')).toBeNull();
  });

  it('reads and writes a typed range', () => {
    const range = parseDisplayRange('01.03.2024 – 08.03.2024');
    expect(range?.map((date) => toModel(date))).toEqual(['2024-03-01', '2024-03-08']);
    expect(parseDisplayRange('01.03.2024 - 08.03.2024')?.map((date) => toModel(date))).toEqual(['2024-03-01', '2024-03-08']);
    expect(parseDisplayRange('01.03.2024')).toBeNull();
    if (range) expect(toDisplayRange(range)).toBe('01.03.2024 – 08.03.2024');
  });

  it('counts a range in calendar days between its ends', () => {
    const from = parseModel('2024-01-01');
    const to = parseModel('2024-01-08');
    if (!from || !to) throw new Error('fixture dates');
    expect(rangeLength(from, to)).toBe(7);
  });
});
