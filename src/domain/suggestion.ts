// Improvement proposals ("suggestions") as the API answers them and as the client mirrors them
// (docs/api.md, "Proposals"). Shared by the main-service (validation of input) and the client
// (checking answers and pull rows on read). Refinement names are error codes (see validation.ts).

import {
  type Infer,
  array,
  boolean,
  enums,
  integer,
  literal,
  nullable,
  object,
  optional,
  refine,
  size,
  string,
  type,
  union,
} from 'superstruct';
import { multilineText, requiredText } from './validation';

/**
 * UNDER_CONSIDERATION: waiting on its holder (the department's head, or whoever it escalated to).
 * CLARIFICATION: the holder asked the author to clarify; the clock is paused until the author resends it.
 * APPROVED, REJECTED (with a reason): decided, final.
 */
export const SUGGESTION_STATUSES = ['UNDER_CONSIDERATION', 'CLARIFICATION', 'APPROVED', 'REJECTED'] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];
/** The states in which a proposal still waits for a decision. */
export const OPEN_SUGGESTION_STATUSES: readonly SuggestionStatus[] = ['UNDER_CONSIDERATION', 'CLARIFICATION'];

/** Every move a proposal's history records. */
export const SUGGESTION_HISTORY_KINDS = [
  'SUBMITTED',
  'DISTRIBUTED',
  'APPROVED',
  'REJECTED',
  'CLARIFICATION_REQUESTED',
  'RESENT',
  'REMINDED',
  'OVERDUE',
  'ESCALATED',
] as const;
export type SuggestionHistoryKind = (typeof SUGGESTION_HISTORY_KINDS)[number];

export const CURRENCIES = ['RUB', 'USD', 'AUD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Days from receipt to the due date of a review. */
export const SUGGESTION_DUE_DAYS = 5;
/** The holder is reminded on this day of their 5 (that is, 2 days before the due date). */
export const SUGGESTION_REMINDER_DAY = 3;
/** An overdue proposal escalated to the CEO goes on to the owner after this many more days undecided. */
export const SUGGESTION_ESCALATION_STEP_DAYS = 2;
/**
 * Who holds an open proposal: 0 the head of its department, 1 the CEO (escalated when overdue), 2 the owner
 * (escalated again; straight from 0 when the company has no CEO).
 */
export const ESCALATION_LEVELS = [0, 1, 2] as const;
export type EscalationLevel = (typeof ESCALATION_LEVELS)[number];
/** The decisions of `POST .../suggestions/{suggestionId}/review`. */
export const SUGGESTION_DECISIONS = ['APPROVED', 'REJECTED', 'CLARIFICATION'] as const;
export type SuggestionDecision = (typeof SUGGESTION_DECISIONS)[number];
export const SUGGESTION_COMMENT_MAX = 2000;
export const SUGGESTION_MAX_IMAGES = 3;
export const SUGGESTION_TITLE_MAX = 200;
export const SUGGESTION_TEXT_MAX = 4000;

/** The scopes of `GET /companies/{companyId}/suggestions`. */
export const SUGGESTION_SCOPES = ['mine', 'company', 'all'] as const;
export type SuggestionScope = (typeof SUGGESTION_SCOPES)[number];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}
export const Uuid = refine(string(), 'invalid', (v) => UUID_RE.test(v));

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
export function isIsoDateTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_RE.test(value) && !Number.isNaN(Date.parse(value));
}
export const IsoDateTime = refine(string(), 'invalid', (v) => isIsoDateTime(v));


export const EffectEstimate = object({
  amountMinor: refine(integer(), 'invalid', (v) => Number.isSafeInteger(v) && v >= 0),
  currency: enums(CURRENCIES),
});
export type EffectEstimate = Infer<typeof EffectEstimate>;

export const SuggestionImage = type({ imageId: string(), imageLink: string(), name: string() });
export type SuggestionImage = Infer<typeof SuggestionImage>;

