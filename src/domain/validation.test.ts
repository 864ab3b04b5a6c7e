import { array, object, optional, record, size, string, trimmed, unknown } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { ProfilePatch, RegistrationInput } from './auth';
import { DepartmentInput, VerificationDecision } from './company';
import { SuggestionInput } from './suggestion';
import { filled } from './filled';
import { CalendarDate, MAX_INPUT_DEPTH, hasControlCharacters, multilineText, validate } from './validation';

const C0_BUT_LINE_BREAKS_AND_TAB = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).filter((c) => !'\t\n\r'.includes(c));

describe('hasControlCharacters', () => {
  it('refuses every C0 control character but tab, line feed and carriage return, and DEL, in any text', () => {
    for (const c of [...C0_BUT_LINE_BREAKS_AND_TAB, '\u007f']) {
      expect(hasControlCharacters(`a${c}b`, 'singleLine'), JSON.stringify(c)).toBe(true);
      expect(hasControlCharacters(`a${c}b`, 'multiline'), JSON.stringify(c)).toBe(true);
      // Not even around the text, where trimming would hide it only sometimes (NUL is no whitespace).
      expect(hasControlCharacters(`${c}ab`, 'singleLine'), JSON.stringify(c)).toBe(true);
    }
  });

  it('refuses unpaired surrogates and keeps pairs (emoji, rare CJK)', () => {
    expect(hasControlCharacters('a\ud800b')).toBe(true);
    expect(hasControlCharacters('a\udc00b')).toBe(true);
    expect(hasControlCharacters('ends with \ud83d')).toBe(true);
    expect(hasControlCharacters('\ude00 starts with a low half')).toBe(true);
    expect(hasControlCharacters('Идея 😀 𠀀')).toBe(false);
  });

  it('keeps tab and line breaks in multi-line text, and around single-line text, but not inside it', () => {
    expect(hasControlCharacters('first line\r\n\tsecond line', 'multiline')).toBe(false);
    expect(hasControlCharacters('  Иванов\n', 'singleLine')).toBe(false);
    expect(hasControlCharacters('Ива\nнов', 'singleLine')).toBe(true);
    expect(hasControlCharacters('Ива\tнов', 'singleLine')).toBe(true);
  });

  it('keeps ordinary text, C1 characters and non-characters alike', () => {
    for (const text of ['', 'ООО «Ромашка»', "O'Brien; =1+2", '\u0085\u00a0\u2028\ufeff\uffff']) expect(hasControlCharacters(text), text).toBe(false);
  });
});

describe('validate: control characters', () => {
  it('answers controlCharacters for a NUL in any text field, whatever else is wrong', () => {
    const result = validate(DepartmentInput, { name: 'Цех\u0000№1' });
    expect(result).toEqual({ ok: false, errors: { name: 'controlCharacters' } });
    expect(validate(ProfilePatch, { firstName: 'Иван\u0000', phone: 'not a phone' })).toEqual({ ok: false, errors: { firstName: 'controlCharacters', phone: 'phone' } });
  });

  it('names the refused fields of a registration, password included', () => {
    const result = validate(RegistrationInput, { firstName: 'a\u0001', lastName: 'b', company: 'c\u007f', password: 'secret\u0000secret', email: 'x@example.com' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({ firstName: 'controlCharacters', company: 'controlCharacters', password: 'controlCharacters' });
  });

  it('keeps line breaks in a proposal, and refuses them in its title', () => {
    const proposal = {
      title: 'Новый стеллаж',
      problem: 'Детали лежат на полу.\r\nИх ищут по 10 минут.',
      solution: '1.\tКупить стеллаж\n2.\tПодписать полки',
      expectedEffect: 'Минус 10 минут на заказ',
      departmentId: '0b6c6f8e-3f2a-4d5e-9f1a-2b3c4d5e6f70',
      imageIds: [],
    };
    expect(validate(SuggestionInput, proposal).ok).toBe(true);
    expect(validate(SuggestionInput, { ...proposal, title: 'Новый\nстеллаж' })).toEqual({ ok: false, errors: { title: 'controlCharacters' } });
    expect(validate(SuggestionInput, { ...proposal, problem: 'NUL\u0000' })).toEqual({ ok: false, errors: { problem: 'controlCharacters' } });
  });

  it('keeps line breaks in a verification comment', () => {
    expect(validate(VerificationDecision, { decision: 'REJECTED', comment: 'Платёж не найден.\nПришлите платёжку.' }).ok).toBe(true);
  });

  it('trims around a single-line field as before', () => {
    expect(validate(DepartmentInput, { name: '\tЦех №1\r\n' })).toEqual({ ok: true, value: { name: 'Цех №1' } });
  });

  it('looks into arrays, nested objects and keys, and leaves unknown() values to their own reader', () => {
    const Batch = object({ items: array(object({ name: string() })), extra: optional(unknown()), tags: optional(record(string(), string())) });
    expect(validate(Batch, { items: [{ name: 'ok' }, { name: 'bad\u0000' }] })).toEqual({ ok: false, errors: { 'items.1.name': 'controlCharacters' } });
    // A pushed operation's body is unknown() in the batch: its own struct refuses it, not the batch's.
    expect(validate(Batch, { items: [], extra: { deep: [[{ note: 'a\u0000' }]] } }).ok).toBe(true);
    // Where the struct does not say what a value is, line breaks pass and NUL does not.
    expect(validate(Batch, { items: [], tags: { note: 'two\nlines' } }).ok).toBe(true);
    expect(validate(Batch, { items: [], tags: { note: 'a\u0000' } })).toEqual({ ok: false, errors: { 'tags.note': 'controlCharacters' } });
    expect(validate(Batch, { items: [], tags: { 'key\u0000': 'x' } })).toEqual({ ok: false, errors: { tags: 'controlCharacters' } });
  });

  it('refuses a value nested deeper than MAX_INPUT_DEPTH without overflowing the stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    // superstruct alone would overflow the stack printing the failing value (String() of nested arrays).
    const result = validate(object({ name: string() }), { name: deep });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({ [`name${'.0'.repeat(MAX_INPUT_DEPTH - 1)}`]: 'invalid' });
    // Inside an unknown() value too, which is otherwise left to its reader.
    expect(validate(object({ extra: unknown() }), { extra: deep }).ok).toBe(false);
  });

  it('marks multi-line text through the usual wrappers', () => {
    const Note = object({ note: optional(size(trimmed(multilineText()), 0, 100)) });
    expect(validate(Note, { note: ' a\nb ' })).toEqual({ ok: true, value: { note: 'a\nb' } });
    expect(validate(Note, {})).toEqual({ ok: true, value: {} });
    expect(validate(Note, { note: 5 })).toEqual({ ok: false, errors: { note: 'invalid' } });
  });
});

describe('filled', () => {
  it('calls an empty or blank field required, and anything else what the field itself calls it', () => {
    const Form = object({ date: filled(CalendarDate) });
    expect(validate(Form, { date: '' })).toEqual({ ok: false, errors: { date: 'required' } });
    expect(validate(Form, { date: '   ' })).toEqual({ ok: false, errors: { date: 'required' } });
    expect(validate(Form, { date: '2026-02-30' })).toEqual({ ok: false, errors: { date: 'invalid' } });
    expect(validate(Form, { date: '2026-02-28' })).toEqual({ ok: true, value: { date: '2026-02-28' } });
  });
});
