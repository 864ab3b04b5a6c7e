// What each notification says, in the viewer's language, from the words the server kept in its `params`
// (title, byName, comment, departmentName, dueAt; dueDate, a calendar date, for a project's indicator report). A kind this build does not know (a newer server) gets a
// generic text, never an empty line; a missing word leaves its part of the sentence out.
import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import type { NotificationKind, NotificationRow } from '../../domain/notification';

const DAY_MS = 24 * 60 * 60 * 1000;

const texts = defineMessages({
  submitted: {
    id: 'notifications.kind.submitted',
    defaultMessage: 'New proposal “{title}”{hasDue, select, yes { to decide by {due}} other {}}',
  },
  approved: {
    id: 'notifications.kind.approved',
    defaultMessage: 'Your proposal “{title}” was approved{hasBy, select, yes { by {byName}} other {}}',
  },
  rejected: {
    id: 'notifications.kind.rejected',
    defaultMessage: 'Your proposal “{title}” was rejected{hasBy, select, yes { by {byName}} other {}}',
  },
  clarification: {
    id: 'notifications.kind.clarification',
    defaultMessage: '{hasBy, select, yes {{byName} asks you} other {You are asked}} to clarify your proposal “{title}”',
  },
  resent: {
    id: 'notifications.kind.resent',
    defaultMessage: 'The proposal “{title}” was clarified and sent again{hasBy, select, yes { by {byName}} other {}}',
  },
  distributed: {
    id: 'notifications.kind.distributed',
    defaultMessage:
      'The proposal “{title}” was passed to {hasDepartment, select, yes {the department “{departmentName}”} other {your department}}{hasDue, select, yes {: decide by {due}} other {}}',
  },
  reminder: {
    id: 'notifications.kind.reminder',
    defaultMessage: '{hasDays, select, yes {{days, plural, one {# day} other {# days}} left to decide “{title}”} other {Time is running out to decide “{title}”}}{hasDue, select, yes { (by {due})} other {}}',
  },
  escalated: {
    id: 'notifications.kind.escalated',
    defaultMessage: '“{title}” is overdue and now yours to decide',
  },
  goalAssigned: {
    id: 'notifications.kind.goalAssigned',
    defaultMessage: 'Goal “{title}” is set for you{hasBy, select, yes { by {byName}} other {}}',
  },
  goalToWork: {
    id: 'notifications.kind.goalToWork',
    defaultMessage: '{hasBy, select, yes {{byName}} other {The business customer}} took the goal “{title}” to work: it waits for approval',
  },
  goalClarification: {
    id: 'notifications.kind.goalClarification',
    defaultMessage: '{hasBy, select, yes {{byName}} other {The business customer}} asks to clarify the goal “{title}”',
  },
  goalApproved: {
    id: 'notifications.kind.goalApproved',
    defaultMessage: 'The goal “{title}” was approved{hasBy, select, yes { by {byName}} other {}}',
  },
  projectCreated: {
    id: 'notifications.kind.projectCreated',
    defaultMessage: 'You manage the project “{title}”{hasBy, select, yes { (created by {byName})} other {}}',
  },
  projectCalculating: {
    id: 'notifications.kind.projectCalculating',
    defaultMessage: 'Project “{title}” to calculate{hasBy, select, yes { (sent by {byName})} other {}}',
  },
  projectCalculated: {
    id: 'notifications.kind.projectCalculated',
    defaultMessage: 'Project “{title}” is calculated and waits for your approval',
  },
  projectApproved: {
    id: 'notifications.kind.projectApproved',
    defaultMessage: 'Your project “{title}” was approved{hasBy, select, yes { by {byName}} other {}}',
  },
  projectForRevision: {
    id: 'notifications.kind.projectForRevision',
    defaultMessage: 'Your project “{title}” was returned for revision{hasBy, select, yes { by {byName}} other {}}',
  },
  projectReportDue: {
    id: 'notifications.kind.projectReportDue',
    defaultMessage: 'The indicator report on the project “{title}” is due today{hasDueDate, select, yes { ({dueDate})} other {}}',
  },
  projectReportOverdue: {
    id: 'notifications.kind.projectReportOverdue',
    defaultMessage: 'The indicator report on the project “{title}” is overdue{hasDueDate, select, yes { (it was due {dueDate})} other {}}',
  },
  registrySent: {
    id: 'notifications.kind.registrySent',
    defaultMessage: 'Registry No. {number} was sent for your approval{hasBy, select, yes { by {byName}} other {}}',
  },
  registryApproved: {
    id: 'notifications.kind.registryApproved',
    defaultMessage: 'Registry No. {number} was approved{hasBy, select, yes { by {byName}} other {}}',
  },
  registryReturned: {
    id: 'notifications.kind.registryReturned',
    defaultMessage: 'Registry No. {number} was returned{hasBy, select, yes { by {byName}} other {}}',
  },
  unknown: {
    id: 'notifications.kind.unknown',
    defaultMessage: '{hasTitle, select, yes {News about the proposal “{title}”} other {A new notification}}',
  },
  reason: { id: 'notifications.detail.reason', defaultMessage: 'Reason: {comment}' },
  question: { id: 'notifications.detail.question', defaultMessage: 'Question: {comment}' },
  comment: { id: 'notifications.detail.comment', defaultMessage: 'Comment: {comment}' },
});
const messages: Record<keyof typeof texts, MessageDescriptor> = texts;

