// Deciding a project on the device (DESIGN.md, "Offline-first data flow"; issue 12): a move along the project's
// state machine (send for calculation, calculated, approve, return for revision), its completion, an indicator
// report, and the lead's payments table. What it stores and why: each write changes the mirrored project at once
// (the status projectTransition decides, a history entry, the amounts, the remuneration recomputed with
// remunerationOf, the next report due, the report appended, the payments) and queues its request in the outbox,
// in ONE Dexie transaction, so the page shows the decision offline ("waiting to send") and the device never holds
// the one without the other.
// Guarantees: every row of one project has the entity key `projects:<id>`, so the replayer sends them in order and
// the pull does not overwrite the local change while it waits; the input is checked with the server's own structs
// and rules (projectTransition, isProjectLead, checkPayments) before anything is stored, so a refusal stores
// nothing; a move the project's current state does not allow (decided meanwhile, here or by a pull) is refused as
// `wrongState` and not applied; the success handler stores the server's project unless a later change of it still
// waits (its local state stands until that one is answered); discarding a refused row on /unsent marks the
// project stale (src/features/outbox/store.ts), so the next pull brings the server's version back.
import type { Struct } from 'superstruct';
import { addReportingPeriod, calendarDateOf, firstPostMonitoringDue, localCalendarDate, projectNextReportDue } from '../../domain/report-schedule';
import {
  PROJECT_PAYMENTS_EDITABLE_STATUSES,
  PROJECT_REPORTING_STATUSES,
  Project,
  ProjectCompleteInput,
  ProjectIndicatorInput,
  ProjectInput,
  ProjectTransitionInput,
  isProjectLead,
  projectTransition,
  type ProjectHistoryEntry,
  type ProjectStatus,
} from '../../domain/project';
import { checkPayments, remunerationOf, type Payment } from '../../domain/money';
import type { MemberView } from '../../domain/permissions';
import { validate } from '../../domain/validation';
import type { AppDatabase } from '../../lib/db/database';
import { enqueue, entityKeyOf, writeWithOutbox } from '../../lib/outbox/outbox';
import type { SuccessHandler } from '../../lib/outbox/replayer';
import { markStale } from '../../lib/sync/stale-rows';
import { ProjectRefusedError, localProject } from './refusal';
import { draftOfProject } from './store';

import { PROJECT_COMPLETE_KIND, PROJECT_INDICATOR_KIND, PROJECT_PAYMENTS_KIND, PROJECT_TRANSITION_KIND } from './kind-names';

export { PROJECT_COMPLETE_KIND, PROJECT_INDICATOR_KIND, PROJECT_PAYMENTS_KIND, PROJECT_TRANSITION_KIND };


export interface ProjectActionContext {
  db: AppDatabase;
  /** The signed-in user: the owner of the rows and who acts. */
  actor: { id: string; fullName: string };
  /** The user as the permission rules see them in the project's company. */
  member: MemberView;
  now?: () => Date;
  /** Told after the write committed (the app drains the outbox). */
  afterWrite?: () => void;
}

export function projectApiPath(companyId: string, projectId: string): string {
  return `/api/v1/companies/${encodeURIComponent(companyId)}/projects/${encodeURIComponent(projectId)}`;
}

