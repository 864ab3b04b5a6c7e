// A proposal's due date as words ("due in 2 days", "due today", "3 days overdue"), shared by the review list
// and the proposal page. Days are counted between calendar dates in the device's time zone, so a proposal due
// tomorrow at 09:00 reads "due in 1 day" all of today, whatever the hour. Only a proposal under consideration
// has a running clock: one waiting on its author (CLARIFICATION) reads "waiting for the author", a decided one
// shows nothing.
import { FormattedMessage, useIntl } from 'react-intl';
import type { SuggestionStatus } from '../../../domain/suggestion';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of the local calendar date of `at`, so a difference of two of them is whole days (DST-proof). */
function localDayNumber(at: Date): number {
  return Math.round(Date.UTC(at.getFullYear(), at.getMonth(), at.getDate()) / DAY_MS);
}

/**
 * Calendar days from `now` to the due date: positive ahead, 0 on the due day, negative past it. Null for a
 * date that does not parse (stored rows are untrusted).
 */
export function daysUntilDue(dueAt: string, now: Date): number | null {
  const due = Date.parse(dueAt);
  if (Number.isNaN(due)) return null;
  return localDayNumber(new Date(due)) - localDayNumber(now);
}

export type DueState = { kind: 'ahead'; days: number } | { kind: 'today' } | { kind: 'overdue'; days: number } | { kind: 'paused' } | { kind: 'none' };

/**
 * What the due text says. On the due day itself it stays "due today" until the due moment, then reads
 * "overdue since today" (0 days overdue).
 */
export function dueStateOf(dueAt: string, status: SuggestionStatus, now: Date): DueState {
  if (status === 'CLARIFICATION') return { kind: 'paused' };
  if (status !== 'UNDER_CONSIDERATION') return { kind: 'none' };
  const days = daysUntilDue(dueAt, now);
  if (days === null) return { kind: 'none' };
  const isPast = Date.parse(dueAt) < now.getTime();
  if (isPast) return { kind: 'overdue', days: Math.max(0, -days) };
  if (days <= 0) return { kind: 'today' };
  return { kind: 'ahead', days };
}

export interface DueTextProps {
  dueAt: string;
  status: SuggestionStatus;
  /** The moment to count from; the current time when left out (tests pass a fixed one). */
  now?: Date;
}

export function DueText({ dueAt, status, now }: DueTextProps) {
  const intl = useIntl();
  const state = dueStateOf(dueAt, status, now ?? new Date());
  if (state.kind === 'none') return null;
  // The exact moment, for whoever hovers or long-presses (and for screen readers' extra description).
  const exact = state.kind === 'paused' ? undefined : intl.formatDate(dueAt, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <span className={`due-text due-text--${state.kind}`} data-due={state.kind}>
      <time dateTime={dueAt} title={exact}>
        {state.kind === 'ahead' && (
          <FormattedMessage id="suggestions.due.ahead" defaultMessage="{days, plural, one {due in # day} other {due in # days}}" values={{ days: state.days }} />
        )}
        {state.kind === 'today' && <FormattedMessage id="suggestions.due.today" defaultMessage="due today" />}
        {state.kind === 'overdue' && (
          <FormattedMessage
            id="suggestions.due.overdue"
            defaultMessage="{days, plural, =0 {overdue since today} one {# day overdue} other {# days overdue}}"
            values={{ days: state.days }}
          />
        )}
        {state.kind === 'paused' && <FormattedMessage id="suggestions.due.paused" defaultMessage="waiting for the author" />}
      </time>
    </span>
  );
}
