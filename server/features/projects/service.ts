// Projects (docs/api.md, "Projects", issue 12): create (directly or from an approved proposal), edit, move along
// PROJECT_TRANSITIONS, complete, file indicator reports, list and read. Every member of a company sees all of
// its projects; who may change one is the domain's rule (canCreateProject, isProjectLead, projectTransition).
// What it guarantees:
//   - every write locks the project row first (FOR UPDATE) and only then checks who may act and the state, so of
//     two concurrent acts the later one sees the earlier's outcome: a move from the wrong state is refused with
//     409 naming the status and who put it there and when; nothing is overwritten silently;
//   - a proposal becomes at most one project: the proposal row is locked while its project is made, and the
//     unique index projects_suggestion_key backs it (409 `projectSuggestionTaken` naming the project);
//   - the people of a project (business customer, manager, team) are active employees of its company, its goals
//     are goals of its company, its photos are the proposal's and the caller's own fresh uploads (at most 8);
//   - the payments never add up to more than the remuneration (remunerationOf; 0 until the effect is known), on
//     create, on edit and when the calculation lowers the remuneration;
//   - every write appends its history entry and writes its notifications in the caller's transaction, or nothing.

import { randomUUID } from 'node:crypto';
import { sql, type Updateable } from 'kysely';
import { checkPayments, remunerationOf } from '../../../src/domain/money';
import { hasAnyRole } from '../../../src/domain/permissions';
import {
  canCreateProject,
  isProjectLead,
  PROJECT_CREATE_ROLES,
  PROJECT_EDITABLE_STATUSES,
  PROJECT_FILTER_STATUSES,
  PROJECT_PAYMENTS_EDITABLE_STATUSES,
  PROJECT_REPORTING_STATUSES,
  PROJECT_MAX_IMAGES,
  missingProjectTransitionFields,
  projectTransition,
  type Project,
  type ProjectCompleteInput,
  type ProjectHistoryEntry,
  type ProjectIndicatorInput,
  type ProjectIndicatorReport,
  type ProjectInput,
  type ProjectListFilter,
  type ProjectStatus,
  type ProjectTeamMember,
  type ProjectTransitionInput,
  type ProjectView,
} from '../../../src/domain/project';
import { addReportingPeriod, calendarDateOf, firstPostMonitoringDue, isAfterToday, nextReportDue, postMonitoringEnd } from '../../../src/domain/report-schedule';
import { BASE_INDICATOR_UNITS } from '../../../src/domain/user';
import type { NotificationKind } from '../../../src/domain/notification';
import { isUuid } from '../../../src/domain/suggestion';
import type { FieldErrors } from '../../../src/domain/validation';
import { isUniqueViolation, type Queryable } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError, type AppErrorExtras } from '../../errors';
import { fullNameOf, type UserRow } from '../../auth/users';
import { requireReadyToStart, type Membership } from '../../auth/access';
import type { Once } from '../../operation';
import { notify } from '../notifications/service';
import { selectProjects, toProject, type ProjectRow } from './rows';

/** At most this many photos on a project: the proposal's 3 and 5 of its own. */

/** What a write answers: the project as it now stands and the id of the message saying what happened. */
export interface ProjectOutcome {
  project: Project;
  /** A `mail.notice.*` id. */
  message: string;
  /** 201 for a creation, 200 otherwise. */
  status: 200 | 201;
}

// ---------------------------------------------------------------------------------------------------
// Reads.

/** The project `id` of the member's company; 404 when there is none (a malformed id names none). */
export async function readProject(db: Queryable, member: Membership, id: string): Promise<Project> {
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const row = await selectProjects(db).where('p.company_id', '=', member.companyId).where('p.id', '=', id.toLowerCase()).executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  return toProject(row);
}

/** The project `id` of the member's company, locked for the rest of the transaction; 404 when there is none. */
async function lockProject(tx: Queryable, member: Membership, id: string): Promise<ProjectRow> {
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const projectId = id.toLowerCase();
  // The lock first, on the row alone (the read below joins the manager's employee row on the nullable side).
  const locked = await tx.kysely.selectFrom('projects').select('id').where('company_id', '=', member.companyId).where('id', '=', projectId).forUpdate().executeTakeFirst();
  if (!locked) throw new AppError('notFound', 404);
  return selectProjects(tx).where('p.company_id', '=', member.companyId).where('p.id', '=', projectId).executeTakeFirstOrThrow();
}

