import { describe, expect, it } from 'vitest';
import { CompanyInput, CompanyPatch, companyInputErrors, missingForStart } from './company';
import { isValidEntrepreneurInn, isValidKpp, isValidLegalEntityInn } from './inn';
import { validate } from './validation';

// Published taxpayer numbers of well-known legal entities (check digit by the FTS algorithm).
const LEGAL_ENTITY_INNS = {
  Sberbank: '7707083893',
  Gazprom: '7736050003',
  Yandex: '7736207543',
  Rosneft: '7706107510',
  Lukoil: '7708004767',
  'the demo company': '7712345671',
};
/** The FTS's example of a person's (an entrepreneur's) 12-digit INN. */
const ENTREPRENEUR_INN = '500100732259';

/** The same number with one digit changed (0 -> 1, any other -> one less). */
function alter(inn: string, position: number): string {
  const digit = Number(inn[position]);
  return `${inn.slice(0, position)}${digit === 0 ? 1 : digit - 1}${inn.slice(position + 1)}`;
}

describe('companyInputErrors: a legal entity', () => {
  it.each(Object.entries(LEGAL_ENTITY_INNS))('accepts the INN of %s with a KPP', (_name, inn) => {
    expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn, kpp: '773601001' })).toEqual({});
  });

  it('refuses the published numbers with any one digit altered', () => {
    for (const inn of Object.values(LEGAL_ENTITY_INNS)) {
      for (let position = 0; position < 10; position++) {
        const altered = alter(inn, position);
        expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn: altered, kpp: '773601001' }), altered).toEqual({ inn: 'inn' });
      }
    }
  });

  it("refuses a person's 12-digit INN, a short one and letters", () => {
    for (const inn of [ENTREPRENEUR_INN, '770708389', '77070838931', '77070838a3', '']) {
      expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn, kpp: '773601001' }), inn).toEqual({ inn: 'inn' });
    }
  });

  it('needs a KPP of 9 characters: 4 digits, 2 digits or capital letters, 3 digits', () => {
    const inn = LEGAL_ENTITY_INNS.Sberbank;
    expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn })).toEqual({ kpp: 'kppRequired' });
    expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn, kpp: null })).toEqual({ kpp: 'kppRequired' });
    expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn, kpp: '   ' })).toEqual({ kpp: 'kppRequired' });
    expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn, kpp: '7736AB001' })).toEqual({});
    expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn, kpp: ' 773601001 ' })).toEqual({});
    for (const kpp of ['77360100', '7736010011', '7736ab001', 'A73601001', '773601A01', '7736-0100']) {
      expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn, kpp }), kpp).toEqual({ kpp: 'kpp' });
    }
  });

  it('reports the INN and the KPP together', () => {
    expect(companyInputErrors({ legalForm: 'LEGAL_ENTITY', inn: '7707083894', kpp: '1' })).toEqual({ inn: 'inn', kpp: 'kpp' });
  });
});

describe('companyInputErrors: an individual entrepreneur', () => {
  it('accepts a 12-digit INN with both check digits and no KPP', () => {
    expect(companyInputErrors({ legalForm: 'ENTREPRENEUR', inn: ENTREPRENEUR_INN })).toEqual({});
    expect(companyInputErrors({ legalForm: 'ENTREPRENEUR', inn: ENTREPRENEUR_INN, kpp: '' })).toEqual({});
    expect(companyInputErrors({ legalForm: 'ENTREPRENEUR', inn: ENTREPRENEUR_INN, kpp: null })).toEqual({});
  });

  it('refuses it with any one digit altered (each check digit guards the digits before it)', () => {
    for (let position = 0; position < 12; position++) {
      const altered = alter(ENTREPRENEUR_INN, position);
      expect(companyInputErrors({ legalForm: 'ENTREPRENEUR', inn: altered }), altered).toEqual({ inn: 'inn' });
    }
  });

  it("refuses a legal entity's 10-digit INN and any KPP", () => {
    expect(companyInputErrors({ legalForm: 'ENTREPRENEUR', inn: LEGAL_ENTITY_INNS.Sberbank })).toEqual({ inn: 'inn' });
    expect(companyInputErrors({ legalForm: 'ENTREPRENEUR', inn: ENTREPRENEUR_INN, kpp: '773601001' })).toEqual({ kpp: 'kppNotAllowed' });
  });
});

