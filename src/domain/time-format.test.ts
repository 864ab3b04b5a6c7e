import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_TIME_ZONE,
  calendarDateInTimeZone,
  RUSSIAN_TIME_ZONES,
  TimeZone,
  canonicalTimeZone,
  describeTimeZone,
  deviceTimeZone,
  formatInTimeZone,
  formatUtcOffset,
  isTimeZone,
  supportedTimeZones,
  utcOffsetMinutes,
} from './time-format';

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

/** Runs `work` as a device whose own zone is `zone` (Node applies a new TZ to Date and Intl at once). */
function onDeviceIn<T>(zone: string, work: () => T): T {
  process.env.TZ = zone;
  // The device's zone really is `zone` now: without this the comparison below could pass for nothing.
  expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zone);
  return work();
}

describe('formatInTimeZone', () => {
  it('writes the instant on the company’s wall clock and names the zone with its offset', () => {
    expect(formatInTimeZone(new Date('2026-11-24T12:30:00Z'), 'Europe/Moscow')).toBe('24.11.2026, 15:30 (Europe/Moscow, UTC+3)');
    expect(formatInTimeZone('2026-11-24T12:30:00.000Z', 'Asia/Vladivostok')).toBe('24.11.2026, 22:30 (Asia/Vladivostok, UTC+10)');
    expect(formatInTimeZone('2026-11-24T12:30:00Z', 'Asia/Kolkata')).toBe('24.11.2026, 18:00 (Asia/Kolkata, UTC+5:30)');
    expect(formatInTimeZone('2026-11-24T12:30:00Z', 'UTC')).toBe('24.11.2026, 12:30 (UTC, UTC+0)');
  });

  it('moves the date across midnight as the zone says', () => {
    // 22:30 UTC on 14 March is already 15 March in Moscow and still 14 March in New York.
    expect(formatInTimeZone('2025-03-14T22:30:00Z', 'Europe/Moscow', { time: false })).toBe('15.03.2025 (Europe/Moscow, UTC+3)');
    expect(formatInTimeZone('2025-03-14T22:30:00Z', 'America/New_York', { time: false })).toBe('14.03.2025 (America/New_York, UTC-4)');
    expect(formatInTimeZone('2026-01-01T00:00:00Z', 'Europe/Moscow')).toBe('01.01.2026, 03:00 (Europe/Moscow, UTC+3)');
    expect(formatInTimeZone('2025-12-31T21:00:00Z', 'Europe/Moscow')).toBe('01.01.2026, 00:00 (Europe/Moscow, UTC+3)');
  });

  it('gives the offset in force at that instant (summer time)', () => {
    expect(formatInTimeZone('2026-01-15T12:00:00Z', 'Europe/Berlin')).toBe('15.01.2026, 13:00 (Europe/Berlin, UTC+1)');
    expect(formatInTimeZone('2026-07-15T12:00:00Z', 'Europe/Berlin')).toBe('15.07.2026, 14:00 (Europe/Berlin, UTC+2)');
    expect(formatInTimeZone('2026-01-15T12:00:00Z', 'America/St_Johns')).toBe('15.01.2026, 08:30 (America/St_Johns, UTC-3:30)');
  });

  it('prints the same text whatever the device’s own zone (New York, Vladivostok)', () => {
    const instants = ['2026-11-24T12:30:00Z', '2025-03-14T22:30:00Z', '2026-06-30T23:59:59.999Z'];
    const print = () => instants.flatMap((at) => ['Europe/Moscow', 'Asia/Vladivostok', 'Europe/Kaliningrad'].flatMap((zone) => [formatInTimeZone(at, zone), formatInTimeZone(at, zone, { time: false })]));
    const inNewYork = onDeviceIn('America/New_York', print);
    const inVladivostok = onDeviceIn('Asia/Vladivostok', print);
    expect(inNewYork).toEqual(inVladivostok);
    expect(inNewYork[0]).toBe('24.11.2026, 15:30 (Europe/Moscow, UTC+3)');
    expect(inNewYork[6]).toBe('15.03.2025, 01:30 (Europe/Moscow, UTC+3)');
  });

  it('names the zone as given, so a stored alias reads alike on every engine', () => {
    expect(formatInTimeZone('2026-11-24T12:30:00Z', 'Europe/Kiev')).toBe('24.11.2026, 14:30 (Europe/Kiev, UTC+2)');
  });

  it('falls back to Moscow time, and says so, for a zone the engine does not know', () => {
    expect(formatInTimeZone('2026-11-24T12:30:00Z', 'Mars/Olympus_Mons')).toBe('24.11.2026, 15:30 (Europe/Moscow, UTC+3)');
    expect(formatInTimeZone('2026-11-24T12:30:00Z', '')).toBe('24.11.2026, 15:30 (Europe/Moscow, UTC+3)');
  });

  it('prints a dash for an instant that is not one', () => {
    expect(formatInTimeZone('not a date', 'Europe/Moscow')).toBe('—');
    expect(formatInTimeZone(new Date(Number.NaN), 'Europe/Moscow', { time: false })).toBe('—');
  });
});

