// The registry on the device (DESIGN.md, "Offline-first data flow"; issue 13): what the registry screens read from
// the mirror (the open registry, the sent registries) and the three writes that work offline: sending the open
// registry to the owner, and the owner's approval (with adjusted final costs) or return.
// What it stores and why: each write changes the mirror at once and queues its request in the outbox, in ONE Dexie
// transaction, so the screens show the decision offline ("waiting to be sent") and the device never holds the one
// without the other:
//   - a send puts a local SENT registry (number 0: not numbered until the server's row arrives) with a snapshot of
//     the projects it sends (the same items the open registry shows, built by `itemOfProject`) and their totals, and
//     sets those projects' registryId;
//   - an approval writes the owner's adjustments into the items and recomputes the totals (registryTotals), as the
//     server will; a return marks the registry RETURNED and gives its projects back to the open registry.
// Guarantees: every row of one registry has the entity key `registries:<id>`, so the replayer sends them in order
// and the pull does not overwrite the local registry while one waits; the input is checked with the server's own
// structs and transition table (registryTransition) before anything is stored, so a refusal stores nothing; the
// open registry as read here never shows a project a SENT or APPROVED registry on the device holds, and shows again
// those of a RETURNED one (or of a send discarded on /unsent), whatever a pull wrote into the projects meanwhile;
// the success handler stores the server's registry (checked with its struct) unless a later change of it still
// waits. Stored rows are untrusted: every read is checked with its struct. React-free: the service worker imports
// the success handler through the outbox-kind registry.
import type { Struct } from 'superstruct';
import type { MemberView } from '../../domain/permissions';
import { Project } from '../../domain/project';
import {
  REGISTRY_PROJECT_STATUSES,
  Registry,
  RegistryApproveInput,
  RegistryReturnInput,
  RegistrySendInput,
  registryTotals,
  registryTransition,
  type CurrencyTotals,
  type RegistryAction,
  type RegistryHistoryEntry,
  type RegistryItem,
  type RegistryStatus,
  type RegistryTransitionRefusal,
} from '../../domain/registry';
import type { EmployeeRow } from '../../domain/suggestion';
import { validate, type FieldErrors } from '../../domain/validation';
import type { AppDatabase, OutboxStatus } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import type { HttpClient } from '../../lib/http';
import { unsentRowsByKey } from '../../lib/outbox/entity-state';
import { enqueue, entityKeyOf, writeWithOutbox } from '../../lib/outbox/outbox';
import type { SuccessHandler } from '../../lib/outbox/replayer';
import { markStale } from '../../lib/sync/stale-rows';

import { REGISTRY_APPROVE_KIND, REGISTRY_RETURN_KIND, REGISTRY_SEND_KIND, UNNUMBERED } from './kind-names';

export { REGISTRY_APPROVE_KIND, REGISTRY_RETURN_KIND, REGISTRY_SEND_KIND, UNNUMBERED };


/** The statuses in which a registry holds its projects (a RETURNED one gave them back). */
const HOLDING_STATUSES: readonly RegistryStatus[] = ['SENT', 'APPROVED'];

// ---------------------------------------------------------------------------------------------------
// Refusals.

export type RegistryRefusal =
  /** The registry is not on this device, or is of another company. */
  | 'missing'
  /** The user may not do this. */
  | 'notAllowed'
  /** The registry is no longer in the state this needs (decided meanwhile): see `status`. */
  | 'wrongState'
  /** Nothing to send: the open registry is empty. */
  | 'empty'
  /** The open registry changed since the sender saw it (a project left it or joined it). */
  | 'changed'
  /** The input breaks the server's rules: see `fieldErrors`. */
  | 'invalid';

export class RegistryRefusedError extends Error {
  readonly reason: RegistryRefusal;
  readonly fieldErrors: FieldErrors;
  /** For `wrongState`: the registry's status on the device. */
  readonly status: RegistryStatus | null;

