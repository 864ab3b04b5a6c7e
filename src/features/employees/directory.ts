// The employees list's data, as pure functions: the company's mirrored employees turned once into entries
// with their full name, state, department and a lowercase search key, sorted by last and first name; then
// filtered in memory for each search or filter change. Built for 10,000 people: one pass to build, and a
// filter that only compares precomputed strings.
import { employeeStateOf, type EmployeeState } from '../../domain/company';
import type { DepartmentRow, EmployeeRow } from '../../domain/suggestion';

/** The department filter's value for people without a department (department ids are uuids). */
export const NO_DEPARTMENT = 'none';

export interface EmployeeEntry {
  employee: EmployeeRow;
  /** "Last First Middle". */
  fullName: string;
  state: EmployeeState;
  departmentName: string | null;
  /** Names, position, e-mail and service number, folded (see `foldForSearch`), one per line. */
  searchKey: string;
}

export interface EmployeeFilter {
  search: string;
  /** A department id, `NO_DEPARTMENT`, or '' for all. */
  departmentId: string;
  /** '' for all. */
  state: EmployeeState | '';
}

export const EMPTY_FILTER: EmployeeFilter = { search: '', departmentId: '', state: '' };

/** Lower case in the user's language, 'ё' read as 'е' (people type either). */
export function foldForSearch(text: string): string {
  return text.toLocaleLowerCase().replaceAll('ё', 'е');
}

export function fullNameOf(employee: Pick<EmployeeRow, 'lastName' | 'firstName' | 'middleName'>): string {
  return [employee.lastName, employee.firstName, employee.middleName].filter((part) => part !== null && part !== '').join(' ');
}

/** Entries of every employee, sorted by last name, first name, middle name in the user's language. */
export function buildEntries(employees: readonly EmployeeRow[], departments: readonly DepartmentRow[], locale: string): EmployeeEntry[] {
  const departmentNames = new Map(departments.map((department) => [department.id, department.name]));
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const entries = employees.map((employee): EmployeeEntry => {
    const fullName = fullNameOf(employee);
    return {
      employee,
      fullName,
      state: employeeStateOf(employee),
      departmentName: employee.departmentId === null ? null : (departmentNames.get(employee.departmentId) ?? null),
      searchKey: foldForSearch([fullName, employee.position ?? '', employee.email ?? '', employee.serviceNumber ?? ''].join('\n')),
    };
  });
  return entries.sort(
    (a, b) =>
      collator.compare(a.employee.lastName, b.employee.lastName) ||
      collator.compare(a.employee.firstName, b.employee.firstName) ||
      collator.compare(a.employee.middleName ?? '', b.employee.middleName ?? '') ||
      (a.employee.id < b.employee.id ? -1 : 1),
  );
}

/** The words of a search, folded; every one must occur in an entry's search key. */
export function searchWords(search: string): string[] {
  return foldForSearch(search)
    .split(/\s+/u)
    .filter((word) => word !== '');
}

/** The entries that pass the filter, in their order. Returns `entries` itself when nothing filters. */
export function filterEntries(entries: readonly EmployeeEntry[], filter: EmployeeFilter): readonly EmployeeEntry[] {
  const words = searchWords(filter.search);
  const { departmentId, state } = filter;
  if (words.length === 0 && departmentId === '' && state === '') return entries;
  const wantedDepartment = departmentId === NO_DEPARTMENT ? null : departmentId;
  return entries.filter((entry) => {
    if (departmentId !== '' && entry.employee.departmentId !== wantedDepartment) return false;
    if (state !== '' && entry.state !== state) return false;
    for (const word of words) if (!entry.searchKey.includes(word)) return false;
    return true;
  });
}