describe('INN and KPP checks', () => {
  it('tells the two kinds of INN apart', () => {
    expect(isValidLegalEntityInn(LEGAL_ENTITY_INNS.Gazprom)).toBe(true);
    expect(isValidEntrepreneurInn(LEGAL_ENTITY_INNS.Gazprom)).toBe(false);
    expect(isValidEntrepreneurInn(ENTREPRENEUR_INN)).toBe(true);
    expect(isValidLegalEntityInn(ENTREPRENEUR_INN)).toBe(false);
  });

  it('checks the KPP shape (letters allowed in positions 5 and 6 only, capitals)', () => {
    expect(isValidKpp('773601001')).toBe(true);
    expect(isValidKpp('7736AZ001')).toBe(true);
    expect(isValidKpp('77360A001')).toBe(true);
    for (const kpp of ['', '77360100', '7736010010', '7736az001', 'A73601001', '7736010A1', ' 773601001']) expect(isValidKpp(kpp), kpp).toBe(false);
  });
});

describe('CompanyInput and CompanyPatch', () => {
  it('validate the fields and refuse anything the caller may not set', () => {
    expect(validate(CompanyInput, { legalForm: 'LEGAL_ENTITY', name: ' Acme ', inn: ' 7707083893 ', kpp: '773601001' })).toEqual({
      ok: true,
      value: { legalForm: 'LEGAL_ENTITY', name: 'Acme', inn: '7707083893', kpp: '773601001' },
    });
    expect(validate(CompanyInput, { legalForm: 'LEGAL_ENTITY', name: 'Acme', inn: '7707083893', verificationStatus: 'VERIFIED' })).toEqual({
      ok: false,
      errors: { verificationStatus: 'unknown' },
    });
    expect(validate(CompanyPatch, { roles: ['OWNER'] })).toEqual({ ok: false, errors: { roles: 'unknown' } });
    expect(validate(CompanyPatch, {})).toEqual({ ok: true, value: {} });
  });

  it("take the company's time zone as an IANA name the engine lists, refusing anything else with the code timeZone", () => {
    const base = { legalForm: 'LEGAL_ENTITY', name: 'Acme', inn: '7707083893', kpp: '773601001' };
    expect(validate(CompanyInput, { ...base, timeZone: ' Asia/Vladivostok ' })).toEqual({ ok: true, value: { ...base, timeZone: 'Asia/Vladivostok' } });
    for (const timeZone of ['MSK', 'Europe/Atlantis', '', 'x'.repeat(100)]) {
      expect(validate(CompanyInput, { ...base, timeZone }), timeZone).toEqual({ ok: false, errors: { timeZone: 'timeZone' } });
    }
    expect(validate(CompanyPatch, { timeZone: 'Europe/Samara' })).toEqual({ ok: true, value: { timeZone: 'Europe/Samara' } });
    expect(validate(CompanyPatch, { timeZone: null })).toEqual({ ok: false, errors: { timeZone: 'required' } });
  });
});

describe('missingForStart', () => {
  it('names what a company lacks among its active members', () => {
    expect(missingForStart([])).toEqual(['OWNER', 'MANAGER', 'FINANCIAL_DIRECTOR']);
    expect(missingForStart([['OWNER']])).toEqual(['MANAGER', 'FINANCIAL_DIRECTOR']);
    expect(missingForStart([['OWNER', 'CEO'], ['FINANCIAL_DIRECTOR']])).toEqual([]);
    expect(missingForStart([['OWNER'], ['DIRECTION_MANAGER'], ['FINANCIAL_SPECIALIST']])).toEqual(['FINANCIAL_DIRECTOR']);
  });
});
