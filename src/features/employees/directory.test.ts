import { describe, expect, it } from 'vitest';
import type { DepartmentRow } from '../../domain/suggestion';
import { EMPTY_FILTER, NO_DEPARTMENT, buildEntries, filterEntries, foldForSearch, searchWords } from './directory';
import { employeeRow as employee } from '../../../tests/fixtures/rows';

const AT = '2026-03-01T10:00:00.000Z';

function department(id: string, name: string): DepartmentRow {
  return { id, companyId: 'c1', name, headUserId: null, createdAt: AT, updatedAt: AT };
}


const departments = [department('d-cast', 'Литейный цех'), department('d-fin', 'Финансы')];
const people = [
  employee('e1', { lastName: 'Ёлкин', firstName: 'Пётр', middleName: 'Сергеевич', position: 'Литейщик', departmentId: 'd-cast', serviceNumber: 'T-0042', userId: 'u1' }),
  employee('e2', { lastName: 'Алексеева', firstName: 'Мария', position: 'Финансовый директор', departmentId: 'd-fin', email: 'Maria@Example.ru', invitedAt: AT }),
  employee('e3', { lastName: 'Борисов', firstName: 'Олег', active: false, departmentId: 'd-cast' }),
  employee('e4', { lastName: 'Алексеев', firstName: 'Андрей' }),
];

describe('the employees directory', () => {
  it('sorts people by last, first and middle name in the language of the user, ё beside е', () => {
    const entries = buildEntries(people, departments, 'ru');
    expect(entries.map((entry) => entry.fullName)).toEqual(['Алексеев Андрей', 'Алексеева Мария', 'Борисов Олег', 'Ёлкин Пётр Сергеевич']);
  });

  it('gives each entry its state, department name and a folded search key', () => {
    const byId = new Map(buildEntries(people, departments, 'ru').map((entry) => [entry.employee.id, entry]));
    expect(byId.get('e1')).toMatchObject({ state: 'active', departmentName: 'Литейный цех' });
    expect(byId.get('e2')).toMatchObject({ state: 'invited', departmentName: 'Финансы' });
    expect(byId.get('e3')).toMatchObject({ state: 'inactive' });
    expect(byId.get('e4')).toMatchObject({ state: 'noAccount', departmentName: null });
    expect(byId.get('e2')?.searchKey).toContain('maria@example.ru');
    expect(byId.get('e1')?.searchKey).toContain('елкин петр сергеевич');
  });

  it('finds people by any word of their names, position, e-mail or service number, in any case', () => {
    const entries = buildEntries(people, departments, 'ru');
    const ids = (search: string) => filterEntries(entries, { ...EMPTY_FILTER, search }).map((entry) => entry.employee.id);
    expect(ids('алексеев')).toEqual(['e4', 'e2']);
    expect(ids('  АЛЕКСЕЕВА   мария ')).toEqual(['e2']);
    expect(ids('мария андрей')).toEqual([]);
    expect(ids('директор')).toEqual(['e2']);
    expect(ids('MARIA@example')).toEqual(['e2']);
    expect(ids('t-0042')).toEqual(['e1']);
    expect(ids('ёлкин')).toEqual(['e1']);
    expect(ids('елкин петр')).toEqual(['e1']);
  });

  it('filters by department, by having none, and by state, together with the search', () => {
    const entries = buildEntries(people, departments, 'ru');
    const ids = (filter: Partial<typeof EMPTY_FILTER>) => filterEntries(entries, { ...EMPTY_FILTER, ...filter }).map((entry) => entry.employee.id);
    expect(ids({ departmentId: 'd-cast' })).toEqual(['e3', 'e1']);
    expect(ids({ departmentId: NO_DEPARTMENT })).toEqual(['e4']);
    expect(ids({ state: 'invited' })).toEqual(['e2']);
    expect(ids({ state: 'inactive', departmentId: 'd-cast' })).toEqual(['e3']);
    expect(ids({ state: 'active', departmentId: 'd-fin' })).toEqual([]);
    expect(ids({ departmentId: 'd-cast', search: 'ёлкин' })).toEqual(['e1']);
  });

  it('hands back the same list when nothing filters, so the list is not rebuilt', () => {
    const entries = buildEntries(people, departments, 'ru');
    expect(filterEntries(entries, EMPTY_FILTER)).toBe(entries);
    expect(filterEntries(entries, { ...EMPTY_FILTER, search: '   ' })).toBe(entries);
  });

  it('folds search text the way the keys are folded', () => {
    expect(foldForSearch('ЁЛКА Ёж')).toBe('елка еж');
    expect(searchWords(' a  B\tc ')).toEqual(['a', 'b', 'c']);
  });

  it('builds and searches 10,000 people, finding exactly the matching ones', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      employee(`e${i}`, { lastName: `Фамилия${i}`, firstName: i % 2 === 0 ? 'Анна' : 'Борис', serviceNumber: String(100_000 + i), departmentId: i % 3 === 0 ? 'd-cast' : null }),
    );
    const entries = buildEntries(many, departments, 'ru');
    expect(entries).toHaveLength(10_000);
    expect(filterEntries(entries, { ...EMPTY_FILTER, search: 'анна' })).toHaveLength(5_000);
    expect(filterEntries(entries, { ...EMPTY_FILTER, search: '109999' }).map((entry) => entry.employee.id)).toEqual(['e9999']);
    expect(filterEntries(entries, { ...EMPTY_FILTER, departmentId: 'd-cast', search: 'борис' })).toHaveLength(1_667);
  });
});
