// Writes of the project form (issue 12; DESIGN.md, "Offline-first data flow"): creating a project (directly or
// from an approved proposal) and the lead's edit of it while NEW or FOR_REVISION. What it stores and why: the
// project is written to the mirror at once (the list and the project page show it offline, "waiting to send"),
// with the photos picked on this device and its outbox row, in ONE Dexie transaction: all of it or nothing.
// Guarantees: the input is checked with the server's own struct (ProjectInput) before anything is stored, and
// the rules the device can see are checked too (who may create or edit, an approved proposal not yet made into
// a project, an editable status): a refusal throws `ProjectRefusedError` and stores nothing. The project's id is
// made here, so the local row, the outbox row's entity key (`projects:<id>`) and the server's project are one.
// Every row of one project has that entity key, so the replayer sends them in order and the pull leaves the
// local copy alone while one waits. An edit of a project whose creation the server refused (it waits on
// /unsent) revises that creation under a new Idempotency-Key instead of queueing a PATCH behind it. The
// success handler stores the server's project unless a later change of it still waits (then the project is
// marked stale and the next pull brings the server's version once the outbox is clear of it).
import type { Struct } from 'superstruct';
import type { MemberView } from '../../domain/permissions';
import {
  PROJECT_EDITABLE_STATUSES,
  Project,
  ProjectInput,
  canCreateProject,
  isProjectLead,
  type ProjectHistoryEntry,
  type ProjectTeamMember,
  PROJECT_MAX_IMAGES,
} from '../../domain/project';
import { Suggestion, type EmployeeRow } from '../../domain/suggestion';
import { validate, type FieldErrors } from '../../domain/validation';
import type { AppDatabase, OutboxRow, StoredProject } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { StoredOutboxRow, checkRows } from '../../lib/db/rows';
import { REVISABLE_STATUSES, enqueue, entityKeyOf, revise, storeFile, writeWithOutbox } from '../../lib/outbox/outbox';
import type { SuccessHandler } from '../../lib/outbox/replayer';
import { markStale } from '../../lib/sync/stale-rows';
import { ProjectRefusedError, localProject } from './refusal';

export { ProjectRefusedError, localProject, type ProjectRefusal } from './refusal';

import { PROJECT_CREATE_KIND, PROJECT_EDIT_KIND } from './kind-names';

export { PROJECT_CREATE_KIND, PROJECT_EDIT_KIND };

/** The API path of a company's projects ('/api/v1/companies/{c}/projects'). */
export function projectsPath(companyId: string): string {
  return `/api/v1/companies/${encodeURIComponent(companyId)}/projects`;
}

/** The API path of one project. */
export function projectPath(companyId: string, projectId: string): string {
  return `${projectsPath(companyId)}/${encodeURIComponent(projectId)}`;
}

/** What the form gives: the body of ProjectInput without the ids the store makes and the photos it stores. */
export type ProjectDraft = Omit<ProjectInput, 'id' | 'imageIds' | 'suggestionId' | 'payments'>;

/** The draft of a project's own fields: what the form edits, and what a PATCH built from the device's copy sends. */
export function draftOfProject(project: Project): ProjectDraft {
  return {
    name: project.name,
    problem: project.problem,
    type: project.type,
    businessCustomerEmployeeId: project.businessCustomerEmployeeId,
    goalIds: [...project.goalIds],
    baselineMetric: project.baselineMetric,
    targetMetric: project.targetMetric,
    completionDate: project.completionDate,
    reportingFrequency: project.reportingFrequency,
    postMonitoringPeriodicity: project.postMonitoringPeriodicity,
    projectManagerEmployeeId: project.projectManagerEmployeeId,
    team: project.team.map((member) => ({ employeeId: member.employeeId, role: member.role })),
    currency: project.currency,
    profitBasisPoints: project.profitBasisPoints,
    maxPerProjectMinor: project.maxPerProjectMinor,
    effectRepeatability: project.effectRepeatability,
  };
}

/** A photo picked on this device, after the UI kit's downscaling. */
export interface ProjectPhotoInput {
  data: ArrayBuffer;
  type: string;
  name: string;
}

export interface ProjectWriteContext {
  db: AppDatabase;
  /** The signed-in user: the owner of the rows and who writes. */
  actor: { id: string; fullName: string };
  /** The user as the permission rules see them in the project's company. */
  member: MemberView;
  now?: () => Date;
  /** Told after the write committed (the app drains the outbox). */
  afterWrite?: () => void;
}

function checked<T, S>(struct: Struct<T, S>, input: unknown): T {
  const result = validate(struct, input);
  if (!result.ok) throw new ProjectRefusedError('invalid', result.errors);
  return result.value;
}

