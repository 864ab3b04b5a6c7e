// The one access check of every company route: the caller must be an active member of the company,
// else 404 exactly like a missing id (another tenant's ids are never confirmed). Answers what the
// permission rules of src/domain/permissions.ts need.

import { isUuid } from '../../src/domain/suggestion';
import { COMPANY_WIDE_SUGGESTION_ROLES, hasPermission, type MemberView, type Permission } from '../../src/domain/permissions';
import { missingForStart } from '../../src/domain/company';
import type { Queryable } from '../db/database';
import { AppError } from '../errors';

export interface Membership extends MemberView {
  companyId: string;
}

export async function findMembership(db: Queryable, userId: string, companyId: string): Promise<Membership | null> {
  if (!isUuid(companyId)) return null;
  const row = await db.one<{ roles: string[]; heads: string[] | null }>(
    `SELECT m.roles,
            (SELECT array_agg(d.id::text) FROM departments d WHERE d.company_id = m.company_id AND d.head_user_id = m.user_id) AS heads
       FROM company_members m
      WHERE m.company_id = $1 AND m.user_id = $2 AND m.active`,
    [companyId, userId],
  );
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
  return db.query(
    `SELECT c.id, c.name, m.roles FROM company_members m JOIN companies c ON c.id = m.company_id
      WHERE m.user_id = $1 AND m.active ORDER BY c.name, c.id`,
    [userId],
  );
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
  const rows = await db.query<{ roles: string[] }>('SELECT roles FROM company_members WHERE company_id = $1 AND active', [companyId]);
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
// src/domain/permissions.ts, written here once as SQL.

export type EntityPermission =
  /** A proposal: its author, the head of its department, and the company-wide roles (canSeeSuggestion). */
  | 'suggestion.read'
  /**
   * A file: its uploader while it is not attached to a proposal; a proposal's photo, whoever may read the
   * proposal; a company's logo, every member of the company.
   */
  | 'file.read';

/** SQL: the proposal `s` is readable by the active member `m` (user `$user`). */
function suggestionReadableSql(user: string, wideRoles: string): string {
  return `(s.author_id = ${user} OR m.roles && ${wideRoles}::text[]
           OR EXISTS (SELECT 1 FROM departments d WHERE d.company_id = s.company_id AND d.id = s.department_id AND d.head_user_id = ${user}))`;
}

const ENTITY_QUERIES: Record<EntityPermission, string> = {
  'suggestion.read': `SELECT s.id::text AS id FROM suggestions s
      JOIN company_members m ON m.company_id = s.company_id AND m.user_id = $2 AND m.active
     WHERE s.id = ANY($1::uuid[]) AND ${suggestionReadableSql('$2', '$3')}`,
  'file.read': `SELECT f.id::text AS id FROM files f
     WHERE f.id = ANY($1::uuid[])
       AND ((f.owner_id = $2 AND NOT EXISTS (SELECT 1 FROM suggestion_images si WHERE si.file_id = f.id))
            OR EXISTS (SELECT 1 FROM suggestion_images si
                         JOIN suggestions s ON s.company_id = si.company_id AND s.id = si.suggestion_id
                         JOIN company_members m ON m.company_id = s.company_id AND m.user_id = $2 AND m.active
                        WHERE si.file_id = f.id AND ${suggestionReadableSql('$2', '$3')})
            OR EXISTS (SELECT 1 FROM companies c
                         JOIN company_members m ON m.company_id = c.id AND m.user_id = $2 AND m.active
                        WHERE c.logo_image_id = f.id))`,
};

/** The ids among `ids` that `user` may use under `permission` (malformed ids are never allowed). */
export async function allowedIds(db: Queryable, user: { id: string }, permission: EntityPermission, ids: readonly string[]): Promise<Set<string>> {
  const wellFormed = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (wellFormed.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(ENTITY_QUERIES[permission], [wellFormed, user.id, [...COMPANY_WIDE_SUGGESTION_ROLES]]);
  return new Set(rows.map((row) => row.id));
}

/** 404 `notFound` unless `user` may use every one of `ids` under `permission`. */
export async function requireEntityAccess(db: Queryable, user: { id: string }, permission: EntityPermission, ids: readonly string[]): Promise<void> {
  const allowed = await allowedIds(db, user, permission, ids);
  if (ids.length === 0 || ids.some((id) => !allowed.has(id.toLowerCase()))) throw new AppError('notFound', 404);
}