  constructor(reason: RegistryRefusal, fieldErrors: FieldErrors = {}, status: RegistryStatus | null = null) {
    super(`The registry change was refused on the device: ${reason}`);
    this.name = 'RegistryRefusedError';
    this.reason = reason;
    this.fieldErrors = fieldErrors;
    this.status = status;
  }
}

function checked<T, S>(struct: Struct<T, S>, input: unknown): T {
  const result = validate(struct, input);
  if (!result.ok) throw new RegistryRefusedError('invalid', result.errors);
  return result.value;
}

function refusalOf(code: RegistryTransitionRefusal, status: RegistryStatus): RegistryRefusedError {
  switch (code) {
    case 'forbidden':
      return new RegistryRefusedError('notAllowed');
    case 'wrongState':
      return new RegistryRefusedError('wrongState', {}, status);
    case 'commentRequired':
      return new RegistryRefusedError('invalid', { comment: 'required' });
    case 'empty':
      return new RegistryRefusedError('empty');
  }
}

// ---------------------------------------------------------------------------------------------------
// Reads.

export function registryApiPath(companyId: string, registryId?: string): string {
  const base = `/api/v1/companies/${encodeURIComponent(companyId)}/registry`;
  return registryId === undefined ? base : `${base}/${encodeURIComponent(registryId)}`;
}

/** "Last First Middle", as the server names a project manager. */
export function employeeFullName(employee: Pick<EmployeeRow, 'lastName' | 'firstName' | 'middleName'>): string {
  return [employee.lastName, employee.firstName, employee.middleName].filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ');
}

/** When the direction manager approved the project (its last move to APPROVED), '' when its history lacks it. */
function approvedAtOf(project: Project): string {
  return [...project.history].reverse().find((entry) => entry.toStatus === 'APPROVED')?.at ?? '';
}