function commentOf(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function historyEntry(
  at: string,
  action: ProjectHistoryEntry['action'],
  fromStatus: ProjectStatus,
  toStatus: ProjectStatus,
  actor: ProjectActionContext['actor'],
  comment: string | null,
): ProjectHistoryEntry {
  return { at, action, fromStatus, toStatus, byUserId: actor.id, byName: actor.fullName, comment };
}

/** The remuneration of the project's terms with `expectedEffect12mMinor`, null while the effect is unknown. */
export function remunerationWith(project: Pick<Project, 'profitBasisPoints' | 'maxPerProjectMinor'>, expectedEffect12mMinor: number | null): number | null {
  if (expectedEffect12mMinor === null) return null;
  return remunerationOf({ profitBasisPoints: project.profitBasisPoints, expectedEffect12mMinor, maxPerProjectMinor: project.maxPerProjectMinor });
}

/** The project after the move `input` (already allowed by projectTransition), as the server will make it. */
export function applyTransition(project: Project, input: ProjectTransitionInput, actor: ProjectActionContext['actor'], now: Date): Project {
  const at = now.toISOString();
  const comment = commentOf(input.comment);
  const moved: Project = {
    ...project,
    status: input.to,
    updatedAt: at,
    history: [...project.history, historyEntry(at, 'TRANSITION', project.status, input.to, actor, comment)],
  };
  switch (input.to) {
    case 'CALCULATED': {
      const expected = input.expectedEffect12mMinor ?? null;
      return { ...moved, estimatedCostsMinor: input.estimatedCostsMinor ?? null, expectedEffect12mMinor: expected, remunerationMinor: remunerationWith(project, expected) };
    }
    case 'APPROVED':
      return { ...moved, nextReportDue: addReportingPeriod(calendarDateOf(now), project.reportingFrequency), reportOverdueAt: null };
    case 'COMPLETED': {
      const date = input.actualCompletionDate ?? calendarDateOf(now);
      return {
        ...moved,
        actualCompletionDate: date,
        actualEffect12mMinor: input.actualEffect12mMinor ?? null,
        nextReportDue: firstPostMonitoringDue(date, project.postMonitoringPeriodicity),
        reportOverdueAt: null,
      };
    }
    default:
      return moved;
  }
}

/** The project after the lead's indicator report, as the server will make it. */
export function applyIndicatorReport(project: Project, input: ProjectIndicatorInput, actor: ProjectActionContext['actor'], now: Date): Project {
  const at = now.toISOString();
  const comment = commentOf(input.comment);
  return {
    ...project,
    indicatorReports: [...project.indicatorReports, { id: input.id, date: input.date, value: input.value, comment, at, byUserId: actor.id, byName: actor.fullName }],
    history: [...project.history, historyEntry(at, 'INDICATOR_REPORTED', project.status, project.status, actor, comment)],
    nextReportDue: projectNextReportDue(project, input.date),
    reportOverdueAt: null,
    updatedAt: at,
  };
}

/** The body of the PATCH that changes the payments: every field of the mirrored project, as ProjectInput. */
export function projectInputOf(project: Project, payments: readonly Payment[]): ProjectInput {
  return {
    ...draftOfProject(project),
    imageIds: project.images.map((image) => image.imageId),
    suggestionId: project.suggestionId,
    payments: payments.map((payment) => ({ employeeId: payment.employeeId, amountMinor: payment.amountMinor })),
  };
}

/** The people a payment may name: the project manager and the team, each once, the manager first. */
export function payableEmployeeIds(project: Pick<Project, 'projectManagerEmployeeId' | 'team'>): string[] {
  return [...new Set([project.projectManagerEmployeeId, ...project.team.map((member) => member.employeeId)])];
}

function checked<T, S>(struct: Struct<T, S>, input: unknown): T {
  const result = validate(struct, input);
  if (!result.ok) throw new ProjectRefusedError('invalid', result.errors);
  return result.value;
}

/** The device's copy of the project, checked; refuses when it is not there or belongs to another company. */

function clockOf(context: ProjectActionContext): Date {
  return (context.now ?? (() => new Date()))();
}

interface Change {
  kind: string;
  method: 'POST' | 'PATCH';
  suffix: string;
  body: unknown;
}

/** Reads the project, lets `decide` check it and make the new state, stores both in one transaction. */
async function write(context: ProjectActionContext, companyId: string, projectId: string, decide: (project: Project, now: Date) => { next: Project; change: Change }): Promise<Project> {
  const { db, actor } = context;
  const now = clockOf(context);
  const next = await writeWithOutbox(db, [db.projects], async () => {
    const project = await localProject(db, actor.id, companyId, projectId);
    const { next: changed, change } = decide(project, now);
    await db.projects.put({ ...changed, ownerUserId: actor.id });
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: change.kind,
      method: change.method,
      path: `${projectApiPath(companyId, projectId)}${change.suffix}`,
      body: change.body,
      entityKey: entityKeyOf('projects', projectId),
      now: now.getTime(),
    });
    return changed;
  });
  context.afterWrite?.();
  return next;
}

