import { describe, expect, it } from 'vitest';
import { choosableOptions, fallbackValue, filterEntries, keepKnownValues, toEntries, typeAheadMatch, type SelectOption } from './options';

const CITIES: SelectOption[] = [
  { id: 'msk', title: 'Москва' },
  { id: 'spb', title: 'Санкт-Петербург' },
  { id: 'kzn', title: 'Казань' },
  { id: 'krd', title: 'Краснодар' },
];

describe('select options (spec sections 3 and 5)', () => {
  it('matches the typed text case-insensitively anywhere in the title', () => {
    const entries = toEntries(CITIES);
    expect(choosableOptions(filterEntries(entries, 'мос')).map((o) => o.id)).toEqual(['msk']);
    expect(choosableOptions(filterEntries(entries, 'МОС')).map((o) => o.id)).toEqual(['msk']);
    expect(choosableOptions(filterEntries(entries, 'петер')).map((o) => o.id)).toEqual(['spb']);
    expect(choosableOptions(filterEntries(entries, '')).map((o) => o.id)).toEqual(['msk', 'spb', 'kzn', 'krd']);
    expect(filterEntries(entries, 'berlin')).toEqual([]);
  });

  it('turns groups into labelled headings whose items are the choices, keeping only matching items', () => {
    const entries = toEntries([
      { id: 'ru', title: 'Россия', group: true, items: CITIES.slice(0, 2) },
      { id: 'other', title: 'Другое' },
      { id: 'by', title: 'Беларусь', items: [{ id: 'msq', title: 'Минск' }] },
    ]);
    expect(entries.map((e) => e.kind)).toEqual(['group', 'option', 'group']);
    expect(choosableOptions(entries).map((o) => o.id)).toEqual(['msk', 'spb', 'other', 'msq']);
    const filtered = filterEntries(entries, 'мин');
    expect(filtered).toHaveLength(1);
    expect(filtered[0]).toMatchObject({ kind: 'group', group: { id: 'by' } });
  });

  it('flattens a group inside a group into a group of its own', () => {
    const entries = toEntries([{ id: 'a', title: 'A', items: [{ id: 'a1', title: 'A1' }, { id: 'b', title: 'B', items: [{ id: 'b1', title: 'B1' }] }] }]);
    expect(entries.map((e) => (e.kind === 'group' ? e.group.id : e.option.id))).toEqual(['a', 'b']);
    expect(choosableOptions(entries).map((o) => o.id)).toEqual(['a1', 'b1']);
  });

  it('falls back to the first option for an empty or unknown single value', () => {
    expect(fallbackValue('', CITIES)).toBe('msk');
    expect(fallbackValue('berlin', CITIES)).toBe('msk');
    expect(fallbackValue('kzn', CITIES)).toBe('kzn');
    expect(fallbackValue('', [{ id: 'x', title: 'X', disabled: true }, ...CITIES])).toBe('msk');
    expect(fallbackValue('', [])).toBe('');
  });

  it('keeps only known values of a multiple select, once each', () => {
    expect(keepKnownValues(['kzn', 'berlin', 'msk', 'kzn'], CITIES)).toEqual(['kzn', 'msk']);
    expect(keepKnownValues(['berlin'], CITIES)).toEqual([]);
  });

  it('jumps by type-ahead to the next title starting with the typed letters, cycling on a repeated letter', () => {
    expect(typeAheadMatch(CITIES, 'к', -1)).toBe(2);
    expect(typeAheadMatch(CITIES, 'кк', 2)).toBe(3);
    expect(typeAheadMatch(CITIES, 'ккк', 3)).toBe(2);
    expect(typeAheadMatch(CITIES, 'кр', 2)).toBe(3);
    expect(typeAheadMatch(CITIES, 'ка', 2)).toBe(2);
    expect(typeAheadMatch(CITIES, 'я', 0)).toBe(-1);
  });
});