export interface ProjectListOptions {
  filter: ProjectListFilter;
  status: ProjectStatus | undefined;
  goalId: string | undefined;
  cursor: string | undefined;
  limit: number;
}

interface ListCursor {
  u: string;
  i: string;
}

const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function decodeCursor(raw: string): ListCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && 'u' in value && 'i' in value) {
      const { u, i } = value;
      if (typeof u === 'string' && CURSOR_INSTANT.test(u) && !Number.isNaN(Date.parse(u)) && isUuid(i)) return { u, i: i.toLowerCase() };
    }
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('validation', 400, { fieldErrors: { cursor: 'invalid' } });
}

/** The company's projects, most recently changed first (`updatedAt`, then `id`), by an exact keyset. */
export async function listProjects(db: Queryable, member: Membership, options: ProjectListOptions): Promise<{ items: Project[]; nextCursor: string | null }> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  let query = selectProjects(db)
    .select((eb) => eb.fn<string>('to_char', [eb.fn('timezone', [sql.lit('UTC'), eb.ref('p.updated_at')]), sql.lit('YYYY-MM-DD"T"HH24:MI:SS.US"Z"')]).as('updated_key'))
    .where('p.company_id', '=', member.companyId)
    .where('p.status', 'in', [...PROJECT_FILTER_STATUSES[options.filter]]);
  if (options.status) query = query.where('p.status', '=', options.status);
  if (options.goalId) query = query.where(sql<boolean>`p.goal_ids @> ARRAY[${options.goalId}]::uuid[]`);
  if (cursor) {
    query = query.where((eb) => eb(eb.refTuple('p.updated_at', 'p.id'), '<', eb.tuple(eb.cast<Date>(eb.val(cursor.u), 'timestamptz'), eb.cast<string>(eb.val(cursor.i), 'uuid'))));
  }
  const rows = await query.orderBy('p.updated_at', 'desc').orderBy('p.id', 'desc').limit(options.limit + 1).execute();
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > options.limit && last ? Buffer.from(JSON.stringify({ u: last.updated_key, i: last.id })).toString('base64url') : null;
  return { items: page.map(toProject), nextCursor };
}

// ---------------------------------------------------------------------------------------------------
// Checks of the data a project names.

const fieldError = (errors: FieldErrors) => new AppError('validation', 400, { fieldErrors: errors });

interface EmployeeName {
  id: string;
  name: string;
  serviceNumber: string | null;
  userId: string | null;
}

/** The active employees of the company among `ids` (lower-case uuids), by id. */
async function activeEmployees(tx: Queryable, companyId: string, ids: readonly string[]): Promise<Map<string, EmployeeName>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await tx.kysely
    .selectFrom('employees')
    .select(['id', 'last_name', 'first_name', 'middle_name', 'service_number', 'user_id'])
    .where('company_id', '=', companyId)
    .where('id', '=', (eb) => eb.fn.any(eb.val(unique)))
    .where('active', '=', true)
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, name: [row.last_name, row.first_name, row.middle_name].filter(Boolean).join(' '), serviceNumber: row.service_number, userId: row.user_id },
    ]),
  );
}

interface PeopleOf {
  businessCustomerEmployeeId: string | null;
  projectManagerEmployeeId: string;
  projectManagerUserId: string | null;
  team: ProjectTeamMember[];
}

/** The columns a project manager's input sets, on creation and on edit alike (checked before: people, goals, payments). */
function writtenColumns(input: ProjectInput, people: PeopleOf, goalIds: string[], maxPerProjectMinor: number | null, payments: Payments) {
  return {
    name: input.name,
    problem: input.problem,
    type: input.type,
    business_customer_employee_id: people.businessCustomerEmployeeId,
    goal_ids: goalIds,
    baseline_metric: metricJson(input.baselineMetric),
    target_metric: metricJson(input.targetMetric),
    completion_date: input.completionDate,
    reporting_frequency: input.reportingFrequency,
    post_monitoring_periodicity: input.postMonitoringPeriodicity,
    project_manager_employee_id: people.projectManagerEmployeeId,
    team: JSON.stringify(people.team),
    currency: input.currency,
    profit_basis_points: input.profitBasisPoints,
    max_per_project_minor: money(maxPerProjectMinor),
    effect_repeatability: input.effectRepeatability,
    payments: JSON.stringify(payments),
  };
}