export const SuggestionHistoryEntry = type({
  at: string(),
  kind: enums(SUGGESTION_HISTORY_KINDS),
  byUserId: nullable(string()),
  comment: nullable(string()),
  /** DISTRIBUTED: the department it went to (one). */
  departmentIds: optional(array(string())),
  /** Who did it, as their name stood then (a history outlives memberships). */
  byName: optional(nullable(string())),
  /** DISTRIBUTED: the department it came from. */
  fromDepartmentId: optional(nullable(string())),
  /** ESCALATED: the level it went to. */
  escalationLevel: optional(integer()),
});
export type SuggestionHistoryEntry = Infer<typeof SuggestionHistoryEntry>;

/** A proposal as every API answer and every pull row carries it (timestamps ISO strings). */
export const Suggestion = type({
  id: string(),
  companyId: string(),
  title: string(),
  problem: string(),
  solution: string(),
  expectedEffect: string(),
  effectEstimate: nullable(type({ amountMinor: integer(), currency: enums(CURRENCIES) })),
  departmentId: string(),
  goalId: nullable(string()),
  images: array(SuggestionImage),
  authorId: string(),
  authorName: string(),
  status: enums(SUGGESTION_STATUSES),
  dueAt: string(),
  submittedAt: string(),
  receivedAt: string(),
  reviewComment: nullable(string()),
  history: array(SuggestionHistoryEntry),
  createdAt: string(),
  updatedAt: string(),
  // Review (issue 11). Optional so that rows stored by earlier builds still read (the pull sends them again).
  /** Who decided (approved, rejected or asked for clarification last), their name then, and when. */
  decidedById: optional(nullable(string())),
  decidedByName: optional(nullable(string())),
  decidedAt: optional(nullable(string())),
  /** CLARIFICATION: since when the clock is paused. */
  clarificationAt: optional(nullable(string())),
  /** Who holds it while open (ESCALATION_LEVELS). */
  escalationLevel: optional(integer()),
  /** When the deadline job flagged it overdue; null while on time. */
  overdueAt: optional(nullable(string())),
});
export type Suggestion = Infer<typeof Suggestion>;

/** Body of `POST .../suggestions/{suggestionId}/review`: a comment is required to reject or ask for clarification. */
export const SuggestionReviewInput = refine(
  object({
    decision: enums(SUGGESTION_DECISIONS),
    comment: optional(nullable(size(multilineText(), 0, SUGGESTION_COMMENT_MAX))),
  }),
  'required',
  // Named on the field, so the form marks the comment: `{ comment: 'required' }`.
  (value) =>
    value.decision === 'APPROVED' || (typeof value.comment === 'string' && value.comment.trim().length > 0) || { path: ['comment'], key: 'comment', refinement: 'required' },
);
export type SuggestionReviewInput = Infer<typeof SuggestionReviewInput>;

/** Body of `POST .../suggestions/{suggestionId}/distribute`: the one department that decides it from now on. */
export const SuggestionDistributeInput = object({
  departmentId: Uuid,
  comment: optional(nullable(size(multilineText(), 0, SUGGESTION_COMMENT_MAX))),
});
export type SuggestionDistributeInput = Infer<typeof SuggestionDistributeInput>;

/** Body of `PATCH .../suggestions/{suggestionId}`: the author's clarified text, resent (CLARIFICATION only). */
export const SuggestionRevisionInput = object({
  title: requiredText(SUGGESTION_TITLE_MAX),
  problem: requiredText(SUGGESTION_TEXT_MAX, multilineText()),
  solution: requiredText(SUGGESTION_TEXT_MAX, multilineText()),
  expectedEffect: requiredText(SUGGESTION_TEXT_MAX, multilineText()),
  effectEstimate: optional(nullable(EffectEstimate)),
});
export type SuggestionRevisionInput = Infer<typeof SuggestionRevisionInput>;

/** Body of `POST /companies/{companyId}/suggestions`. */
export const SuggestionInput = object({
  /** Made on the device so it knows the id before the server does. */
  id: optional(Uuid),
  title: requiredText(SUGGESTION_TITLE_MAX),
  problem: requiredText(SUGGESTION_TEXT_MAX, multilineText()),
  solution: requiredText(SUGGESTION_TEXT_MAX, multilineText()),
  expectedEffect: requiredText(SUGGESTION_TEXT_MAX, multilineText()),
  effectEstimate: optional(nullable(EffectEstimate)),
  departmentId: refine(string(), 'required', (v) => v.length > 0),
  goalId: optional(nullable(Uuid)),
  imageIds: size(array(Uuid), 0, SUGGESTION_MAX_IMAGES),
  /** When the employee pressed Submit (maybe offline); the server keeps min(submittedAt, now). */
  submittedAt: optional(IsoDateTime),
});
export type SuggestionInput = Infer<typeof SuggestionInput>;

