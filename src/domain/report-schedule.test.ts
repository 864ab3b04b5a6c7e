// The reporting calendar of a project (report-schedule.ts): pure date arithmetic.
import { describe, expect, it } from 'vitest';
import { REPORTING_FREQUENCIES } from './project';
import { addMonths, addPeriods, addReportingPeriod, calendarDateOf, firstPostMonitoringDue, isAfterToday, localCalendarDate, nextReportDue, postMonitoringEnd, projectNextReportDue } from './report-schedule';

describe('addPeriods', () => {
  it('is addReportingPeriod for one period, for every frequency', () => {
    for (const frequency of REPORTING_FREQUENCIES) {
      for (const date of ['2026-01-31', '2026-02-28', '2024-02-29', '2026-12-31', '2026-06-15']) expect(addPeriods(date, frequency, 1)).toBe(addReportingPeriod(date, frequency));
    }
  });

  it('counts from the anchor, so a month-end does not drift', () => {
    expect(addPeriods('2026-01-31', 'MONTHLY', 1)).toBe('2026-02-28');
    expect(addPeriods('2026-01-31', 'MONTHLY', 2)).toBe('2026-03-31');
    expect(addPeriods('2026-08-31', 'QUARTERLY', 2)).toBe('2027-02-28');
    expect(addPeriods('2026-12-28', 'WEEKLY', 2)).toBe('2027-01-11');
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28');
  });
});

describe('nextReportDue', () => {
  const base = { frequency: 'MONTHLY' as const, until: null };

  it('moves an on-time or early report one period on from the current due date', () => {
    expect(nextReportDue({ ...base, currentDue: '2026-12-20', reportDate: '2026-12-20' })).toBe('2027-01-20');
    expect(nextReportDue({ ...base, currentDue: '2026-12-20', reportDate: '2026-12-01' })).toBe('2027-01-20');
  });

  it("moves a late report to the first period end after the report's date", () => {
    expect(nextReportDue({ ...base, currentDue: '2026-12-20', reportDate: '2027-01-20' })).toBe('2027-02-20');
    expect(nextReportDue({ ...base, currentDue: '2026-12-20', reportDate: '2027-03-05' })).toBe('2027-03-20');
    expect(nextReportDue({ currentDue: '2026-11-27', reportDate: '2026-12-12', frequency: 'WEEKLY', until: null })).toBe('2026-12-18');
  });

  it('keeps the month-end schedule of a month-end due date', () => {
    expect(nextReportDue({ ...base, currentDue: '2027-01-31', reportDate: '2027-03-01' })).toBe('2027-03-31');
  });

  it('starts from the report when no due date was set', () => {
    expect(nextReportDue({ ...base, currentDue: null, reportDate: '2026-11-10' })).toBe('2026-12-10');
  });

  it('ends at the end of post-monitoring (inclusive)', () => {
    const until = postMonitoringEnd('2026-01-15');
    expect(until).toBe('2027-01-15');
    expect(nextReportDue({ currentDue: '2026-10-15', reportDate: '2026-10-15', frequency: 'QUARTERLY', until })).toBe('2027-01-15');
    expect(nextReportDue({ currentDue: '2027-01-15', reportDate: '2027-01-15', frequency: 'QUARTERLY', until })).toBeNull();
  });
});

describe('firstPostMonitoringDue and calendarDateOf', () => {
  it('sets the first post-monitoring report one period after the actual completion', () => {
    expect(firstPostMonitoringDue('2026-12-20', 'QUARTERLY')).toBe('2027-03-20');
    expect(firstPostMonitoringDue('2026-12-20', 'HALF_YEARLY')).toBe('2027-06-20');
  });

  it('reads the date in UTC', () => {
    expect(calendarDateOf(new Date('2026-11-20T23:59:59.999Z'))).toBe('2026-11-20');
    expect(calendarDateOf(new Date('2026-11-21T00:00:00.000+03:00'))).toBe('2026-11-20');
  });
});

describe('today', () => {
  it('is refused as a future date on the server only once it is tomorrow everywhere on Earth', () => {
    // 00:30 in Moscow on 21 November is still 20 November in UTC: the Muscovite's "today" is not the future.
    const now = new Date('2026-11-20T21:30:00.000Z');
    expect(isAfterToday('2026-11-21', now)).toBe(false);
    // At 09:59 UTC it is 23:59 in UTC+14 (Kiribati); a minute later 22 November has begun there.
    expect(isAfterToday('2026-11-21', new Date('2026-11-21T09:59:00.000Z'))).toBe(false);
    expect(isAfterToday('2026-11-22', new Date('2026-11-21T09:59:00.000Z'))).toBe(true);
    expect(isAfterToday('2026-11-22', new Date('2026-11-21T10:00:00.000Z'))).toBe(false);
  });

  it("is the device's own calendar date on the device", () => {
    const now = new Date(2026, 10, 21, 0, 30);
    expect(localCalendarDate(now)).toBe('2026-11-21');
  });
});

describe('projectNextReportDue', () => {
  it('follows the reporting frequency while approved, the post-monitoring periodicity after completion, and ends with it', () => {
    const approved = { status: 'APPROVED' as const, nextReportDue: '2026-12-01', reportingFrequency: 'MONTHLY' as const, postMonitoringPeriodicity: 'QUARTERLY' as const, actualCompletionDate: null };
    expect(projectNextReportDue(approved, '2026-11-15')).toBe('2027-01-01');
    expect(projectNextReportDue(approved, '2027-02-10')).toBe('2027-03-01');
    expect(projectNextReportDue({ ...approved, reportingFrequency: 'WEEKLY' }, '2026-12-01')).toBe('2026-12-08');
    const completed = { ...approved, status: 'COMPLETED' as const, nextReportDue: '2027-08-20', actualCompletionDate: '2026-11-20' };
    expect(projectNextReportDue(completed, '2027-08-20')).toBe('2027-11-20');
    expect(projectNextReportDue({ ...completed, nextReportDue: '2027-11-20' }, '2027-11-20')).toBeNull();
    expect(projectNextReportDue({ ...completed, nextReportDue: null }, '2027-11-20')).toBeNull();
    // Counted from the due date, so a month end stays a month end.
    expect(projectNextReportDue({ ...approved, nextReportDue: '2027-01-31' }, '2027-03-01')).toBe('2027-03-31');
  });
});