/** 400 on a metric whose unit is none of the BASE_INDICATOR units (`GET /units`), as a goal's indicator. */
function checkUnits(input: ProjectInput): void {
  const errors: FieldErrors = {};
  for (const field of ['baselineMetric', 'targetMetric'] as const) {
    const unitId = input[field]?.unitId;
    if (unitId !== undefined && !(BASE_INDICATOR_UNITS as readonly string[]).includes(unitId)) errors[`${field}.unitId`] = 'indicatorUnit';
  }
  if (Object.keys(errors).length > 0) throw fieldError(errors);
}

/** The people of `input`, each an active employee of the company (400 on the field naming one who is not). */
async function checkPeople(tx: Queryable, companyId: string, input: ProjectInput): Promise<PeopleOf> {
  const customer = input.businessCustomerEmployeeId?.toLowerCase() ?? null;
  const manager = input.projectManagerEmployeeId.toLowerCase();
  const team = input.team.map((member) => ({ employeeId: member.employeeId.toLowerCase(), role: member.role }));
  const known = await activeEmployees(tx, companyId, [...(customer ? [customer] : []), manager, ...team.map((member) => member.employeeId)]);
  const errors: FieldErrors = {};
  if (customer !== null && !known.has(customer)) errors.businessCustomerEmployeeId = 'activeEmployee';
  if (!known.has(manager)) errors.projectManagerEmployeeId = 'activeEmployee';
  const seen = new Set<string>();
  team.forEach((member, index) => {
    if (!known.has(member.employeeId)) errors[`team.${index}.employeeId`] = 'activeEmployee';
    else if (seen.has(member.employeeId)) errors[`team.${index}.employeeId`] = 'duplicateEmployee';
    seen.add(member.employeeId);
  });
  if (Object.keys(errors).length > 0) throw fieldError(errors);
  return {
    businessCustomerEmployeeId: customer,
    projectManagerEmployeeId: manager,
    projectManagerUserId: known.get(manager)?.userId ?? null,
    team: team.map((member) => {
      const employee = known.get(member.employeeId);
      return { employeeId: member.employeeId, name: employee?.name ?? '', serviceNumber: employee?.serviceNumber ?? null, role: member.role };
    }),
  };
}

/** The goals of `ids`, each a goal of the company (400 `goalIds` otherwise), without repeats, in order. */
async function checkGoals(tx: Queryable, companyId: string, ids: readonly string[]): Promise<string[]> {
  const goalIds = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (goalIds.length === 0) return [];
  const rows = await tx.kysely
    .selectFrom('goals')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', (eb) => eb.fn.any(eb.val(goalIds)))
    .execute();
  if (rows.length !== goalIds.length) throw fieldError({ goalIds: 'invalid' });
  return goalIds;
}

/** The remuneration of the terms: 0 until the expected effect is known (no payments before it is). */
function remunerationFor(profitBasisPoints: number, maxPerProjectMinor: number | null, expectedEffect12mMinor: number | null): number {
  if (expectedEffect12mMinor === null) return 0;
  return remunerationOf({ profitBasisPoints, expectedEffect12mMinor, maxPerProjectMinor });
}

type Payments = ProjectInput['payments'];

/** The payments, each to the manager or a team member and adding up to at most the remuneration (400 otherwise). */
function checkPaymentsOf(payments: Payments, people: Pick<PeopleOf, 'projectManagerEmployeeId' | 'team'>, remunerationMinor: number): Payments {
  const rows = payments.map((payment) => ({ employeeId: payment.employeeId.toLowerCase(), amountMinor: payment.amountMinor }));
  const payable = new Set([people.projectManagerEmployeeId, ...people.team.map((member) => member.employeeId)]);
  const errors: FieldErrors = {};
  rows.forEach((payment, index) => {
    if (!payable.has(payment.employeeId)) errors[`payments.${index}.employeeId`] = 'notInTeam';
  });
  if (Object.keys(errors).length > 0) throw fieldError(errors);
  const check = checkPayments(rows, remunerationMinor);
  if (!check.ok) throw fieldError(check.code === 'exceedsRemuneration' ? { payments: 'exceedsRemuneration' } : { [`payments.${check.index}.amountMinor`]: check.code });
  return rows;
}

interface ImageFile {
  id: string;
}

/**
 * The photos of a project: the proposal's first (`proposalFiles`), then `imageIds` in order, no file twice, at most
 * PROJECT_MAX_IMAGES. An id already on the project (`current`) stays; any other must be the caller's own upload
 * attached to nothing yet, locked until the commit (400 `imageIds` otherwise). Answers the ids to attach anew too.
 */