/** The server's order of a registry's items: when approved (unknown last), then by name, then by id. */
function inRegistryOrder(projects: readonly Project[]): Project[] {
  return [...projects].sort((a, b) => {
    const atA = approvedAtOf(a);
    const atB = approvedAtOf(b);
    if (atA !== atB) return atA === '' ? 1 : atB === '' ? -1 : atA < atB ? -1 : 1;
    if (a.name !== b.name) return a.name < b.name ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

/** A project as a registry item: its figures now (a send keeps them as its snapshot), no adjustment. */
export function itemOfProject(project: Project, projectManagerName: string | null): RegistryItem {
  return {
    projectId: project.id,
    name: project.name,
    departmentId: project.departmentId,
    projectManagerName,
    currency: project.currency,
    // An approved project was calculated; 0 stands in for a figure missing, as on the server.
    estimatedCostsMinor: project.estimatedCostsMinor ?? 0,
    expectedEffect12mMinor: project.expectedEffect12mMinor ?? 0,
    remunerationMinor: project.remunerationMinor ?? 0,
    finalCostMinor: null,
    adjustmentReason: null,
  };
}

/** The company's registries on the device, checked. */
async function companyRegistries(db: AppDatabase, ownerUserId: string, companyId: string): Promise<Registry[]> {
  const stored = await db.registries.where('[ownerUserId+companyId]').equals([ownerUserId, companyId]).toArray();
  return checkRows(Registry, stored, 'registries').rows.filter((registry) => registry.companyId === companyId);
}

/**
 * Whether `project` is in the open registry as the device knows it: approved (or since completed), not held by a
 * SENT or APPROVED registry on the device (by its registryId or by that registry's items: a send still waiting may
 * have been overwritten by a pull), and with no registry or one that gave it back (RETURNED, or gone from the device
 * after a discarded send).
 */
function isOpenOnDevice(project: Project, byId: ReadonlyMap<string, Registry>, held: ReadonlySet<string>): boolean {
  if (!(REGISTRY_PROJECT_STATUSES as readonly string[]).includes(project.status) || held.has(project.id)) return false;
  if (project.registryId === null) return true;
  const registry = byId.get(project.registryId);
  return registry === undefined || !HOLDING_STATUSES.includes(registry.status);
}

/** The open registry: its projects (in the server's order) with their manager's names, and the totals. */
export interface OpenRegistry {
  items: RegistryItem[];
  totals: CurrencyTotals[];
}

/** The projects of the company's open registry on the device, in the server's order. */
async function openProjects(db: AppDatabase, ownerUserId: string, companyId: string): Promise<Project[]> {
  const [stored, registries] = await Promise.all([
    db.projects
      .where('[ownerUserId+companyId+status]')
      .anyOf(REGISTRY_PROJECT_STATUSES.map((status) => [ownerUserId, companyId, status]))
      .toArray(),
    companyRegistries(db, ownerUserId, companyId),
  ]);
  const byId = new Map(registries.map((registry) => [registry.id, registry]));
  const held = new Set(registries.filter((registry) => HOLDING_STATUSES.includes(registry.status)).flatMap((registry) => registry.items.map((item) => item.projectId)));
  const projects = checkRows(Project, stored, 'projects').rows.filter((project) => project.companyId === companyId && isOpenOnDevice(project, byId, held));
  return inRegistryOrder(projects);
}

/** The names of the project managers of `projects`, by employee id (from the mirror; the team's names stand in). */
async function managerNames(db: AppDatabase, ownerUserId: string, companyId: string, projects: readonly Project[]): Promise<Map<string, string | null>> {
  const ids = [...new Set(projects.map((project) => project.projectManagerEmployeeId))];
  const stored = await db.employees.bulkGet(ids.map((id) => [ownerUserId, id]));
  const employees = checkRows(EmployeeRowCheck, stored.filter((row) => row !== undefined), 'employees').rows.filter((row) => row.companyId === companyId);
  const names = new Map<string, string | null>(employees.map((row) => [row.id, employeeFullName(row)]));
  for (const project of projects) {
    if (names.has(project.projectManagerEmployeeId)) continue;
    names.set(project.projectManagerEmployeeId, project.team.find((member) => member.employeeId === project.projectManagerEmployeeId)?.name ?? null);
  }
  return names;
}

async function openItems(db: AppDatabase, ownerUserId: string, companyId: string): Promise<RegistryItem[]> {
  const projects = await openProjects(db, ownerUserId, companyId);
  const names = await managerNames(db, ownerUserId, companyId, projects);
  return projects.map((project) => itemOfProject(project, names.get(project.projectManagerEmployeeId) ?? null));
}

/** The company's open registry on the device (works offline). */
export async function readOpenRegistry(db: AppDatabase, ownerUserId: string, companyId: string): Promise<OpenRegistry> {
  const items = await openItems(db, ownerUserId, companyId);
  return { items, totals: registryTotals(items) };
}

/** A registry with the state of its most troubled unsent change (null when the server has it all). */
export interface RegistryView {
  registry: Registry;
  unsent: OutboxStatus | null;
}

/** Newest first: the ones not numbered yet (local sends), then by number, downwards. */
function newestFirst(a: Registry, b: Registry): number {
  const rank = (registry: Registry) => (registry.number === UNNUMBERED ? Number.MAX_SAFE_INTEGER : registry.number);
  return rank(b) - rank(a) || (a.sentAt < b.sentAt ? 1 : a.sentAt > b.sentAt ? -1 : 0);
}

async function withUnsent(db: AppDatabase, ownerUserId: string, registries: readonly Registry[]): Promise<RegistryView[]> {
  const unsent = await unsentRowsByKey(db, ownerUserId, registries.map((registry) => entityKeyOf('registries', registry.id)));
  return registries.map((registry) => ({ registry, unsent: unsent.get(entityKeyOf('registries', registry.id))?.status ?? null }));
}

/** The company's sent registries on the device (SENT, APPROVED, RETURNED), newest first, with their unsent state. */
export async function readRegistries(db: AppDatabase, ownerUserId: string, companyId: string): Promise<RegistryView[]> {
  const registries = (await companyRegistries(db, ownerUserId, companyId)).filter((registry) => registry.status !== 'OPEN').sort(newestFirst);
  return withUnsent(db, ownerUserId, registries);
}

/** The registry `registryId` of the company with its unsent state; null when it is not on the device. */
export async function readRegistry(db: AppDatabase, ownerUserId: string, companyId: string, registryId: string): Promise<RegistryView | null> {
  const stored = await db.registries.get([ownerUserId, registryId]);
  const registry = stored ? checkRows(Registry, [stored], 'registries').rows[0] : undefined;
  if (!registry || registry.companyId !== companyId) return null;
  return (await withUnsent(db, ownerUserId, [registry]))[0] ?? null;
}

/** The registry the owner decides on next: the oldest SENT one (numbered ones first, by number). Null when none. */
export async function readNextToDecide(db: AppDatabase, ownerUserId: string, companyId: string): Promise<RegistryView | null> {
  const sent = (await companyRegistries(db, ownerUserId, companyId)).filter((registry) => registry.status === 'SENT').sort(newestFirst).reverse();
  const oldest = sent[0];
  return oldest ? ((await withUnsent(db, ownerUserId, [oldest]))[0] ?? null) : null;
}

// ---------------------------------------------------------------------------------------------------
// Writes.

export interface RegistryActionContext {
  db: AppDatabase;
  /** The signed-in user: the owner of the rows and who acts. */
  actor: { id: string; fullName: string };
  /** The user as the permission rules see them in the registry's company. */
  member: Pick<MemberView, 'userId' | 'roles'>;
  now?: () => Date;
  /** Told after the write committed (the app drains the outbox). */
  afterWrite?: () => void;
  /** A new registry's id (the device makes it, so an offline send replays as the same registry). */
  newId?: () => string;
}

function historyEntry(at: string, action: RegistryAction, fromStatus: RegistryStatus, toStatus: RegistryStatus, actor: RegistryActionContext['actor'], comment: string | null): RegistryHistoryEntry {
  return { at, action, fromStatus, toStatus, byUserId: actor.id, byName: actor.fullName, comment };
}

function commentOf(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Whether the two lists hold the same ids (any order). */
function sameIds(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return a.length === b.length && set.size === new Set(b).size && b.every((id) => set.has(id));
}

/**
 * Sends the open registry to the owner: `projectIds` are the projects the sender saw in it (the page's list); when
 * the open registry on the device no longer holds exactly those, nothing is stored (`changed`: the page shows the
 * new list). Makes a local SENT registry (number 0) with their snapshot, sets their registryId, queues the send.
 * Throws `RegistryRefusedError` (nothing stored) or `StorageQuotaError`. Returns the registry as stored.
 */
export async function sendRegistry(context: RegistryActionContext, companyId: string, projectIds: readonly string[]): Promise<Registry> {
  const { db, actor } = context;
  const verdict = registryTransition('SEND', { status: 'OPEN', projectCount: projectIds.length }, context.member.roles);
  if (!verdict.ok) throw refusalOf(verdict.code, 'OPEN');
  const now = (context.now ?? (() => new Date()))();
  const id = (context.newId ?? (() => crypto.randomUUID()))();
  const body = checked(RegistrySendInput, { id, projectIds: [...projectIds] });
  const registry = await writeWithOutbox(db, [db.projects, db.registries, db.employees], async () => {
    const projects = await openProjects(db, actor.id, companyId);
    if (!sameIds(projects.map((project) => project.id), body.projectIds)) throw new RegistryRefusedError('changed');
    const names = await managerNames(db, actor.id, companyId, projects);
    const items = projects.map((project) => itemOfProject(project, names.get(project.projectManagerEmployeeId) ?? null));
    const at = now.toISOString();
    const local: Registry = {
      id,
      companyId,
      number: UNNUMBERED,
      status: verdict.to,
      items,
      totals: registryTotals(items),
      sentByUserId: actor.id,
      sentByName: actor.fullName,
      sentAt: at,
      decidedByUserId: null,
      decidedByName: null,
      decidedAt: null,
      comment: null,
      history: [historyEntry(at, 'SEND', verdict.from, verdict.to, actor, null)],
      createdAt: at,
      updatedAt: at,
    };
    await db.registries.put({ ...local, ownerUserId: actor.id });
    await db.projects.bulkPut(projects.map((project) => ({ ...project, registryId: id, ownerUserId: actor.id })));
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: REGISTRY_SEND_KIND,
      method: 'POST',
      path: `${registryApiPath(companyId)}/send`,
      body: { id: body.id, projectIds: projects.map((project) => project.id) },
      entityKey: entityKeyOf('registries', id),
      now: now.getTime(),
    });
    return local;
  });
  context.afterWrite?.();
  return registry;
}

/** The device's copy of the registry, checked; `missing` when it is not there or belongs to another company. */
async function localRegistry(db: AppDatabase, ownerUserId: string, companyId: string, registryId: string): Promise<Registry> {
  const stored = await db.registries.get([ownerUserId, registryId]);
  const registry = stored ? checkRows(Registry, [stored], 'registries').rows[0] : undefined;
  if (!registry || registry.companyId !== companyId) throw new RegistryRefusedError('missing');
  return registry;
}

/** The items with the owner's adjustments written in (an adjustment naming no item of the registry is refused). */
export function adjustItems(items: readonly RegistryItem[], adjustments: RegistryApproveInput['adjustments']): RegistryItem[] {
  const held = new Set(items.map((item) => item.projectId.toLowerCase()));
  const errors: FieldErrors = {};
  adjustments.forEach((adjustment, index) => {
    if (!held.has(adjustment.projectId.toLowerCase())) errors[`adjustments.${index}.projectId`] = 'notInRegistry';
  });
  if (Object.keys(errors).length > 0) throw new RegistryRefusedError('invalid', errors);
  const byProject = new Map(adjustments.map((adjustment) => [adjustment.projectId.toLowerCase(), adjustment]));
  return items.map((item) => {
    const adjustment = byProject.get(item.projectId.toLowerCase());
    return adjustment ? { ...item, finalCostMinor: adjustment.finalCostMinor, adjustmentReason: adjustment.reason.trim() } : item;
  });
}

interface Decision {
  action: 'APPROVE' | 'RETURN';
  kind: string;
  suffix: string;
  body: unknown;
  comment: string | null;
  /** The registry after the decision (status, decided fields and history are added by `decide`). */
  apply: (registry: Registry) => Registry;
}

/** Reads the registry, checks the move, stores the decided registry (and for a return its projects) with the outbox row. */
async function decide(context: RegistryActionContext, companyId: string, registryId: string, decision: Decision): Promise<Registry> {
  const { db, actor } = context;
  const now = (context.now ?? (() => new Date()))();
  const decided = await writeWithOutbox(db, [db.registries, db.projects], async () => {
    const registry = await localRegistry(db, actor.id, companyId, registryId);
    const verdict = registryTransition(decision.action, { status: registry.status, projectCount: registry.items.length }, context.member.roles, { comment: decision.comment });
    if (!verdict.ok) throw refusalOf(verdict.code, registry.status);
    const at = now.toISOString();
    const next: Registry = {
      ...decision.apply(registry),
      status: verdict.to,
      decidedByUserId: actor.id,
      decidedByName: actor.fullName,
      decidedAt: at,
      comment: decision.comment,
      history: [...registry.history, historyEntry(at, decision.action, verdict.from, verdict.to, actor, decision.comment)],
      updatedAt: at,
    };
    await db.registries.put({ ...next, ownerUserId: actor.id });
    if (verdict.to === 'RETURNED') {
      const held = await db.projects.where('registryId').equals(registryId).filter((project) => project.ownerUserId === actor.id).toArray();
      await db.projects.bulkPut(held.map((project) => ({ ...project, registryId: null })));
    }
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: decision.kind,
      method: 'POST',
      path: `${registryApiPath(companyId, registryId)}${decision.suffix}`,
      body: decision.body,
      entityKey: entityKeyOf('registries', registryId),
      now: now.getTime(),
    });
    return next;
  });
  context.afterWrite?.();
  return decided;
}

