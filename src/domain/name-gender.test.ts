import { describe, expect, it } from 'vitest';
import { genderOfFullName, genderOfName } from './name-gender';

describe('the gender of a Russian name', () => {
  it('reads it from the patronymic first', () => {
    expect(genderOfName({ lastName: 'Сидорова', middleName: 'Петровна' })).toBe('female');
    expect(genderOfName({ lastName: 'Сидоров', middleName: 'Петрович' })).toBe('male');
    expect(genderOfName({ lastName: 'Ульянов', middleName: 'Ильич' })).toBe('male');
    expect(genderOfName({ lastName: 'Кузнецова', middleName: 'Ильинична' })).toBe('female');
    expect(genderOfName({ lastName: 'Саввина', middleName: 'Никитична' })).toBe('female');
  });

  it('lets the patronymic decide over a surname that is the same for both', () => {
    expect(genderOfName({ lastName: 'Черных', middleName: 'Андреевна' })).toBe('female');
    expect(genderOfName({ lastName: 'Шевченко', middleName: 'Тарасович' })).toBe('male');
  });

  it('understands Turkic patronymics, written apart or with a hyphen', () => {
    expect(genderOfName({ lastName: 'Алиев', middleName: 'Гусейн оглы' })).toBe('male');
    expect(genderOfName({ lastName: 'Алиева', middleName: 'Рашид кызы' })).toBe('female');
    expect(genderOfName({ lastName: 'Мамедов', middleName: 'Гейдар-оглы' })).toBe('male');
    expect(genderOfName({ lastName: 'Назарбаева', middleName: 'Нурсултан кызы' })).toBe('female');
  });

  it('falls back to the surname’s ending without a patronymic', () => {
    for (const lastName of ['Сидорова', 'Фёдорова', 'Федорова', 'Кузьмина', 'Толстая', 'Вронская', 'Петрова-Водкина']) {
      expect(genderOfName({ lastName }), lastName).toBe('female');
    }
    for (const lastName of ['Сидоров', 'Фёдоров', 'Соловьев', 'Кузьмин', 'Толстой', 'Вронский', 'Белый', 'Римский-Корсаков']) {
      expect(genderOfName({ lastName }), lastName).toBe('male');
    }
  });

  it('falls back to the surname when the patronymic tells nothing', () => {
    expect(genderOfName({ lastName: 'Иванова', middleName: 'Мария' })).toBe('female');
    expect(genderOfName({ lastName: 'Иванов', middleName: '' })).toBe('male');
    expect(genderOfName({ lastName: 'Иванов', middleName: null })).toBe('male');
  });

  it('does not guess when neither tells', () => {
    for (const lastName of ['Черных', 'Шевченко', 'Гогоберидзе', 'Ким', 'Smith', '', 'Ов']) {
      expect(genderOfName({ lastName }), lastName).toBe('unknown');
    }
    expect(genderOfName({ lastName: 'Smith', middleName: 'John' })).toBe('unknown');
  });

  it('ignores case', () => {
    expect(genderOfName({ lastName: 'СИДОРОВА' })).toBe('female');
    expect(genderOfName({ lastName: 'x', middleName: 'ПЕТРОВИЧ' })).toBe('male');
  });
});

describe('the gender of a full name "Surname Name Patronymic"', () => {
  it('takes the first word as the surname and the words after the second as the patronymic', () => {
    expect(genderOfFullName('Сидорова Анна')).toBe('female');
    expect(genderOfFullName('Сидоров Иван')).toBe('male');
    expect(genderOfFullName('Черных Анна Сергеевна')).toBe('female');
    expect(genderOfFullName('Алиев Рашид Гусейн оглы')).toBe('male');
    expect(genderOfFullName('  Лебедева   Ольга  ')).toBe('female');
  });

  it('does not read the first name: a surname the same for both stays unknown', () => {
    expect(genderOfFullName('Черных Анна')).toBe('unknown');
    expect(genderOfFullName('Ким Никита')).toBe('unknown');
    expect(genderOfFullName('')).toBe('unknown');
  });
});
