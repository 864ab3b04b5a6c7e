import { describe, expect, it } from 'vitest';
import { backLinkOf, backLinkState } from './back-link';

const fallback = '/companies/c1/suggestions';

describe('the back link of a proposal', () => {
  it('returns to the list it came from, with its query', () => {
    const list = '/companies/c1/suggestions?tab=review&status=UNDER_CONSIDERATION&q=%D1%81%D0%BC%D0%B5%D0%BD%D0%B0';
    expect(backLinkOf(backLinkState(list), fallback)).toBe(list);
  });

  it('falls back without a state, or with one that is not ours', () => {
    expect(backLinkOf(undefined, fallback)).toBe(fallback);
    expect(backLinkOf(null, fallback)).toBe(fallback);
    expect(backLinkOf('/companies/c1/suggestions', fallback)).toBe(fallback);
    expect(backLinkOf({}, fallback)).toBe(fallback);
    expect(backLinkOf({ backTo: 42 }, fallback)).toBe(fallback);
    expect(backLinkOf({ backTo: '' }, fallback)).toBe(fallback);
  });

  it('never leads out of the app', () => {
    for (const backTo of [
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'companies/c1',
      ' /companies',
      '/companies\n/x',
      '/companies\t',
      `/${'a'.repeat(3000)}`,
    ]) {
      expect(backLinkOf({ backTo }, fallback)).toBe(fallback);
    }
  });
});
