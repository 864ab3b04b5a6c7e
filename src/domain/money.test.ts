import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Money,
  amountTextToMinor,
  basisPointsToPercentText,
  checkPayments,
  minorToAmountText,
  percentToBasisPoints,
  remunerationOf,
  splitEvenly,
} from './money';
import { validate } from './validation';

const amount = fc.maxSafeNat();
const basisPoints = fc.integer({ min: 0, max: 10_000 });
const cap = fc.option(amount, { nil: null });

/** The exact rational value effect x bp / 10000, compared as BigInt cross-products. */
function exactTimes10000(effect: number, bp: number): bigint {
  return BigInt(effect) * BigInt(bp);
}

describe('remunerationOf', () => {
  it('pays 12.5 % of 1,000.01 RUB as 125.00 RUB: 125.00125 rounds down to the kopeck', () => {
    expect(remunerationOf({ profitBasisPoints: 1250, expectedEffect12mMinor: 100_001, maxPerProjectMinor: null })).toBe(12_500);
  });

  it('rounds 0.99 of a minor unit down to nothing: 1 % of 0.99 RUB pays 0', () => {
    expect(remunerationOf({ profitBasisPoints: 100, expectedEffect12mMinor: 99, maxPerProjectMinor: null })).toBe(0);
  });

  it('pays the maximum per project when the share is larger', () => {
    expect(remunerationOf({ profitBasisPoints: 1000, expectedEffect12mMinor: 10_000_000, maxPerProjectMinor: 500_000 })).toBe(500_000);
    expect(remunerationOf({ profitBasisPoints: 1000, expectedEffect12mMinor: 10_000_000, maxPerProjectMinor: 1_000_001 })).toBe(1_000_000);
    expect(remunerationOf({ profitBasisPoints: 1000, expectedEffect12mMinor: 10_000_000, maxPerProjectMinor: 0 })).toBe(0);
  });

  it('stays exact where the float formula would pay one minor unit too much', () => {
    const terms = { profitBasisPoints: 1230, expectedEffect12mMinor: 9_006_288_729_441_251, maxPerProjectMinor: null };
    // 9006288729441251 x 0.123 = 1107773513721273.873; the float product rounds to ...274.
    expect(Math.floor((terms.expectedEffect12mMinor * terms.profitBasisPoints) / 10_000)).toBe(1_107_773_513_721_274);
    expect(remunerationOf(terms)).toBe(1_107_773_513_721_273);
  });

  it('pays the whole effect at 100 % and nothing at 0 %, even at the largest safe amount', () => {
    expect(remunerationOf({ profitBasisPoints: 10_000, expectedEffect12mMinor: Number.MAX_SAFE_INTEGER, maxPerProjectMinor: null })).toBe(Number.MAX_SAFE_INTEGER);
    expect(remunerationOf({ profitBasisPoints: 0, expectedEffect12mMinor: Number.MAX_SAFE_INTEGER, maxPerProjectMinor: null })).toBe(0);
  });

  it('refuses terms that are not basis points or minor amounts', () => {
    for (const terms of [
      { profitBasisPoints: 10_001, expectedEffect12mMinor: 1, maxPerProjectMinor: null },
      { profitBasisPoints: 12.5, expectedEffect12mMinor: 1, maxPerProjectMinor: null },
      { profitBasisPoints: 1, expectedEffect12mMinor: -1, maxPerProjectMinor: null },
      { profitBasisPoints: 1, expectedEffect12mMinor: 0.5, maxPerProjectMinor: null },
      { profitBasisPoints: 1, expectedEffect12mMinor: Number.MAX_SAFE_INTEGER + 1, maxPerProjectMinor: null },
      { profitBasisPoints: 1, expectedEffect12mMinor: 1, maxPerProjectMinor: -1 },
    ]) {
      expect(() => remunerationOf(terms), JSON.stringify(terms)).toThrow(RangeError);
    }
  });

  it('is never negative, always a safe integer, and never above the cap', () => {
    fc.assert(
      fc.property(basisPoints, amount, cap, (bp, effect, max) => {
        const paid = remunerationOf({ profitBasisPoints: bp, expectedEffect12mMinor: effect, maxPerProjectMinor: max });
        expect(Number.isSafeInteger(paid)).toBe(true);
        expect(paid).toBeGreaterThanOrEqual(0);
        if (max !== null) expect(paid).toBeLessThanOrEqual(max);
      }),
    );
  });

  it('is the exact value rounded down: never above it, less than one minor unit below it (unless capped)', () => {
    fc.assert(
      fc.property(basisPoints, amount, cap, (bp, effect, max) => {
        const paid = BigInt(remunerationOf({ profitBasisPoints: bp, expectedEffect12mMinor: effect, maxPerProjectMinor: max }));
        const exact = exactTimes10000(effect, bp);
        expect(paid * 10_000n <= exact).toBe(true);
        if (max === null || paid < BigInt(max)) expect((paid + 1n) * 10_000n > exact).toBe(true);
      }),
    );
  });

  it('never pays less for a larger effect or a larger percentage', () => {
    fc.assert(
      fc.property(basisPoints, basisPoints, amount, amount, cap, (bp1, bp2, e1, e2, max) => {
        const [lowBp, highBp] = bp1 <= bp2 ? [bp1, bp2] : [bp2, bp1];
        const [lowEffect, highEffect] = e1 <= e2 ? [e1, e2] : [e2, e1];
        const paid = (bp: number, effect: number) => remunerationOf({ profitBasisPoints: bp, expectedEffect12mMinor: effect, maxPerProjectMinor: max });
        expect(paid(lowBp, lowEffect)).toBeLessThanOrEqual(paid(lowBp, highEffect));
        expect(paid(lowBp, lowEffect)).toBeLessThanOrEqual(paid(highBp, lowEffect));
      }),
    );
  });

  it('equals the float formula min(percent / 100 x effect, max) within one minor unit for everyday amounts', () => {
    fc.assert(
      fc.property(basisPoints, fc.integer({ min: 0, max: 100_000_000_000 }), fc.option(fc.integer({ min: 0, max: 100_000_000_000 }), { nil: null }), (bp, effect, max) => {
        const paid = remunerationOf({ profitBasisPoints: bp, expectedEffect12mMinor: effect, maxPerProjectMinor: max });
        const percent = bp / 100;
        const float = Math.min((percent / 100) * effect, max ?? Infinity);
        expect(Math.abs(paid - float)).toBeLessThan(1);
      }),
    );
  });
});