async function checkImages(
  tx: Queryable,
  user: UserRow,
  proposalFiles: readonly string[],
  imageIds: readonly string[],
  current: readonly string[],
): Promise<{ all: string[]; fresh: string[] }> {
  const all = [...new Set([...proposalFiles, ...imageIds.map((id) => id.toLowerCase())])];
  if (all.length > PROJECT_MAX_IMAGES) throw fieldError({ imageIds: 'size' });
  const fresh = all.filter((id) => !proposalFiles.includes(id) && !current.includes(id));
  if (fresh.length > 0) {
    const usable: ImageFile[] = await tx.kysely
      .selectFrom('files as f')
      .select('f.id')
      .where('f.id', '=', (eb) => eb.fn.any(eb.val(fresh)))
      .where('f.owner_id', '=', user.id)
      .where('f.company_id', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('suggestion_images as si').select('si.file_id').whereRef('si.file_id', '=', 'f.id'))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('project_images as pi').select('pi.file_id').whereRef('pi.file_id', '=', 'f.id'))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('companies as c').select('c.id').whereRef('c.logo_image_id', '=', 'f.id'))))
      .forUpdate()
      .execute();
    if (usable.length !== fresh.length) throw fieldError({ imageIds: 'invalid' });
  }
  return { all, fresh };
}

/** Writes the project's photos as `all` (in order) and gives the fresh uploads the company. */
async function saveImages(tx: Queryable, companyId: string, projectId: string, images: { all: string[]; fresh: string[] }, replace: boolean): Promise<void> {
  if (replace) await tx.kysely.deleteFrom('project_images').where('company_id', '=', companyId).where('project_id', '=', projectId).execute();
  if (images.all.length > 0) {
    await tx.kysely
      .insertInto('project_images')
      .values(images.all.map((fileId, position) => ({ company_id: companyId, project_id: projectId, file_id: fileId, position })))
      .execute();
  }
  if (images.fresh.length > 0) await tx.kysely.updateTable('files').set({ company_id: companyId }).where('id', '=', (eb) => eb.fn.any(eb.val(images.fresh))).execute();
}

/** The ids of the proposal's photos, in their order. */
async function proposalImageIds(tx: Queryable, companyId: string, suggestionId: string | null): Promise<string[]> {
  if (suggestionId === null) return [];
  const rows = await tx.kysely
    .selectFrom('suggestion_images')
    .select('file_id')
    .where('company_id', '=', companyId)
    .where('suggestion_id', '=', suggestionId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.file_id);
}

const metricJson = (metric: ProjectInput['baselineMetric']) => (metric ? JSON.stringify({ value: metric.value, unitId: metric.unitId }) : null);
const money = (value: number | null | undefined) => (value === null || value === undefined ? null : String(value));

// ---------------------------------------------------------------------------------------------------
// Create.

/** The proposal a project is made from, checked: the company's (404), the caller's to turn (403), approved, free. */
async function takeProposal(tx: Queryable, member: Membership, suggestionId: string) {
  const proposal = await tx.kysely
    .selectFrom('suggestions')
    .select(['id', 'status', 'department_id', 'author_id', 'author_name'])
    .where('company_id', '=', member.companyId)
    .where('id', '=', suggestionId)
    .forUpdate()
    .executeTakeFirst();
  if (!proposal) throw new AppError('notFound', 404);
  if (!member.headOfDepartmentIds.includes(proposal.department_id) && !hasAnyRole(member.roles, PROJECT_CREATE_ROLES)) throw new AppError('forbidden', 403);
  if (proposal.status !== 'APPROVED') throw new AppError('projectSuggestionNotApproved', 409);
  const taken = await tx.kysely.selectFrom('projects').select('name').where('company_id', '=', member.companyId).where('suggestion_id', '=', suggestionId).executeTakeFirst();
  if (taken) throw new AppError('projectSuggestionTaken', 409, { values: { name: taken.name } });
  return proposal;
}

export interface ProjectWriteOptions {
  now: Date;
  /** Shares the start-rule check between the operations of one push batch (see Once). */
  once?: Once;
}

