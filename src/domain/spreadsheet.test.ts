import { describe, expect, it } from 'vitest';
import { neutralizeFormula } from './spreadsheet';

describe('neutralizeFormula', () => {
  it('prefixes every cell a spreadsheet would run with an apostrophe', () => {
    for (const cell of ['=1+1', '=HYPERLINK("http://evil.example","click")', "=cmd|' /C calc'!A0", '+7 912 345-67-89', '-2+3', '@SUM(A1:A2)', '\t=1+1', '\r=1+1', '=1+1\nsecond line']) {
      expect(neutralizeFormula(cell), JSON.stringify(cell)).toBe(`'${cell}`);
    }
  });

  it('leaves every other cell as it is, a trigger further in included', () => {
    for (const cell of ['', 'Иванов', 'a=b', 'Петров-Водкин', ' =1+1', "'=already text", 'user@example.com', '42']) {
      expect(neutralizeFormula(cell), JSON.stringify(cell)).toBe(cell);
    }
  });
});