describe('checkPayments', () => {
  it('accepts payments that add up to the remuneration exactly, and an empty table', () => {
    expect(checkPayments([{ employeeId: 'a', amountMinor: 6_250 }, { employeeId: 'b', amountMinor: 6_250 }], 12_500)).toEqual({ ok: true, totalMinor: 12_500 });
    expect(checkPayments([], 0)).toEqual({ ok: true, totalMinor: 0 });
  });

  it('refuses one kopeck more than the remuneration, naming the excess', () => {
    expect(checkPayments([{ employeeId: 'a', amountMinor: 6_250 }, { employeeId: 'b', amountMinor: 6_251 }], 12_500)).toEqual({ ok: false, code: 'exceedsRemuneration', excessMinor: 1 });
  });

  it('refuses a negative amount, a fraction of a minor unit and an employee named twice, naming the row', () => {
    expect(checkPayments([{ employeeId: 'a', amountMinor: 1 }, { employeeId: 'b', amountMinor: -1 }], 100)).toEqual({ ok: false, code: 'negative', index: 1 });
    expect(checkPayments([{ employeeId: 'a', amountMinor: 0.5 }], 100)).toEqual({ ok: false, code: 'invalid', index: 0 });
    expect(checkPayments([{ employeeId: 'a', amountMinor: Number.NaN }], 100)).toEqual({ ok: false, code: 'invalid', index: 0 });
    expect(checkPayments([{ employeeId: 'a', amountMinor: 1 }, { employeeId: 'b', amountMinor: 1 }, { employeeId: 'a', amountMinor: 1 }], 100)).toEqual({
      ok: false,
      code: 'duplicateEmployee',
      index: 2,
    });
  });

  it('sums beyond 2^53 without losing the excess', () => {
    const payments = [
      { employeeId: 'a', amountMinor: Number.MAX_SAFE_INTEGER },
      { employeeId: 'b', amountMinor: 2 },
    ];
    expect(checkPayments(payments, Number.MAX_SAFE_INTEGER)).toEqual({ ok: false, code: 'exceedsRemuneration', excessMinor: 2 });
  });

  it('accepts a table of distinct employees iff its sum is at most the remuneration', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ employeeId: fc.uuid(), amountMinor: fc.oneof(fc.nat(1_000_000), amount) }), { selector: (p) => p.employeeId, maxLength: 8 }),
        fc.oneof(fc.nat(8_000_000), amount),
        (payments, remuneration) => {
          const sum = payments.reduce((total, p) => total + BigInt(p.amountMinor), 0n);
          const result = checkPayments(payments, remuneration);
          expect(result.ok).toBe(sum <= BigInt(remuneration));
          if (result.ok) expect(BigInt(result.totalMinor)).toBe(sum);
          else expect(result).toEqual({ ok: false, code: 'exceedsRemuneration', excessMinor: Number(sum - BigInt(remuneration)) });
        },
      ),
    );
  });

  it('always accepts the remuneration split evenly among the team', () => {
    fc.assert(
      fc.property(basisPoints, amount, cap, fc.integer({ min: 1, max: 20 }), (bp, effect, max, team) => {
        const remuneration = remunerationOf({ profitBasisPoints: bp, expectedEffect12mMinor: effect, maxPerProjectMinor: max });
        const payments = splitEvenly(remuneration, team).map((amountMinor, i) => ({ employeeId: `e${i}`, amountMinor }));
        expect(checkPayments(payments, remuneration)).toEqual({ ok: true, totalMinor: remuneration });
      }),
    );
  });
});