/** `POST /companies/{companyId}/projects`. */
export async function createProject(tx: Queryable, member: Membership, user: UserRow, input: ProjectInput, options: ProjectWriteOptions): Promise<ProjectOutcome> {
  const { now } = options;
  const once: Once = options.once ?? ((_key, read) => read());
  if (!canCreateProject(member)) throw new AppError('forbidden', 403);
  await once(`ready:${member.companyId}`, () => requireReadyToStart(tx, member.companyId));
  const byName = fullNameOf(user);

  const suggestionId = input.suggestionId?.toLowerCase() ?? null;
  let departmentId: string | null = member.headOfDepartmentIds.length === 1 ? (member.headOfDepartmentIds[0] ?? null) : null;
  let author: { userId: string | null; name: string } = { userId: user.id, name: byName };
  if (suggestionId !== null) {
    const proposal = await takeProposal(tx, member, suggestionId);
    departmentId = proposal.department_id;
    author = { userId: proposal.author_id, name: proposal.author_name };
  }

  checkUnits(input);
  const people = await checkPeople(tx, member.companyId, input);
  const goalIds = await checkGoals(tx, member.companyId, input.goalIds);
  const maxPerProjectMinor = input.maxPerProjectMinor ?? null;
  const payments = checkPaymentsOf(input.payments, people, remunerationFor(input.profitBasisPoints, maxPerProjectMinor, null));
  const images = await checkImages(tx, user, await proposalImageIds(tx, member.companyId, suggestionId), input.imageIds, []);

  const id = input.id?.toLowerCase() ?? randomUUID();
  const entry: ProjectHistoryEntry = { at: now.toISOString(), action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: user.id, byName, comment: null };
  try {
    await tx.kysely
      .insertInto('projects')
      .values((eb) => ({
        company_id: member.companyId,
        id,
        suggestion_id: suggestionId,
        department_id: departmentId,
        author_user_id: author.userId,
        author_name: author.name,
        ...writtenColumns(input, people, goalIds, maxPerProjectMinor, payments),
        history: JSON.stringify([entry]),
        created_by: user.id,
        created_at: eb.fn<Date>('clock_timestamp'),
        updated_at: eb.fn<Date>('clock_timestamp'),
      }))
      .execute();
  } catch (error) {
    // The proposal is locked above, so only an id sent twice (by another user: a replay of one's own is answered
    // by its Idempotency-Key) gets here.
    if (isUniqueViolation(error)) throw new AppError('projectExists', 409);
    throw error;
  }
  await saveImages(tx, member.companyId, id, images, false);
  const project = await readProject(tx, member, id);
  await tell(tx, member, user, project, { userIds: [people.projectManagerUserId], kind: 'PROJECT_CREATED', params: { title: project.name, byName, comment: null } }, now);
  return { project, message: 'mail.notice.projectCreated', status: 201 };
}

// ---------------------------------------------------------------------------------------------------
// Edit.

const viewOf = (row: ProjectRow): ProjectView => ({ status: row.status, projectManagerUserId: row.project_manager_user_id ?? null, departmentId: row.department_id });

/** 409 `projectNotEditable` naming the status. */
const notEditable = (status: ProjectStatus) => new AppError('projectNotEditable', 409, { values: { status } });

/** The fields of a project besides its payments, in one comparable form. */
function termsOf(fields: {
  name: string;
  problem: string;
  type: string;
  businessCustomerEmployeeId: string | null;
  goalIds: readonly string[];
  baselineMetric: { value: number; unitId: string } | null;
  targetMetric: { value: number; unitId: string } | null;
  completionDate: string;
  reportingFrequency: string;
  postMonitoringPeriodicity: string;
  projectManagerEmployeeId: string;
  team: readonly { employeeId: string; role: string }[];
  currency: string;
  profitBasisPoints: number;
  maxPerProjectMinor: number | null;
  effectRepeatability: string;
  imageIds: readonly string[];
}): string {
  const metric = (m: { value: number; unitId: string } | null) => (m ? { value: m.value, unitId: m.unitId } : null);
  return JSON.stringify({
    name: fields.name,
    problem: fields.problem,
    type: fields.type,
    businessCustomerEmployeeId: fields.businessCustomerEmployeeId,
    completionDate: fields.completionDate,
    reportingFrequency: fields.reportingFrequency,
    postMonitoringPeriodicity: fields.postMonitoringPeriodicity,
    projectManagerEmployeeId: fields.projectManagerEmployeeId,
    currency: fields.currency,
    profitBasisPoints: fields.profitBasisPoints,
    maxPerProjectMinor: fields.maxPerProjectMinor,
    effectRepeatability: fields.effectRepeatability,
    imageIds: fields.imageIds,
    goalIds: [...fields.goalIds].sort(),
    baselineMetric: metric(fields.baselineMetric),
    targetMetric: metric(fields.targetMetric),
    team: fields.team.map((member) => ({ employeeId: member.employeeId, role: member.role })),
  });
}

