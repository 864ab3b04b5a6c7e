// Date formats of the date picker (spec section 5): the user reads and types day.month.year, the model
// holds year-month-day (with the time, `yyyy-MM-dd HH:mm:ss`). Parsing is strict: a text is a date only
// if formatting the parsed date gives the same text back, so '31.02.2024' or '1.2.24' are refused
// instead of being rolled over to another day.
// Both formats are fixed and numeric: they are read by a pattern of digit groups and written with date-fns'
// lightFormat, not with its general `parse`/`format`, whose token parsers and English locale weighed 10 KB
// gzipped on every page with a date field (issue 14: every route within 200 KB).

import { differenceInCalendarDays, lightFormat } from 'date-fns';

export const MODEL_DATE_FORMAT = 'yyyy-MM-dd';
export const MODEL_DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';
export const DISPLAY_DATE_FORMAT = 'dd.MM.yyyy';
export const DISPLAY_DATE_TIME_FORMAT = 'dd.MM.yyyy HH:mm:ss';
/** Between the two ends of a range in the input. */
export const RANGE_SEPARATOR = ' – ';

/** The years the calendar offers (spec section 5). */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2100;

/** Minute and second steps of the time picker (spec section 5). */
export const TIME_STEP = 5;

/** A range in the model: [from, to], both in the model format. */
export type DateRangeValue = readonly [string, string];

function modelFormat(withTime: boolean): string {
  return withTime ? MODEL_DATE_TIME_FORMAT : MODEL_DATE_FORMAT;
}

function displayFormat(withTime: boolean): string {
  return withTime ? DISPLAY_DATE_TIME_FORMAT : DISPLAY_DATE_FORMAT;
}

/** The digit groups of each format, in the order of its fields below. */
const FORMAT_PATTERNS: Record<string, { pattern: RegExp; fields: readonly ('y' | 'M' | 'd' | 'H' | 'm' | 's')[] }> = {
  [MODEL_DATE_FORMAT]: { pattern: /^(\d{4})-(\d{2})-(\d{2})$/, fields: ['y', 'M', 'd'] },
  [MODEL_DATE_TIME_FORMAT]: { pattern: /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/, fields: ['y', 'M', 'd', 'H', 'm', 's'] },
  [DISPLAY_DATE_FORMAT]: { pattern: /^(\d{2})\.(\d{2})\.(\d{4})$/, fields: ['d', 'M', 'y'] },
  [DISPLAY_DATE_TIME_FORMAT]: { pattern: /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}):(\d{2})$/, fields: ['d', 'M', 'y', 'H', 'm', 's'] },
};

function parseStrict(text: string, format: string): Date | null {
  const shape = FORMAT_PATTERNS[format];
  const match = shape?.pattern.exec(text);
  if (!shape || !match) return null;
  const parts = { y: 0, M: 1, d: 1, H: 0, m: 0, s: 0 };
  shape.fields.forEach((field, index) => {
    parts[field] = Number(match[index + 1]);
  });
  if (parts.y < FIRST_YEAR || parts.y > LAST_YEAR) return null;
  const date = new Date(parts.y, parts.M - 1, parts.d, parts.H, parts.m, parts.s);
  // The Date constructor rolls 31 February over into March (and 25:00 into the next day): not a date then.
  return lightFormat(date, format) === text ? date : null;
}

/** A model value ('2024-03-15' or '2024-03-15 10:30:00') as a local date, or null. */
export function parseModel(value: string | null | undefined, withTime = false): Date | null {
  if (!value) return null;
  // A date-only model is accepted where a date-time is expected (midnight), and the other way round
  // the time is dropped, so changing `enableTime` does not lose a stored value.
  return parseStrict(value, modelFormat(withTime)) ?? parseStrict(value.slice(0, 10), MODEL_DATE_FORMAT);
}

export function toModel(date: Date, withTime = false): string {
  return lightFormat(date, modelFormat(withTime));
}

export function toDisplay(date: Date, withTime = false): string {
  return lightFormat(date, displayFormat(withTime));
}

/** A typed text in the display format as a date, or null when it is not one. */
export function parseDisplay(text: string, withTime = false): Date | null {
  return parseStrict(text.trim(), displayFormat(withTime));
}

/** A typed range 'dd.MM.yyyy – dd.MM.yyyy' (any dash between the ends), or null. */
export function parseDisplayRange(text: string, withTime = false): [Date, Date] | null {
  const parts = text.split(/\s+[–—-]\s+|[–—]/);
  if (parts.length !== 2) return null;
  const from = parseDisplay(parts[0] ?? '', withTime);
  const to = parseDisplay(parts[1] ?? '', withTime);
  return from && to ? [from, to] : null;
}

export function toDisplayRange(range: readonly [Date, Date], withTime = false): string {
  return `${toDisplay(range[0], withTime)}${RANGE_SEPARATOR}${toDisplay(range[1], withTime)}`;
}

/** Length of a range as the calendar counts it: 1-8 January is 7 days (the `maxRange` unit). */
export function rangeLength(from: Date, to: Date): number {
  return Math.abs(differenceInCalendarDays(to, from));
}

