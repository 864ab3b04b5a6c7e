// The company's start rule and an employee's state: plain functions of roles and rows, without company.ts's
// request structs and validators, so the dashboard's setup checklist (on every visit of the dashboard) does not
// download those. company.ts re-exports them.
import type { CompanyRole } from './auth';

/** Roles that count as "a manager" for the start rule (DESIGN.md: any manager role). */
export const MANAGER_ROLES: readonly CompanyRole[] = ['CEO', 'TOP_MANAGER', 'MIDDLE_MANAGER', 'FIRST_LINE_MANAGER', 'DIRECTION_MANAGER'];

/** What a company needs before goals and proposals: at least one of each, among active members. */
export const START_REQUIREMENTS = ['OWNER', 'MANAGER', 'FINANCIAL_DIRECTOR'] as const;
export type StartRequirement = (typeof START_REQUIREMENTS)[number];

/**
 * The requirements the company does not meet yet, given the roles of each ACTIVE member (a user who
 * joined; pending invitations do not count). Empty: the improvement flow may start.
 */
export function missingForStart(activeMemberRoles: readonly (readonly string[])[]): StartRequirement[] {
  const has = (wanted: readonly string[]) => activeMemberRoles.some((roles) => roles.some((r) => wanted.includes(r)));
  const missing: StartRequirement[] = [];
  if (!has(['OWNER'])) missing.push('OWNER');
  if (!has(MANAGER_ROLES)) missing.push('MANAGER');
  if (!has(['FINANCIAL_DIRECTOR'])) missing.push('FINANCIAL_DIRECTOR');
  return missing;
}

export const EMPLOYEE_STATES = ['active', 'inactive', 'invited', 'noAccount'] as const;
export type EmployeeState = (typeof EMPLOYEE_STATES)[number];

/** The state an employee row is in, for the list's filter: inactive wins, then joined/invited/no account. */
export function employeeStateOf(e: { active: boolean; userId: string | null; invitedAt?: string | null | undefined }): EmployeeState {
  if (!e.active) return 'inactive';
  if (e.userId) return 'active';
  if (e.invitedAt) return 'invited';
  return 'noAccount';
}
