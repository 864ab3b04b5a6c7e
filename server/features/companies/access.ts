// The one access check of every company route: the caller must be an active member of the company,
// else 404 exactly like a missing id (another tenant's ids are never confirmed). Answers what the
// permission rules of src/domain/permissions.ts need.

import { isUuid } from '../../../src/domain/suggestion';
import type { MemberView } from '../../../src/domain/permissions';
import type { Queryable } from '../../db/database';
import { AppError } from '../../errors';

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