/** An employee's name as the project shows it: 'Фамилия Имя Отчество'. */
export function employeeName(employee: Pick<EmployeeRow, 'lastName' | 'firstName' | 'middleName'>): string {
  return [employee.lastName, employee.firstName, employee.middleName ?? ''].filter((part) => part.trim() !== '').join(' ');
}

/** The company's active employees on this device, by id. */
async function activeEmployees(db: AppDatabase, ownerUserId: string, companyId: string, ids: readonly string[]): Promise<Map<string, EmployeeRow>> {
  const keys = [...new Set(ids)].map((id): [string, string] => [ownerUserId, id]);
  const stored = (await db.employees.bulkGet(keys)).filter((row) => row !== undefined);
  const rows = checkRows(EmployeeRowCheck, stored, 'employees').rows.filter((row) => row.active && row.companyId === companyId);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The people of the input who are not active employees of the company on this device (the server refuses them
 * per field); the team's names and service numbers as the server will store them.
 */
async function peopleOf(db: AppDatabase, ownerUserId: string, companyId: string, input: ProjectInput) {
  const ids = [input.projectManagerEmployeeId, ...input.team.map((member) => member.employeeId)];
  if (input.businessCustomerEmployeeId) ids.push(input.businessCustomerEmployeeId);
  const employees = await activeEmployees(db, ownerUserId, companyId, ids);
  const errors: FieldErrors = {};
  if (!employees.has(input.projectManagerEmployeeId)) errors.projectManagerEmployeeId = 'notFound';
  if (input.businessCustomerEmployeeId && !employees.has(input.businessCustomerEmployeeId)) errors.businessCustomerEmployeeId = 'notFound';
  const seen = new Set<string>();
  input.team.forEach((member, index) => {
    if (!employees.has(member.employeeId)) errors[`team.${index}.employeeId`] = 'notFound';
    else if (seen.has(member.employeeId)) errors[`team.${index}.employeeId`] = 'duplicate';
    seen.add(member.employeeId);
  });
  if (Object.keys(errors).length > 0) throw new ProjectRefusedError('invalid', errors);
  const team: ProjectTeamMember[] = input.team.map((member) => {
    const employee = employees.get(member.employeeId);
    return { employeeId: member.employeeId, name: employee ? employeeName(employee) : '', serviceNumber: employee?.serviceNumber ?? null, role: member.role.trim() };
  });
  return { team, projectManagerUserId: employees.get(input.projectManagerEmployeeId)?.userId ?? null };
}

/** Goals of the input that are not the company's on this device (the server answers 400 `{ goalIds }`). */
async function checkGoals(db: AppDatabase, ownerUserId: string, companyId: string, goalIds: readonly string[]): Promise<void> {
  if (goalIds.length === 0) return;
  const goals = await db.goals.bulkGet(goalIds.map((id): [string, string] => [ownerUserId, id]));
  const known = goals.every((goal) => goal !== undefined && (goal as { companyId?: unknown }).companyId === companyId);
  if (!known || new Set(goalIds).size !== goalIds.length) throw new ProjectRefusedError('invalid', { goalIds: 'notFound' });
}

function historyEntry(at: string, action: ProjectHistoryEntry['action'], from: Project['status'] | null, to: Project['status'], actor: ProjectWriteContext['actor']): ProjectHistoryEntry {
  return { at, action, fromStatus: from, toStatus: to, byUserId: actor.id, byName: actor.fullName, comment: null };
}

/** The fields of a project the input writes (names of the team resolved on the device). */
function fieldsOf(input: ProjectInput): Omit<
  Project,
  | 'id' | 'companyId' | 'images' | 'suggestionId' | 'departmentId' | 'authorUserId' | 'authorName' | 'team' | 'projectManagerUserId'
  | 'actualCompletionDate' | 'estimatedCostsMinor' | 'expectedEffect12mMinor' | 'actualEffect12mMinor' | 'remunerationMinor'
  | 'status' | 'indicatorReports' | 'nextReportDue' | 'reportOverdueAt' | 'history' | 'registryId' | 'createdBy' | 'createdAt' | 'updatedAt'
> {
  return {
    name: input.name.trim(),
    problem: input.problem.trim(),
    type: input.type,
    businessCustomerEmployeeId: input.businessCustomerEmployeeId ?? null,
    goalIds: [...input.goalIds],
    baselineMetric: input.baselineMetric ?? null,
    targetMetric: input.targetMetric ?? null,
    completionDate: input.completionDate,
    reportingFrequency: input.reportingFrequency,
    postMonitoringPeriodicity: input.postMonitoringPeriodicity,
    projectManagerEmployeeId: input.projectManagerEmployeeId,
    currency: input.currency,
    profitBasisPoints: input.profitBasisPoints,
    maxPerProjectMinor: input.maxPerProjectMinor ?? null,
    effectRepeatability: input.effectRepeatability,
    payments: input.payments.map((payment) => ({ ...payment })),
  };
}

/** The trimmed body the device sends. */
function bodyOf(input: ProjectInput): ProjectInput {
  return {
    ...input,
    name: input.name.trim(),
    problem: input.problem.trim(),
    team: input.team.map((member) => ({ employeeId: member.employeeId, role: member.role.trim() })),
    businessCustomerEmployeeId: input.businessCustomerEmployeeId ?? null,
    baselineMetric: input.baselineMetric ?? null,
    targetMetric: input.targetMetric ?? null,
    maxPerProjectMinor: input.maxPerProjectMinor ?? null,
  };
}

/** The approved proposal of the company a project is made from, checked. */
async function carriedSuggestion(db: AppDatabase, ownerUserId: string, companyId: string, suggestionId: string): Promise<Suggestion> {
  const stored = await db.suggestions.get([ownerUserId, suggestionId]);
  const suggestion = stored ? checkRows(Suggestion, [stored], 'suggestions').rows[0] : undefined;
  if (!suggestion || suggestion.companyId !== companyId) throw new ProjectRefusedError('missing');
  if (suggestion.status !== 'APPROVED') throw new ProjectRefusedError('notApproved');
  const existing = await db.projects.where('suggestionId').equals(suggestionId).filter((row) => row.ownerUserId === ownerUserId).first();
  if (existing) throw new ProjectRefusedError('taken', {}, { projectId: existing.id });
  return suggestion;
}

function clockOf(context: Pick<ProjectWriteContext, 'now'>): Date {
  return (context.now ?? (() => new Date()))();
}

export interface CreateProjectOptions {
  /** The approved proposal the project is made from (its title, problem, author, department and photos are carried). */
  suggestionId?: string | null;
  /** Photos picked on this device (uploaded by the replayer before the project is sent). */
  photos?: readonly ProjectPhotoInput[];
}

/**
 * Creates a project on the device and queues `project.create`. Returns its id. Throws `ProjectRefusedError`
 * (nothing stored) or `StorageQuotaError`.
 */
export async function createProject(context: ProjectWriteContext, companyId: string, draft: ProjectDraft, options: CreateProjectOptions = {}): Promise<string> {
  const { db, actor, member } = context;
  const photos = options.photos ?? [];
  const suggestionId = options.suggestionId ?? null;
  const id = crypto.randomUUID();
  const input = checked(ProjectInput, { ...draft, id, suggestionId, imageIds: [], payments: [] });
  if (photos.length > PROJECT_MAX_IMAGES) throw new ProjectRefusedError('invalid', { imageIds: 'tooMany' });
  if (!canCreateProject(member)) throw new ProjectRefusedError('notAllowed');
  const now = clockOf(context);
  const at = now.toISOString();
  await writeWithOutbox(db, [db.projects, db.suggestions, db.employees, db.goals], async () => {
    const suggestion = suggestionId === null ? null : await carriedSuggestion(db, actor.id, companyId, suggestionId);
    const { team, projectManagerUserId } = await peopleOf(db, actor.id, companyId, input);
    await checkGoals(db, actor.id, companyId, input.goalIds);
    const headed = member.headOfDepartmentIds;
    const project: Project = {
      id,
      companyId,
      ...fieldsOf(input),
      images: suggestion ? suggestion.images.map((image) => ({ ...image })) : [],
      suggestionId,
      registryId: null,
      departmentId: suggestion ? suggestion.departmentId : headed.length === 1 ? (headed[0] ?? null) : null,
      authorUserId: suggestion ? suggestion.authorId : actor.id,
      authorName: suggestion ? suggestion.authorName : actor.fullName,
      team,
      projectManagerUserId,
      actualCompletionDate: null,
      estimatedCostsMinor: null,
      expectedEffect12mMinor: null,
      actualEffect12mMinor: null,
      remunerationMinor: null,
      status: 'NEW',
      indicatorReports: [],
      nextReportDue: null,
      reportOverdueAt: null,
      history: [historyEntry(at, 'CREATED', null, 'NEW', actor)],
      createdBy: actor.id,
      createdAt: at,
      updatedAt: at,
    };
    const row: StoredProject = { ...project, ownerUserId: actor.id };
    await db.projects.add(row);
    const fileIds: string[] = [];
    for (const photo of photos) {
      const file = await storeFile(db, { ownerUserId: actor.id, data: photo.data, type: photo.type, name: photo.name, now: now.getTime() });
      fileIds.push(file.id);
    }
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: PROJECT_CREATE_KIND,
      method: 'POST',
      path: projectsPath(companyId),
      body: bodyOf(input),
      entityKey: entityKeyOf('projects', id),
      ...(fileIds.length > 0 ? { fileIds, fileField: 'imageIds' } : {}),
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
  return id;
}

/** The device's copy of the project, checked; refuses when it is not there or belongs to another company. */
async function rowsOf(db: AppDatabase, ownerUserId: string, projectId: string): Promise<OutboxRow[]> {
  const stored = await db.outbox.where('[ownerUserId+entityKey]').equals([ownerUserId, entityKeyOf('projects', projectId)]).toArray();
  return checkRows(StoredOutboxRow, stored, 'outbox').rows.sort((a, b) => a.seq - b.seq);
}

/** The project's own photos (not the proposal's, which the server carries itself): what an edit sends back. */
function ownImageIds(project: Project, carried: ReadonlySet<string>): string[] {
  return project.images.map((image) => image.imageId).filter((imageId) => !carried.has(imageId));
}

/**
 * The lead's edit of a project while NEW or FOR_REVISION: the device's copy gets the new fields (history
 * EDITED) and `project.edit` (PATCH) is queued, or, when the project's creation (or an edit) was refused and
 * waits on /unsent, that row is revised under a new Idempotency-Key. Photos are kept as they are. Throws
 * `ProjectRefusedError` (nothing stored) or `StorageQuotaError`.
 */
export async function editProject(context: ProjectWriteContext, companyId: string, projectId: string, draft: ProjectDraft): Promise<void> {
  const { db, actor, member } = context;
  const now = clockOf(context);
  const at = now.toISOString();
  await writeWithOutbox(db, [db.projects, db.suggestions, db.employees, db.goals], async () => {
    const project = await localProject(db, actor.id, companyId, projectId);
    if (!isProjectLead(member, project)) throw new ProjectRefusedError('notAllowed');
    if (!PROJECT_EDITABLE_STATUSES.includes(project.status)) throw new ProjectRefusedError('notEditable');
    const rows = await rowsOf(db, actor.id, projectId);
    // A creation or edit the server refused (waiting on /unsent) is revised rather than queued behind.
    const refused = rows.find((row) => (row.kind === PROJECT_CREATE_KIND || row.kind === PROJECT_EDIT_KIND) && REVISABLE_STATUSES.includes(row.status));
    const refusedCreate = refused?.kind === PROJECT_CREATE_KIND ? refused : undefined;
    // Photos picked on this device and not yet sent: the latest waiting row that holds them (the creation, or an
    // edit queued behind it) gives them to this edit too, uploaded once (the files keep their upload).
    const withFiles = [...rows].reverse().find((row) => row.fileIds.length > 0);
    const stored = project.suggestionId ? await db.suggestions.get([actor.id, project.suggestionId]) : undefined;
    const carried = new Set(stored && Suggestion.is(stored) ? stored.images.map((image) => image.imageId) : []);
    // The replayer puts the uploaded photos' ids in place of these when the row holds files.
    const imageIds = withFiles ? [] : ownImageIds(project, carried);
    const input = checked(ProjectInput, {
      ...draft,
      id: projectId,
      suggestionId: project.suggestionId,
      imageIds,
      payments: project.payments.map(({ employeeId, amountMinor }) => ({ employeeId, amountMinor })),
    });
    const { team, projectManagerUserId } = await peopleOf(db, actor.id, companyId, input);
    await checkGoals(db, actor.id, companyId, input.goalIds);
    const edited: Project = {
      ...project,
      ...fieldsOf(input),
      team,
      projectManagerUserId,
      updatedAt: at,
      history: refusedCreate ? project.history : [...project.history, historyEntry(at, 'EDITED', project.status, project.status, actor)],
    };
    await db.projects.put({ ...edited, ownerUserId: actor.id });
    if (refused) {
      if ((await revise(db, refused.id, bodyOf(input), now.getTime())) === null) throw new ProjectRefusedError('notEditable');
      return;
    }
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: PROJECT_EDIT_KIND,
      method: 'PATCH',
      path: projectPath(companyId, projectId),
      body: bodyOf(input),
      entityKey: entityKeyOf('projects', projectId),
      ...(withFiles ? { fileIds: [...withFiles.fileIds], fileField: 'imageIds' } : {}),
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
}

/**
 * The replayer's success handler of both kinds: the server's project replaces the device's copy, unless a later
 * change of it still waits (the device's copy already shows that change; the project is marked to be fetched
 * again once its rows are gone). An answer that fails the struct is fetched again too.
 */
export const storeSentProject: SuccessHandler = async ({ db, row, data }) => {
  const later = await db.outbox
    .where('[ownerUserId+entityKey]')
    .equals([row.ownerUserId, row.entityKey])
    .filter((other) => other.seq !== row.seq)
    .count();
  const isProject = Project.is(data);
  if (!isProject || later > 0) {
    if (!isProject) console.warn('The server answered a project that does not match its struct; the next pull fetches it again');
    await markStale(db, row.ownerUserId, [row.entityKey]);
    return;
  }
  await db.projects.put({ ...data, ownerUserId: row.ownerUserId });
};