/** The refusal of projectTransition as the error the forms show. */
function refuseTransition(code: Exclude<ReturnType<typeof projectTransition>, { ok: true }>['code'], status: ProjectStatus): never {
  switch (code) {
    case 'forbidden':
      throw new ProjectRefusedError('notAllowed');
    case 'wrongState':
      throw new ProjectRefusedError('wrongState', {}, { status });
    case 'commentRequired':
      throw new ProjectRefusedError('invalid', { comment: 'required' });
    case 'calculationRequired':
      throw new ProjectRefusedError('invalid', { estimatedCostsMinor: 'required', expectedEffect12mMinor: 'required' });
    case 'completionRequired':
      throw new ProjectRefusedError('invalid', { actualCompletionDate: 'required', actualEffect12mMinor: 'required' });
  }
}

/** The body of a move: the target and only the input it uses (a comment may go with any). */
function transitionBodyOf(input: ProjectTransitionInput): ProjectTransitionInput {
  const body: ProjectTransitionInput = { to: input.to, comment: commentOf(input.comment) };
  if (input.to === 'CALCULATED') return { ...body, estimatedCostsMinor: input.estimatedCostsMinor ?? null, expectedEffect12mMinor: input.expectedEffect12mMinor ?? null };
  if (input.to === 'COMPLETED') return { ...body, actualCompletionDate: input.actualCompletionDate ?? null, actualEffect12mMinor: input.actualEffect12mMinor ?? null };
  return body;
}

function refuseFutureDate(date: string, now: Date, field: string): void {
  // The device's own calendar: what the user calls today (the server, not knowing their zone, allows a day more).
  if (date > localCalendarDate(now)) throw new ProjectRefusedError('invalid', { [field]: 'future' });
}

/**
 * A move of the project: "Send for calculation", "Calculated" (with the estimated costs and the expected
 * 12-month effect), "Approve", "Return for revision" (reason required), or the completion. Throws
 * `ProjectRefusedError` (nothing stored) or `StorageQuotaError`. Returns the project as stored.
 */
export async function transitionProject(context: ProjectActionContext, companyId: string, projectId: string, raw: ProjectTransitionInput): Promise<Project> {
  const body = transitionBodyOf(checked(ProjectTransitionInput, raw));
  return write(context, companyId, projectId, (project, now) => {
    const decision = projectTransition(body.to, project, context.member, body);
    if (!decision.ok) refuseTransition(decision.code, project.status);
    if (body.to === 'COMPLETED' && body.actualCompletionDate) refuseFutureDate(body.actualCompletionDate, now, 'actualCompletionDate');
    const next = applyTransition(project, body, context.actor, now);
    if (body.to === 'CALCULATED' && checkPayments(project.payments, next.remunerationMinor ?? 0).ok === false) {
      throw new ProjectRefusedError('invalid', { expectedEffect12mMinor: 'belowPayments' });
    }
    return { next, change: { kind: PROJECT_TRANSITION_KIND, method: 'POST', suffix: '/transitions', body } };
  });
}

/** The project manager's completion (APPROVED -> COMPLETED): the actual date (not in the future) and 12-month effect. */
export async function completeProject(context: ProjectActionContext, companyId: string, projectId: string, raw: ProjectCompleteInput): Promise<Project> {
  const input = checked(ProjectCompleteInput, raw);
  const body: ProjectCompleteInput = { actualCompletionDate: input.actualCompletionDate, actualEffect12mMinor: input.actualEffect12mMinor, comment: commentOf(input.comment) };
  return write(context, companyId, projectId, (project, now) => {
    const fields = { ...body, to: 'COMPLETED' as const };
    const decision = projectTransition('COMPLETED', project, context.member, fields);
    if (!decision.ok) refuseTransition(decision.code, project.status);
    refuseFutureDate(body.actualCompletionDate, now, 'actualCompletionDate');
    return { next: applyTransition(project, fields, context.actor, now), change: { kind: PROJECT_COMPLETE_KIND, method: 'POST', suffix: '/complete', body } };
  });
}

