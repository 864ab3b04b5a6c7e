// The project state machine of DESIGN.md "State machines" and "Roles and permissions" (issue 12), as ONE table
// that the main-service (which enforces it) and the client (which offers only what is allowed) both read.
// Pure, no I/O: the caller passes the project (status, manager, department) and the actor (user, roles,
// departments headed).
//
// What it guarantees:
// - A project moves only along a row of PROJECT_TRANSITIONS, by one of the row's parties, with the row's required
//   input; anything else is refused with a code. Nothing is allowed by default.
// - Refusals are checked in a fixed order, the order the server answers in: `forbidden` (the actor may make this
//   move from no state, or not from this one), then `wrongState` (the actor could, but the project is not in a
//   state it leaves that way: for an offline decision, "the world changed"), then the input the move needs
//   (`commentRequired`, `calculationRequired`, `completionRequired`).
// - `availableProjectTransitions` lists exactly the targets `projectTransition` accepts given complete input.
// - `ProjectTransitionInput` (the body of `POST .../projects/{projectId}/transitions`) names the same missing input
//   per field (`{ comment: 'required' }`), from the same table.

import { type Infer, enums, nullable, object, optional, refine, size } from 'superstruct';
import type { CompanyRole } from './auth';
import { MinorAmount } from './money';
import { type MemberView, hasAnyRole } from './permissions';
import { CalendarDate, multilineText } from './validation';

/**
 * NEW: created (from an approved proposal or directly), with the project manager.
 * CALCULATING: sent to finance, which enters the estimated costs and the expected 12-month effect.
 * CALCULATED: calculated, waiting on the direction manager.
 * APPROVED: approved by the direction manager; enters the open registry.
 * FOR_REVISION: returned to the project manager with a reason; they resend it for calculation.
 * COMPLETED: done, with the actual completion date and the actual 12-month effect.
 */
