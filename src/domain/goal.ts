// The goal state machine of DESIGN.md "State machines" and "Roles and permissions" (issue 12), as ONE table that
// the main-service (which enforces it) and the client (which offers only what is allowed) both read, and the
// structs of a goal as the API answers it, the mirror keeps it, and the create/edit and action bodies carry it.
// Pure, no I/O: the caller passes the goal (status, the user account of its business customer) and the actor
// (user, roles in the goal's company).
//
// What it guarantees:
// - A goal moves only along a row of GOAL_TRANSITIONS, by one of the row's parties, with the row's required
//   comment; anything else is refused with a code. Nothing is allowed by default.
// - The business customer is matched by the user id of their employee's account. A goal whose business customer
//   has no account (`businessCustomerUserId` null) has no business customer anyone may act as: it stays NEW until
//   the owner names another one. Holding a role never makes someone the business customer.
// - Refusals are checked in a fixed order, the order the server answers in: `forbidden` (the actor is no party
//   of this action), then `wrongState` (the actor is, but the goal is not in the state the action leaves: for
//   an offline decision, "the world changed"), then `commentRequired` (blank text counts as no comment).
// - `availableGoalActions` lists exactly the actions `goalTransition` accepts given a comment.
// - `GoalActionInput` answers a missing comment on the field (`{ comment: 'required' }`), from the same table.
// - `GoalInput` accepts only real calendar dates with the end strictly after the start (`{ endDate: 'afterStart' }`).
// The company's start rule (`requireReadyToStart`) is the server's to apply before any of this.

import { type Infer, array, enums, nullable, number, object, optional, refine, size, string, type } from 'superstruct';
import type { CompanyRole } from './auth';
import { type MemberView, type Roles, hasAnyRole } from './permissions';
import { Uuid } from './suggestion';
import { CalendarDate, multilineText, requiredText } from './validation';

/**
 * NEW: set by its author, waiting on the business customer.
 * TO_WORK: the business customer took it to work; waiting on the owner's approval.
 * CLARIFICATION: the business customer asked for clarification (with a comment); the owner edits it and sends it
 * back to NEW.
 * APPROVED: approved by the owner; final.
 */