/** `PATCH /companies/{companyId}/projects/{projectId}` (id and suggestionId are ignored). */
export async function updateProject(tx: Queryable, member: Membership, user: UserRow, id: string, input: ProjectInput, now: Date): Promise<ProjectOutcome> {
  const row = await lockProject(tx, member, id);
  if (!isProjectLead(member, viewOf(row))) throw new AppError('forbidden', 403);
  const status = row.status;
  const fieldsEditable = PROJECT_EDITABLE_STATUSES.includes(status);
  if (!fieldsEditable && !PROJECT_PAYMENTS_EDITABLE_STATUSES.includes(status)) throw notEditable(status);
  const current = toProject(row);
  const proposalFiles = await proposalImageIds(tx, row.company_id, row.suggestion_id);
  const currentImages = current.images.map((image) => image.imageId);
  const maxPerProjectMinor = input.maxPerProjectMinor ?? null;

  if (!fieldsEditable) {
    // Only the payments may change: any other field differing is refused, whatever it is.
    const requestedImages = [...new Set([...proposalFiles, ...input.imageIds.map((i) => i.toLowerCase())])];
    const requested = termsOf({
      ...input,
      businessCustomerEmployeeId: input.businessCustomerEmployeeId?.toLowerCase() ?? null,
      goalIds: [...new Set(input.goalIds.map((g) => g.toLowerCase()))],
      baselineMetric: input.baselineMetric ?? null,
      targetMetric: input.targetMetric ?? null,
      projectManagerEmployeeId: input.projectManagerEmployeeId.toLowerCase(),
      team: input.team.map((m) => ({ employeeId: m.employeeId.toLowerCase(), role: m.role })),
      maxPerProjectMinor,
      imageIds: requestedImages,
    });
    const stored = termsOf({ ...current, imageIds: currentImages });
    if (requested !== stored) throw notEditable(status);
  }

  if (fieldsEditable) checkUnits(input);
  const people = fieldsEditable
    ? await checkPeople(tx, row.company_id, input)
    : { businessCustomerEmployeeId: current.businessCustomerEmployeeId, projectManagerEmployeeId: current.projectManagerEmployeeId, projectManagerUserId: current.projectManagerUserId, team: current.team };
  const profit = fieldsEditable ? input.profitBasisPoints : current.profitBasisPoints;
  const max = fieldsEditable ? maxPerProjectMinor : current.maxPerProjectMinor;
  const payments = checkPaymentsOf(input.payments, people, remunerationFor(profit, max, current.expectedEffect12mMinor));
  const byName = fullNameOf(user);
  const entry: ProjectHistoryEntry = { at: now.toISOString(), action: 'EDITED', fromStatus: status, toStatus: status, byUserId: user.id, byName, comment: null };

  if (fieldsEditable) {
    const goalIds = await checkGoals(tx, row.company_id, input.goalIds);
    const images = await checkImages(tx, user, proposalFiles, input.imageIds, currentImages);
    await tx.kysely
      .updateTable('projects')
      .set((eb) => ({
        ...writtenColumns(input, people, goalIds, maxPerProjectMinor, payments),
        history: JSON.stringify([...row.history, entry]),
        updated_at: eb.fn<Date>('clock_timestamp'),
      }))
      .where('company_id', '=', row.company_id)
      .where('id', '=', row.id)
      .execute();
    if (images.all.join() !== currentImages.join()) await saveImages(tx, row.company_id, row.id, images, true);
  } else {
    await tx.kysely
      .updateTable('projects')
      .set((eb) => ({ payments: JSON.stringify(payments), history: JSON.stringify([...row.history, entry]), updated_at: eb.fn<Date>('clock_timestamp') }))
      .where('company_id', '=', row.company_id)
      .where('id', '=', row.id)
      .execute();
  }
  const project = await readProject(tx, member, row.id);
  if (people.projectManagerEmployeeId !== current.projectManagerEmployeeId) {
    // A new manager learns of the project as if it had been made with them.
    await tell(tx, member, user, project, { userIds: [people.projectManagerUserId], kind: 'PROJECT_CREATED', params: { title: project.name, byName, comment: null } }, now);
  }
  return { project, message: 'mail.notice.projectSaved', status: 200 };
}

