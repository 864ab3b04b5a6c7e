// The calendar of a project's indicator reports (issue 12), shared by the main-service (which stores the due
// date), the device (which shows the same date at once, offline) and the demo seed. Pure date arithmetic on
// calendar dates 'YYYY-MM-DD'; no I/O.
//
// What it guarantees:
// - Months are calendar months; a day past the end of a shorter month falls to its last day, and periods are
//   counted from their anchor, so 31 January monthly is 28 February, then 31 March (no drift from clamping).
// - The next due date after a report is the first period end, counted from the current due date, that is after
//   both the current due date and the report's date; after completion the schedule ends POST_MONITORING_MONTHS
//   after the actual completion date (null from then on).
// - "Not in the future" is judged where it can be judged: the device by its own calendar (`localCalendarDate`),
//   the server, which does not know the user's time zone, by the latest calendar date anywhere on Earth
//   (`isAfterToday`: UTC+14), so a report filed just after midnight in Moscow is never refused as "tomorrow".

import type { Project, ReportingFrequency } from './project';

/** How long after the actual completion date post-monitoring reports are due: the 12-month effect horizon. */
export const POST_MONITORING_MONTHS = 12;

const MONTHS_OF_PERIOD: Record<Exclude<ReportingFrequency, 'WEEKLY'>, number> = { MONTHLY: 1, QUARTERLY: 3, HALF_YEARLY: 6 };

/** The calendar date of `now` in UTC. */
export function calendarDateOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The calendar date of `now` where the code runs (the device's own time zone). */
export function localCalendarDate(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The latest time zone is UTC+14: no calendar date anywhere is later than this one at `now`. */
const LATEST_OFFSET_MS = 14 * 60 * 60 * 1000;

/** Whether `date` is later than today in every time zone, that is, in the future for everyone. */
export function isAfterToday(date: string, now: Date): boolean {
  return date > calendarDateOf(new Date(now.getTime() + LATEST_OFFSET_MS));
}

/** `date` plus `months` calendar months, a day past the end of the shorter month falling to its last day. */
export function addMonths(date: string, months: number): string {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return calendarDateOf(target);
}

/** `anchor` plus `count` periods of `frequency`, counted from the anchor. */
export function addPeriods(anchor: string, frequency: ReportingFrequency, count: number): string {
  if (frequency === 'WEEKLY') {
    const [year = 0, month = 1, day = 1] = anchor.split('-').map(Number);
    return calendarDateOf(new Date(Date.UTC(year, month - 1, day + 7 * count)));
  }
  return addMonths(anchor, MONTHS_OF_PERIOD[frequency] * count);
}

/** The calendar date one period of `frequency` after `date`. */
export function addReportingPeriod(date: string, frequency: ReportingFrequency): string {
  return addPeriods(date, frequency, 1);
}

/** The last day post-monitoring reports may be due: POST_MONITORING_MONTHS after the actual completion. */
export function postMonitoringEnd(actualCompletionDate: string): string {
  return addMonths(actualCompletionDate, POST_MONITORING_MONTHS);
}

/** The first due date after a completion on `actualCompletionDate`; null when it falls past post-monitoring. */
export function firstPostMonitoringDue(actualCompletionDate: string, periodicity: ReportingFrequency): string | null {
  const due = addReportingPeriod(actualCompletionDate, periodicity);
  return due <= postMonitoringEnd(actualCompletionDate) ? due : null;
}

export interface NextDueInput {
  /** The due date before the report; null when none was set (then the schedule starts at the report's date). */
  currentDue: string | null;
  /** The calendar date the report speaks for. */
  reportDate: string;
  frequency: ReportingFrequency;
  /** The last date a report may be due (post-monitoring's end); null: no end (while APPROVED). */
  until: string | null;
}

/**
 * The next due date once a report for `reportDate` is filed: the first period end, counted from the current due
 * date, that is after the current due date and after the report's date (a late report moves the schedule past
 * itself; an early one moves it by one period). Null once that passes `until`.
 */
export function nextReportDue({ currentDue, reportDate, frequency, until }: NextDueInput): string | null {
  const anchor = currentDue ?? reportDate;
  let count = 1;
  let due = addPeriods(anchor, frequency, count);
  while (due <= reportDate) {
    count += 1;
    due = addPeriods(anchor, frequency, count);
  }
  return until !== null && due > until ? null : due;
}

/**
 * `nextReportDue` of a project once a report for `reportDate` is filed: by the reporting frequency while APPROVED,
 * by the post-monitoring periodicity while COMPLETED (null once post-monitoring is over, or when no report is due).
 */
export function projectNextReportDue(
  project: Pick<Project, 'status' | 'nextReportDue' | 'reportingFrequency' | 'postMonitoringPeriodicity' | 'actualCompletionDate'>,
  reportDate: string,
): string | null {
  const isCompleted = project.status === 'COMPLETED';
  if (isCompleted && project.nextReportDue === null) return null;
  return nextReportDue({
    currentDue: project.nextReportDue,
    reportDate,
    frequency: isCompleted ? project.postMonitoringPeriodicity : project.reportingFrequency,
    until: isCompleted && project.actualCompletionDate !== null ? postMonitoringEnd(project.actualCompletionDate) : null,
  });
}
