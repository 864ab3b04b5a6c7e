// The open menu's draft: the day or range chosen and not yet committed, with a time of day for each end. Shared by
// the field (date-picker.tsx), which starts the draft when the menu opens and moves it to a typed date, and the menu
// (date-picker-menu.tsx, loaded with the month grid), which changes it as days and times are chosen.
import { startOfDay } from 'date-fns';
import { toModel } from './date-model';

export interface TimeOfDay {
  hours: number;
  minutes: number;
  seconds: number;
}

export const MIDNIGHT: TimeOfDay = { hours: 0, minutes: 0, seconds: 0 };

export function timeOf(date: Date | null | undefined): TimeOfDay {
  return date ? { hours: date.getHours(), minutes: date.getMinutes(), seconds: date.getSeconds() } : MIDNIGHT;
}

export function withTime(day: Date, time: TimeOfDay): Date {
  const date = startOfDay(day);
  date.setHours(time.hours, time.minutes, time.seconds, 0);
  return date;
}

/** [from, to] in the model format as one text, '' for none: a draft differs from the value when their keys do. */
export function modelKey(dates: readonly [Date, Date] | null, isRange: boolean, hasTime: boolean): string {
  if (!dates) return '';
  return isRange ? `${toModel(dates[0], hasTime)}|${toModel(dates[1], hasTime)}` : toModel(dates[0], hasTime);
}
