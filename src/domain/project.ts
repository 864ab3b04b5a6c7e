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

import { type Infer, array, enums, integer, nullable, number, object, optional, refine, size, string, type } from 'superstruct';
import type { CompanyRole } from './auth';
import { MinorAmount, ProfitBasisPoints } from './money';
import { type MemberView, hasAnyRole } from './permissions';
import { Uuid } from './suggestion';
import { CalendarDate, areDistinctIds, multilineText, requiredText } from './validation';

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
  /** The user account of the project manager's employee record; null when that employee has none. */
  projectManagerUserId: string | null;
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
  if (party === 'projectManager') return project.projectManagerUserId !== null && project.projectManagerUserId === actor.userId;
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

// ---------------------------------------------------------------------------------------------------
// The project as the API answers it and the mirror keeps it, and the bodies that write it (issue 12).

/** The project's type (enum PROJECT_TYPE of `GET /enums`). */
export const PROJECT_TYPES = ['ORGANIZATIONAL', 'TECHNICAL', 'INVESTMENT'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

/**
 * How often indicator reports are due (the reporting frequency while APPROVED) and how often the effect is
 * checked after completion (the post-monitoring periodicity, for POST_MONITORING_MONTHS after the actual
 * completion date). Enum REPORTING_FREQUENCY of `GET /enums`.
 */
export const REPORTING_FREQUENCIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'HALF_YEARLY'] as const;
export type ReportingFrequency = (typeof REPORTING_FREQUENCIES)[number];
// The reporting calendar (due dates, post-monitoring) lives in report-schedule.ts.
export { POST_MONITORING_MONTHS, addReportingPeriod } from './report-schedule';

/** Whether the effect recurs every year or is had once (enum EFFECT_REPEATABILITY of `GET /enums`). */
export const EFFECT_REPEATABILITIES = ['ONE_TIME', 'RECURRING'] as const;
export type EffectRepeatability = (typeof EFFECT_REPEATABILITIES)[number];

export const PROJECT_NAME_MAX = 200;
export const PROJECT_TEXT_MAX = 4000;
export const PROJECT_ROLE_MAX = 120;
/** Photos of a project in all, the proposal's it carries included (project_images allows positions 0..7). */
export const PROJECT_MAX_IMAGES = 8;
export const PROJECT_MAX_TEAM = 50;
export const PROJECT_MAX_GOALS = 10;
export const PROJECT_UNIT_ID_MAX = 64;

/** Every entry of a project's audit trail: creation, edits, every move, indicator reports. */
export const PROJECT_HISTORY_ACTIONS = ['CREATED', 'EDITED', 'TRANSITION', 'INDICATOR_REPORTED'] as const;
export type ProjectHistoryAction = (typeof PROJECT_HISTORY_ACTIONS)[number];

/** A metric: a value >= 0 in a unit of type BASE_INDICATOR (MINUTES, HOURS, DAYS). */
export const ProjectMetric = object({
  value: refine(number(), 'invalid', (value) => Number.isFinite(value) && value >= 0),
  unitId: size(string(), 1, PROJECT_UNIT_ID_MAX),
});
export type ProjectMetric = Infer<typeof ProjectMetric>;

export const ProjectTeamMember = type({
  employeeId: string(),
  /** The employee's name and service number as the server read them (shown, never sent back). */
  name: string(),
  serviceNumber: nullable(string()),
  role: string(),
});
export type ProjectTeamMember = Infer<typeof ProjectTeamMember>;

export const ProjectPayment = type({ employeeId: string(), amountMinor: integer() });

export const ProjectIndicatorReport = type({
  id: string(),
  /** The calendar date the report speaks for. */
  date: string(),
  value: number(),
  comment: nullable(string()),
  at: string(),
  byUserId: nullable(string()),
  byName: nullable(string()),
});
export type ProjectIndicatorReport = Infer<typeof ProjectIndicatorReport>;

export const ProjectHistoryEntry = type({
  at: string(),
  action: enums(PROJECT_HISTORY_ACTIONS),
  /** Null for CREATED. */
  fromStatus: nullable(enums(PROJECT_STATUSES)),
  toStatus: enums(PROJECT_STATUSES),
  byUserId: nullable(string()),
  /** Who did it, as their name stood then. */
  byName: nullable(string()),
  comment: nullable(multilineText()),
});
export type ProjectHistoryEntry = Infer<typeof ProjectHistoryEntry>;

