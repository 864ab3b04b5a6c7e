import { describe, expect, it } from 'vitest';
import type { DepartmentRow } from '../../domain/suggestion';
import { buildStructure } from './structure';
import { employeeRow as employee } from '../../../tests/fixtures/rows';

const AT = '2026-03-01T10:00:00.000Z';

function department(id: string, name: string, headUserId: string | null = null): DepartmentRow {
  return { id, companyId: 'c1', name, headUserId, createdAt: AT, updatedAt: AT };
}


describe('the employee structure', () => {
  const structure = buildStructure(
    [department('d2', 'Сборка'), department('d1', 'Литейный цех', 'u-head')],
    [
      employee('e1', { lastName: 'Яковлев', departmentId: 'd1' }),
      employee('e2', { lastName: 'Абрамов', departmentId: 'd1', userId: 'u-head', position: 'Начальник цеха' }),
      employee('e3', { lastName: 'Борисов', userId: 'u3', active: false }),
      employee('e4', { lastName: 'Волков', departmentId: 'gone' }),
    ],
    'ru',
  );

  it('lists departments by name with their people by name and the head’s name', () => {
    expect(structure.departments.map((node) => [node.department.name, node.headName, node.people.map((p) => p.fullName)])).toEqual([
      ['Литейный цех', 'Абрамов Иван', ['Абрамов Иван', 'Яковлев Иван']],
      ['Сборка', null, []],
    ]);
  });

  it('keeps people without a department (or with one not on the device) apart', () => {
    expect(structure.unassigned.map((person) => person.fullName)).toEqual(['Борисов Иван', 'Волков Иван']);
    expect(structure.totalPeople).toBe(4);
  });

  it('offers as heads only active people who have joined', () => {
    expect(structure.headCandidates.map((person) => person.userId)).toEqual(['u-head']);
  });
});
