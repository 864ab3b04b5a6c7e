import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase, DB_VERSIONS, onDatabaseVersionChange, searchWordsOf, type DatabaseVersionChange, type VersionSpec } from './database';
import { checkRows, MIRROR_ROW_STRUCTS, readCompanyRows } from './rows';

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});
const name = () => `db-test-${Math.random()}`;

const suggestionFields = {
  companyId: 'c1',
  solution: 'x',
  expectedEffect: 'x',
  effectEstimate: null,
  departmentId: 'd1',
  goalId: null,
  images: [],
  authorId: 'a1',
  authorName: 'Автор',
  status: 'UNDER_CONSIDERATION' as const,
  dueAt: '2026-03-06T10:00:00.000Z',
  submittedAt: '2026-03-01T10:00:00.000Z',
  receivedAt: '2026-03-01T10:00:00.000Z',
  reviewComment: null,
  history: [],
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

describe('database versions', () => {
  it('version 1 (upgradeToV1) creates every table of the mirror, the outbox, files and sync state', async () => {
    const db = new AppDatabase(name(), DB_VERSIONS.slice(0, 1));
    opened.push(db);
    await db.open();
    expect(db.verno).toBe(1);
    expect(db.tables.map((t) => t.name).sort()).toEqual(
      ['companies', 'departments', 'employees', 'enums', 'files', 'goals', 'leases', 'outbox', 'projects', 'registries', 'suggestions', 'syncState', 'units'].sort(),
    );
    expect(db.suggestions.schema.primKey.keyPath).toEqual(['ownerUserId', 'id']);
  });

  it('version 2 (upgradeToV2) adds staleRows keyed by owner, company and entity, and keeps every row of version 1', async () => {
    const dbName = name();
    const v1 = new AppDatabase(dbName, DB_VERSIONS.slice(0, 1));
    await v1.departments.put({ id: 'd1', companyId: 'c1', name: 'Casting', headUserId: null, createdAt: 'x', updatedAt: 'x', ownerUserId: 'u1' });
    await v1.syncState.put({ ownerUserId: 'u1', companyId: 'c1', cursor: 'abc', pulledAt: 1 });
    v1.close();
    const v2 = new AppDatabase(dbName, DB_VERSIONS.slice(0, 2));
    opened.push(v2);
    await v2.open();
    expect(v2.verno).toBe(2);
    expect((await v2.departments.get(['u1', 'd1']))?.name).toBe('Casting');
    expect((await v2.syncState.get(['u1', 'c1']))?.cursor).toBe('abc');
    expect(v2.staleRows.schema.primKey.keyPath).toEqual(['ownerUserId', 'companyId', 'entityKey']);
    const marker = { ownerUserId: 'u1', companyId: 'c1', entityKey: 'suggestions:s1', table: 'suggestions' as const, id: 's1', markedAt: 5 };
    await v2.staleRows.bulkPut([marker, { ...marker, markedAt: 6 }, { ...marker, ownerUserId: 'u2' }]);
    expect(await v2.staleRows.where('[ownerUserId+companyId]').equals(['u1', 'c1']).toArray()).toEqual([{ ...marker, markedAt: 6 }]);
  });

  it('version 3 (upgradeToV3) gives stored proposals their search words and finds them by word prefix', async () => {
    const dbName = name();
    // Version 2 as an older build wrote it: plain Dexie, without the search-word middleware.
    const v2 = new Dexie(dbName);
    for (const spec of DB_VERSIONS.slice(0, 2)) v2.version(spec.version).stores(spec.stores);
    const stored = {
      ...suggestionFields,
      id: 's1',
      ownerUserId: 'u1',
      title: 'Ёлочная гирлянда в ЦЕХЕ',
      problem: 'Light-bulbs burn out; замена — долгая',
    };
    await v2.table('suggestions').put(stored);
    expect(await v2.table('suggestions').get(['u1', 's1'])).not.toHaveProperty('searchWords');
    v2.close();

    const v3 = new AppDatabase(dbName, DB_VERSIONS.slice(0, 3));
    opened.push(v3);
    await v3.open();
    expect(v3.verno).toBe(3);
    const upgraded = await v3.suggestions.get(['u1', 's1']);
    expect(upgraded?.title).toBe('Ёлочная гирлянда в ЦЕХЕ');
    expect([...(upgraded?.searchWords ?? [])].sort()).toEqual(['bulbs', 'burn', 'light', 'out', 'в', 'гирлянда', 'долгая', 'елочная', 'замена', 'цехе'].sort());
    expect(await v3.suggestions.where('searchWords').startsWith('елоч').primaryKeys()).toEqual([['u1', 's1']]);
    expect(await v3.suggestions.where('[ownerUserId+companyId+dueAt]').between(['u1', 'c1', ''], ['u1', 'c1', '\uffff']).primaryKeys()).toEqual([['u1', 's1']]);
    expect(v3.notifications.schema.primKey.keyPath).toEqual(['ownerUserId', 'id']);
  });

  it('derives the search words on every write of a proposal, leaving the written object as it was', async () => {
    const db = new AppDatabase(name());
    opened.push(db);
    const row = { ...suggestionFields, id: 's2', ownerUserId: 'u1', title: 'Shorter changeover', problem: 'Сорок минут' };
    await db.suggestions.bulkPut([row]);
    expect(row).not.toHaveProperty('searchWords');
    expect((await db.suggestions.get(['u1', 's2']))?.searchWords).toEqual(['shorter', 'changeover', 'сорок', 'минут']);
    await db.suggestions.update(['u1', 's2'], { title: 'Quick die change' });
    expect((await db.suggestions.get(['u1', 's2']))?.searchWords).toEqual(['quick', 'die', 'change', 'сорок', 'минут']);
    await db.suggestions.toCollection().modify({ problem: 'Ёмкость' });
    expect((await db.suggestions.get(['u1', 's2']))?.searchWords).toEqual(['quick', 'die', 'change', 'емкость']);
  });

  it('gives no words for fields that are not text', () => {
    expect(searchWordsOf(null, 42, 'Два  слова, два!')).toEqual(['два', 'слова']);
  });

  it('keeps rows written at an older version through a later upgrade (the pattern every new version follows)', async () => {
    const dbName = name();
    const current = new AppDatabase(dbName, DB_VERSIONS);
    await current.departments.put({ id: 'd1', companyId: 'c1', name: 'Casting', headUserId: null, createdAt: 'x', updatedAt: 'x', ownerUserId: 'u1' });
    current.close();
    const next: VersionSpec = {
      version: DB_VERSIONS.length + 1,
      stores: {},
      upgrade: (tx) => tx.table('departments').toCollection().modify((row: { name: string }) => {
        row.name = row.name.toUpperCase();
      }).then(() => undefined),
    };
    const upgraded = new AppDatabase(dbName, [...DB_VERSIONS, next]);
    opened.push(upgraded);
    expect((await upgraded.departments.get(['u1', 'd1']))?.name).toBe('CASTING');
    expect(upgraded.verno).toBe(DB_VERSIONS.length + 1);
  });
});

describe('a newer version opened in another tab', () => {
  it('closes the old connection so the upgrade goes through, and tells the app', async () => {
    const dbName = name();
    const changes: DatabaseVersionChange[] = [];
    const stop = onDatabaseVersionChange((change) => changes.push(change));
    const oldTab = new AppDatabase(dbName);
    opened.push(oldTab);
    await oldTab.departments.put({ id: 'd1', companyId: 'c1', name: 'Casting', headUserId: null, createdAt: 'x', updatedAt: 'x', ownerUserId: 'u1' });
    expect(oldTab.isOpen()).toBe(true);

    const next: VersionSpec = { version: DB_VERSIONS.length + 1, stores: { notes: '&id' } };
    const newTab = new AppDatabase(dbName, [...DB_VERSIONS, next]);
    opened.push(newTab);
    await newTab.open();
    expect(newTab.verno).toBe(DB_VERSIONS.length + 1);
    expect((await newTab.departments.get(['u1', 'd1']))?.name).toBe('Casting');

    expect(changes).toEqual([{ name: dbName, newVersion: DB_VERSIONS.length + 1 }]);
    // The old tab stays closed instead of reopening at its older version (which would fail or block).
    expect(oldTab.isOpen()).toBe(false);
    await expect(oldTab.departments.count()).rejects.toMatchObject({ name: 'DatabaseClosedError' });
    stop();
  });

  it('stops telling a listener once it unsubscribed, and a deletion elsewhere is not a newer version', async () => {
    const changes: DatabaseVersionChange[] = [];
    const stop = onDatabaseVersionChange((change) => changes.push(change));
    stop();
    const dbName = name();
    const oldTab = new AppDatabase(dbName);
    await oldTab.open();
    const newTab = new AppDatabase(dbName, [...DB_VERSIONS, { version: DB_VERSIONS.length + 1, stores: {} }]);
    opened.push(newTab);
    await newTab.open();
    expect(changes).toEqual([]);

    const listening: DatabaseVersionChange[] = [];
    const stopListening = onDatabaseVersionChange((change) => listening.push(change));
    const other = new AppDatabase(name());
    await other.open();
    const sameName = new AppDatabase(other.name);
    await sameName.open();
    await sameName.delete();
    expect(listening).toEqual([]);
    stopListening();
    other.close();
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
