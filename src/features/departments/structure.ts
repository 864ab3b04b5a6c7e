// The company's structure as the departments screen shows it, from the mirrored rows: each department with
// its head and its people (sorted by name), the people without a department, and who may head a department
// (active employees who have joined: a head is a user).
import type { DepartmentRow, EmployeeRow } from '../../domain/suggestion';

export interface Person {
  id: string;
  userId: string | null;
  fullName: string;
  position: string | null;
  active: boolean;
}

export interface DepartmentNode {
  department: DepartmentRow;
  /** The head's name, when the head is among the mirrored employees. */
  headName: string | null;
  people: Person[];
}

export interface DepartmentsOverview {
  departments: DepartmentNode[];
  /** People with no department. */
  unassigned: Person[];
  /** Active employees with an account: the choices for a head, by name. */
  headCandidates: Person[];
  totalPeople: number;
}

function personOf(employee: EmployeeRow): Person {
  return {
    id: employee.id,
    userId: employee.userId,
    fullName: [employee.lastName, employee.firstName, employee.middleName].filter((part) => part !== null && part !== '').join(' '),
    position: employee.position,
    active: employee.active,
  };
}

export function buildStructure(departments: readonly DepartmentRow[], employees: readonly EmployeeRow[], locale: string): DepartmentsOverview {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const people = employees.map((employee) => ({ employee, person: personOf(employee) })).sort((a, b) => collator.compare(a.person.fullName, b.person.fullName));
  const byDepartment = new Map<string, Person[]>();
  const unassigned: Person[] = [];
  const nameByUser = new Map<string, string>();
  const headCandidates: Person[] = [];
  for (const { employee, person } of people) {
    if (employee.userId !== null) {
      nameByUser.set(employee.userId, person.fullName);
      if (employee.active) headCandidates.push(person);
    }
    const list = employee.departmentId === null ? undefined : byDepartment.get(employee.departmentId);
    if (employee.departmentId === null) unassigned.push(person);
    else if (list) list.push(person);
    else byDepartment.set(employee.departmentId, [person]);
  }
  const known = new Set(departments.map((department) => department.id));
  // People of a department this device does not have yet (the pull is on its way) count as unassigned here.
  for (const [departmentId, list] of byDepartment) if (!known.has(departmentId)) unassigned.push(...list);
  if (unassigned.length > 0) unassigned.sort((a, b) => collator.compare(a.fullName, b.fullName));
  return {
    departments: [...departments]
      .sort((a, b) => collator.compare(a.name, b.name))
      .map((department) => ({
        department,
        headName: department.headUserId === null ? null : (nameByUser.get(department.headUserId) ?? null),
        people: byDepartment.get(department.id) ?? [],
      })),
    unassigned,
    headCandidates,
    totalPeople: employees.length,
  };
}