export const GOAL_STATUSES = ['NEW', 'TO_WORK', 'CLARIFICATION', 'APPROVED'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/** The spec's actions (to work, for clarification, approve) and the owner's resend of a clarified goal. */
export const GOAL_ACTIONS = ['TO_WORK', 'CLARIFICATION', 'APPROVE', 'RESEND'] as const;
export type GoalAction = (typeof GOAL_ACTIONS)[number];

/**
 * Who may take an action: the goal's business customer, or whoever holds a company role. The derived party is
 * camelCase, the roles upper case, so the two never collide.
 */
export type GoalParty = 'businessCustomer' | CompanyRole;

export interface GoalTransitionRule {
  action: GoalAction;
  from: GoalStatus;
  to: GoalStatus;
  who: readonly GoalParty[];
  commentRequired: boolean;
}

/** Every allowed move of a goal. Each action appears exactly once, so an action names its move. */
export const GOAL_TRANSITIONS: readonly GoalTransitionRule[] = [
  { action: 'TO_WORK', from: 'NEW', to: 'TO_WORK', who: ['businessCustomer'], commentRequired: false },
  { action: 'CLARIFICATION', from: 'NEW', to: 'CLARIFICATION', who: ['businessCustomer'], commentRequired: true },
  { action: 'RESEND', from: 'CLARIFICATION', to: 'NEW', who: ['OWNER'], commentRequired: false },
  { action: 'APPROVE', from: 'TO_WORK', to: 'APPROVED', who: ['OWNER'], commentRequired: false },
];

export type GoalTransitionRefusal = 'forbidden' | 'wrongState' | 'commentRequired';
export type GoalTransitionResult = { ok: true; from: GoalStatus; to: GoalStatus } | { ok: false; code: GoalTransitionRefusal };

/** The goal as the rules see it; a `Goal` row is one. */
export interface GoalView {
  status: GoalStatus;
  /** The user account of the business customer's employee record; null when that employee has none. */
  businessCustomerUserId: string | null;
}

/** The actor as the rules see one; a `MemberView` is one. */
export type GoalActor = Pick<MemberView, 'userId' | 'roles'>;

/** Input an action may carry; a `GoalActionInput` is one. */
export interface GoalActionFields {
  comment?: string | null;
}

function ruleOf(action: GoalAction): GoalTransitionRule {
  const rule = GOAL_TRANSITIONS.find((candidate) => candidate.action === action);
  // GOAL_TRANSITIONS names every action of GOAL_ACTIONS; the test "names every action exactly once" holds it so.
  if (!rule) throw new Error(`No transition for goal action ${action}`);
  return rule;
}

function isParty(actor: GoalActor, goal: GoalView, party: GoalParty): boolean {
  if (party === 'businessCustomer') return goal.businessCustomerUserId !== null && goal.businessCustomerUserId === actor.userId;
  return hasAnyRole(actor.roles, [party]);
}

function mayAct(actor: GoalActor, goal: GoalView, rule: GoalTransitionRule): boolean {
  return rule.who.some((party) => isParty(actor, goal, party));
}

function hasComment(fields: GoalActionFields): boolean {
  return typeof fields.comment === 'string' && fields.comment.trim().length > 0;
}

/** Whether `action` needs a comment (asking for clarification does). */
export function goalActionRequiresComment(action: GoalAction): boolean {
  return ruleOf(action).commentRequired;
}

/** Whether `actor` may take `action` on `goal` with `input`, and where it takes the goal; refusals in the order of the header. */
export function goalTransition(action: GoalAction, goal: GoalView, actor: GoalActor, input: GoalActionFields = {}): GoalTransitionResult {
  const rule = ruleOf(action);
  if (!mayAct(actor, goal, rule)) return { ok: false, code: 'forbidden' };
  if (rule.from !== goal.status) return { ok: false, code: 'wrongState' };
  if (rule.commentRequired && !hasComment(input)) return { ok: false, code: 'commentRequired' };
  return { ok: true, from: rule.from, to: rule.to };
}

/** The actions `actor` may take on `goal` now (given the comment each needs), in table order. */
export function availableGoalActions(goal: GoalView, actor: GoalActor): GoalAction[] {
  return GOAL_TRANSITIONS.filter((rule) => rule.from === goal.status && mayAct(actor, goal, rule)).map((rule) => rule.action);
}

/** Roles that may create a goal. */
export const GOAL_CREATE_ROLES: readonly CompanyRole[] = ['OWNER', 'CEO', 'TOP_MANAGER'];
/** Roles that may edit a goal (whoever created it). */
export const GOAL_EDIT_ROLES: readonly CompanyRole[] = ['OWNER'];
/**
 * States in which a goal's text may change: before the business customer took it to work, and while it waits on
 * the owner's clarification. Once taken to work, the business customer has accepted this text, and the owner
 * approves what was accepted.
 */
export const GOAL_EDITABLE_STATUSES: readonly GoalStatus[] = ['NEW', 'CLARIFICATION'];

export function canCreateGoal(roles: Roles): boolean {
  return hasAnyRole(roles, GOAL_CREATE_ROLES);
}

export function canEditGoal(roles: Roles, goal: Pick<GoalView, 'status'>): boolean {
  return hasAnyRole(roles, GOAL_EDIT_ROLES) && GOAL_EDITABLE_STATUSES.includes(goal.status);
}

// ---------------------------------------------------------------------------------------------------
// Structs.

export const GOAL_TITLE_MAX = 200;
export const GOAL_TEXT_MAX = 4000;
export const GOAL_COMMENT_MAX = 2000;
export const GOAL_UNIT_ID_MAX = 64;

/** Every entry of a goal's audit trail: its creation, the owner's edits and every action. */
export const GOAL_HISTORY_ACTIONS = ['CREATED', 'EDITED', ...GOAL_ACTIONS] as const;
export type GoalHistoryAction = (typeof GOAL_HISTORY_ACTIONS)[number];


/** The quantitative indicator: a value >= 0 in a unit of type BASE_INDICATOR (`GET /units`: MINUTES, HOURS, ...). */
export const GoalIndicator = object({
  value: refine(number(), 'invalid', (value) => Number.isFinite(value) && value >= 0),
  unitId: requiredText(GOAL_UNIT_ID_MAX),
});
export type GoalIndicator = Infer<typeof GoalIndicator>;

export const GoalHistoryEntry = type({
  at: string(),
  action: enums(GOAL_HISTORY_ACTIONS),
  /** Null for CREATED. */
  fromStatus: nullable(enums(GOAL_STATUSES)),
  toStatus: enums(GOAL_STATUSES),
  byUserId: nullable(string()),
  /** Who did it, as their name stood then (a history outlives memberships). */
  byName: nullable(string()),
  comment: nullable(multilineText()),
});
export type GoalHistoryEntry = Infer<typeof GoalHistoryEntry>;

/**
 * A goal as every API answer and every pull row carries it (dates 'YYYY-MM-DD', timestamps ISO strings). Texts
 * that may span lines are marked so, so `validate` reads a row as `GoalInput` wrote it.
 */
export const Goal = type({
  id: string(),
  companyId: string(),
  direction: string(),
  scope: string(),
  description: multilineText(),
  expectedResult: multilineText(),
  indicator: type({ value: number(), unitId: string() }),
  ownerGoal: multilineText(),
  startDate: string(),
  endDate: string(),
  businessCustomerEmployeeId: string(),
  /** The user account of that employee; null when the employee has none (then nobody acts as business customer). */
  businessCustomerUserId: nullable(string()),
  process: string(),
  status: enums(GOAL_STATUSES),
  history: array(GoalHistoryEntry),
  createdBy: string(),
  createdAt: string(),
  updatedAt: string(),
});
export type Goal = Infer<typeof Goal>;

/**
 * Body of `POST /companies/{companyId}/goals` and of the owner's edit: every editable field, texts trimmed and
 * required, dates real calendar dates with the end strictly after the start.
 */
export const GoalInput = refine(
  object({
    /** Made on the device so it knows the id before the server does (ignored on edit). */
    id: optional(Uuid),
    direction: requiredText(GOAL_TITLE_MAX),
    scope: requiredText(GOAL_TITLE_MAX),
    description: requiredText(GOAL_TEXT_MAX, multilineText()),
    expectedResult: requiredText(GOAL_TEXT_MAX, multilineText()),
    indicator: GoalIndicator,
    ownerGoal: requiredText(GOAL_TEXT_MAX, multilineText()),
    startDate: CalendarDate,
    endDate: CalendarDate,
    businessCustomerEmployeeId: Uuid,
    process: requiredText(GOAL_TITLE_MAX),
  }),
  'afterStart',
  // 'YYYY-MM-DD' strings order as their dates do. Named on the field, so the form marks the end date.
  (value) => value.endDate > value.startDate || { path: ['endDate'], key: 'endDate', refinement: 'afterStart' },
);
export type GoalInput = Infer<typeof GoalInput>;

/** Body of `POST .../goals/{goalId}/actions`: the comment is required where the action's row says so. */
export const GoalActionInput = refine(
  object({
    action: enums(GOAL_ACTIONS),
    comment: optional(nullable(size(multilineText(), 0, GOAL_COMMENT_MAX))),
  }),
  'required',
  // Named on the field, so the form marks the comment: `{ comment: 'required' }`.
  (value) => !goalActionRequiresComment(value.action) || hasComment(value) || { path: ['comment'], key: 'comment', refinement: 'required' },
);
export type GoalActionInput = Infer<typeof GoalActionInput>;