describe('splitEvenly', () => {
  it('gives the odd kopecks to the first shares: 1.00 into 3 is 0.34, 0.33, 0.33', () => {
    expect(splitEvenly(100, 3)).toEqual([34, 33, 33]);
    expect(splitEvenly(2, 5)).toEqual([1, 1, 0, 0, 0]);
    expect(splitEvenly(0, 2)).toEqual([0, 0]);
  });

  it('splits the largest safe amount exactly', () => {
    const parts = splitEvenly(Number.MAX_SAFE_INTEGER, 3);
    expect(parts.reduce((total, part) => total + BigInt(part), 0n)).toBe(BigInt(Number.MAX_SAFE_INTEGER));
  });

  it('refuses no parts, a fraction of parts and a negative total', () => {
    expect(() => splitEvenly(100, 0)).toThrow(RangeError);
    expect(() => splitEvenly(100, 1.5)).toThrow(RangeError);
    expect(() => splitEvenly(-1, 2)).toThrow(RangeError);
  });

  it('sums exactly to the total, with parts that differ by at most one minor unit', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 1, max: 50 }), (total, n) => {
        const parts = splitEvenly(total, n);
        expect(parts).toHaveLength(n);
        expect(parts.reduce((sum, part) => sum + BigInt(part), 0n)).toBe(BigInt(total));
        expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
        for (const part of parts) expect(Number.isSafeInteger(part) && part >= 0).toBe(true);
      }),
    );
  });
});