/** The answer of the list call. */
export const SuggestionPage = type({ items: array(Suggestion), nextCursor: nullable(string()) });
export type SuggestionPage = Infer<typeof SuggestionPage>;

/** Due date of a proposal received at `receivedAt` (ISO). */
export function dueDateOf(receivedAt: string): string {
  return new Date(Date.parse(receivedAt) + SUGGESTION_DUE_DAYS * 24 * 60 * 60 * 1000).toISOString();
}

/** Whether a proposal under consideration is past its due date at `now`. */
export function isOverdue(s: Pick<Suggestion, 'status' | 'dueAt'>, now: Date): boolean {
  return s.status === 'UNDER_CONSIDERATION' && Date.parse(s.dueAt) < now.getTime();
}

// Rows of `GET /sync/pull` and `GET /sync/rows` (docs/api.md, "Sync").
// New tables go at the end: a snapshot cursor names its table by position (goals and projects: issue 12).
export const SYNC_TABLES = ['companies', 'departments', 'employees', 'suggestions', 'notifications', 'goals', 'projects', 'registries'] as const;
export type SyncTable = (typeof SYNC_TABLES)[number];

export const SyncChange = type({
  seq: string(),
  table: enums(SYNC_TABLES),
  op: union([literal('upsert'), literal('delete')]),
  id: string(),
  row: optional(type({})),
});
export type SyncChange = Infer<typeof SyncChange>;

export const SyncPage = type({
  changes: array(SyncChange),
  nextCursor: string(),
  hasMore: boolean(),
  reset: boolean(),
});
export type SyncPage = Infer<typeof SyncPage>;

/** The answer of `GET /sync/rows`: one change per key asked, in the order asked. */
export const SyncRows = type({ changes: array(SyncChange) });
export type SyncRows = Infer<typeof SyncRows>;

/** How many keys one `GET /sync/rows` takes. */
export const SYNC_ROWS_MAX_KEYS = 200;

export const CompanyRow = type({
  id: string(),
  name: string(),
  inn: nullable(string()),
  kpp: nullable(string()),
  legalForm: enums(['LEGAL_ENTITY', 'ENTREPRENEUR']),
  website: nullable(string()),
  employeeCount: nullable(integer()),
  logoImageId: nullable(string()),
  verificationStatus: string(),
  /** Verification payment (issue 5); optional so rows stored by earlier builds still read. */
  invoiceNumber: optional(nullable(string())),
  paymentReportedAt: optional(nullable(string())),
  verificationDecidedAt: optional(nullable(string())),
  verificationComment: optional(nullable(string())),
  /**
   * The company's IANA time zone (issue 14); optional so rows stored by earlier builds still read: those
   * companies are on DEFAULT_TIME_ZONE of time-format.ts, which migration 0015 gave every existing company.
   */
  timeZone: optional(string()),
  createdAt: string(),
  updatedAt: string(),
});
export type CompanyRow = Infer<typeof CompanyRow>;

export const DepartmentRow = type({
  id: string(),
  companyId: string(),
  name: string(),
  headUserId: nullable(string()),
  createdAt: string(),
  updatedAt: string(),
});
export type DepartmentRow = Infer<typeof DepartmentRow>;

export const EmployeeRow = type({
  id: string(),
  companyId: string(),
  userId: nullable(string()),
  lastName: string(),
  firstName: string(),
  middleName: nullable(string()),
  position: nullable(string()),
  email: nullable(string()),
  serviceNumber: nullable(string()),
  departmentId: nullable(string()),
  roles: array(string()),
  active: boolean(),
  imported: boolean(),
  /** When an invitation to join was last sent and is still pending (issue 5); null otherwise. */
  invitedAt: optional(nullable(string())),
  createdAt: string(),
  updatedAt: string(),
});
export type EmployeeRow = Infer<typeof EmployeeRow>;