/**
 * The owner's approval of a SENT registry: each adjustment (a project of the registry, its final cost, a reason)
 * written into its item, the totals recomputed; an optional comment. Throws `RegistryRefusedError` (nothing
 * stored) or `StorageQuotaError`. Returns the registry as stored.
 */
export async function approveRegistry(context: RegistryActionContext, companyId: string, registryId: string, raw: RegistryApproveInput): Promise<Registry> {
  const input = checked(RegistryApproveInput, raw);
  const comment = commentOf(input.comment);
  const adjustments = input.adjustments.map((adjustment) => ({ projectId: adjustment.projectId, finalCostMinor: adjustment.finalCostMinor, reason: adjustment.reason.trim() }));
  return decide(context, companyId, registryId, {
    action: 'APPROVE',
    kind: REGISTRY_APPROVE_KIND,
    suffix: '/approve',
    body: { adjustments, comment },
    comment,
    apply: (registry) => {
      const items = adjustItems(registry.items, adjustments);
      return { ...registry, items, totals: registryTotals(items) };
    },
  });
}

/**
 * The owner's return of a SENT registry with a comment (required): its projects go back to the open registry.
 * Throws `RegistryRefusedError` (nothing stored) or `StorageQuotaError`. Returns the registry as stored.
 */
export async function returnRegistry(context: RegistryActionContext, companyId: string, registryId: string, raw: RegistryReturnInput): Promise<Registry> {
  const comment = commentOf(raw.comment);
  if (comment === null) throw new RegistryRefusedError('invalid', { comment: 'required' });
  const input = checked(RegistryReturnInput, { comment });
  return decide(context, companyId, registryId, { action: 'RETURN', kind: REGISTRY_RETURN_KIND, suffix: '/return', body: input, comment, apply: (registry) => registry });
}