export const PROJECT_STATUSES = ['NEW', 'CALCULATING', 'CALCULATED', 'APPROVED', 'FOR_REVISION', 'COMPLETED'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/**
 * Who may make a move: the project's manager, the head of the project's department, or whoever holds a company
 * role. The derived parties are camelCase, the roles upper case, so the two never collide.
 */
export type ProjectParty = 'projectManager' | 'departmentHead' | CompanyRole;

/** Input a move needs: a reason, the calculation (costs and expected effect), the completion (date and actual effect). */
export const PROJECT_REQUIREMENTS = ['comment', 'calculation', 'completion'] as const;
export type ProjectRequirement = (typeof PROJECT_REQUIREMENTS)[number];

export interface ProjectTransitionRule {
  to: ProjectStatus;
  from: ProjectStatus;
  who: readonly ProjectParty[];
  requires: readonly ProjectRequirement[];
}

/** Every allowed move of a project. A (from, to) pair appears at most once. */
export const PROJECT_TRANSITIONS: readonly ProjectTransitionRule[] = [
  { from: 'NEW', to: 'CALCULATING', who: ['projectManager', 'departmentHead'], requires: [] },
  { from: 'FOR_REVISION', to: 'CALCULATING', who: ['projectManager'], requires: [] },
  { from: 'CALCULATING', to: 'CALCULATED', who: ['FINANCIAL_SPECIALIST', 'FINANCIAL_DIRECTOR'], requires: ['calculation'] },
  { from: 'CALCULATED', to: 'APPROVED', who: ['DIRECTION_MANAGER'], requires: [] },
  { from: 'CALCULATED', to: 'FOR_REVISION', who: ['DIRECTION_MANAGER'], requires: ['comment'] },
  { from: 'APPROVED', to: 'COMPLETED', who: ['projectManager'], requires: ['completion'] },
];

/** The fields of `ProjectTransitionInput` each requirement asks for. */
export const PROJECT_REQUIREMENT_FIELDS = {
  comment: ['comment'],
  calculation: ['estimatedCostsMinor', 'expectedEffect12mMinor'],
  completion: ['actualCompletionDate', 'actualEffect12mMinor'],
} as const satisfies Record<ProjectRequirement, readonly (keyof ProjectTransitionFields)[]>;

export type ProjectTransitionRefusal = 'forbidden' | 'wrongState' | 'commentRequired' | 'calculationRequired' | 'completionRequired';

const REFUSAL_OF_REQUIREMENT: Record<ProjectRequirement, ProjectTransitionRefusal> = {
  comment: 'commentRequired',
  calculation: 'calculationRequired',
  completion: 'completionRequired',
};

/** The project as the rules see it. A project created with no department has no department head. */
export interface ProjectView {
  status: ProjectStatus;
  projectManagerUserId: string;
  departmentId: string | null;
}

export const PROJECT_COMMENT_MAX = 2000;

/** The input a move may carry besides its target; which of it is required depends on the target. */
export interface ProjectTransitionFields {
  comment?: string | null;
  estimatedCostsMinor?: number | null;
  expectedEffect12mMinor?: number | null;
  /** A calendar date, 'YYYY-MM-DD'. */
  actualCompletionDate?: string | null;
  actualEffect12mMinor?: number | null;
}

function isParty(actor: MemberView, project: ProjectView, party: ProjectParty): boolean {
  if (party === 'projectManager') return project.projectManagerUserId === actor.userId;
  if (party === 'departmentHead') return project.departmentId !== null && actor.headOfDepartmentIds.includes(project.departmentId);
  return hasAnyRole(actor.roles, [party]);
}

function mayAct(actor: MemberView, project: ProjectView, rule: ProjectTransitionRule): boolean {
  return rule.who.some((party) => isParty(actor, project, party));
}

function isFilled(value: unknown): boolean {
  if (typeof value === 'string') return value.trim().length > 0;
  return value !== undefined && value !== null;
}

/** The requirements a move to `to` makes (the same for every state it is made from). */
export function projectRequirementsOf(to: ProjectStatus): ProjectRequirement[] {
  const requirements = new Set<ProjectRequirement>();
  for (const rule of PROJECT_TRANSITIONS) if (rule.to === to) for (const requirement of rule.requires) requirements.add(requirement);
  return [...requirements];
}

/** The fields of `fields` a move to `to` needs and lacks (blank text counts as missing), in PROJECT_REQUIREMENTS order. */
export function missingProjectTransitionFields(to: ProjectStatus, fields: ProjectTransitionFields): (keyof ProjectTransitionFields)[] {
  return projectRequirementsOf(to).flatMap((requirement) => PROJECT_REQUIREMENT_FIELDS[requirement].filter((field) => !isFilled(fields[field])));
}

export type ProjectTransitionResult = { ok: true; from: ProjectStatus; to: ProjectStatus } | { ok: false; code: ProjectTransitionRefusal };

/** Whether `actor` may move `project` to `to` with `input`; refusals in the order of the header. */
export function projectTransition(to: ProjectStatus, project: ProjectView, actor: MemberView, input: ProjectTransitionFields): ProjectTransitionResult {
  const towards = PROJECT_TRANSITIONS.filter((rule) => rule.to === to);
  if (!towards.some((rule) => mayAct(actor, project, rule))) return { ok: false, code: 'forbidden' };
  const rule = towards.find((candidate) => candidate.from === project.status);
  if (!rule) return { ok: false, code: 'wrongState' };
  if (!mayAct(actor, project, rule)) return { ok: false, code: 'forbidden' };
  for (const requirement of rule.requires) {
    if (PROJECT_REQUIREMENT_FIELDS[requirement].some((field) => !isFilled(input[field]))) return { ok: false, code: REFUSAL_OF_REQUIREMENT[requirement] };
  }
  return { ok: true, from: project.status, to };
}

/** The targets `actor` may move `project` to now (given the input each needs), in table order. */
export function availableProjectTransitions(project: ProjectView, actor: MemberView): ProjectStatus[] {
  return PROJECT_TRANSITIONS.filter((rule) => rule.from === project.status && mayAct(actor, project, rule)).map((rule) => rule.to);
}

// ---------------------------------------------------------------------------------------------------
// The body of `POST .../projects/{projectId}/transitions`.

export { CalendarDate, isCalendarDate } from './validation';

/**
 * `{ to, comment?, estimatedCostsMinor?, expectedEffect12mMinor?, actualCompletionDate?, actualEffect12mMinor? }`.
 * What the target requires (PROJECT_TRANSITIONS) is refused per field with `required`; input the target does not
 * use is accepted and left to the caller to ignore. A comment may go with any move (the audit trail keeps it).
 */
export const ProjectTransitionInput = refine(
  object({
    to: enums(PROJECT_STATUSES),
    comment: optional(nullable(size(multilineText(), 0, PROJECT_COMMENT_MAX))),
    estimatedCostsMinor: optional(nullable(MinorAmount)),
    expectedEffect12mMinor: optional(nullable(MinorAmount)),
    actualCompletionDate: optional(nullable(CalendarDate)),
    actualEffect12mMinor: optional(nullable(MinorAmount)),
  }),
  'required',
  (value) => missingProjectTransitionFields(value.to, value).map((field) => ({ path: [field], key: field, refinement: 'required' })),
);
export type ProjectTransitionInput = Infer<typeof ProjectTransitionInput>;

// ---------------------------------------------------------------------------------------------------
// The list filters of spec section 4: all, being calculated, approved, for revision, new.

export const PROJECT_LIST_FILTERS = ['all', 'calculating', 'approved', 'forRevision', 'new'] as const;
export type ProjectListFilter = (typeof PROJECT_LIST_FILTERS)[number];

/**
 * The statuses each filter shows. Every status falls under exactly one filter besides `all`: a calculated project
 * waiting on the direction manager is still "being calculated" (not yet decided), and a completed one stays under
 * "approved" (it was approved and is in the registry).
 */
export const PROJECT_FILTER_STATUSES: Readonly<Record<ProjectListFilter, readonly ProjectStatus[]>> = {
  all: PROJECT_STATUSES,
  calculating: ['CALCULATING', 'CALCULATED'],
  approved: ['APPROVED', 'COMPLETED'],
  forRevision: ['FOR_REVISION'],
  new: ['NEW'],
};

export function projectMatchesFilter(status: ProjectStatus, filter: ProjectListFilter): boolean {
  return PROJECT_FILTER_STATUSES[filter].includes(status);
}