describe('calendarDateInTimeZone', () => {
  it('gives the date part of formatInTimeZone, for a heading that names the zone beside it', () => {
    expect(calendarDateInTimeZone('2025-03-14T22:30:00Z', 'Asia/Vladivostok')).toBe('15.03.2025');
    expect(calendarDateInTimeZone(new Date('2025-03-14T22:30:00Z'), 'America/New_York')).toBe('14.03.2025');
    expect(formatInTimeZone('2025-03-14T22:30:00Z', 'Asia/Vladivostok', { time: false }).startsWith('15.03.2025 ')).toBe(true);
    expect(calendarDateInTimeZone('nonsense', 'Europe/Moscow')).toBe('—');
    expect(calendarDateInTimeZone('2025-03-14T22:30:00Z', 'Mars/Olympus_Mons')).toBe('—');
  });
});

describe('offsets', () => {
  it('counts minutes ahead of UTC and writes them as UTC±h[:mm]', () => {
    expect(utcOffsetMinutes(new Date('2026-11-24T12:30:00Z'), 'Asia/Kamchatka')).toBe(12 * 60);
    expect(utcOffsetMinutes(new Date('2026-11-24T12:30:00Z'), 'America/Los_Angeles')).toBe(-8 * 60);
    expect(formatUtcOffset(180)).toBe('UTC+3');
    expect(formatUtcOffset(0)).toBe('UTC+0');
    expect(formatUtcOffset(-210)).toBe('UTC-3:30');
    expect(formatUtcOffset(345)).toBe('UTC+5:45');
    expect(describeTimeZone('Europe/Samara', new Date('2026-11-24T12:30:00Z'))).toBe('Europe/Samara (UTC+4)');
  });
});

describe('time zone names', () => {
  it('takes the zones the engine lists, UTC included, and refuses anything else', () => {
    const zones = supportedTimeZones();
    expect(zones).toContain('Europe/Moscow');
    expect(zones).toContain('UTC');
    for (const zone of RUSSIAN_TIME_ZONES) expect(isTimeZone(zone), zone).toBe(true);
    for (const wrong of ['', 'Moscow', 'Europe/Moscow ', 'Mars/Olympus_Mons', 'x'.repeat(65), 42, null]) expect(isTimeZone(wrong), String(wrong)).toBe(false);
  });

  it('reads an alias or another letter case as the zone the engine lists', () => {
    expect(canonicalTimeZone('europe/moscow')).toBe('Europe/Moscow');
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
    // Engines list one spelling of Kyiv or the other; either is taken for the listed one.
    const kyiv = canonicalTimeZone('Europe/Kyiv');
    expect(kyiv).not.toBeNull();
    expect(supportedTimeZones()).toContain(kyiv);
    expect(canonicalTimeZone('Europe/Kiev')).toBe(kyiv);
  });

  it('refuses a zone in the company struct with the code timeZone', () => {
    expect(TimeZone.is('Asia/Vladivostok')).toBe(true);
    const [error] = TimeZone.validate('Mars/Olympus_Mons');
    expect(error?.refinement).toBe('timeZone');
  });

  it('answers the device’s own zone, or Moscow when it has none that is listed', () => {
    expect(onDeviceIn('Asia/Vladivostok', deviceTimeZone)).toBe('Asia/Vladivostok');
    expect(onDeviceIn('America/New_York', deviceTimeZone)).toBe('America/New_York');
    expect(DEFAULT_TIME_ZONE).toBe('Europe/Moscow');
  });
});