/** The lead's indicator report (APPROVED or COMPLETED): date (not in the future), value, comment; id made here. */
export async function reportProjectIndicator(context: ProjectActionContext, companyId: string, projectId: string, raw: ProjectIndicatorInput): Promise<Project> {
  const input = checked(ProjectIndicatorInput, raw);
  const body: ProjectIndicatorInput = { id: input.id, date: input.date, value: input.value, comment: commentOf(input.comment) };
  return write(context, companyId, projectId, (project, now) => {
    if (!isProjectLead(context.member, project)) throw new ProjectRefusedError('notAllowed');
    if (!PROJECT_REPORTING_STATUSES.includes(project.status)) throw new ProjectRefusedError('wrongState', {}, { status: project.status });
    if (project.indicatorReports.some((report) => report.id === body.id)) throw new ProjectRefusedError('invalid', { id: 'duplicate' });
    refuseFutureDate(body.date, now, 'date');
    return { next: applyIndicatorReport(project, body, context.actor, now), change: { kind: PROJECT_INDICATOR_KIND, method: 'POST', suffix: '/indicators', body } };
  });
}

/**
 * The lead's payments table while CALCULATED or APPROVED: each row names the project manager or a team member,
 * once, and they add up to at most the remuneration (`{ payments: 'exceedsRemuneration' }` otherwise). Sent as
 * the PATCH of the whole project (ProjectInput) built from the mirrored project.
 */
export async function saveProjectPayments(context: ProjectActionContext, companyId: string, projectId: string, payments: readonly Payment[]): Promise<Project> {
  return write(context, companyId, projectId, (project, now) => {
    if (!isProjectLead(context.member, project)) throw new ProjectRefusedError('notAllowed');
    if (!PROJECT_PAYMENTS_EDITABLE_STATUSES.includes(project.status)) throw new ProjectRefusedError('wrongState', {}, { status: project.status });
    const payable = new Set(payableEmployeeIds(project));
    if (payments.some((payment) => !payable.has(payment.employeeId))) throw new ProjectRefusedError('invalid', { payments: 'notInTeam' });
    const check = checkPayments(payments, project.remunerationMinor ?? 0);
    if (!check.ok) throw new ProjectRefusedError('invalid', { payments: check.code });
    const body = checked(ProjectInput, projectInputOf(project, payments));
    const at = now.toISOString();
    const next: Project = {
      ...project,
      payments: body.payments,
      updatedAt: at,
      history: [...project.history, historyEntry(at, 'EDITED', project.status, project.status, context.actor, null)],
    };
    return { next, change: { kind: PROJECT_PAYMENTS_KIND, method: 'PATCH', suffix: '', body } };
  });
}

/**
 * The replayer's success handler of the project kinds: the server's project replaces the device's copy. While a
 * later change of the same project still waits, the device's copy (which already shows that change) stays and
 * the project is marked to be fetched again once its rows are gone; an answer that fails the struct is fetched
 * again too.
 */
export const storeDecidedProject: SuccessHandler = async ({ db, row, data }) => {
  const later = await db.outbox
    .where('[ownerUserId+entityKey]')
    .equals([row.ownerUserId, row.entityKey])
    .filter((other) => other.seq !== row.seq)
    .count();
  if (!Project.is(data) || later > 0) {
    if (!Project.is(data)) console.warn('The server answered a project that does not match its struct; the next pull fetches it again');
    await markStale(db, row.ownerUserId, [row.entityKey]);
    return;
  }
  await db.projects.put({ ...data, ownerUserId: row.ownerUserId });
};
