// The registry (docs/api.md, "Registry", issue 13): the company's open registry (its APPROVED and COMPLETED
// projects not yet sent), sending it to the owner, and the owner's approval (with adjusted final costs) or return.
// The rules are those of src/domain/registry.ts (REGISTRY_TRANSITIONS), which the client reads too.
// What it guarantees:
//   - a send takes the company's registry lock first (its company row, FOR NO KEY UPDATE: inserts naming the
//     company still go on), so two sends never draw the same number; then it locks the named projects (in id
//     order, so two sends never deadlock) and only then checks them: a project sent meanwhile in another registry
//     is a 409 naming that registry, its sender and when; one not in the open registry a 400 on its index; nothing
//     is ever sent partially;
//   - a sent registry holds snapshots of its projects' figures as they stood when it was sent (name, department,
//     project manager, currency, estimated costs, effect, remuneration): later changes of a project never move
//     them; its totals are registryTotals(items), recomputed with the owner's adjusted final costs at approval;
//   - a decision locks the registry row first (FOR UPDATE), so of two decisions the later one sees the earlier
//     and is refused with 409 naming it (who decided and when, in the request's language, the time in the company's
//     time zone and naming it, as every time the company's documents print); an APPROVED registry
//     never changes again (and the trigger of migration 0013 refuses any UPDATE of one, the last guard);
//   - a return gives the registry's projects back to the open registry in the same transaction;
//   - every write appends its history entry and writes its notifications in the caller's transaction, or nothing;
//   - another company's registry or project, a missing id and a malformed one are all simply not found (404) or,
//     for the projects of a send, not in the open registry (400): nothing of another tenant is confirmed.

import { sql } from 'kysely';
import type { Locale } from '../../../src/domain/auth';
import type { NotificationKind } from '../../../src/domain/notification';
import {
  REGISTRY_PROJECT_STATUSES,
  finalCostOf,
  registryTotals,
  registryTransition,
  type CurrencyTotals,
  type Registry,
  type RegistryAction,
  type RegistryApproveInput,
  type RegistryHistoryEntry,
  type RegistryItem,
  type RegistryReturnInput,
  type RegistrySendInput,
} from '../../../src/domain/registry';
import { CURRENCIES, isUuid } from '../../../src/domain/suggestion';
import { formatInTimeZone } from '../../../src/domain/time-format';
import type { FieldErrors } from '../../../src/domain/validation';
import type { Membership } from '../../auth/access';
import { fullNameOf, type UserRow } from '../../auth/users';
import { isUniqueViolation, type Queryable } from '../../db/database';
import { AppError, type AppErrorExtras } from '../../errors';
import { translate } from '../../i18n/messages';
import { companyTimeZone } from '../companies/service';
import { notify } from '../notifications/service';
import { selectProjects, toProject } from '../projects/rows';
import { selectRegistries, toRegistry, type RegistryRow } from './rows';

/** The open registry: the projects waiting to be sent, as items built from them now, and their totals. */
export interface OpenRegistry {
  items: RegistryItem[];
  totals: CurrencyTotals[];
}

/** `GET /companies/{companyId}/registry`. */
export interface RegistryOverview {
  open: OpenRegistry;
  /** The sent registries (SENT, APPROVED, RETURNED), newest number first. */
  registries: Registry[];
}

/** What a write answers: the registry as it now stands and the id of the message saying what happened. */
export interface RegistryOutcome {
  registry: Registry;
  /** A `mail.notice.*` id, worded with the registry's `number`. */
  message: string;
  /** 201 for a send, 200 for a decision. */
  status: 200 | 201;
}

/**
 * What every write needs besides its input: the service's "now". A 409's words are translated where the error is
 * answered, and its time is the same text in both languages (`momentOf`), so a write needs no language.
 */
export interface RegistryCall {
  now: Date;
}

const fieldErrors = (errors: FieldErrors) => new AppError('validation', 400, { fieldErrors: errors });

