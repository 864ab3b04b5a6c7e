// The projects list's queries over the device's mirror (React-free, so they are tested on fake-indexeddb and
// timed in a bench). Guarantees:
// - nothing reads a whole table: the order comes from index scans that yield primary keys (for "all" the
//   `[ownerUserId+companyId+updatedAt]` index, for a filter one `[ownerUserId+companyId+status+updatedAt]` range
//   per status of PROJECT_FILTER_STATUSES, merged by their keys), and rows are read only for the window on screen
//   (`loadProjectWindow`);
// - only the signed-in user's projects of that company are listed (every index leads with owner and company);
// - the order is the server's: last changed first (updatedAt descending), ties by id descending (the index's own
//   order read backwards), so a project just created or edited on the device leads the list.
import Dexie from 'dexie';
import { PROJECT_FILTER_STATUSES, PROJECT_LIST_FILTERS, Project, type ProjectListFilter, type ProjectStatus } from '../../domain/project';
import type { AppDatabase, OutboxStatus } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import { unsentRowsByKey } from '../../lib/outbox/entity-state';
import { entityKeyOf } from '../../lib/outbox/outbox';
import { employeeName } from './store';

type Key = [string, string];

const isFilter = (value: string | null): value is ProjectListFilter => PROJECT_LIST_FILTERS.some((filter) => filter === value);

/** The filter a URL query asks for (`?filter=new`); anything unknown is "all". */
export function filterFromQuery(search: string): ProjectListFilter {
  const filter = new URLSearchParams(search).get('filter');
  return isFilter(filter) ? filter : 'all';
}

/** The URL query of a filter ("all", the default, leaves the URL plain). */
export function queryFromFilter(filter: ProjectListFilter): string {
  return filter === 'all' ? '' : `?filter=${filter}`;
}

export interface ProjectListQuery {
  db: AppDatabase;
  /** The signed-in user, whose mirror is read. */
  ownerUserId: string;
  companyId: string;
}

/** An id and the time the list orders it by, read from an index key. */
interface OrderKey {
  id: string;
  updatedAt: string;
}

/** Ids with their order keys from one index range read backwards (latest first), at most `limit`. */
async function latestOf(db: AppDatabase, index: string, prefix: readonly string[], limit: number | undefined): Promise<OrderKey[]> {
  const range = () => {
    let collection = db.projects
      .where(index)
      .between([...prefix, Dexie.minKey], [...prefix, Dexie.maxKey])
      .reverse();
    if (limit !== undefined) collection = collection.limit(limit);
    return collection;
  };
  const [ids, keys]: [unknown[], unknown[]] = await Promise.all([range().primaryKeys(), range().keys()]);
  const at = prefix.length;
  const result: OrderKey[] = [];
  ids.forEach((primary, i) => {
    const key: unknown = keys[i];
    const id = Array.isArray(primary) && typeof primary[1] === 'string' ? primary[1] : null;
    const updatedAt = Array.isArray(key) && typeof key[at] === 'string' ? key[at] : null;
    if (id !== null && updatedAt !== null) result.push({ id, updatedAt });
  });
  return result;
}

/** The list's order: latest change first, then the larger id (the index read backwards). */
export function compareOrder(a: OrderKey, b: OrderKey): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

/**
 * The ids of the company's projects under `filter`, in the list's order (see the header). Reads index keys only.
 * With `limit`, only the first `limit` ids (each status range read up to `limit` keys): what the first screen
 * needs before the whole list is counted. Exported for the benchmark.
 */
export async function listProjectIds({ db, ownerUserId, companyId }: ProjectListQuery, filter: ProjectListFilter, limit?: number): Promise<string[]> {
  if (limit === 0) return [];
  if (filter === 'all') {
    return (await latestOf(db, '[ownerUserId+companyId+updatedAt]', [ownerUserId, companyId], limit)).map((key) => key.id);
  }
  const statuses: readonly ProjectStatus[] = PROJECT_FILTER_STATUSES[filter];
  const parts = await Promise.all(statuses.map((status) => latestOf(db, '[ownerUserId+companyId+status+updatedAt]', [ownerUserId, companyId, status], limit)));
  const merged = parts.length === 1 ? (parts[0] ?? []) : parts.flat().sort(compareOrder);
  return (limit === undefined ? merged : merged.slice(0, limit)).map((key) => key.id);
}

/** How many projects each filter holds (index counts, no rows read). */
export async function countProjectsByFilter({ db, ownerUserId, companyId }: ProjectListQuery): Promise<Record<ProjectListFilter, number>> {
  const byStatus = new Map<ProjectStatus, number>();
  const all = new Set(PROJECT_FILTER_STATUSES.all);
  await Promise.all(
    [...all].map(async (status) => {
      byStatus.set(status, await db.projects.where('[ownerUserId+companyId+status]').equals([ownerUserId, companyId, status]).count());
    }),
  );
  const counts = {} as Record<ProjectListFilter, number>;
  for (const filter of PROJECT_LIST_FILTERS) counts[filter] = PROJECT_FILTER_STATUSES[filter].reduce((sum, status) => sum + (byStatus.get(status) ?? 0), 0);
  return counts;
}

// ---------------------------------------------------------------------------------------------------
// The rows on screen.

export interface ProjectListRow {
  project: Project;
  /** The state of the user's unsent change of it, null when none. */
  unsent: OutboxStatus | null;
  /** The project manager's name from the mirrored employees (or the team), null when the device does not have it. */
  managerName: string | null;
}

/**
 * The rows of these ids (one bulkGet), checked with their struct, and the user's unsent changes of them (the most
 * troubled one each). An id whose row is gone, unreadable or of another company is missing from the map.
 */
export async function loadProjectWindow(db: AppDatabase, ownerUserId: string, companyId: string, ids: readonly string[]): Promise<Map<string, ProjectListRow>> {
  if (ids.length === 0) return new Map();
  const keys: Key[] = ids.map((id) => [ownerUserId, id]);
  const [stored, unsent] = await Promise.all([
    db.projects.bulkGet(keys),
    unsentRowsByKey(db, ownerUserId, ids.map((id) => entityKeyOf('projects', id))),
  ]);
  const projects = checkRows(Project, stored.filter((row) => row !== undefined), 'projects').rows.filter((project) => project.companyId === companyId);
  const managerIds = [...new Set(projects.map((project) => project.projectManagerEmployeeId))];
  const employees = checkRows(EmployeeRowCheck, (await db.employees.bulkGet(managerIds.map((id): Key => [ownerUserId, id]))).filter((row) => row !== undefined), 'employees').rows;
  const names = new Map(employees.map((employee) => [employee.id, employeeName(employee)]));
  const rows = new Map<string, ProjectListRow>();
  for (const project of projects) {
    const managerName = names.get(project.projectManagerEmployeeId) ?? project.team.find((member) => member.employeeId === project.projectManagerEmployeeId)?.name ?? null;
    rows.set(project.id, { project, unsent: unsent.get(entityKeyOf('projects', project.id))?.status ?? null, managerName });
  }
  return rows;
}
