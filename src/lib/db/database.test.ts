import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase, DB_VERSIONS, type VersionSpec } from './database';
import { checkRows, MIRROR_ROW_STRUCTS, readCompanyRows } from './rows';

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});
const name = () => `db-test-${Math.random()}`;

describe('database versions', () => {
  it('version 1 (upgradeToV1) creates every table of the mirror, the outbox, files and sync state', async () => {
    const db = new AppDatabase(name());
    opened.push(db);
    await db.open();
    expect(db.verno).toBe(1);
    expect(db.tables.map((t) => t.name).sort()).toEqual(
      ['companies', 'departments', 'employees', 'enums', 'files', 'goals', 'leases', 'outbox', 'projects', 'registries', 'suggestions', 'syncState', 'units'].sort(),
    );
    expect(db.suggestions.schema.primKey.keyPath).toEqual(['ownerUserId', 'id']);
  });

  it('keeps rows written at an older version through a later upgrade (the pattern every new version follows)', async () => {
    const dbName = name();
    const v1 = new AppDatabase(dbName, DB_VERSIONS);
    await v1.departments.put({ id: 'd1', companyId: 'c1', name: 'Casting', headUserId: null, createdAt: 'x', updatedAt: 'x', ownerUserId: 'u1' });
    v1.close();
    const v2: VersionSpec = {
      version: 2,
      stores: {},
      upgrade: (tx) => tx.table('departments').toCollection().modify((row: { name: string }) => {
        row.name = row.name.toUpperCase();
      }).then(() => undefined),
    };
    const upgraded = new AppDatabase(dbName, [...DB_VERSIONS, v2]);
    opened.push(upgraded);
    expect((await upgraded.departments.get(['u1', 'd1']))?.name).toBe('CASTING');
    expect(upgraded.verno).toBe(2);
  });
});

describe('reading stored rows', () => {
  it('leaves out rows that do not match their struct and rows of another user', async () => {
    const db = new AppDatabase(name());
    opened.push(db);
    const good = { id: 'd1', companyId: 'c1', name: 'Casting', headUserId: null, createdAt: 'x', updatedAt: 'x', ownerUserId: 'u1' };
    await db.departments.bulkPut([good, { ...good, id: 'd2', name: 42 as unknown as string }, { ...good, id: 'd3', ownerUserId: 'u2' }]);
    const read = await readCompanyRows(db, 'departments', 'u1', 'c1');
    expect(read.rows.map((r) => r.id)).toEqual(['d1']);
    expect(read.rejected).toBe(1);
    expect(checkRows(MIRROR_ROW_STRUCTS.departments, [{ id: 'x' }], 'departments').rows).toHaveLength(0);
  });
});
