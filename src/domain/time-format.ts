// A company's dates and times, as its documents and screens print them (issue 14: the invoice's date and the
// page's date disagreed across time zones). Every time the product prints for a company (the invoice PDF and
// the verification pages, the registry exports, the conflict messages of the registry) is written in the
// company's own time zone (`companies.time_zone`, an IANA name) and names that zone, with one formatter shared by
// the server and the client:
//
//   24.11.2026, 15:30 (Europe/Moscow, UTC+3)      formatInTimeZone(at, zone)
//   24.11.2026 (Europe/Moscow, UTC+3)             formatInTimeZone(at, zone, { time: false })
//
// What it guarantees: the text depends on the instant and the zone only, never on the device's or the server's
// zone nor on the language: it is built from the numbers Intl gives for that zone (day, month, year, 24-hour
// time), not from a locale's pattern, so Node's ICU and a browser's print the same characters. The offset is
// the zone's at that instant (summer time included). A zone the engine does not know is never guessed at: the
// time is written in DEFAULT_TIME_ZONE and that zone is named, so the text stays true.

import { refine, string, trimmed } from 'superstruct';

/** The zone of a company made before zones existed, and of a new one that names none. */
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';
/** The longest IANA name is 32 characters ('America/Argentina/ComodRivadavia'); twice that leaves room. */
export const TIME_ZONE_MAX = 64;

/**
 * The Russian zones people choose most, west to east (Kaliningrad UTC+2 to Kamchatka UTC+12): the company form
 * lists them first.
 */
export const RUSSIAN_TIME_ZONES: readonly string[] = [
  'Europe/Kaliningrad',
  'Europe/Moscow',
  'Europe/Samara',
  'Asia/Yekaterinburg',
  'Asia/Omsk',
  'Asia/Novosibirsk',
  'Asia/Krasnoyarsk',
  'Asia/Irkutsk',
  'Asia/Yakutsk',
  'Asia/Vladivostok',
  'Asia/Magadan',
  'Asia/Kamchatka',
];

let supported: { list: readonly string[]; set: ReadonlySet<string> } | null = null;

function supportedZones(): { list: readonly string[]; set: ReadonlySet<string> } {
  if (supported) return supported;
  // Some engines leave UTC out of the list (Node 20 does) though every engine knows it.
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIME_ZONE, ...RUSSIAN_TIME_ZONES];
  const list = [...new Set([...listed, 'UTC'])].sort();
  supported = { list, set: new Set(list) };
  return supported;
}

/** The IANA zones this engine knows (`Intl.supportedValuesOf('timeZone')` and UTC), sorted. */
export function supportedTimeZones(): readonly string[] {
  return supportedZones().list;
}

/** The name the engine resolves `zone` to (aliases and letter case to its canonical name), or null if unknown. */
function resolvedName(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

let byResolvedName: Map<string, string> | null = null;

/**
 * `value` as one of `supportedTimeZones()`, or null when it names no zone the engine lists. An alias is taken
 * for the zone it stands for, whichever spelling this engine lists (engines differ: Node 20 lists
 * 'Europe/Kiev', newer browsers 'Europe/Kyiv'), and letter case does not matter.
 */
export function canonicalTimeZone(value: string): string | null {
  const zones = supportedZones();
  if (zones.set.has(value)) return value;
  if (value.length === 0 || value.length > TIME_ZONE_MAX || value.trim() !== value) return null;
  const resolved = resolvedName(value);
  if (resolved === null) return null;
  if (zones.set.has(resolved)) return resolved;
  // The engine resolves the alias to a name it does not list (it lists the other spelling): find the listed one.
  byResolvedName ??= new Map(zones.list.map((zone) => [resolvedName(zone) ?? zone, zone]));
  return byResolvedName.get(resolved) ?? null;
}

/** Whether `value` names a zone this engine lists (see `canonicalTimeZone`). */
export function isTimeZone(value: unknown): value is string {
  return typeof value === 'string' && canonicalTimeZone(value) !== null;
}

/** An IANA time zone name, as the company calls take it; the error code is `timeZone` (for an empty or long one too). */
export const TimeZone = refine(trimmed(string()), 'timeZone', (value) => isTimeZone(value));

/** The device's (or the server process's) own zone as a listed name, or DEFAULT_TIME_ZONE when it has none. */
export function deviceTimeZone(): string {
  const own = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (own ? canonicalTimeZone(own) : null) ?? DEFAULT_TIME_ZONE;
}

// ---------------------------------------------------------------------------------------------------
// Formatting

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** The numbers of `at` on the wall clock of `zone` (throws RangeError for a zone the engine does not know). */
function wallClock(at: Date, zone: string): WallClock {
  let format = partFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    partFormats.set(zone, format);
  }
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of format.formatToParts(at)) parts[part.type] = part.value;
  const number = (type: Intl.DateTimeFormatPartTypes) => Number(parts[type] ?? NaN);
  // Some engines wrote midnight as 24 under h23; it is hour 0 of the same day.
  return { year: number('year'), month: number('month'), day: number('day'), hour: number('hour') % 24, minute: number('minute'), second: number('second') };
}

