// Notifications (issue 11): what happened that a person should know of, kept as rows of their recipient.
// The server writes them in the transaction of the change that caused them (a decision, a distribution, the
// deadline job's reminder or escalation), mirrors them to the recipient's devices through the sync pull (the
// bell counts the unread ones offline) and mails them instantly or in a daily digest (the user's choice,
// `notificationMail`). Shared by the server and the client.

import { type Infer, array, nullable, object, optional, record, size, string, type } from 'superstruct';
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
  // Goals and projects (issue 12); params: `title` (the goal's direction or the project's name), `byName`, `comment`.
  /** To the business customer: a goal set for them (or resent after clarification). */
  'GOAL_ASSIGNED',
  /** To the owners: the business customer took the goal to work (it waits on their approval) / asked to clarify it. */
  'GOAL_TO_WORK',
  'GOAL_CLARIFICATION',
  /** To the business customer and the goal's author: the owner approved it. */
  'GOAL_APPROVED',
  /** To the project manager: a project was created with them as its manager. */
  'PROJECT_CREATED',
  /** To the financial specialists and directors: a project to calculate. */
  'PROJECT_CALCULATING',
  /** To the direction managers: a calculated project to approve or return. */
  'PROJECT_CALCULATED',
  /** To the project manager: the direction manager approved it / returned it for revision (with the reason). */
  'PROJECT_APPROVED',
  'PROJECT_FOR_REVISION',
  /** To the project manager: an indicator report is due today (params.dueDate) / is past due. */
  'PROJECT_REPORT_DUE',
  'PROJECT_REPORT_OVERDUE',
  // The registry (issue 13); params: `number` (the registry's), `byName`, `comment`.
  /** To the owners: a registry was sent for their approval. */
  'REGISTRY_SENT',
  /** To whoever sent it: the owner approved it / returned it (with the comment). */
  'REGISTRY_APPROVED',
  'REGISTRY_RETURNED',
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
  /** Issue 12: the goal or the project the notification is about (optional: rows of older servers lack them). */
  goalId: optional(nullable(string())),
  projectId: optional(nullable(string())),
  /** Issue 13: the registry it is about. */
  registryId: optional(nullable(string())),
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
