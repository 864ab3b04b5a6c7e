// Pure helpers of the project page and its decision forms: money from minor units formatted exactly (the amount
// goes to Intl as its decimal text, never through a float), calendar dates shown as the calendar date they are,
// and the form rules of typed amounts and indicator values.
import type { IntlShape } from 'react-intl';
import { refine, string } from 'superstruct';
import { amountTextToMinor, minorToAmountText } from '../../../domain/money';

/** `amountMinor` in `currency`, in the user's language ('1 250,50 ₽', '$1,250.50'). */
export function formatMoney(intl: Pick<IntlShape, 'locale'>, amountMinor: number, currency: string): string {
  const format = new Intl.NumberFormat(intl.locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // The decimal text of the amount is exact; Intl formats a numeric string without turning it into a double.
  return format.format(minorToAmountText(amountMinor) as `${number}`);
}

/** The decimal separator people type in this language (',' for Russian). */
export function separatorOf(intl: Pick<IntlShape, 'locale'>): ',' | '.' {
  return intl.locale.startsWith('en') ? '.' : ',';
}

/** A 'YYYY-MM-DD' calendar date as a Date at UTC midnight (format it with timeZone 'UTC'). */
export function calendarDateValue(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

/** The device's calendar date today, 'YYYY-MM-DD' (what "overdue" is judged against on the screen). */
export function localToday(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** A typed amount ('1 250,50'): required, a decimal with at most 2 decimals, within a safe integer of minor units. */
export const AmountText = refine(
  refine(
    refine(
      refine(string(), 'required', (value) => value.trim() !== ''),
      'amountInvalid',
      (value) => {
        const parsed = amountTextToMinor(value);
        return value.trim() === '' || parsed.ok || parsed.code !== 'invalid';
      },
    ),
    'amountPrecision',
    (value) => {
      const parsed = amountTextToMinor(value);
      return parsed.ok || parsed.code !== 'amountPrecision';
    },
  ),
  'amountRange',
  (value) => {
    const parsed = amountTextToMinor(value);
    return parsed.ok || parsed.code !== 'amountRange';
  },
);

/** The minor units of a typed amount the form has already checked (0 if it somehow does not parse). */
export function minorOf(text: string): number {
  const parsed = amountTextToMinor(text);
  return parsed.ok ? parsed.value : 0;
}

/** A typed indicator value ('12,5'): a number >= 0, ',' or '.' as the separator; null when not one. */
export function parseIndicatorValue(text: string): number | null {
  const compact = text.trim().replace(',', '.');
  if (!/^\d+(?:\.\d+)?$/.test(compact)) return null;
  const value = Number(compact);
  return Number.isFinite(value) ? value : null;
}

export const IndicatorValueText = refine(
  refine(string(), 'required', (value) => value.trim() !== ''),
  'indicatorValue',
  (value) => value.trim() === '' || parseIndicatorValue(value) !== null,
);

/** The form's own messages for the rules above. */
export const AMOUNT_MESSAGES = {
  amountInvalid: { id: 'projects.amount.invalid', defaultMessage: 'Type an amount, such as 1250 or 1250,50.' },
  amountPrecision: { id: 'projects.amount.precision', defaultMessage: 'At most 2 digits after the decimal point.' },
  amountRange: { id: 'projects.amount.range', defaultMessage: 'This amount is too large.' },
  indicatorValue: { id: 'projects.reports.valueInvalid', defaultMessage: 'Type a number of at least zero, such as 25 or 12,5.' },
  future: { id: 'projects.decision.future', defaultMessage: 'The date cannot be in the future.' },
} as const;
