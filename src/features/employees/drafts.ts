// Between the employee form's draft and the API: the draft of a stored row, the body of a create, and the
// patch of an edit (only the fields that changed).
import { COMPANY_ROLES, type CompanyRole } from '../../domain/auth';
import type { EmployeeInput, EmployeePatch } from '../../domain/company';
import type { EmployeeRow } from '../../domain/suggestion';
import type { EmployeeDraft } from './components/employee-form';

/** The company roles among `roles` (the mirror holds them as plain strings). */
export function companyRolesOf(roles: readonly string[]): CompanyRole[] {
  return roles.filter((role): role is CompanyRole => (COMPANY_ROLES as readonly string[]).includes(role));
}

export function draftOf(employee: EmployeeRow): EmployeeDraft {
  const { lastName, firstName, middleName, position, email, serviceNumber, departmentId, roles, active } = employee;
  return { lastName, firstName, middleName, position, email, serviceNumber, departmentId, roles: [...roles], active };
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item) => b.includes(item));

/** Only what changed, so the server checks (and the change feed records) nothing else. */
export function patchOf(before: EmployeeDraft, after: EmployeeDraft): EmployeePatch {
  const patch: EmployeePatch = {};
  if (after.lastName !== before.lastName) patch.lastName = after.lastName;
  if (after.firstName !== before.firstName) patch.firstName = after.firstName;
  if (after.middleName !== before.middleName) patch.middleName = after.middleName;
  if (after.position !== before.position) patch.position = after.position;
  if (after.email !== before.email) patch.email = after.email;
  if (after.serviceNumber !== before.serviceNumber) patch.serviceNumber = after.serviceNumber;
  if (after.departmentId !== before.departmentId) patch.departmentId = after.departmentId;
  if (!sameSet(after.roles, before.roles)) patch.roles = companyRolesOf(after.roles);
  if (after.active !== before.active) patch.active = after.active;
  return patch;
}

/** The body of `POST .../employees`: empty optional fields left out. */
export function inputOf(draft: EmployeeDraft): EmployeeInput {
  const input: EmployeeInput = { lastName: draft.lastName, firstName: draft.firstName, roles: companyRolesOf(draft.roles), active: draft.active };
  if (draft.middleName !== null) input.middleName = draft.middleName;
  if (draft.position !== null) input.position = draft.position;
  if (draft.email !== null) input.email = draft.email;
  if (draft.serviceNumber !== null) input.serviceNumber = draft.serviceNumber;
  if (draft.departmentId !== null) input.departmentId = draft.departmentId;
  return input;
}

