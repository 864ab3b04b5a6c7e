import { createIntl } from 'react-intl';
import { object, optional, refine, string } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { HrRegistrationInput, LoginInput, RegistrationInput } from '../domain/auth';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { collectErrorCodes, formatValidationError, requiredFieldsOf, toFormValue, toFormValues, toModel } from './form';

describe('form value rules (spec section 5)', () => {
  it("turns null and 'null' into an empty value", () => {
    expect(toFormValue(null)).toBe('');
    expect(toFormValue('null')).toBe('');
    expect(toFormValue(undefined)).toBe('');
  });

  it("turns true and 'true' into '1', false and 'false' into '0'", () => {
    expect(toFormValue(true)).toBe('1');
    expect(toFormValue('true')).toBe('1');
    expect(toFormValue(false)).toBe('0');
    expect(toFormValue('false')).toBe('0');
  });

  it('keeps other strings and writes numbers as text', () => {
    expect(toFormValue('Иванов')).toBe('Иванов');
    expect(toFormValue('')).toBe('');
    expect(toFormValue(0)).toBe('0');
    expect(toFormValue(1_000_000)).toBe('1000000');
  });

  it('applies the rules to every value of a model', () => {
    expect(toFormValues({ middleName: null, active: true, imported: 'false', count: 3, name: 'Анна' })).toEqual({
      middleName: '',
      active: '1',
      imported: '0',
      count: '3',
      name: 'Анна',
    });
  });
});

describe('required-ness from the struct', () => {
  it('marks the fields that refuse a missing value', () => {
    const required = requiredFieldsOf(RegistrationInput);
    expect([...required].sort()).toEqual(
      ['company', 'email', 'firstName', 'inn', 'lastName', 'mainGoal', 'password', 'phone', 'position', 'role'].sort(),
    );
    expect(required.has('middleName')).toBe(false);
    expect(required.has('otherPosition')).toBe(false);
  });

  it('has no role and no goal in HR registration', () => {
    const required = requiredFieldsOf(HrRegistrationInput);
    expect(required.has('role')).toBe(false);
    expect(required.has('mainGoal')).toBe(false);
    expect(required.has('inn')).toBe(true);
  });

  it('gives the struct only its own fields, leaving empty optional ones out', () => {
    expect(toModel(LoginInput, { email: 'a@b.ru', password: '', extra: 'x' })).toEqual({ email: 'a@b.ru', password: '' });
    expect(toModel(HrRegistrationInput, { middleName: '', role: 'OWNER' })).not.toHaveProperty('role');
    expect(toModel(HrRegistrationInput, { middleName: '' }).middleName).toBeUndefined();
  });
});

describe('error codes', () => {
  const valid = {
    lastName: 'Иванов',
    firstName: 'Иван',
    middleName: '',
    position: 'GENERAL_DIRECTOR',
    otherPosition: '',
    company: 'ООО «Ромашка»',
    inn: '7707083893',
    mainGoal: 'QUALITY',
    phone: '+7 912 345-67-89',
    email: 'ivan@example.ru',
    role: 'OWNER',
    password: 'secret123',
  };

  it('finds nothing wrong with a valid registration', () => {
    expect(collectErrorCodes(RegistrationInput, valid)).toEqual({});
  });

  it('stops at the first failing rule of each field', () => {
    // An empty INN fails 'required' before it could fail the checksum.
    expect(collectErrorCodes(RegistrationInput, { ...valid, inn: '' }).inn).toBe('required');
    expect(collectErrorCodes(RegistrationInput, { ...valid, inn: '7707083894' }).inn).toBe('inn');
    expect(collectErrorCodes(RegistrationInput, { ...valid, password: 'short' }).password).toBe('passwordLength');
  });

  it('reports a rule across fields even while other fields are still invalid', () => {
    const codes = collectErrorCodes(RegistrationInput, { ...valid, email: '', position: 'OTHER', otherPosition: '' });
    expect(codes.email).toBe('required');
    expect(codes.otherPosition).toBe('required');
  });

  it('keeps a failing refinement of the whole form in its field', () => {
    const struct = refine(object({ a: string(), b: optional(string()) }), 'same', (v) => (v.a === v.b ? true : { path: ['b'] }));
    expect(collectErrorCodes(struct, { a: 'x', b: 'y' })).toEqual({ b: 'same' });
  });
});

describe('error messages', () => {
  it('uses error.validation.<code> in the user language', () => {
    const intlRu = createIntl({ locale: 'ru', messages: ru });
    const intlEn = createIntl({ locale: 'en', messages: en });
    expect(formatValidationError(intlRu, 'inn', 'ИНН')).toBe(ru['error.validation.inn']);
    expect(formatValidationError(intlEn, 'inn', 'INN')).toBe(en['error.validation.inn']);
  });

  it('puts the label in {field}', () => {
    const intl = createIntl({ locale: 'en', messages: en });
    expect(formatValidationError(intl, 'invalid', 'Phone')).toBe('Phone is not valid.');
  });

  it("gives a rule without a message of its own the default '{field} is not valid.'", () => {
    const intlEn = createIntl({ locale: 'en', messages: en });
    const intlRu = createIntl({ locale: 'ru', messages: ru });
    expect(formatValidationError(intlEn, 'noSuchRule', 'Phone')).toBe('Phone is not valid.');
    expect(formatValidationError(intlRu, 'noSuchRule', 'Телефон')).toBe('Поле «Телефон» заполнено неверно.');
  });

  it("falls back to 'Field is invalid' when the field has no label to name", () => {
    const intlEn = createIntl({ locale: 'en', messages: en });
    const intlRu = createIntl({ locale: 'ru', messages: ru });
    expect(formatValidationError(intlEn, 'noSuchRule', '')).toBe('Field is invalid');
    expect(formatValidationError(intlEn, 'invalid', ' ')).toBe('Field is invalid');
    expect(formatValidationError(intlRu, 'noSuchRule', '')).toBe('Поле заполнено неверно');
    // A message that does not name the field still reads well without a label.
    expect(formatValidationError(intlEn, 'required', '')).toBe(en['error.validation.required']);
  });
});