const KIND_MESSAGES: Record<NotificationKind, keyof typeof messages> = {
  SUGGESTION_SUBMITTED: 'submitted',
  SUGGESTION_APPROVED: 'approved',
  SUGGESTION_REJECTED: 'rejected',
  SUGGESTION_CLARIFICATION: 'clarification',
  SUGGESTION_RESENT: 'resent',
  SUGGESTION_DISTRIBUTED: 'distributed',
  SUGGESTION_REMINDER: 'reminder',
  SUGGESTION_ESCALATED: 'escalated',
  GOAL_ASSIGNED: 'goalAssigned',
  GOAL_TO_WORK: 'goalToWork',
  GOAL_CLARIFICATION: 'goalClarification',
  GOAL_APPROVED: 'goalApproved',
  PROJECT_CREATED: 'projectCreated',
  PROJECT_CALCULATING: 'projectCalculating',
  PROJECT_CALCULATED: 'projectCalculated',
  PROJECT_APPROVED: 'projectApproved',
  PROJECT_FOR_REVISION: 'projectForRevision',
  PROJECT_REPORT_DUE: 'projectReportDue',
  PROJECT_REPORT_OVERDUE: 'projectReportOverdue',
  REGISTRY_SENT: 'registrySent',
  REGISTRY_APPROVED: 'registryApproved',
  REGISTRY_RETURNED: 'registryReturned',
};

/** Which line under the sentence the comment gets, per kind. */
const DETAIL_MESSAGES: Partial<Record<NotificationKind, keyof typeof messages>> = {
  SUGGESTION_REJECTED: 'reason',
  SUGGESTION_CLARIFICATION: 'question',
  SUGGESTION_DISTRIBUTED: 'comment',
  GOAL_CLARIFICATION: 'question',
  PROJECT_FOR_REVISION: 'reason',
  REGISTRY_RETURNED: 'comment',
  REGISTRY_APPROVED: 'comment',
};

function isKnownKind(kind: string): kind is NotificationKind {
  return Object.hasOwn(KIND_MESSAGES, kind);
}

function word(params: NotificationRow['params'], name: string): string | null {
  const value = params[name];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function isDate(value: string | null): value is string {
  return value !== null && !Number.isNaN(Date.parse(value));
}

/** A calendar date 'YYYY-MM-DD' (no time, no zone): read and shown as that day wherever the viewer is. */
function calendarDate(value: string | null): string | null {
  return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && isDate(`${value}T00:00:00Z`) ? `${value}T00:00:00Z` : null;
}

export interface NotificationText {
  /** What happened, one sentence. */
  text: string;
  /** The reason, question or comment that came with it, on its own line; null when none. */
  detail: string | null;
}

/** What `notification` says to the viewer. */
export function describeNotification(intl: IntlShape, notification: Pick<NotificationRow, 'kind' | 'params' | 'createdAt'>): NotificationText {
  const { params } = notification;
  const title = word(params, 'title') ?? '';
  const byName = word(params, 'byName');
  const departmentName = word(params, 'departmentName');
  const dueAt = word(params, 'dueAt');
  const hasDue = isDate(dueAt);
  const dueDate = calendarDate(word(params, 'dueDate'));
  // The days left when it was written ("2 days left"): the sentence tells what was true then, the date stays true.
  const days = hasDue && isDate(notification.createdAt) ? Math.max(0, Math.ceil((Date.parse(dueAt) - Date.parse(notification.createdAt)) / DAY_MS)) : null;
  const values = {
    title,
    byName: byName ?? '',
    departmentName: departmentName ?? '',
    number: word(params, 'number') ?? '',
    due: hasDue ? intl.formatDate(dueAt, { day: 'numeric', month: 'short' }) : '',
    days: days ?? 0,
    dueDate: dueDate !== null ? intl.formatDate(dueDate, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }) : '',
    hasTitle: title !== '' ? 'yes' : 'no',
    hasBy: byName !== null ? 'yes' : 'no',
    hasDepartment: departmentName !== null ? 'yes' : 'no',
    hasDue: hasDue ? 'yes' : 'no',
    hasDays: days !== null && days > 0 ? 'yes' : 'no',
    hasDueDate: dueDate !== null ? 'yes' : 'no',
  };
  if (!isKnownKind(notification.kind)) return { text: intl.formatMessage(messages.unknown, values), detail: null };
  const comment = word(params, 'comment');
  const detailKey = DETAIL_MESSAGES[notification.kind];
  return {
    text: intl.formatMessage(messages[KIND_MESSAGES[notification.kind]], values),
    detail: detailKey && comment !== null ? intl.formatMessage(messages[detailKey], { comment }) : null,
  };
}