/** How far the wall clock of `zone` is ahead of UTC at `at`, in minutes (negative west of Greenwich). */
export function utcOffsetMinutes(at: Date, zone: string): number {
  const clock = wallClock(at, zone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  // The wall clock has whole seconds: compare it with the instant cut to its second.
  const instant = Math.floor(at.getTime() / 1000) * 1000;
  return Math.round((asUtc - instant) / 60_000);
}

/** `UTC+3`, `UTC+5:30`, `UTC-3:30`, `UTC+0`. */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const rest = abs % 60;
  return `UTC${sign}${hours}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`;
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

export interface ZonedFormatOptions {
  /** Print the time of day too (default); false prints the date alone, still naming the zone. */
  time?: boolean;
}

/**
 * `24.11.2026`: the calendar date of `at` in `zone`, for a heading that names the zone beside it (the invoice's
 * title, with its date line from `formatInTimeZone` under it). '—' for an invalid instant or an unknown zone.
 */
export function calendarDateInTimeZone(at: Date | string, zone: string): string {
  const instant = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(instant.getTime())) return '—';
  try {
    const clock = wallClock(instant, zone);
    return `${pad(clock.day)}.${pad(clock.month)}.${pad(clock.year, 4)}`;
  } catch (error) {
    if (error instanceof RangeError) return '—';
    throw error;
  }
}

/**
 * `24.11.2026, 15:30 (Europe/Moscow, UTC+3)`: the instant on the wall clock of `zone`, naming the zone and its
 * offset at that instant; `{ time: false }` leaves the time of day out. The same text on every device and
 * server, in both languages. An invalid instant prints as '—'.
 */
export function formatInTimeZone(at: Date | string, zone: string, { time = true }: ZonedFormatOptions = {}): string {
  const instant = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(instant.getTime())) return '—';
  // The zone as stored, not as this engine spells it, so the server and every browser name it alike.
  let shownZone = zone;
  let clock: WallClock;
  try {
    clock = wallClock(instant, shownZone);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    shownZone = DEFAULT_TIME_ZONE;
    clock = wallClock(instant, shownZone);
  }
  const date = `${pad(clock.day)}.${pad(clock.month)}.${pad(clock.year, 4)}`;
  const when = time ? `${date}, ${pad(clock.hour)}:${pad(clock.minute)}` : date;
  return `${when} (${shownZone}, ${formatUtcOffset(utcOffsetMinutes(instant, shownZone))})`;
}

/** `Europe/Moscow (UTC+3)`: a zone with its offset at `at` (now by default), as a list of zones names it. */
export function describeTimeZone(zone: string, at: Date = new Date()): string {
  try {
    return `${zone} (${formatUtcOffset(utcOffsetMinutes(at, zone))})`;
  } catch (error) {
    if (error instanceof RangeError) return zone;
    throw error;
  }
}