describe('percentToBasisPoints and basisPointsToPercentText', () => {
  it.each([
    ['12,5', 1250],
    ['12.5', 1250],
    ['12.50', 1250],
    ['12.500', 1250],
    [' 12,05 % ', 1205],
    ['0,01', 1],
    ['0', 0],
    ['007', 700],
    ['100', 10_000],
    ['100.00', 10_000],
  ])('reads %j as %i basis points', (text, expected) => {
    expect(percentToBasisPoints(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', 'invalid'],
    ['abc', 'invalid'],
    ['-1', 'invalid'],
    ['+1', 'invalid'],
    ['1e2', 'invalid'],
    ['12,', 'invalid'],
    [',5', 'invalid'],
    ['1,2,3', 'invalid'],
    ['12.345', 'percentPrecision'],
    ['0.001', 'percentPrecision'],
    ['100.01', 'percentRange'],
    ['101', 'percentRange'],
    ['99999999999999999999', 'percentRange'],
  ])('refuses %j with %s', (text, code) => {
    expect(percentToBasisPoints(text)).toEqual({ ok: false, code });
  });

  it('writes the shortest exact text', () => {
    expect(basisPointsToPercentText(1250)).toBe('12.5');
    expect(basisPointsToPercentText(1250, ',')).toBe('12,5');
    expect(basisPointsToPercentText(1205, ',')).toBe('12,05');
    expect(basisPointsToPercentText(1200)).toBe('12');
    expect(basisPointsToPercentText(5)).toBe('0.05');
    expect(() => basisPointsToPercentText(10_001)).toThrow(RangeError);
  });

  it('reads back what it writes, with either separator', () => {
    fc.assert(
      fc.property(basisPoints, fc.constantFrom(',' as const, '.' as const), (bp, separator) => {
        expect(percentToBasisPoints(basisPointsToPercentText(bp, separator))).toEqual({ ok: true, value: bp });
      }),
    );
  });
});

describe('amountTextToMinor and minorToAmountText', () => {
  it('reads amounts as people type them', () => {
    expect(amountTextToMinor('1000,01')).toEqual({ ok: true, value: 100_001 });
    expect(amountTextToMinor('1 000.01')).toEqual({ ok: true, value: 100_001 });
    expect(amountTextToMinor('1\u00a0000\u00a0000')).toEqual({ ok: true, value: 100_000_000 });
    expect(amountTextToMinor('0.1')).toEqual({ ok: true, value: 10 });
    expect(amountTextToMinor('90071992547409.91')).toEqual({ ok: true, value: Number.MAX_SAFE_INTEGER });
  });

  it('refuses signs, a third decimal and amounts past a safe integer of minor units', () => {
    expect(amountTextToMinor('-5')).toEqual({ ok: false, code: 'invalid' });
    expect(amountTextToMinor('1 000 ,5')).toEqual({ ok: false, code: 'invalid' });
    expect(amountTextToMinor('0.001')).toEqual({ ok: false, code: 'amountPrecision' });
    expect(amountTextToMinor('90071992547409.92')).toEqual({ ok: false, code: 'amountRange' });
  });

  it('reads back what it writes, with either separator', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom(',' as const, '.' as const), (minor, separator) => {
        expect(amountTextToMinor(minorToAmountText(minor, separator))).toEqual({ ok: true, value: minor });
      }),
    );
    expect(minorToAmountText(100_001, ',')).toBe('1000,01');
    expect(minorToAmountText(100_010)).toBe('1000.1');
  });
});

describe('Money', () => {
  it('takes integer minor units of RUB, USD or AUD only', () => {
    expect(validate(Money, { amountMinor: 100_001, currency: 'RUB' })).toEqual({ ok: true, value: { amountMinor: 100_001, currency: 'RUB' } });
    expect(validate(Money, { amountMinor: 1000.5, currency: 'USD' })).toEqual({ ok: false, errors: { amountMinor: 'invalid' } });
    expect(validate(Money, { amountMinor: -1, currency: 'AUD' })).toEqual({ ok: false, errors: { amountMinor: 'invalid' } });
    expect(validate(Money, { amountMinor: 2 ** 53, currency: 'AUD' })).toEqual({ ok: false, errors: { amountMinor: 'invalid' } });
    expect(validate(Money, { amountMinor: 1, currency: 'EUR' })).toEqual({ ok: false, errors: { currency: 'invalid' } });
  });
});
