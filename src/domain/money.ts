// Money and the remuneration maths of a project (DESIGN.md "State machines", issue 12), shared by the
// main-service (which stores and checks) and the client (which shows and pre-checks). Pure, no I/O.
//
// What it guarantees:
// - Amounts are integer minor units (kopecks, cents) of one of CURRENCIES: safe integers >= 0. No function here
//   takes or returns an amount as a fraction of a major unit, and none computes one through floating point.
// - A profit percentage is kept as basis points, an integer 0..10000 (100 basis points = 1 %), so 12.5 % is 1250
//   exactly. `percentToBasisPoints` reads what a person types ('12,5' or '12.5', at most 2 decimals);
//   `basisPointsToPercentText` writes it back, and the two round-trip for every value.
// - `remunerationOf` is min(floor(expectedEffect12m x profitBasisPoints / 10000), maxPerProject). The product is
//   taken in BigInt, so it is exact for every safe integer, and the result ROUNDS DOWN to the minor unit: the
//   company never pays more than the formula, and at most one minor unit less (e.g. 12.5 % of 1,000.01 RUB is
//   125.00125 RUB and pays 125.00 RUB). A project without a maximum (`null`) has no cap.
// - `checkPayments` accepts a payments table iff every amount is a safe integer >= 0, no employee is named twice
//   and the sum (taken in BigInt, so it never overflows) is at most the remuneration.
// - `splitEvenly` returns parts that sum exactly to the total and differ by at most one minor unit (the larger
//   parts first).

import { type Infer, enums, integer, object, refine } from 'superstruct';
import { CURRENCIES } from './suggestion';

/** Minor units in one major unit of every currency we keep (RUB, USD and AUD all have 2 decimals). */
export const MINOR_PER_MAJOR = 100;
/** 100 % in basis points. */
export const BASIS_POINTS_PER_WHOLE = 10_000;

export function isMinorAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** An amount in minor units: a safe integer >= 0 (code `invalid` otherwise). */
export const MinorAmount = refine(integer(), 'invalid', (value) => isMinorAmount(value));

export const Money = object({ amountMinor: MinorAmount, currency: enums(CURRENCIES) });
export type Money = Infer<typeof Money>;

export function isBasisPoints(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= BASIS_POINTS_PER_WHOLE;
}

/** A profit percentage in basis points, 0..10000 (code `percentRange` otherwise). */
export const ProfitBasisPoints = refine(integer(), 'percentRange', (value) => isBasisPoints(value));

// ---------------------------------------------------------------------------------------------------
// Reading and writing decimals as people type them: digits, one ',' or '.', up to 2 decimals.

export type PercentParseCode = 'invalid' | 'percentRange' | 'percentPrecision';
export type AmountParseCode = 'invalid' | 'amountRange' | 'amountPrecision';
export type Parsed<T, C extends string> = { ok: true; value: T } | { ok: false; code: C };

const DECIMAL_RE = /^(\d+)(?:[.,](\d+))?$/;

/** Integer part and fraction (trailing zeros dropped, so '12.500' is '12.5') of `text`, or null when not a decimal. */
function readDecimal(text: string): { whole: string; fraction: string } | null {
  const match = DECIMAL_RE.exec(text);
  if (!match) return null;
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return { whole, fraction };
}

/**
 * '12,5', '12.5', '12.50 %' -> 1250. Refuses anything but digits with one ',' or '.' (`invalid`: signs, exponents,
 * thousands separators, an empty text), more than 2 significant decimals (`percentPrecision`) and more than 100 %
 * (`percentRange`). Surrounding spaces and a trailing '%' are ignored.
 */
export function percentToBasisPoints(text: string): Parsed<number, PercentParseCode> {
  const decimal = readDecimal(text.trim().replace(/\s*%$/, ''));
  if (!decimal) return { ok: false, code: 'invalid' };
  if (decimal.fraction.length > 2) return { ok: false, code: 'percentPrecision' };
  if (decimal.whole.length > 3) return { ok: false, code: 'percentRange' };
  const value = Number(decimal.whole) * 100 + Number(decimal.fraction.padEnd(2, '0'));
  if (value > BASIS_POINTS_PER_WHOLE) return { ok: false, code: 'percentRange' };
  return { ok: true, value };
}

/** 1250 -> '12.5', 1205 -> '12.05', 1200 -> '12', 5 -> '0.05' (the shortest exact text; `separator` ',' for Russian). */
export function basisPointsToPercentText(basisPoints: number, separator: ',' | '.' = '.'): string {
  if (!isBasisPoints(basisPoints)) throw new RangeError(`not basis points: ${String(basisPoints)}`);
  return joinDecimal(Math.floor(basisPoints / 100), basisPoints % 100, separator);
}

/**
 * '1000,01', '1000.01', '1 000,01' -> 100001 minor units. Spaces (also no-break spaces) between digit groups are
 * allowed; refuses anything else that is not a decimal (`invalid`), more than 2 significant decimals
 * (`amountPrecision`) and amounts beyond a safe integer of minor units (`amountRange`).
 */
