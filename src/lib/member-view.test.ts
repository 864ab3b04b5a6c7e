import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { departmentRow } from '../../tests/fixtures/rows';
import { AppDatabase } from './db/database';
import { headedDepartmentIds, memberViewOf } from './member-view';

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

describe('the member view', () => {
  it('names the departments the member heads', () => {
    const departments = [departmentRow('d1', 'Welding', { headUserId: 'u1' }), departmentRow('d2', 'Paint', { headUserId: 'u2' }), departmentRow('d3', 'Stock', { headUserId: 'u1' })];
    expect(memberViewOf({ userId: 'u1', roles: ['EMPLOYEE'] }, departments)).toEqual({ userId: 'u1', roles: ['EMPLOYEE'], headOfDepartmentIds: ['d1', 'd3'] });
    expect(memberViewOf({ userId: 'u3', roles: [] }, departments).headOfDepartmentIds).toEqual([]);
  });

  it('reads the headed departments of one company from the signed-in user’s mirror', async () => {
    const db = new AppDatabase(`member-view-${Math.random()}`);
    opened.push(db);
    await db.departments.bulkPut([
      { ...departmentRow('d1', 'Welding', { headUserId: 'u1' }), ownerUserId: 'u1' },
      { ...departmentRow('d2', 'Paint', { headUserId: 'u2' }), ownerUserId: 'u1' },
      { ...departmentRow('d3', 'Other company', { headUserId: 'u1', companyId: 'c2' }), ownerUserId: 'u1' },
      { ...departmentRow('d4', 'Another user’s copy', { headUserId: 'u1' }), ownerUserId: 'u2' },
    ]);

    expect(await headedDepartmentIds(db, 'u1', 'c1')).toEqual(['d1']);
    expect(await headedDepartmentIds(db, 'u2', 'c1')).toEqual([]);
  });
});