/**
 * The replayer's success handler of the registry kinds: the server's registry replaces the device's copy (a send's
 * local number 0 becomes the server's number; the pull brings its projects). While a later change of the same
 * registry still waits, the device's copy (which already shows that change) stays and the registry is marked to be
 * fetched again once its rows are gone; an answer that fails the struct or names another registry is fetched again
 * too.
 */
export const storeAnsweredRegistry: SuccessHandler = async ({ db, row, data }) => {
  const later = await db.outbox
    .where('[ownerUserId+entityKey]')
    .equals([row.ownerUserId, row.entityKey])
    .filter((other) => other.seq !== row.seq)
    .count();
  const isUsable = Registry.is(data) && entityKeyOf('registries', data.id) === row.entityKey;
  if (!isUsable || later > 0) {
    if (!isUsable) console.warn('The server answered a registry that does not match its struct; the next pull fetches it again');
    await markStale(db, row.ownerUserId, [row.entityKey]);
    return;
  }
  await db.registries.put({ ...data, ownerUserId: row.ownerUserId });
};

// ---------------------------------------------------------------------------------------------------
// Exports (online only).

export type RegistryExportFormat = 'xlsx' | 'pdf';

export interface RegistryExport {
  blob: Blob;
  fileName: string;
}

/**
 * `GET /companies/{c}/registry/{id}/export?format=` as a Blob, through the HTTP client (bearer token, the one shared
 * refresh, `Language` picks the file's language). Rejects with `HttpError` (status 0 when nothing answered).
 */
export async function fetchRegistryExport(http: Pick<HttpClient, 'getFile'>, companyId: string, registry: Pick<Registry, 'id' | 'number'>, format: RegistryExportFormat): Promise<RegistryExport> {
  const { blob, fileName } = await http.getFile(`${registryApiPath(companyId, registry.id)}/export`, { format });
  return { blob, fileName: fileName ?? `registry-${registry.number}.${format}` };
}
