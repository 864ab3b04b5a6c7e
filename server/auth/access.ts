// The one access check of every company route: the caller must be an active member of the company,
// else 404 exactly like a missing id (another tenant's ids are never confirmed). Answers what the
// permission rules of src/domain/permissions.ts need.

import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import { isUuid } from '../../src/domain/suggestion';
import { COMPANY_WIDE_SUGGESTION_ROLES, hasPermission, type MemberView, type Permission } from '../../src/domain/permissions';
import { missingForStart } from '../../src/domain/company';
import type { Queryable } from '../db/database';
import type { DB } from '../db/kysely';
import { AppError } from '../errors';

export interface Membership extends MemberView {
  companyId: string;
}

export async function findMembership(db: Queryable, userId: string, companyId: string): Promise<Membership | null> {
  // Not a uuid: no company's id (and no cast error from the uuid column).
  if (!isUuid(companyId)) return null;
  const row = await db.kysely
    .selectFrom('company_members as m')
    .select((eb) => [
      'm.roles',
      eb
        .selectFrom('departments as d')
        .whereRef('d.company_id', '=', 'm.company_id')
        .whereRef('d.head_user_id', '=', 'm.user_id')
        .select((d) => d.fn.agg<string[]>('array_agg', [d.cast('d.id', 'text')]).as('ids'))
        .as('heads'),
    ])
    .where('m.company_id', '=', companyId)
    .where('m.user_id', '=', userId)
    .where('m.active', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  return { companyId, userId, roles: row.roles, headOfDepartmentIds: row.heads ?? [] };
}

/** The caller's membership of `companyId`, or 404. */
export async function requireMember(db: Queryable, user: { id: string }, companyId: string): Promise<Membership> {
  const membership = await findMembership(db, user.id, companyId);
  if (!membership) throw new AppError('notFound', 404);
  return membership;
}

/** The companies the user is an active member of, as `GET /user` lists them. */
export function membershipsOf(db: Queryable, userId: string): Promise<{ id: string; name: string; roles: string[] }[]> {
  return db.kysely
    .selectFrom('company_members as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['c.id', 'c.name', 'm.roles'])
    .where('m.user_id', '=', userId)
    .where('m.active', '=', true)
    .orderBy('c.name')
    .orderBy('c.id')
    .execute();
}

/**
 * The one access check of every company route (deny by default): the caller's membership of `companyId`
 * when it holds `permission` (src/domain/permissions.ts). Not a member, or a missing or malformed id: 404
 * `notFound`, exactly alike, so another tenant's ids are never confirmed. A member without the right: 403
 * `forbidden`, before anything is read or changed.
 */
export async function requireAccess(db: Queryable, user: { id: string }, companyId: string, permission: Permission): Promise<Membership> {
  const membership = await requireMember(db, user, companyId);
  if (!hasPermission(membership.roles, permission)) throw new AppError('forbidden', 403);
  return membership;
}

/** The platform admin (role ADMIN / authority ROLE_ADMIN), else 403. */
export function requireAdmin(user: { role: string; authorities: readonly string[] }): void {
  if (user.role !== 'ADMIN' && !user.authorities.includes('ROLE_ADMIN')) throw new AppError('forbidden', 403);
}

/** The roles of each active member of the company who holds at least one, for `missingForStart`. */
export async function activeMemberRoles(db: Queryable, companyId: string): Promise<string[][]> {
  const rows = await db.kysely.selectFrom('company_members').select('roles').where('company_id', '=', companyId).where('active', '=', true).execute();
  return rows.map((r) => r.roles);
}

/** 409 `companyNotReady` naming what is missing, when the company may not start its improvement flow yet. */
export async function requireReadyToStart(db: Queryable, companyId: string): Promise<void> {
  const missing = missingForStart(await activeMemberRoles(db, companyId));
  if (missing.length > 0) throw new AppError('companyNotReady', 409, { valueIds: { missing: missing.map((m) => `company.requirement.${m}`) } });
}

// ---------------------------------------------------------------------------------------------------
// Entity access, in the style of Immich's `requireAccess({ actor, permission, ids })`: for permissions on
// things rather than on a company, one query per permission answers which of the ids the user may use. Deny by
// default; an id the user may not use answers 404 exactly like a missing one. The rules are those of
// src/domain/permissions.ts, written here once as queries.

export type EntityPermission =
  /** A proposal: its author, the head of its department, and the company-wide roles (canSeeSuggestion). */
  | 'suggestion.read'
  /**
   * A file: its uploader while it is not attached to a proposal or a project; a proposal's photo, whoever may
   * read the proposal; a project's photo and a company's logo, every member of the company.
   */
  | 'file.read';

/** The tables of the entity rules, under the aliases the rules name them by. */
type EntityScope = DB & { s: DB['suggestions']; m: DB['company_members'] };

/** The proposal `s` is readable by `userId`, the active member `m` of its company (canSeeSuggestion). */
function suggestionReadable(userId: string): Expression<SqlBool> {
  const eb = expressionBuilder<EntityScope, 's' | 'm'>();
  return eb.or([
    eb('s.author_id', '=', userId),
    eb('m.roles', '&&', eb.val([...COMPANY_WIDE_SUGGESTION_ROLES])),
    eb.exists(
      eb
        .selectFrom('departments as d')
        .select('d.id')
        .whereRef('d.company_id', '=', 's.company_id')
        .whereRef('d.id', '=', 's.department_id')
        .where('d.head_user_id', '=', userId),
    ),
  ]);
}

/** One query per permission: which of `ids` (well-formed, lower-case uuids) `userId` may use. */
const ENTITY_QUERIES: Record<EntityPermission, (db: Queryable, userId: string, ids: readonly string[]) => Promise<{ id: string }[]>> = {
  'suggestion.read': (db, userId, ids) =>
    db.kysely
      .selectFrom('suggestions as s')
      .innerJoin('company_members as m', (join) => join.onRef('m.company_id', '=', 's.company_id').on('m.user_id', '=', userId).on('m.active', '=', true))
      .select('s.id')
      .where('s.id', 'in', ids)
      .where(suggestionReadable(userId))
      .execute(),
  'file.read': (db, userId, ids) =>
    db.kysely
      .selectFrom('files as f')
      .select('f.id')
      .where('f.id', 'in', ids)
      .where((eb) => {
        const photoOf = eb.selectFrom('suggestion_images as si').select('si.file_id').whereRef('si.file_id', '=', 'f.id');
        const projectPhotoOf = eb.selectFrom('project_images as pi').select('pi.file_id').whereRef('pi.file_id', '=', 'f.id');
        return eb.or([
          // Its uploader, while it is not a proposal's or a project's photo.
          eb.and([eb('f.owner_id', '=', userId), eb.not(eb.exists(photoOf)), eb.not(eb.exists(projectPhotoOf))]),
          // A project's photo (issue 12): every member of the project's company (all of them see its projects).
          eb.exists(
            projectPhotoOf.innerJoin('company_members as m', (join) => join.onRef('m.company_id', '=', 'pi.company_id').on('m.user_id', '=', userId).on('m.active', '=', true)),
          ),
          // A proposal's photo: whoever may read the proposal.
          eb.exists(
            photoOf
              .innerJoin('suggestions as s', (join) => join.onRef('s.company_id', '=', 'si.company_id').onRef('s.id', '=', 'si.suggestion_id'))
              .innerJoin('company_members as m', (join) => join.onRef('m.company_id', '=', 's.company_id').on('m.user_id', '=', userId).on('m.active', '=', true))
              .where(suggestionReadable(userId)),
          ),
          // A company's logo: every member of the company.
          eb.exists(
            eb
              .selectFrom('companies as c')
              .innerJoin('company_members as m', (join) => join.onRef('m.company_id', '=', 'c.id').on('m.user_id', '=', userId).on('m.active', '=', true))
              .select('c.id')
              .whereRef('c.logo_image_id', '=', 'f.id'),
          ),
        ]);
      })
      .execute(),
};

/** The ids among `ids` that `user` may use under `permission` (malformed ids are never allowed). */
export async function allowedIds(db: Queryable, user: { id: string }, permission: EntityPermission, ids: readonly string[]): Promise<Set<string>> {
  const wellFormed = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (wellFormed.length === 0) return new Set();
  const rows = await ENTITY_QUERIES[permission](db, user.id, wellFormed);
  return new Set(rows.map((row) => row.id));
}

/** 404 `notFound` unless `user` may use every one of `ids` under `permission`. */
export async function requireEntityAccess(db: Queryable, user: { id: string }, permission: EntityPermission, ids: readonly string[]): Promise<void> {
  const allowed = await allowedIds(db, user, permission, ids);
  if (ids.length === 0 || ids.some((id) => !allowed.has(id.toLowerCase()))) throw new AppError('notFound', 404);
}
