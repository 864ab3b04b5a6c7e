// The company's time zone on its screens: which zone a mirrored row names, its dates printed in it
// with the formatter the server's invoice and registry files use (src/domain/time-format.ts), so a page and the
// PDF of the same company say the same date whatever the device's own zone; and the choices of the company form.
import { DEFAULT_TIME_ZONE, RUSSIAN_TIME_ZONES, canonicalTimeZone, describeTimeZone, formatInTimeZone, supportedTimeZones } from '../../domain/time-format';
import type { CompanyRow } from '../../domain/suggestion';
import type { SelectOption } from '../../ui/select';

/** The zone of a mirrored company; a row stored before zones existed is on DEFAULT_TIME_ZONE, as its company is. */
export function companyTimeZoneOf(company: Pick<CompanyRow, 'timeZone'>): string {
  return company.timeZone !== undefined && company.timeZone !== '' ? company.timeZone : DEFAULT_TIME_ZONE;
}

/** `24.11.2026, 15:30 (Europe/Moscow, UTC+3)`: an instant of the company in its zone; `{ time: false }` the date alone. */
export function companyMoment(company: Pick<CompanyRow, 'timeZone'>, at: Date | string, options?: { time?: boolean }): string {
  return formatInTimeZone(at, companyTimeZoneOf(company), options);
}

/** The date the verification invoice carries (the company's creation), exactly as the PDF prints it. */
export function invoiceDateOf(company: Pick<CompanyRow, 'timeZone' | 'createdAt'>): string {
  return companyMoment(company, company.createdAt, { time: false });
}

/** The name the language gives the zone ("Москва, стандартное время"), or null when the engine has none. */
function localName(zone: string, locale: string, at: Date): string | null {
  try {
    const part = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'long' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
    // Some zones have no name of their own, only an offset ("GMT+03:00"), which the title shows already.
    return part && !/^(GMT|UTC)([+-−]|$)/.test(part.value) ? part.value : null;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

export interface TimeZoneGroupTitles {
  russia: string;
  all: string;
}

const HOUR_MS = 3_600_000;

interface ZoneItems {
  hour: number;
  russian: readonly SelectOption[];
  others: readonly SelectOption[];
}

// The titled zones of each language: the list has some 420 zones, and titling one asks Intl for the zone's
// wall clock (and a Russian one for its local name), too slow to repeat each time the form mounts. Kept for
// the hour they were made in, so an offset that summer time changes is made again, not shown stale for long.
const zoneItemsByLocale = new Map<string, ZoneItems>();

function zoneItems(locale: string, at: Date): ZoneItems {
  const hour = Math.floor(at.getTime() / HOUR_MS);
  const kept = zoneItemsByLocale.get(locale);
  if (kept?.hour === hour) return kept;
  const russian = RUSSIAN_TIME_ZONES.map((zone) => canonicalTimeZone(zone)).filter((zone): zone is string => zone !== null);
  const russianSet = new Set(russian);
  const title = (zone: string) => {
    const name = localName(zone, locale, at);
    return name ? `${describeTimeZone(zone, at)} — ${name}` : describeTimeZone(zone, at);
  };
  const items: ZoneItems = {
    hour,
    russian: russian.map((zone) => ({ id: zone, title: title(zone) })),
    others: supportedTimeZones()
      .filter((zone) => !russianSet.has(zone))
      .map((zone) => ({ id: zone, title: describeTimeZone(zone, at) })),
  };
  zoneItemsByLocale.set(locale, items);
  return items;
}

/**
 * The zones of the company form: Russia's common zones first, west to east, named in the user's language too;
 * then every zone the device knows, by name. Each title shows the offset now, so "UTC+10" finds Vladivostok.
 */
export function timeZoneOptions(locale: string, titles: TimeZoneGroupTitles, at: Date = new Date()): SelectOption[] {
  const { russian, others } = zoneItems(locale, at);
  return [
    { id: 'group:russia', title: titles.russia, group: true, items: russian },
    { id: 'group:all', title: titles.all, group: true, items: others },
  ];
}
