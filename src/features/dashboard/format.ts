// How the dashboard writes its figures, in the user's language: money from integer minor units (exactly: the
// decimal text goes to Intl, never a float; EBITDA may be negative), ratios kept in basis points as percents with
// one decimal, the median time to a decision in hours or days, and the signed amounts the financial director
// types. Pure (an IntlShape comes in).
import type { IntlShape } from 'react-intl';
import { refine, string } from 'superstruct';
import { amountTextToMinor, minorToAmountText, type AmountParseCode, type Parsed } from '../../domain/money';

/** 100 % in basis points. */
const WHOLE_BASIS_POINTS = 10_000;
/** Up to this many hours the median reads in hours, above it in days. */
export const HOURS_UNTIL_DAYS = 48;

/** A signed amount of minor units as its exact decimal text ('-1250.5'). */
export function signedMinorText(amountMinor: number, separator: ',' | '.' = '.'): string {
  return amountMinor < 0 ? `-${minorToAmountText(-amountMinor, separator)}` : minorToAmountText(amountMinor, separator);
}

/** `amountMinor` of `currency` in the user's language ('1 250,50 ₽', '-$1,250.50'). */
export function formatMoney(intl: Pick<IntlShape, 'locale'>, amountMinor: number, currency: string): string {
  const format = new Intl.NumberFormat(intl.locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return format.format(signedMinorText(amountMinor) as `${number}`);
}

/** A ratio in basis points as a percent with one decimal ('12.5%', '12,5 %'); null when there is no ratio. */
export function formatRatio(intl: Pick<IntlShape, 'formatNumber'>, basisPoints: number | null): string | null {
  if (basisPoints === null) return null;
  return intl.formatNumber(basisPoints / WHOLE_BASIS_POINTS, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** The median time to a decision in words: '5 hours', '2.5 days'. */
export function formatDecisionTime(intl: Pick<IntlShape, 'formatMessage'>, hours: number): string {
  if (hours < HOURS_UNTIL_DAYS) {
    const rounded = Math.round(hours);
    return intl.formatMessage(
      { id: 'dashboard.figures.hours', defaultMessage: '{hours, plural, one {# hour} other {# hours}}' },
      { hours: rounded },
    );
  }
  const days = Math.round((hours / 24) * 10) / 10;
  return intl.formatMessage({ id: 'dashboard.figures.days', defaultMessage: '{days, plural, one {# day} other {# days}}' }, { days });
}

/** A month 'YYYY-MM' in words ('March 2026', 'март 2026 г.'). */
export function formatMonth(intl: Pick<IntlShape, 'formatDate'>, month: string): string {
  return intl.formatDate(new Date(`${month}-01T00:00:00.000Z`), { year: 'numeric', month: 'long', timeZone: 'UTC' });
}

/** A month 'YYYY-MM' in short words for a chart's axis ('Mar 2026', 'мар. 2026 г.'). */
export function formatShortMonth(intl: Pick<IntlShape, 'formatDate'>, month: string): string {
  return intl.formatDate(new Date(`${month}-01T00:00:00.000Z`), { year: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** A calendar date 'YYYY-MM-DD' as the date it is, in the user's language. */
export function formatCalendarDate(intl: Pick<IntlShape, 'formatDate'>, date: string): string {
  return intl.formatDate(new Date(`${date}T00:00:00.000Z`), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** '-1 250,50', '1250.5', '−300' -> minor units, with the codes of `amountTextToMinor`. */
export function signedAmountTextToMinor(text: string): Parsed<number, AmountParseCode> {
  const trimmed = text.trim();
  const isNegative = trimmed.startsWith('-') || trimmed.startsWith('\u2212');
  const parsed = amountTextToMinor(isNegative ? trimmed.slice(1) : trimmed);
  if (!parsed.ok || !isNegative) return parsed;
  return { ok: true, value: parsed.value === 0 ? 0 : -parsed.value };
}

/** A typed signed amount: required, a decimal with at most 2 decimals within a safe integer of minor units. */
export const SignedAmountText = refine(
  refine(
    refine(
      refine(string(), 'required', (value) => value.trim() !== ''),
      'amountInvalid',
      (value) => value.trim() === '' || codeOf(value) !== 'invalid',
    ),
    'amountPrecision',
    (value) => codeOf(value) !== 'amountPrecision',
  ),
  'amountRange',
  (value) => codeOf(value) !== 'amountRange',
);

function codeOf(text: string): AmountParseCode | null {
  const parsed = signedAmountTextToMinor(text);
  return parsed.ok ? null : parsed.code;
}

/** The form's own messages for the rules above. */
export const AMOUNT_MESSAGES = {
  amountInvalid: { id: 'dashboard.ebitda.amountInvalid', defaultMessage: 'Type an amount, such as 1250000 or -350000,50.' },
  amountPrecision: { id: 'dashboard.ebitda.amountPrecision', defaultMessage: 'At most 2 digits after the decimal point.' },
  amountRange: { id: 'dashboard.ebitda.amountRange', defaultMessage: 'This amount is too large.' },
} as const;