/**
 * A project as every API answer and every pull row carries it (dates 'YYYY-MM-DD', timestamps ISO strings, money
 * in minor units of `currency`). `remunerationMinor` is `remunerationOf` the terms, null until the expected
 * effect is known; the payments never add up to more than it.
 */
export const Project = type({
  id: string(),
  companyId: string(),
  name: string(),
  problem: multilineText(),
  images: array(type({ imageId: string(), imageLink: string(), name: string() })),
  type: enums(PROJECT_TYPES),
  /** The proposal it was made from, null when created directly. */
  suggestionId: nullable(string()),
  /** The proposal's department (its head is a party of the project), null when created directly without one. */
  departmentId: nullable(string()),
  /** The proposal's author, or whoever created it directly. */
  authorUserId: nullable(string()),
  authorName: string(),
  businessCustomerEmployeeId: nullable(string()),
  goalIds: array(string()),
  baselineMetric: nullable(type({ value: number(), unitId: string() })),
  targetMetric: nullable(type({ value: number(), unitId: string() })),
  completionDate: string(),
  actualCompletionDate: nullable(string()),
  reportingFrequency: enums(REPORTING_FREQUENCIES),
  postMonitoringPeriodicity: enums(REPORTING_FREQUENCIES),
  projectManagerEmployeeId: string(),
  /** The project manager's user account (the `projectManager` party); null when their employee has none. */
  projectManagerUserId: nullable(string()),
  team: array(ProjectTeamMember),
  currency: enums(['RUB', 'USD', 'AUD'] as const),
  profitBasisPoints: integer(),
  maxPerProjectMinor: nullable(integer()),
  estimatedCostsMinor: nullable(integer()),
  expectedEffect12mMinor: nullable(integer()),
  actualEffect12mMinor: nullable(integer()),
  effectRepeatability: enums(EFFECT_REPEATABILITIES),
  remunerationMinor: nullable(integer()),
  payments: array(ProjectPayment),
  status: enums(PROJECT_STATUSES),
  indicatorReports: array(ProjectIndicatorReport),
  /** The next indicator report's due date while reports are due (APPROVED, or COMPLETED within post-monitoring). */
  nextReportDue: nullable(string()),
  /** When the job flagged the due report as not made; null while on time. */
  reportOverdueAt: nullable(string()),
  history: array(ProjectHistoryEntry),
  /** Issue 13: the sent (or approved) registry holding it; null while it is in the open registry or not yet approved. */
  registryId: nullable(string()),
  createdBy: string(),
  createdAt: string(),
  updatedAt: string(),
});
export type Project = Infer<typeof Project>;

const Payments = refine(
  size(array(object({ employeeId: Uuid, amountMinor: MinorAmount })), 0, PROJECT_MAX_TEAM),
  'duplicateEmployee',
  (rows) => areDistinctIds(rows.map((row) => row.employeeId)),
);

/**
 * Body of `POST /companies/{companyId}/projects` and of `PATCH .../projects/{projectId}`: every field a project
 * manager writes. The server derives the author, department and images of a proposal it is made from
 * (`suggestionId`), names and service numbers of the team, and the remuneration; it refuses payments above the
 * remuneration (`{ payments: 'exceedsRemuneration' }`) and people not of the company.
 */
export const ProjectInput = object({
  /** Made on the device so it knows the id before the server does (ignored on edit). */
  id: optional(Uuid),
  name: requiredText(PROJECT_NAME_MAX),
  problem: requiredText(PROJECT_TEXT_MAX, multilineText()),
  /**
   * The project's photos: its own uploads, and on edit those it already has (a project made from a proposal
   * carries the proposal's as well; those ids may be sent or left out, they stay). At most PROJECT_MAX_IMAGES in all.
   */
  imageIds: size(array(Uuid), 0, PROJECT_MAX_IMAGES),
  type: enums(PROJECT_TYPES),
  suggestionId: optional(nullable(Uuid)),
  businessCustomerEmployeeId: optional(nullable(Uuid)),
  goalIds: size(array(Uuid), 0, PROJECT_MAX_GOALS),
  baselineMetric: optional(nullable(ProjectMetric)),
  targetMetric: optional(nullable(ProjectMetric)),
  completionDate: CalendarDate,
  reportingFrequency: enums(REPORTING_FREQUENCIES),
  postMonitoringPeriodicity: enums(REPORTING_FREQUENCIES),
  projectManagerEmployeeId: Uuid,
  team: size(array(object({ employeeId: Uuid, role: requiredText(PROJECT_ROLE_MAX) })), 0, PROJECT_MAX_TEAM),
  currency: enums(['RUB', 'USD', 'AUD'] as const),
  profitBasisPoints: ProfitBasisPoints,
  maxPerProjectMinor: optional(nullable(MinorAmount)),
  effectRepeatability: enums(EFFECT_REPEATABILITIES),
  payments: Payments,
});
export type ProjectInput = Infer<typeof ProjectInput>;

