// The signed-in user as the permission rules (src/domain/permissions.ts) see them in one company: their roles
// there, from the session, and the departments they head, from the mirrored departments (so it works offline
// and follows every pull). One reading for every feature (proposals, goals, projects, the header's link), so
// the rules cannot drift apart between screens.
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import type { MemberView } from '../domain/permissions';
import { DepartmentRow } from '../domain/suggestion';
import { useCurrentUser } from './app-state';
import { getAppDatabase, type AppDatabase } from './db/database';
import { checkRows } from './db/rows';

/** The member without their headed departments: what the rules that look only at roles need (goals). */
export type MemberRoles = Pick<MemberView, 'userId' | 'roles'>;

type HeadedDepartment = Pick<DepartmentRow, 'id' | 'headUserId'>;

function headedBy(userId: string, departments: readonly HeadedDepartment[]): string[] {
  return departments.filter((department) => department.headUserId === userId).map((department) => department.id);
}

/** The member view of `member` given the company's departments (any order). */
export function memberViewOf(member: MemberRoles, departments: readonly HeadedDepartment[]): MemberView {
  return { userId: member.userId, roles: member.roles, headOfDepartmentIds: headedBy(member.userId, departments) };
}

/** The ids of the company's departments `userId` heads, from the mirror (rows failing their struct are left out). */
export async function headedDepartmentIds(db: AppDatabase, userId: string, companyId: string): Promise<string[]> {
  const stored = await db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray();
  return headedBy(userId, checkRows(DepartmentRow, stored, 'departments').rows);
}

/** The signed-in user's id and roles in `companyId` (from the session); known at once, never undefined. */
export function useMemberRoles(companyId: string): MemberRoles {
  const user = useCurrentUser();
  return useMemo(() => ({ userId: user.id, roles: user.companies?.find((company) => company.id === companyId)?.roles ?? [] }), [companyId, user.companies, user.id]);
}

/** The signed-in user as the rules see them in `companyId`, headed departments included. Undefined while the mirror is read. */
export function useMemberView(companyId: string): MemberView | undefined {
  const member = useMemberRoles(companyId);
  const { userId } = member;
  const heads = useLiveQuery(() => headedDepartmentIds(getAppDatabase(), userId, companyId), [userId, companyId]);
  return useMemo(() => (heads === undefined ? undefined : { ...member, headOfDepartmentIds: heads }), [heads, member]);
}
