import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { departmentRow, employeeRow, registryRow } from '../../../tests/fixtures/rows';
import { AppDatabase } from '../../lib/db/database';
import { enqueue, entityKeyOf, writeWithOutbox } from '../../lib/outbox/outbox';
import { discardUnsent } from './store';

const OWNER = 'user-1';
const databases: AppDatabase[] = [];

async function openDb(): Promise<AppDatabase> {
  const db = new AppDatabase(`outbox-store-${crypto.randomUUID()}`);
  databases.push(db);
  await db.open();
  return db;
}

afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

describe('discardUnsent', () => {
  it('marks an entity the server has to be fetched again when a change of it is discarded', async () => {
    const db = await openDb();
    await db.employees.put({ ...employeeRow('e1', { position: 'changed on this device' }), ownerUserId: OWNER });
    const row = await writeWithOutbox(db, [db.employees], () =>
      enqueue(db, { ownerUserId: OWNER, kind: 'employee.update', method: 'PATCH', path: '/api/v1/companies/c1/employees/e1', body: { position: 'changed on this device' }, entityKey: entityKeyOf('employees', 'e1') }),
    );
    expect(await discardUnsent(db, OWNER, row.id)).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    // The local row stays until the next pull replaces it with the server's version.
    expect(await db.employees.get([OWNER, 'e1'])).toBeDefined();
    expect((await db.staleRows.toArray()).map((marker) => [marker.companyId, marker.entityKey])).toEqual([['c1', 'employees:e1']]);
  });

  it('deletes the local copy of an entity created on this device, and marks nothing', async () => {
    const db = await openDb();
    await db.departments.put({ ...departmentRow('d1', 'Цех'), ownerUserId: OWNER });
    const row = await writeWithOutbox(db, [db.departments], () =>
      enqueue(db, { ownerUserId: OWNER, kind: 'department.create', method: 'POST', path: '/api/v1/companies/c1/departments', body: { name: 'Цех' }, entityKey: entityKeyOf('departments', 'd1') }),
    );
    expect(await discardUnsent(db, OWNER, row.id)).toBe(true);
    expect(await db.departments.count()).toBe(0);
    expect(await db.staleRows.count()).toBe(0);
  });

  it('deletes the local registry of a discarded send of the open registry: the server never had it', async () => {
    const db = await openDb();
    await db.registries.put({ ...registryRow('r1', { number: 0 }), ownerUserId: OWNER });
    const row = await writeWithOutbox(db, [db.registries], () =>
      enqueue(db, { ownerUserId: OWNER, kind: 'registry.send', method: 'POST', path: '/api/v1/companies/c1/registry/send', body: { id: 'r1', projectIds: ['p1'] }, entityKey: entityKeyOf('registries', 'r1') }),
    );
    expect(await discardUnsent(db, OWNER, row.id)).toBe(true);
    expect(await db.registries.count()).toBe(0);
    expect(await db.staleRows.count()).toBe(0);
  });

  it('touches nothing of another user', async () => {
    const db = await openDb();
    const row = await writeWithOutbox(db, [], () =>
      enqueue(db, { ownerUserId: 'user-2', kind: 'employee.update', method: 'PATCH', path: '/api/v1/companies/c1/employees/e1', body: {}, entityKey: entityKeyOf('employees', 'e1') }),
    );
    expect(await discardUnsent(db, OWNER, row.id)).toBe(false);
    expect(await db.outbox.count()).toBe(1);
  });
});