// ---------------------------------------------------------------------------------------------------
// Moves.

/** Who put the project in its current state and when: the last entry that moved it there. */
function lastMove(row: ProjectRow): ProjectHistoryEntry | null {
  return [...row.history].reverse().find((entry) => (entry.action === 'CREATED' || entry.action === 'TRANSITION') && entry.toStatus === row.status) ?? null;
}

/** 409 `projectWrongState` naming the current status, who moved it there and when. */
function wrongState(row: ProjectRow): AppError {
  const move = lastMove(row);
  const at = move ? new Date(move.at) : row.updated_at;
  const extras: AppErrorExtras = move?.byName ? { values: { status: row.status, name: move.byName, at } } : { values: { status: row.status, at }, valueIds: { name: ['error.suggestionSomeone'] } };
  return new AppError('projectWrongState', 409, extras);
}

/** The active members of the company holding any of `roles`. */
async function membersWithRoles(tx: Queryable, companyId: string, roles: readonly string[]): Promise<string[]> {
  const rows = await tx.kysely
    .selectFrom('company_members')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('active', '=', true)
    .where('roles', '&&', (eb) => eb.val([...roles]))
    .orderBy('user_id')
    .execute();
  return rows.map((row) => row.user_id);
}

interface NoticeTo {
  userIds: readonly (string | null)[];
  kind: NotificationKind;
  params: Record<string, string | null>;
}

async function tell(tx: Queryable, member: Membership, user: UserRow, project: Project, notice: NoticeTo, now: Date): Promise<void> {
  await notify(tx, { companyId: member.companyId, userIds: notice.userIds, actorId: user.id, kind: notice.kind, suggestionId: null, projectId: project.id, params: notice.params }, now);
}

const MESSAGE_OF_MOVE: Record<ProjectStatus, string> = {
  NEW: 'mail.notice.projectSaved',
  CALCULATING: 'mail.notice.projectSentForCalculation',
  CALCULATED: 'mail.notice.projectCalculated',
  APPROVED: 'mail.notice.projectApproved',
  FOR_REVISION: 'mail.notice.projectReturned',
  COMPLETED: 'mail.notice.projectCompleted',
};