export function amountTextToMinor(text: string): Parsed<number, AmountParseCode> {
  const compact = text.trim().replace(/(?<=\d)[\s\u00a0\u202f](?=\d)/g, '');
  const decimal = readDecimal(compact);
  if (!decimal) return { ok: false, code: 'invalid' };
  if (decimal.fraction.length > 2) return { ok: false, code: 'amountPrecision' };
  const minor = BigInt(decimal.whole) * BigInt(MINOR_PER_MAJOR) + BigInt(decimal.fraction.padEnd(2, '0'));
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, code: 'amountRange' };
  return { ok: true, value: Number(minor) };
}

/** 100001 -> '1000.01', 100000 -> '1000', 5 -> '0.05': the shortest exact text, no grouping (for inputs). */
export function minorToAmountText(amountMinor: number, separator: ',' | '.' = '.'): string {
  if (!isMinorAmount(amountMinor)) throw new RangeError(`not an amount in minor units: ${String(amountMinor)}`);
  const cents = amountMinor % MINOR_PER_MAJOR;
  return joinDecimal((amountMinor - cents) / MINOR_PER_MAJOR, cents, separator);
}

function joinDecimal(whole: number, hundredths: number, separator: string): string {
  if (hundredths === 0) return String(whole);
  return `${whole}${separator}${String(hundredths).padStart(2, '0').replace(/0$/, '')}`;
}

// ---------------------------------------------------------------------------------------------------
// Remuneration and its payments.

export interface RemunerationTerms {
  /** The project's profit percentage in basis points (0..10000). */
  profitBasisPoints: number;
  /** The expected economic effect over 12 months, in minor units. */
  expectedEffect12mMinor: number;
  /** The maximum per project, in minor units; null when the project sets none. */
  maxPerProjectMinor: number | null;
}

/**
 * The team's remuneration: min(floor(effect x basis points / 10000), maximum), rounded down to the minor unit
 * (see the header). Throws RangeError on terms that are not basis points and minor amounts: callers validate
 * them with the structs first.
 */
export function remunerationOf({ profitBasisPoints, expectedEffect12mMinor, maxPerProjectMinor }: RemunerationTerms): number {
  if (!isBasisPoints(profitBasisPoints)) throw new RangeError(`not basis points: ${String(profitBasisPoints)}`);
  if (!isMinorAmount(expectedEffect12mMinor)) throw new RangeError(`not an amount in minor units: ${String(expectedEffect12mMinor)}`);
  if (maxPerProjectMinor !== null && !isMinorAmount(maxPerProjectMinor)) throw new RangeError(`not an amount in minor units: ${String(maxPerProjectMinor)}`);
  // BigInt division truncates, which for non-negative operands is the floor; the result is <= the effect, so safe.
  const share = Number((BigInt(expectedEffect12mMinor) * BigInt(profitBasisPoints)) / BigInt(BASIS_POINTS_PER_WHOLE));
  return maxPerProjectMinor === null ? share : Math.min(share, maxPerProjectMinor);
}

export interface Payment {
  employeeId: string;
  amountMinor: number;
}

export type PaymentsCheck =
  | { ok: true; totalMinor: number }
  /** The row at `index` is not a safe integer (a fraction, NaN, beyond 2^53). */
  | { ok: false; code: 'invalid'; index: number }
  | { ok: false; code: 'negative'; index: number }
  /** The row at `index` names an employee an earlier row already names. */
  | { ok: false; code: 'duplicateEmployee'; index: number }
  /** The payments add up to `excessMinor` more than the remuneration. */
  | { ok: false; code: 'exceedsRemuneration'; excessMinor: number };

/**
 * Whether a payments table may stand against `remunerationMinor`: rows are checked in order (a bad amount, then
 * an employee named twice), then the sum. An empty table is accepted (total 0).
 */
export function checkPayments(payments: readonly Payment[], remunerationMinor: number): PaymentsCheck {
  if (!isMinorAmount(remunerationMinor)) throw new RangeError(`not an amount in minor units: ${String(remunerationMinor)}`);
  const seen = new Set<string>();
  let total = 0n;
  for (const [index, payment] of payments.entries()) {
    if (!Number.isSafeInteger(payment.amountMinor)) return { ok: false, code: 'invalid', index };
    if (payment.amountMinor < 0) return { ok: false, code: 'negative', index };
    if (seen.has(payment.employeeId)) return { ok: false, code: 'duplicateEmployee', index };
    seen.add(payment.employeeId);
    total += BigInt(payment.amountMinor);
  }
  const excess = total - BigInt(remunerationMinor);
  // The excess may pass 2^53 only for tables no form can make; it is reported as the nearest number then.
  if (excess > 0n) return { ok: false, code: 'exceedsRemuneration', excessMinor: Number(excess) };
  return { ok: true, totalMinor: Number(total) };
}

/**
 * `totalMinor` split into `parts` shares that sum exactly to it and differ by at most one minor unit: the
 * remainder goes one minor unit at a time to the first shares (100 into 3 -> [34, 33, 33]).
 */
export function splitEvenly(totalMinor: number, parts: number): number[] {
  if (!isMinorAmount(totalMinor)) throw new RangeError(`not an amount in minor units: ${String(totalMinor)}`);
  if (!Number.isSafeInteger(parts) || parts < 1) throw new RangeError(`not a positive count of parts: ${parts}`);
  // `%` on integers is exact, and total - remainder divides exactly, so no rounding happens anywhere.
  const remainder = totalMinor % parts;
  const base = (totalMinor - remainder) / parts;
  return Array.from({ length: parts }, (_, index) => (index < remainder ? base + 1 : base));
}
