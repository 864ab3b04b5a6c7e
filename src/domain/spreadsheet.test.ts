import { describe, expect, it } from 'vitest';
import { neutraliseCell } from './spreadsheet';

describe('neutraliseCell', () => {
  it.each(['=SUM(A1:A9)', '+7 999', '-1', '@cmd', '\t=1', '\r=1', "=HYPERLINK(\"http://x\")"])('puts an apostrophe before %j', (text) => {
    expect(neutraliseCell(text)).toBe(`'${text}`);
  });

  it.each(['Замена ламп', '', ' =1', '1+1', "'quoted", 'a=b'])('leaves %j as it is', (text) => {
    expect(neutraliseCell(text)).toBe(text);
  });
});
