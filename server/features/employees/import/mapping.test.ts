import { describe, expect, it } from 'vitest';
import { IMPORT_FIELDS } from '../../../../src/domain/company';
import { translate } from '../../../i18n/messages';
import { applyMapping, columnsOf, detectTable, fieldOfHeader, missingFields, normalizeHeader, parseMappingField } from './mapping';
import { IMPORT_MAX_COLUMNS } from './parse';

describe('fieldOfHeader', () => {
  it('knows Russian and English headers, whatever their case, spaces and punctuation', () => {
    const cases: [string, string | null][] = [
      ['Фамилия', 'lastName'],
      ['  ФАМИЛИЯ ', 'lastName'],
      ['Last name', 'lastName'],
      ['LASTNAME', 'lastName'],
      ['Surname', 'lastName'],
      ['Имя', 'firstName'],
      ['First Name', 'firstName'],
      ['Отчество', 'middleName'],
      ['Middle name', 'middleName'],
      ['Должность', 'position'],
      ['Job title', 'position'],
      ['E-mail', 'email'],
      ['Email', 'email'],
      ['e-mail', 'email'],
      ['Почта', 'email'],
      ['Электронная почта', 'email'],
      ['Е-mail', 'email'],
      ['Табельный номер', 'serviceNumber'],
      ['Таб. №', 'serviceNumber'],
      ['таб №', 'serviceNumber'],
      ['ТАБ.№', 'serviceNumber'],
      ['Таб. номер', 'serviceNumber'],
      ['Service number', 'serviceNumber'],
      ['Employee ID', 'serviceNumber'],
      ['Подразделение', 'department'],
      ['Отдел', 'department'],
      ['Department', 'department'],
      ['Дата рождения', null],
      ['', null],
    ];
    for (const [header, field] of cases) expect(fieldOfHeader(header), header).toBe(field);
  });

  it('treats ё as е', () => {
    expect(normalizeHeader('Учётный Номер')).toBe(normalizeHeader('учетный номер'));
  });

  it('recognises the template headers of both languages', () => {
    for (const locale of ['ru', 'en'] as const) {
      const headers = IMPORT_FIELDS.map((f) => translate(locale, `import.field.${f}`));
      expect(columnsOf(headers).map((c) => c.field)).toEqual([...IMPORT_FIELDS]);
    }
  });
});

describe('detectTable', () => {
  it('takes the first row as the header and maps each field to its first column only', () => {
    const table = detectTable([
      { row: 1, cells: ['Фамилия', 'Имя', 'Фамилия', 'Примечание'] },
      { row: 2, cells: ['Иванов', 'Иван', 'Петров', ''] },
    ]);
    expect(table.headerIndex).toBe(0);
    expect(table.columns).toEqual([
      { index: 0, header: 'Фамилия', field: 'lastName' },
      { index: 1, header: 'Имя', field: 'firstName' },
      { index: 2, header: 'Фамилия', field: null },
      { index: 3, header: 'Примечание', field: null },
    ]);
  });

  it('skips a title above the table', () => {
    const table = detectTable([
      { row: 1, cells: ['Список сотрудников ООО «Ромашка»'] },
      { row: 2, cells: ['на 01.03.2025'] },
      { row: 4, cells: ['№', 'Фамилия', 'Имя'] },
      { row: 5, cells: ['1', 'Иванов', 'Иван'] },
    ]);
    expect(table.headerIndex).toBe(2);
    expect(table.headerRow).toBe(4);
    expect(missingFields(table.columns)).toEqual([]);
  });

  it('falls back to the first row when no header is recognised, and reports the required fields missing', () => {
    const table = detectTable([
      { row: 1, cells: ['A', 'B'] },
      { row: 2, cells: ['Иванов', 'Иван'] },
    ]);
    expect(table.headerIndex).toBe(0);
    expect(missingFields(table.columns)).toEqual(['lastName', 'firstName']);
  });

  it(`refuses a header wider than ${IMPORT_MAX_COLUMNS} columns`, () => {
    expect(() => detectTable([{ row: 1, cells: ['Фамилия', ...Array.from({ length: IMPORT_MAX_COLUMNS }, (_, i) => `c${i}`)] }])).toThrow(
      expect.objectContaining({ code: 'importBroken' }),
    );
  });
});

describe('the client mapping', () => {
  const detected = columnsOf(['ФИО', 'Имя', 'Фамилия', 'Почта']);

  it('overrides the detected field column by column', () => {
    const mapped = applyMapping(detected, parseMappingField('["lastName", null]', detected.length));
    expect(mapped.map((c) => c.field)).toEqual(['lastName', null, null, 'email']);
  });

  it('keeps the detection for columns past its end, unless their field was given to another column', () => {
    const mapped = applyMapping(detected, parseMappingField('["email"]', detected.length));
    expect(mapped.map((c) => c.field)).toEqual(['email', 'firstName', 'lastName', null]);
  });

  it('is optional', () => {
    expect(parseMappingField(undefined, 4)).toBeNull();
    expect(parseMappingField(' ', 4)).toBeNull();
    expect(applyMapping(detected, null)).toEqual(detected);
  });

  it('refuses anything but an array of known fields, each once, no longer than the header', () => {
    for (const raw of ['{', '{"a":1}', '"lastName"', '["nope"]', '["lastName","lastName"]', '[1]', '[null,null,null,null,null]', '["roles"]']) {
      expect(() => parseMappingField(raw, detected.length), raw).toThrow(expect.objectContaining({ code: 'validation', extras: { fieldErrors: { mapping: 'invalid' } } }));
    }
  });
});
