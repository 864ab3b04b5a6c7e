import { describe, expect, it } from 'vitest';
import { isValidInn, isValidKpp } from './inn';

describe('INN checksums', () => {
  it('accepts published valid numbers', () => {
    expect(isValidInn('7712345671')).toBe(true); // the demo company
    expect(isValidInn('7707083893')).toBe(true); // Sberbank
    expect(isValidInn('500100732259')).toBe(true); // a 12-digit example from the FTS
  });
  it('refuses wrong check digits, lengths and letters', () => {
    expect(isValidInn('7712345672')).toBe(false);
    expect(isValidInn('500100732258')).toBe(false);
    expect(isValidInn('77123456')).toBe(false);
    expect(isValidInn('77123456a1')).toBe(false);
  });
  it('checks KPP shape', () => {
    expect(isValidKpp('773601001')).toBe(true);
    expect(isValidKpp('77360100')).toBe(false);
  });
});