function commentOf(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** `POST .../projects/{projectId}/transitions` (and `/complete`, the move to COMPLETED with its input). */
export async function transitionProject(tx: Queryable, member: Membership, user: UserRow, id: string, input: ProjectTransitionInput, now: Date): Promise<ProjectOutcome> {
  const row = await lockProject(tx, member, id);
  const to = input.to;
  const verdict = projectTransition(to, viewOf(row), member, input);
  if (!verdict.ok) {
    if (verdict.code === 'forbidden') throw new AppError('forbidden', 403);
    if (verdict.code === 'wrongState') throw wrongState(row);
    const missing = missingProjectTransitionFields(to, input);
    throw fieldError(Object.fromEntries(missing.map((field) => [field, 'required'])));
  }
  const current = toProject(row);
  const comment = commentOf(input.comment);
  const byName = fullNameOf(user);
  const today = calendarDateOf(now);
  const changes: Updateable<DB['projects']> = { status: to };
  if (to === 'CALCULATED') {
    const estimated = input.estimatedCostsMinor ?? 0;
    const effect = input.expectedEffect12mMinor ?? 0;
    const remuneration = remunerationFor(current.profitBasisPoints, current.maxPerProjectMinor, effect);
    const check = checkPayments(current.payments, remuneration);
    if (!check.ok) throw fieldError({ expectedEffect12mMinor: 'belowPayments' });
    changes.estimated_costs_minor = String(estimated);
    changes.expected_effect_12m_minor = String(effect);
  }
  if (to === 'APPROVED') {
    // When it entered the open registry: the dashboard's period of its expected effect.
    changes.approved_at = now;
    changes.next_report_due = addReportingPeriod(today, current.reportingFrequency);
    changes.report_overdue_at = null;
  }
  if (to === 'COMPLETED') {
    const actualCompletionDate = input.actualCompletionDate ?? today;
    if (isAfterToday(actualCompletionDate, now)) throw fieldError({ actualCompletionDate: 'future' });
    changes.actual_completion_date = actualCompletionDate;
    changes.actual_effect_12m_minor = String(input.actualEffect12mMinor ?? 0);
    changes.next_report_due = firstPostMonitoringDue(actualCompletionDate, current.postMonitoringPeriodicity);
    changes.report_overdue_at = null;
  }
  const entry: ProjectHistoryEntry = { at: now.toISOString(), action: 'TRANSITION', fromStatus: row.status, toStatus: to, byUserId: user.id, byName, comment };
  await tx.kysely
    .updateTable('projects')
    .set((eb) => ({ ...changes, history: JSON.stringify([...row.history, entry]), updated_at: eb.fn<Date>('clock_timestamp') }))
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .execute();
  const project = await readProject(tx, member, row.id);
  const params = { title: project.name, byName, comment };
  if (to === 'CALCULATING') await tell(tx, member, user, project, { userIds: await membersWithRoles(tx, row.company_id, ['FINANCIAL_SPECIALIST', 'FINANCIAL_DIRECTOR']), kind: 'PROJECT_CALCULATING', params }, now);
  if (to === 'CALCULATED') await tell(tx, member, user, project, { userIds: await membersWithRoles(tx, row.company_id, ['DIRECTION_MANAGER']), kind: 'PROJECT_CALCULATED', params }, now);
  if (to === 'APPROVED') await tell(tx, member, user, project, { userIds: [current.projectManagerUserId], kind: 'PROJECT_APPROVED', params }, now);
  if (to === 'FOR_REVISION') await tell(tx, member, user, project, { userIds: [current.projectManagerUserId], kind: 'PROJECT_FOR_REVISION', params }, now);
  return { project, message: MESSAGE_OF_MOVE[to], status: 200 };
}

/** `POST .../projects/{projectId}/complete`: the move APPROVED -> COMPLETED by the project manager. */
export function completeProject(tx: Queryable, member: Membership, user: UserRow, id: string, input: ProjectCompleteInput, now: Date): Promise<ProjectOutcome> {
  return transitionProject(tx, member, user, id, { to: 'COMPLETED', ...input }, now);
}

// ---------------------------------------------------------------------------------------------------
// Indicator reports.

/** `POST .../projects/{projectId}/indicators`: a report of the metric, by the project's manager or its department's head. */
export async function reportIndicator(tx: Queryable, member: Membership, user: UserRow, id: string, input: ProjectIndicatorInput, now: Date): Promise<ProjectOutcome> {
  const row = await lockProject(tx, member, id);
  if (!isProjectLead(member, viewOf(row))) throw new AppError('forbidden', 403);
  const reportId = input.id.toLowerCase();
  // Filed already (a replay that lost its Idempotency-Key): the project as it stands, nothing filed twice.
  if (row.indicator_reports.some((report) => report.id === reportId)) return { project: toProject(row), message: 'mail.notice.projectIndicatorReported', status: 200 };
  if (!PROJECT_REPORTING_STATUSES.includes(row.status)) throw new AppError('projectNotReporting', 409, { values: { status: row.status } });
  if (isAfterToday(input.date, now)) throw fieldError({ date: 'future' });
  const byName = fullNameOf(user);
  const comment = commentOf(input.comment);
  const report: ProjectIndicatorReport = { id: reportId, date: input.date, value: input.value, comment, at: now.toISOString(), byUserId: user.id, byName };
  const completed = row.status === 'COMPLETED';
  const due = nextReportDue({
    currentDue: row.next_report_due,
    reportDate: input.date,
    frequency: completed ? row.post_monitoring_periodicity : row.reporting_frequency,
    until: completed && row.actual_completion_date ? postMonitoringEnd(row.actual_completion_date) : null,
  });
  // After post-monitoring ended (no due date any more), a late report keeps it ended.
  const nextDue = completed && row.next_report_due === null ? null : due;
  const entry: ProjectHistoryEntry = { at: now.toISOString(), action: 'INDICATOR_REPORTED', fromStatus: row.status, toStatus: row.status, byUserId: user.id, byName, comment };
  await tx.kysely
    .updateTable('projects')
    .set((eb) => ({
      indicator_reports: JSON.stringify([...row.indicator_reports, report]),
      history: JSON.stringify([...row.history, entry]),
      next_report_due: nextDue,
      report_overdue_at: null,
      updated_at: eb.fn<Date>('clock_timestamp'),
    }))
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .execute();
  return { project: await readProject(tx, member, row.id), message: 'mail.notice.projectIndicatorReported', status: 200 };
}
