// Pure permission rules of DESIGN.md "Roles and permissions", shared by the main-service (which
// enforces them) and the client (which hides what the user may not do). No I/O here: the caller
// passes the member's roles in the company and the departments the member heads.

import type { CompanyRole } from './auth';

export type Roles = readonly string[];

/** A member as the rules see one: the user, their roles in the company, the departments they head. */
export interface MemberView {
  userId: string;
  roles: Roles;
  headOfDepartmentIds: readonly string[];
}

/** Roles that see every proposal of their company. */
export const COMPANY_WIDE_SUGGESTION_ROLES: readonly CompanyRole[] = ['OWNER', 'CEO', 'HR', 'DIRECTION_MANAGER'];

/** Roles that may step in and review a proposal of any department. */
export const SUGGESTION_REVIEW_OVERRIDE_ROLES: readonly CompanyRole[] = ['OWNER', 'CEO'];

export function hasAnyRole(roles: Roles, wanted: readonly string[]): boolean {
  return roles.some((r) => wanted.includes(r));
}

/** Any active member may submit a proposal (a member always holds at least one role). */
export function canSubmitSuggestion(roles: Roles): boolean {
  return roles.length > 0;
}

/** Whether the member sees every proposal of the company (scope `company` / `all`). */
export function canSeeAllSuggestions(roles: Roles): boolean {
  return hasAnyRole(roles, COMPANY_WIDE_SUGGESTION_ROLES);
}

/**
 * Visibility of one proposal: its author; the head of its department; OWNER, CEO, HR and
 * DIRECTION_MANAGER see all of their company's proposals. Everyone else sees only their own.
 */
export function canSeeSuggestion(member: MemberView, suggestion: { authorId: string; departmentId: string }): boolean {
  if (suggestion.authorId === member.userId) return true;
  if (canSeeAllSuggestions(member.roles)) return true;
  return member.headOfDepartmentIds.includes(suggestion.departmentId);
}

/** Review (approve, reject): the head of its department; CEO and OWNER may step in. */
export function canReviewSuggestion(member: MemberView, suggestion: { departmentId: string }): boolean {
  return member.headOfDepartmentIds.includes(suggestion.departmentId) || hasAnyRole(member.roles, SUGGESTION_REVIEW_OVERRIDE_ROLES);
}

/** Roles that may pass a proposal of any department to another one. OWNER too: whoever may decide any proposal may also pass it on. */
export const SUGGESTION_DISTRIBUTE_ROLES: readonly CompanyRole[] = ['HR', 'CEO', 'OWNER'];

/** Distribute to other departments: the head of its current department, HR, CEO, OWNER. */
export function canDistributeSuggestion(member: MemberView, suggestion: { departmentId: string }): boolean {
  return member.headOfDepartmentIds.includes(suggestion.departmentId) || hasAnyRole(member.roles, SUGGESTION_DISTRIBUTE_ROLES);
}

/** The author's resend of a proposal they were asked to clarify. */
export function canReviseSuggestion(member: MemberView, suggestion: { authorId: string }): boolean {
  return suggestion.authorId === member.userId;
}

/** Departments, employees, import, staff invitations: HR, OWNER, CEO. */
export function canManagePeople(roles: Roles): boolean {
  return hasAnyRole(roles, ['HR', 'OWNER', 'CEO']);
}

/** Employees' contact fields (e-mail, service number) are shown to those who manage people. */
export function canSeeEmployeeContacts(roles: Roles): boolean {
  return canManagePeople(roles);
}

// ---------------------------------------------------------------------------------------------------
// Companies and people (issue 5). Every company route names one of these permissions and the server's one
// access check (`requireAccess`) asks `hasPermission`; anything not listed here is denied.

/** Roles that lead the company: only OWNER (and CEO) may grant them, invite to them or take them away. */
export const LEADER_ROLES: readonly CompanyRole[] = [
  'OWNER',
  'CEO',
  'TOP_MANAGER',
  'MIDDLE_MANAGER',
  'FIRST_LINE_MANAGER',
  'DIRECTION_MANAGER',
  'FINANCIAL_DIRECTOR',
];

