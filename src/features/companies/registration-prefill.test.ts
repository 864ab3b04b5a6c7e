import { describe, expect, it } from 'vitest';
import { registrationPrefillOf } from './registration-prefill';

describe('the company details given at registration, for the first "Add company"', () => {
  it('offers the name and INN of a legal entity to a user without companies', () => {
    expect(registrationPrefillOf({ company: { name: ' ООО «Ромашка» ', inn: '7707083893' }, companies: [] })).toEqual({
      legalForm: 'LEGAL_ENTITY',
      name: 'ООО «Ромашка»',
      inn: '7707083893',
    });
    // An older server's answer without the list of companies counts as none.
    expect(registrationPrefillOf({ company: { name: 'Ромашка', inn: '7707083893' } })?.inn).toBe('7707083893');
  });

  it('takes a 12-digit INN for an individual entrepreneur', () => {
    expect(registrationPrefillOf({ company: { name: 'ИП Петров', inn: '500100732259' }, companies: [] })).toEqual({
      legalForm: 'ENTREPRENEUR',
      name: 'ИП Петров',
      inn: '500100732259',
    });
  });

  it('forgets them once the user has a company (created, or joined by invitation)', () => {
    expect(registrationPrefillOf({ company: { name: 'Ромашка', inn: '7707083893' }, companies: [{ id: 'c1', name: 'Ромашка', roles: ['OWNER'] }] })).toBeNull();
  });

  it('offers nothing without registration details, and leaves an INN the form could not take for the user to type', () => {
    expect(registrationPrefillOf({ company: null, companies: [] })).toBeNull();
    expect(registrationPrefillOf({ company: { name: '  ', inn: null }, companies: [] })).toBeNull();
    expect(registrationPrefillOf({ company: { name: 'Ромашка', inn: '77-07' }, companies: [] })).toEqual({ legalForm: 'LEGAL_ENTITY', name: 'Ромашка', inn: '' });
    expect(registrationPrefillOf({ company: { name: 'x'.repeat(250), inn: null }, companies: [] })?.name).toHaveLength(200);
  });
});