/** A comment as stored: trimmed, an empty one none at all. */
function commentOf(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * An instant in a 409's words: the day and the time in the company's time zone, naming it
 * (`24.11.2026, 10:00 (Europe/Moscow, UTC+3)`), as the registry's exports and the company's screens print it.
 */
async function momentOf(tx: Queryable, companyId: string, at: Date): Promise<string> {
  return formatInTimeZone(at, await companyTimeZone(tx, companyId));
}

// ---------------------------------------------------------------------------------------------------
// The projects as registry items.

/** The company's projects with their manager's name (the employee record's, as it stands). */
function selectRegistryProjects(db: Queryable, companyId: string) {
  return selectProjects(db)
    .select(['pm.last_name as pm_last_name', 'pm.first_name as pm_first_name', 'pm.middle_name as pm_middle_name'])
    .where('p.company_id', '=', companyId);
}

type RegistryProjectRow = Awaited<ReturnType<ReturnType<typeof selectRegistryProjects>['executeTakeFirstOrThrow']>>;

/** The open registry's order, also the order of a sent registry's items: when approved, then by name. */
function inRegistryOrder<Q extends ReturnType<typeof selectRegistryProjects>>(query: Q): Q {
  return query
    .orderBy('p.approved_at', (order) => order.asc().nullsLast())
    .orderBy('p.name')
    .orderBy('p.id') as Q;
}

/** A project as a registry item: its figures now (a send stores them as its snapshot), no adjustment yet. */
function itemOf(row: RegistryProjectRow): RegistryItem {
  const project = toProject(row);
  // 'Фамилия Имя Отчество', as a project's team names its members; null when the employee row is gone.
  const manager = [row.pm_last_name, row.pm_first_name, row.pm_middle_name].filter(Boolean).join(' ') || null;
  return {
    projectId: project.id,
    name: project.name,
    departmentId: project.departmentId,
    projectManagerName: manager,
    currency: project.currency,
    // An approved project was calculated: both figures are known (0 stands in for a row that predates them).
    estimatedCostsMinor: project.estimatedCostsMinor ?? 0,
    expectedEffect12mMinor: project.expectedEffect12mMinor ?? 0,
    remunerationMinor: project.remunerationMinor ?? 0,
    finalCostMinor: null,
    adjustmentReason: null,
  };
}

/**
 * The totals of a registry about to be written, exact (the figures of record), or 400 `field: amountRange` when a
 * sum passes 2^53 minor units (90 trillion roubles: only absurd figures reach it, and they are refused, not rounded).
 */
function totalsOrRefuse(items: readonly RegistryItem[], field: string): CurrencyTotals[] {
  try {
    return registryTotals(items);
  } catch (error) {
    if (error instanceof RangeError) throw fieldErrors({ [field]: 'amountRange' });
    throw error;
  }
}

/**
 * The open registry's totals: a preview, which must answer whatever the projects hold. Exact as registryTotals
 * wherever they can be; a sum past 2^53 minor units is held at Number.MAX_SAFE_INTEGER (as ratioBasisPoints holds
 * its ratios) instead of failing the whole page. A send of such projects is refused (totalsOrRefuse).
 */
function previewTotals(items: readonly RegistryItem[]): CurrencyTotals[] {
  try {
    return registryTotals(items);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const held = (value: bigint) => (value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value));
  const sum = (rows: readonly RegistryItem[], figure: (item: RegistryItem) => number) => held(rows.reduce((total, item) => total + BigInt(figure(item)), 0n));
  return CURRENCIES.flatMap((currency) => {
    const rows = items.filter((item) => item.currency === currency);
    if (rows.length === 0) return [];
    return [
      {
        currency,
        projects: rows.length,
        estimatedCostsMinor: sum(rows, (item) => item.estimatedCostsMinor),
        finalCostsMinor: sum(rows, finalCostOf),
        expectedEffect12mMinor: sum(rows, (item) => item.expectedEffect12mMinor),
        remunerationMinor: sum(rows, (item) => item.remunerationMinor),
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------------
// Reads.

/** The open registry of the member's company. */
export async function readOpenRegistry(db: Queryable, member: Membership): Promise<OpenRegistry> {
  const rows = await inRegistryOrder(
    selectRegistryProjects(db, member.companyId)
      .where('p.registry_id', 'is', null)
      .where('p.status', 'in', [...REGISTRY_PROJECT_STATUSES]),
  ).execute();
  const items = rows.map(itemOf);
  return { items, totals: previewTotals(items) };
}

/** `GET /companies/{companyId}/registry`: the open registry and the sent ones, newest number first. */
export async function readRegistryOverview(db: Queryable, member: Membership): Promise<RegistryOverview> {
  const open = await readOpenRegistry(db, member);
  const rows = await selectRegistries(db).where('r.company_id', '=', member.companyId).orderBy('r.number', 'desc').execute();
  return { open, registries: rows.map(toRegistry) };
}

/** The registry `id` of the member's company; 404 when there is none (a malformed id names none). */
export async function readRegistry(db: Queryable, member: Membership, id: string): Promise<Registry> {
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const row = await selectRegistries(db).where('r.company_id', '=', member.companyId).where('r.id', '=', id.toLowerCase()).executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  return toRegistry(row);
}

// ---------------------------------------------------------------------------------------------------
// Notices.

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

async function tell(tx: Queryable, registry: Registry, actor: UserRow, to: { userIds: readonly (string | null)[]; kind: NotificationKind; comment: string | null }, now: Date): Promise<void> {
  await notify(
    tx,
    {
      companyId: registry.companyId,
      userIds: to.userIds,
      actorId: actor.id,
      kind: to.kind,
      suggestionId: null,
      registryId: registry.id,
      params: { number: String(registry.number), byName: fullNameOf(actor), comment: to.comment },
    },
    now,
  );
}

// ---------------------------------------------------------------------------------------------------
// Send.

/** Takes the company's registry lock: held to the end of the transaction, so sends of one company take turns. */
async function lockCompanyRegistry(tx: Queryable, companyId: string): Promise<void> {
  await tx.kysely.selectFrom('companies').select('id').where('id', '=', companyId).forNoKeyUpdate().execute();
}

/** 409 `registry.projectSent`: `projectName` is in the registry `registryId` already; names it, who sent it and when. */
async function projectSent(tx: Queryable, companyId: string, projectName: string, registryId: string): Promise<AppError> {
  const holder = await tx.kysely
    .selectFrom('registries')
    .select(['number', 'sent_by_name', 'sent_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', registryId)
    .executeTakeFirstOrThrow();
  const at = await momentOf(tx, companyId, holder.sent_at);
  return new AppError('registry.projectSent', 409, { values: { project: projectName, number: String(holder.number), name: holder.sent_by_name, at } });
}

/**
 * `POST /companies/{companyId}/registry/send`: a SENT registry of the named projects of the open registry, numbered
 * after the company's last one; the projects leave the open registry; every owner is told.
 */
export async function sendRegistry(tx: Queryable, member: Membership, user: UserRow, input: RegistrySendInput, call: RegistryCall): Promise<RegistryOutcome> {
  const { now } = call;
  const verdict = registryTransition('SEND', { status: 'OPEN', projectCount: input.projectIds.length }, member.roles);
  if (!verdict.ok) {
    if (verdict.code === 'forbidden') throw new AppError('forbidden', 403);
    throw fieldErrors({ projectIds: 'required' });
  }
  await lockCompanyRegistry(tx, member.companyId);
  const id = input.id.toLowerCase();
  // Registry ids are unique across companies (registries_id_key): a taken one is taken, whoever holds it.
  const taken = await tx.kysely.selectFrom('registries').select('id').where('id', '=', id).executeTakeFirst();
  if (taken) throw new AppError('registry.exists', 409);

  const projectIds = input.projectIds.map((projectId) => projectId.toLowerCase());
  await tx.kysely
    .selectFrom('projects')
    .select('id')
    .where('company_id', '=', member.companyId)
    .where('id', '=', (eb) => eb.fn.any(eb.val(projectIds)))
    .orderBy('id')
    .forUpdate()
    .execute();
  const rows = await inRegistryOrder(selectRegistryProjects(tx, member.companyId).where('p.id', '=', (eb) => eb.fn.any(eb.val(projectIds)))).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));

  // The world changed first (409), then the request itself (400).
  for (const projectId of projectIds) {
    const row = byId.get(projectId);
    if (row?.registry_id) throw await projectSent(tx, member.companyId, row.name, row.registry_id);
  }
  const errors: FieldErrors = {};
  projectIds.forEach((projectId, index) => {
    const row = byId.get(projectId);
    if (!row || !(REGISTRY_PROJECT_STATUSES as readonly string[]).includes(row.status)) errors[`projectIds.${index}`] = 'notInOpenRegistry';
  });
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);

  const last = await tx.kysely
    .selectFrom('registries')
    .select((eb) => eb.fn.max<number | null>('number').as('number'))
    .where('company_id', '=', member.companyId)
    .executeTakeFirst();
  const number = (last?.number ?? 0) + 1;
  const items = rows.map(itemOf);
  const totals = totalsOrRefuse(items, 'projectIds');
  const byName = fullNameOf(user);
  const history: RegistryHistoryEntry[] = [{ at: now.toISOString(), action: 'SEND', fromStatus: verdict.from, toStatus: verdict.to, byUserId: user.id, byName, comment: null }];
  try {
    await tx.kysely
      .insertInto('registries')
      .values({
        company_id: member.companyId,
        id,
        number,
        status: 'SENT',
        items: JSON.stringify(items),
        totals: JSON.stringify(totals),
        sent_by: user.id,
        sent_by_name: byName,
        sent_at: now,
        history: JSON.stringify(history),
        created_at: now,
        updated_at: now,
      })
      .execute();
  } catch (error) {
    // Taken between the check and the insert (by another company's send: this company's wait on its lock).
    if (isUniqueViolation(error)) throw new AppError('registry.exists', 409);
    throw error;
  }
  await tx.kysely
    .updateTable('projects')
    .set((eb) => ({ registry_id: id, updated_at: eb.fn<Date>('clock_timestamp') }))
    .where('company_id', '=', member.companyId)
    .where('id', '=', (eb) => eb.fn.any(eb.val(projectIds)))
    .execute();
  const registry = await readRegistry(tx, member, id);
  await tell(tx, registry, user, { userIds: await membersWithRoles(tx, member.companyId, ['OWNER']), kind: 'REGISTRY_SENT', comment: null }, now);
  return { registry, message: 'mail.notice.registrySent', status: 201 };
}

// ---------------------------------------------------------------------------------------------------
// The owner's decisions.

/** The registry `id` of the member's company, locked for the rest of the transaction; 404 when there is none. */
async function lockRegistry(tx: Queryable, member: Membership, id: string): Promise<RegistryRow> {
  // A push batch hands the path's id over as written: one that is no uuid names nothing.
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const row = await selectRegistries(tx).where('r.company_id', '=', member.companyId).where('r.id', '=', id.toLowerCase()).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  return row;
}

/** 409 `registry.decided`: the registry was approved or returned already; names it, who decided and when. */
async function alreadyDecided(tx: Queryable, row: RegistryRow): Promise<AppError> {
  const at = await momentOf(tx, row.company_id, row.decided_at ?? row.updated_at);
  const extras: AppErrorExtras = row.decided_by_name
    ? { values: { number: String(row.number), status: row.status, name: row.decided_by_name, at } }
    : { values: { number: String(row.number), status: row.status, at }, valueIds: { name: ['error.suggestionSomeone'] } };
  return new AppError('registry.decided', 409, extras);
}

/** Whether `member` may take `action` on the locked registry now; the refusals in the domain's order. */
async function requireDecision(
  tx: Queryable,
  action: RegistryAction,
  row: RegistryRow,
  member: Membership,
  comment: string | null,
): Promise<{ from: Registry['status']; to: Registry['status'] }> {
  const verdict = registryTransition(action, { status: row.status, projectCount: row.items.length }, member.roles, { comment });
  if (verdict.ok) return verdict;
  if (verdict.code === 'forbidden') throw new AppError('forbidden', 403);
  if (verdict.code === 'wrongState') throw await alreadyDecided(tx, row);
  throw fieldErrors({ comment: 'required' });
}

/** The owner's adjustments written into the items (400 on an adjustment naming a project the registry lacks). */
function adjustedItems(items: readonly RegistryItem[], adjustments: RegistryApproveInput['adjustments']): RegistryItem[] {
  const held = new Set(items.map((item) => item.projectId));
  const errors: FieldErrors = {};
  adjustments.forEach((adjustment, index) => {
    if (!held.has(adjustment.projectId.toLowerCase())) errors[`adjustments.${index}.projectId`] = 'notInRegistry';
  });
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  const byProject = new Map(adjustments.map((adjustment) => [adjustment.projectId.toLowerCase(), adjustment]));
  return items.map((item) => {
    const adjustment = byProject.get(item.projectId);
    return adjustment ? { ...item, finalCostMinor: adjustment.finalCostMinor, adjustmentReason: adjustment.reason.trim() } : item;
  });
}

function historyEntry(action: RegistryAction, move: { from: Registry['status']; to: Registry['status'] }, user: UserRow, comment: string | null, now: Date): RegistryHistoryEntry {
  return { at: now.toISOString(), action, fromStatus: move.from, toStatus: move.to, byUserId: user.id, byName: fullNameOf(user), comment };
}

/**
 * `POST .../registry/{registryId}/approve`: the owner approves a SENT registry, the adjusted final costs (each with
 * its reason) written into its items and its totals recomputed; from then on it never changes. The sender is told.
 */
export async function approveRegistry(tx: Queryable, member: Membership, user: UserRow, id: string, input: RegistryApproveInput, call: RegistryCall): Promise<RegistryOutcome> {
  const { now } = call;
  const row = await lockRegistry(tx, member, id);
  const comment = commentOf(input.comment);
  const move = await requireDecision(tx, 'APPROVE', row, member, comment);
  const items = adjustedItems(row.items, input.adjustments);
  const totals = totalsOrRefuse(items, 'adjustments');
  await tx.kysely
    .updateTable('registries')
    .set({
      status: move.to,
      items: JSON.stringify(items),
      totals: JSON.stringify(totals),
      decided_by: user.id,
      decided_by_name: fullNameOf(user),
      decided_at: now,
      decision_comment: comment,
      history: JSON.stringify([...row.history, historyEntry('APPROVE', move, user, comment, now)]),
      updated_at: now,
    })
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .execute();
  const registry = await readRegistry(tx, member, row.id);
  await tell(tx, registry, user, { userIds: [row.sent_by], kind: 'REGISTRY_APPROVED', comment }, now);
  return { registry, message: 'mail.notice.registryApproved', status: 200 };
}

/**
 * `POST .../registry/{registryId}/return`: the owner returns a SENT registry with a comment; its projects go back
 * to the open registry (they may be sent again, in a new registry). The sender is told.
 */
export async function returnRegistry(tx: Queryable, member: Membership, user: UserRow, id: string, input: RegistryReturnInput, call: RegistryCall): Promise<RegistryOutcome> {
  const { now } = call;
  const row = await lockRegistry(tx, member, id);
  const comment = commentOf(input.comment);
  const move = await requireDecision(tx, 'RETURN', row, member, comment);
  await tx.kysely
    .updateTable('registries')
    .set({
      status: move.to,
      decided_by: user.id,
      decided_by_name: fullNameOf(user),
      decided_at: now,
      decision_comment: comment,
      history: JSON.stringify([...row.history, historyEntry('RETURN', move, user, comment, now)]),
      updated_at: now,
    })
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .execute();
  await tx.kysely
    .updateTable('projects')
    .set({ registry_id: null, updated_at: sql<Date>`clock_timestamp()` })
    .where('company_id', '=', row.company_id)
    .where('registry_id', '=', row.id)
    .execute();
  const registry = await readRegistry(tx, member, row.id);
  await tell(tx, registry, user, { userIds: [row.sent_by], kind: 'REGISTRY_RETURNED', comment }, now);
  return { registry, message: 'mail.notice.registryReturned', status: 200 };
}

/** The success message of a write, worded with the registry's number in `locale`. */
export function messageOf(outcome: RegistryOutcome, locale: Locale): string {
  return translate(locale, outcome.message, { number: String(outcome.registry.number) });
}