export const PERMISSIONS = {
  /** See the company, its departments and employees (any active member). */
  'company.read': 'member',
  /** Submit a proposal (canSubmitSuggestion: any active member). */
  'suggestion.submit': 'member',
  /**
   * Act on one proposal (review, distribute, the author's resend): any active member at the company's level;
   * whether they may act on that proposal is its own rule (canReviewSuggestion, canDistributeSuggestion,
   * canReviseSuggestion), checked by the service on the proposal.
   */
  'suggestion.act': 'member',
  /** Set a goal (canCreateGoal, src/domain/goal.ts). */
  'goal.create': ['OWNER', 'CEO', 'TOP_MANAGER'],
  /**
   * Act on one goal (the owner's edit, the actions): any active member at the company's level; who may take
   * which action is the goal's transition table (goalTransition), checked by the service on the locked goal.
   */
  'goal.act': 'member',
  /**
   * Create a project or act on one (edit, moves, completion, indicator reports): any active member at the
   * company's level, since heads of departments and project managers are derived roles; who may do what is
   * canCreateProject, isProjectLead and the project's transition table, checked by the service.
   */
  'project.act': 'member',
  /** Send the open registry to the owner (src/domain/registry.ts, REGISTRY_TRANSITIONS). */
  'registry.send': ['DIRECTION_MANAGER', 'FINANCIAL_DIRECTOR'],
  /** Approve a sent registry (adjusting final costs) or return it with a comment. */
  'registry.decide': ['OWNER'],
  /** Enter the company's EBITDA per month (the dashboard's share of EBITDA). */
  'ebitda.edit': ['FINANCIAL_DIRECTOR'],
  /** Edit the company's details. */
  'company.edit': ['OWNER'],
  /** Download the verification invoice. */
  'company.invoice': ['OWNER', 'CEO', 'FINANCIAL_DIRECTOR'],
  /** Press "I paid". */
  'company.reportPayment': ['OWNER'],
  /** Departments, employees, import, invitations of staff roles. */
  'people.manage': ['HR', 'OWNER', 'CEO'],
} as const satisfies Record<string, 'member' | readonly CompanyRole[]>;
export type Permission = keyof typeof PERMISSIONS;

export function hasPermission(roles: Roles, permission: Permission): boolean {
  const rule: 'member' | readonly string[] = PERMISSIONS[permission];
  if (rule === 'member') return roles.length > 0;
  return hasAnyRole(roles, rule);
}

/**
 * Whether a member with `granterRoles` may give (or take away) `roles`: OWNER any role; CEO any but OWNER;
 * HR and other people managers the staff roles only (not LEADER_ROLES).
 */
export function canGrantRoles(granterRoles: Roles, roles: Roles): boolean {
  if (granterRoles.includes('OWNER')) return true;
  if (granterRoles.includes('CEO')) return !roles.includes('OWNER');
  if (!canManagePeople(granterRoles)) return false;
  return !hasAnyRole(roles, LEADER_ROLES);
}

/** Roles whose holder's whole employee record (names, contacts, department, roles) is guarded from other people managers. */
export const PROTECTED_RECORD_ROLES: readonly CompanyRole[] = ['OWNER', 'CEO'];

/**
 * Whether a member with `editorRoles` may edit the employee record of someone holding `targetRoles`: the same
 * rule as granting the target's OWNER and CEO roles (`canGrantRoles`), so an OWNER's record only an OWNER may
 * edit, a CEO's an OWNER or a CEO, and anyone else's every people manager (HR included).
 */
export function canEditEmployeeRecord(editorRoles: Roles, targetRoles: Roles): boolean {
  if (!canManagePeople(editorRoles)) return false;
  return canGrantRoles(editorRoles, targetRoles.filter((role) => PROTECTED_RECORD_ROLES.some((protectedRole) => protectedRole === role)));
}

/** Roles whose change (added or removed between `before` and `after`) needs `canGrantRoles`. */
export function changedRoles(before: Roles, after: Roles): string[] {
  return [...before.filter((r) => !after.includes(r)), ...after.filter((r) => !before.includes(r))];
}