export const PROJECT_REPORT_COMMENT_MAX = 2000;

/** Body of `POST .../projects/{projectId}/indicators`: the metric's value on a date (not after today, the server's). */
export const ProjectIndicatorInput = object({
  /** Made on the device, so a replay files the report once. */
  id: Uuid,
  date: CalendarDate,
  value: refine(number(), 'invalid', (value) => Number.isFinite(value) && value >= 0),
  comment: optional(nullable(size(multilineText(), 0, PROJECT_REPORT_COMMENT_MAX))),
});
export type ProjectIndicatorInput = Infer<typeof ProjectIndicatorInput>;

/** Body of `POST .../projects/{projectId}/complete`: the move APPROVED -> COMPLETED with its required input. */
export const ProjectCompleteInput = object({
  actualCompletionDate: CalendarDate,
  actualEffect12mMinor: MinorAmount,
  comment: optional(nullable(size(multilineText(), 0, PROJECT_COMMENT_MAX))),
});
export type ProjectCompleteInput = Infer<typeof ProjectCompleteInput>;

/** Roles that may create a project directly (heads of departments may too; see `canCreateProject`). */
export const PROJECT_CREATE_ROLES: readonly CompanyRole[] = ['OWNER', 'CEO', 'TOP_MANAGER', 'DIRECTION_MANAGER'];

/** Whether `actor` may create a project: a department head, or one of PROJECT_CREATE_ROLES. */
export function canCreateProject(actor: Pick<MemberView, 'roles' | 'headOfDepartmentIds'>): boolean {
  return actor.headOfDepartmentIds.length > 0 || hasAnyRole(actor.roles, PROJECT_CREATE_ROLES);
}

/** States in which the project's fields may be edited (by its manager or its department's head). */
export const PROJECT_EDITABLE_STATUSES: readonly ProjectStatus[] = ['NEW', 'FOR_REVISION'];
/** States in which the payments alone may still be edited: the remuneration is known and not yet paid out. */
export const PROJECT_PAYMENTS_EDITABLE_STATUSES: readonly ProjectStatus[] = ['CALCULATED', 'APPROVED'];
/** States in which indicator reports are filed. */
export const PROJECT_REPORTING_STATUSES: readonly ProjectStatus[] = ['APPROVED', 'COMPLETED'];

/** Whether `actor` is the project's manager or the head of its department (who edit it and file its reports). */
export function isProjectLead(actor: MemberView, project: ProjectView): boolean {
  return isParty(actor, project, 'projectManager') || isParty(actor, project, 'departmentHead');
}

/**
 * The progress of a goal's indicator from its projects' reports: for each project measured in the goal's unit, the
 * improvement its latest report shows over its baseline (|baseline - latest|), summed, and that sum as a share of
 * the goal's value (0..1, not capped: a goal may be exceeded). Projects with no baseline, another unit or no
 * report add nothing; `share` is null for a goal whose value is 0.
 */
export function goalIndicatorProgress(
  goal: { indicator: { value: number; unitId: string } },
  projects: readonly Pick<Project, 'baselineMetric' | 'indicatorReports'>[],
): { achieved: number; share: number | null; reportingProjects: number } {
  let achieved = 0;
  let reportingProjects = 0;
  for (const project of projects) {
    const baseline = project.baselineMetric;
    if (!baseline || baseline.unitId !== goal.indicator.unitId) continue;
    const latest = project.indicatorReports.reduce<ProjectIndicatorReport | null>(
      (best, report) => (best === null || report.date > best.date || (report.date === best.date && report.at > best.at) ? report : best),
      null,
    );
    if (!latest) continue;
    achieved += Math.abs(baseline.value - latest.value);
    reportingProjects += 1;
  }
  return { achieved, share: goal.indicator.value > 0 ? achieved / goal.indicator.value : null, reportingProjects };
}
