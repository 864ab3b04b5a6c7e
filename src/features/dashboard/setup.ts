// The setup checklist of the dashboard as a pure function of the mirrored rows (DESIGN.md: a company starts
// its improvement flow once it has an owner, a manager and a financial director among its active members).
// Who counts: employees who have joined (a linked user) and are active, with their roles, exactly the rule of
// `missingForStart`; pending invitations (asked of the server: an invited person's roles are the invitation's
// until they join) are listed beside the requirement they would meet.
import { MANAGER_ROLES, employeeStateOf, missingForStart, type StartRequirement } from '../../domain/company-roles';
import { canGrantRoles, canManagePeople } from '../../domain/permissions';
import type { EmployeeRow } from '../../domain/suggestion';

/** The roles that meet each requirement. */
export const REQUIREMENT_ROLES: Readonly<Record<StartRequirement, readonly string[]>> = {
  OWNER: ['OWNER'],
  MANAGER: MANAGER_ROLES,
  FINANCIAL_DIRECTOR: ['FINANCIAL_DIRECTOR'],
};

export interface MissingRequirement {
  requirement: StartRequirement;
  /** Names of people with a pending invitation to a role that would meet it. */
  invited: string[];
  /** The roles the signed-in user may invite someone to for it (empty: ask the owner). */
  grantableRoles: string[];
}

export interface SetupState {
  missing: MissingRequirement[];
  /** False once the company has all three: the checklist is then hidden. */
  isIncomplete: boolean;
  employeeCount: number;
  departmentCount: number;
  /** Whether the signed-in user manages people (departments, employees, invitations). */
  canManagePeople: boolean;
}

/** What the checklist needs of a pending invitation. */
export interface PendingLeader {
  fullName: string;
  roles: readonly string[];
}

export function computeSetup(
  employees: readonly EmployeeRow[],
  departmentCount: number,
  myRoles: readonly string[],
  pending: readonly PendingLeader[] = [],
): SetupState {
  const joined = employees.filter((employee) => employeeStateOf(employee) === 'active');
  const missing = missingForStart(joined.map((employee) => employee.roles));
  const isManager = canManagePeople(myRoles);
  return {
    missing: missing.map((requirement) => {
      const roles = REQUIREMENT_ROLES[requirement];
      return {
        requirement,
        invited: pending.filter((invitation) => invitation.roles.some((role) => roles.includes(role))).map((invitation) => invitation.fullName),
        grantableRoles: isManager ? roles.filter((role) => canGrantRoles(myRoles, [role])) : [],
      };
    }),
    isIncomplete: missing.length > 0,
    employeeCount: employees.length,
    departmentCount,
    canManagePeople: isManager,
  };
}
