// Notifications (issue 11): what happened that a person should know of, kept as rows of their recipient.
// The server writes them in the transaction of the change that caused them (a decision, a distribution, the
// deadline job's reminder or escalation), mirrors them to the recipient's devices through the sync pull (the
// bell counts the unread ones offline) and mails them instantly or in a daily digest (the user's choice,
// `notificationMail`). Shared by the server and the client.

import { type Infer, array, nullable, object, record, size, string, type } from 'superstruct';
import { Uuid } from './suggestion';

export const NOTIFICATION_KINDS = [
  /** To the head of the department: a new proposal to decide. */
  'SUGGESTION_SUBMITTED',
  /** To the author: their proposal was approved / rejected / needs clarification. */
  'SUGGESTION_APPROVED',
  'SUGGESTION_REJECTED',
  'SUGGESTION_CLARIFICATION',
  /** To the holder: the author resent a clarified proposal. */
  'SUGGESTION_RESENT',
  /** To the new department's head: a proposal was passed to them (their 5 days start). */
  'SUGGESTION_DISTRIBUTED',
  /** To the holder on day 3: 2 days left. */
  'SUGGESTION_REMINDER',
  /** To the CEO or the owner: an overdue proposal is theirs to decide now. */
  'SUGGESTION_ESCALATED',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export { NOTIFICATION_MAIL_MODES, NotificationMailMode } from './user';

/**
 * A notification as the pull and the API carry it. `params` are the words the message needs, as they stood
 * when it was written: `title` (the proposal's), `byName` (who acted), `comment`, `departmentName`, `dueAt`.
 * `kind` is checked as a string, so a device with an older build still shows a newer kind (generically).
 */
export const NotificationRow = type({
  id: string(),
  companyId: string(),
  userId: string(),
  kind: string(),
  suggestionId: nullable(string()),
  params: record(string(), nullable(string())),
  readAt: nullable(string()),
  createdAt: string(),
});
export type NotificationRow = Infer<typeof NotificationRow>;

/** How many notifications one `POST /companies/{companyId}/notifications/read` marks. */
export const NOTIFICATION_READ_MAX = 200;

/** Body of `POST /companies/{companyId}/notifications/read`: the caller's notifications to mark read. */
export const NotificationReadInput = object({ ids: size(array(Uuid), 1, NOTIFICATION_READ_MAX) });
export type NotificationReadInput = Infer<typeof NotificationReadInput>;
