// Who is who around a proposal, worked out from the device's mirror (departments and employees), so the
// proposal page can say who holds it now and the distribution screen who would get it, offline too. The rule
// of who holds an open proposal is the server's (server/features/suggestions/holders.ts): level 0 the head of
// its department, 1 the CEO, 2 the owner, and a level nobody fills passes to the next one. Pure functions,
// no I/O: hooks.ts reads the rows and hands them here.
import type { EscalationLevel } from '../../domain/suggestion';
import { employeeStateOf } from '../../domain/company';
import type { DepartmentRow, EmployeeRow } from '../../domain/suggestion';

/** "Petrov P. I.": the last name and the initials, as names are written on a shop floor's notice board. */
export function shortNameOf(person: Pick<EmployeeRow, 'lastName' | 'firstName' | 'middleName'>): string {
  const initials = [person.firstName, person.middleName]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .map((part) => `${part.trim().charAt(0).toLocaleUpperCase()}.`);
  return [person.lastName.trim(), ...initials].filter((part) => part !== '').join(' ');
}

/** The members of a company who have joined and are active, by their user id. */
export function activeMembersByUser(employees: readonly EmployeeRow[]): Map<string, EmployeeRow> {
  const members = new Map<string, EmployeeRow>();
  for (const employee of employees) {
    if (employee.userId !== null && employeeStateOf(employee) === 'active') members.set(employee.userId, employee);
  }
  return members;
}

export interface Holder {
  /** The level that actually holds it. */
  level: EscalationLevel;
  /** Their short names (a company may have several CEOs or owners); empty when the device knows nobody. */
  names: string[];
  /** Level 0: the department whose head it is. */
  departmentName: string | null;
}

function holdingRole(members: ReadonlyMap<string, EmployeeRow>, role: 'CEO' | 'OWNER'): string[] {
  return [...members.values()]
    .filter((member) => member.roles.includes(role))
    .map(shortNameOf)
    .sort((a, b) => a.localeCompare(b));
}

/** Who holds an open proposal of `departmentId` at `level` (see the header for the rule). */
export function holderOf(
  departmentId: string,
  level: number | undefined,
  departments: readonly DepartmentRow[],
  members: ReadonlyMap<string, EmployeeRow>,
): Holder {
  const department = departments.find((item) => item.id === departmentId) ?? null;
  if ((level ?? 0) <= 0) {
    const head = department?.headUserId ? members.get(department.headUserId) : undefined;
    if (head) return { level: 0, names: [shortNameOf(head)], departmentName: department?.name ?? null };
  }
  if ((level ?? 0) <= 1) {
    const ceos = holdingRole(members, 'CEO');
    if (ceos.length > 0) return { level: 1, names: ceos, departmentName: null };
  }
  return { level: 2, names: holdingRole(members, 'OWNER'), departmentName: null };
}

/** The head of a department as the distribution screen names them; null without one on the device. */
export function headNameOf(department: DepartmentRow, members: ReadonlyMap<string, EmployeeRow>): string | null {
  const head = department.headUserId ? members.get(department.headUserId) : undefined;
  return head ? shortNameOf(head) : null;
}
