import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { employeeRow, projectRow } from '../../../tests/fixtures/rows';
import { PROJECT_FILTER_STATUSES, PROJECT_LIST_FILTERS, PROJECT_STATUSES, type ProjectStatus } from '../../domain/project';
import { AppDatabase } from '../../lib/db/database';
import { enqueue, writeWithOutbox } from '../../lib/outbox/outbox';
import { countProjectsByFilter, filterFromQuery, listProjectIds, loadProjectWindow, queryFromFilter } from './list';

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

const ME = 'u1';
const COMPANY = 'c1';
const COUNT = 300;

/** Project i: a status by turns, an update time that does not follow the id order, some sharing one time. */
function place(i: number): { id: string; status: ProjectStatus; updatedAt: string } {
  const minute = (i * 37) % 200;
  return {
    id: `p-${String(i).padStart(4, '0')}`,
    status: PROJECT_STATUSES[i % PROJECT_STATUSES.length] ?? 'NEW',
    updatedAt: new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString(),
  };
}

async function seeded(): Promise<AppDatabase> {
  const db = new AppDatabase(`projects-list-${Math.random()}`);
  opened.push(db);
  const rows = Array.from({ length: COUNT }, (_, i) => {
    const { id, status, updatedAt } = place(i);
    return { ...projectRow(id, { status, updatedAt }), ownerUserId: ME };
  });
  // Another company's and another user's projects never show.
  rows.push({ ...projectRow('other-company', { companyId: 'c2' }), ownerUserId: ME });
  rows.push({ ...projectRow('other-user'), ownerUserId: 'u2' });
  await db.projects.bulkPut(rows);
  return db;
}

/** The expected order: last changed first, then the larger id. */
function expected(statuses: readonly ProjectStatus[]): string[] {
  return Array.from({ length: COUNT }, (_, i) => place(i))
    .filter((row) => statuses.includes(row.status))
    .sort((a, b) => (a.updatedAt !== b.updatedAt ? (a.updatedAt > b.updatedAt ? -1 : 1) : a.id > b.id ? -1 : 1))
    .map((row) => row.id);
}

describe('listProjectIds', () => {
  it('lists each filter’s statuses, last changed first, only the user’s projects of the company', async () => {
    const db = await seeded();
    const query = { db, ownerUserId: ME, companyId: COMPANY };
    for (const filter of PROJECT_LIST_FILTERS) {
      const ids = await listProjectIds(query, filter);
      expect(ids, filter).toEqual(expected(PROJECT_FILTER_STATUSES[filter]));
    }
    expect(await listProjectIds(query, 'all')).toHaveLength(COUNT);
  });

  it('reads only the first screen with a limit, in the same order', async () => {
    const db = await seeded();
    const query = { db, ownerUserId: ME, companyId: COMPANY };
    for (const filter of PROJECT_LIST_FILTERS) {
      expect(await listProjectIds(query, filter, 25), filter).toEqual(expected(PROJECT_FILTER_STATUSES[filter]).slice(0, 25));
    }
    expect(await listProjectIds(query, 'new', 0)).toEqual([]);
  });

  it('counts every filter from the status index', async () => {
    const db = await seeded();
    const counts = await countProjectsByFilter({ db, ownerUserId: ME, companyId: COMPANY });
    expect(counts).toEqual({ all: COUNT, calculating: 100, approved: 100, forRevision: 50, new: 50 });
  });
});

describe('loadProjectWindow', () => {
  it('reads the window’s rows with their manager’s name and unsent mark', async () => {
    const db = await seeded();
    const manager = '11111111-1111-4111-8111-111111111111';
    await db.employees.put({ ...employeeRow(manager, { lastName: 'Петров', firstName: 'Пётр', middleName: 'Петрович' }), ownerUserId: ME });
    await db.projects.update([ME, 'p-0001'], { projectManagerEmployeeId: manager });
    await writeWithOutbox(db, [db.projects], () =>
      enqueue(db, { ownerUserId: ME, kind: 'project.edit', method: 'PATCH', path: '/api/v1/companies/c1/projects/p-0001', body: {}, entityKey: 'projects:p-0001' }),
    );
    const rows = await loadProjectWindow(db, ME, COMPANY, ['p-0001', 'p-0002', 'other-company', 'missing']);
    expect([...rows.keys()]).toEqual(['p-0001', 'p-0002']);
    expect(rows.get('p-0001')).toMatchObject({ unsent: 'pending', managerName: 'Петров Пётр Петрович' });
    expect(rows.get('p-0002')).toMatchObject({ unsent: null });
  });
});

describe('the filter in the URL', () => {
  it('reads and writes ?filter=, anything unknown being "all"', () => {
    expect(filterFromQuery('filter=forRevision')).toBe('forRevision');
    expect(filterFromQuery('filter=nonsense')).toBe('all');
    expect(filterFromQuery('')).toBe('all');
    expect(queryFromFilter('all')).toBe('');
    expect(queryFromFilter('calculating')).toBe('?filter=calculating');
  });
});
