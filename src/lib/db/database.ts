// The device's copy of the user's data (DESIGN.md, "Offline-first data flow").
// What it stores and why:
// - a mirror of what the server lets the user see (companies, departments, employees, goals, projects,
//   suggestions, registries, enums, units), so screens work from cached data without a network;
// - the outbox: writes made on the device (maybe offline) that the replayer still has to send, and the
//   photos they carry (`files`, as ArrayBuffer + type + name: Safari cannot be trusted with Blobs in
//   IndexedDB);
// - the pull cursor per (user, company) (`syncState`) and the replayer's lease (`leases`, used only where
//   Web Locks are missing);
// - `staleRows`: mirrored rows whose server changes the pull skipped because they had unsent local changes;
//   the pull fetches them again once no outbox row of theirs is left (src/lib/sync/stale-rows.ts).
// Guarantees: every row carries `ownerUserId`, and every mirrored table is keyed by [ownerUserId+id], so a
// second user signing in on the same device neither reads nor sends the first user's rows. Every version of
// the schema is kept in `DB_VERSIONS` with a named upgrade function and a test; stored rows are untrusted and
// checked with their structs on read (see rows.ts). A tab still holding an older schema closes its
// connection as soon as another tab asks for a newer one (`versionchange`), so it never blocks the upgrade,
// and tells the app (`onDatabaseVersionChange`), which asks the user to reload.
import Dexie, { type DBCore, type EntityTable, type Table, type Transaction } from 'dexie';
import type { NotificationRow } from '../../domain/notification';
import type { Goal } from '../../domain/goal';
import type { Dashboard } from '../../domain/dashboard';
import type { Project } from '../../domain/project';
import type { Registry } from '../../domain/registry';
import type { CompanyRow, DepartmentRow, EmployeeRow, Suggestion } from '../../domain/suggestion';
import type { EnumsData, Unit } from '../../domain/user';
import { releaseWithThePage, trackTransactions, type TransactionTracker } from './page-lifecycle';

export const DATABASE_NAME = 'dashboard';

/** A row as the server sent it, tagged with the user whose view of the data it belongs to. */
export type Owned<T> = T & { ownerUserId: string };

export type StoredCompany = Owned<CompanyRow>;
export type StoredDepartment = Owned<DepartmentRow>;
export type StoredEmployee = Owned<EmployeeRow>;
/** `searchWords` is derived on write (searchWordsOf); rows stored before version 3 get it in the upgrade. */
export type StoredSuggestion = Owned<Suggestion> & { searchWords?: string[] };
export type StoredNotification = Owned<NotificationRow>;
export type StoredGoal = Owned<Goal>;
export type StoredProject = Owned<Project>;
export type StoredRegistry = Owned<Registry>;

/**
 * The last dashboard the server computed for one period and scope (issue 13), kept so it shows offline with the
 * time it was computed. `key` is `dashboardKeyOf(from, to, departmentId)` of src/features/dashboard.
 */
export interface StoredDashboard {
  ownerUserId: string;
  companyId: string;
  key: string;
  dashboard: Dashboard;
  /** When the device received it (ms). */
  fetchedAt: number;
}

export interface StoredEnums {
  ownerUserId: string;
  data: EnumsData;
  updatedAt: number;
}

export type StoredUnit = Owned<Unit>;

export const OUTBOX_STATUSES = ['pending', 'sending', 'conflict', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export const OUTBOX_METHODS = ['POST', 'PATCH', 'DELETE'] as const;
export type OutboxMethod = (typeof OUTBOX_METHODS)[number];

export interface OutboxError {
  /** HTTP status, 0 when nothing answered. */
  status: number;
  message: string;
  /** Per-field messages of a 400 answer. */
  errors?: Record<string, string>;
}

/** One write waiting to be sent. `id` is its Idempotency-Key; `seq` orders the queue. */
export interface OutboxRow {
  seq: number;
  id: string;
  ownerUserId: string;
  /** What the write is (e.g. 'suggestion.create'): picks the success handler and the label on screen. */
  kind: string;
  method: OutboxMethod;
  /** Under the API prefix, e.g. '/api/v1/companies/{companyId}/suggestions'. */
  path: string;
  body: unknown;
  /** Photos in `files`, uploaded first; their imageIds go into `body[fileField]` in this order. */
  fileIds: string[];
  fileField?: string;
  /** Rows with the same key are sent strictly in seq order, e.g. 'suggestions:<id>'. */
  entityKey: string;
  /** Another outbox row (by id) that must be sent before this one. */
  dependsOn?: string | null;
  status: OutboxStatus;
  attempts: number;
  /** Epoch ms before which the replayer leaves the row alone. */
  nextAttemptAt: number;
  lastError: OutboxError | null;
  createdAt: number;
  updatedAt: number;
}

export type NewOutboxRow = Omit<OutboxRow, 'seq'> & { seq?: number };

/** A photo kept on the device until the write that uses it has been sent. */
export interface StoredFile {
  id: string;
  ownerUserId: string;
  data: ArrayBuffer;
  type: string;
  name: string;
  size: number;
  /** Idempotency-Key of its upload. */
  uploadKey: string;
  /** The server's answer once uploaded, so a replay does not upload it again. */
  uploaded: { imageId: string; imageLink: string; name: string } | null;
  createdAt: number;
}

export interface SyncState {
  ownerUserId: string;
  companyId: string;
  cursor: string | null;
  pulledAt: number | null;
  /**
   * When a pull first reached the last page: from then on the mirror holds the whole company, so what is missing
   * from it is missing on the server too (a screen may then say "no employees yet"). Absent in rows written before
   * it was kept, which were pulled to the end at least once.
   */
  caughtUpAt?: number | null;
}

/** A mirrored row the pull did not update because it had unsent local changes; fetched again later. */
export interface StaleRow {
  ownerUserId: string;
  companyId: string;
  /** As in the outbox: '<table>:<id>'. */
  entityKey: string;
  table: MirrorTable;
  id: string;
  /** Epoch ms of the first skip since it was last brought up to date. */
  markedAt: number;
}

export interface Lease {
  name: string;
  holder: string;
  expiresAt: number;
}

/** The mirrored tables, as the pull and the outbox handlers name them. */
export const MIRROR_TABLES = ['companies', 'departments', 'employees', 'goals', 'projects', 'suggestions', 'registries', 'notifications'] as const;
export type MirrorTable = (typeof MIRROR_TABLES)[number];

export interface VersionSpec {
  version: number;
  stores: Record<string, string | null>;
  /** Carries the rows of the previous version over; named, so each one has its test. */
  upgrade?: (tx: Transaction) => Promise<void>;
}

/**
 * Version 1: the first schema. Nothing to carry over (earlier builds kept nothing in this database; the
 * tokens live in idb-keyval's own database).
 */
export async function upgradeToV1(_tx: Transaction): Promise<void> {
  // Nothing stored before version 1.
}

/** Version 2 adds `staleRows`, a new table: nothing to carry over. */
export async function upgradeToV2(_tx: Transaction): Promise<void> {
  // New table only; the rows of version 1 keep their shape.
}

/**
 * The words a proposal is found by: those of its title and problem, lowercased, ё read as е (Russian text is
 * typed both ways), split at anything that is not a letter or a digit, each word once. Kept on the stored row
 * as `searchWords` (a multi-entry index), so the review list finds proposals by word prefix without reading
 * them. Untrusted rows give what they can (a field that is not text gives no words).
 */
export function searchWordsOf(...texts: unknown[]): string[] {
  const words = new Set<string>();
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    for (const word of normalizeSearchText(text).split(NOT_A_WORD)) {
      if (word !== '') words.add(word.slice(0, MAX_SEARCH_WORD));
    }
  }
  return [...words];
}

/** How text is compared when searching: lowercase, ё as е. A query goes through this too. */
export function normalizeSearchText(text: string): string {
  return text.toLowerCase().replaceAll('ё', 'е');
}

const NOT_A_WORD = /[^\p{L}\p{N}]+/u;
/** Longer words are cut: a prefix this long already singles a proposal out, and keys stay small. */
const MAX_SEARCH_WORD = 40;

/** The stored proposal with its search words (a new object: the caller's row is left as it was). */
function withSearchWords(row: unknown): unknown {
  if (typeof row !== 'object' || row === null) return row;
  const { title, problem } = row as { title?: unknown; problem?: unknown };
  return { ...row, searchWords: searchWordsOf(title, problem) };
}

/**
 * Fills `searchWords` on every proposal written, however it is written (the pull's bulkPut, the outbox's add
 * and put, an update or modify): a DBCore middleware sees each stored value once and, unlike Dexie's
 * `creating`/`updating` hooks, does not make Dexie read the old rows before a bulkPut.
 */
function suggestionSearchWordsMiddleware(down: DBCore): DBCore {
  return {
    ...down,
    table(name) {
      const table = down.table(name);
      if (name !== 'suggestions') return table;
      return {
        ...table,
        mutate(request) {
          if (request.type !== 'add' && request.type !== 'put') return table.mutate(request);
          return table.mutate({ ...request, values: request.values.map(withSearchWords) });
        },
      };
    },
  };
}

/**
 * Version 3 (issue 11): the review list's indexes on proposals (due date alone and with status, department
 * and goal; `*searchWords`), and the notifications table. Stored proposals get their search words.
 */
export async function upgradeToV3(tx: Transaction): Promise<void> {
  await tx
    .table('suggestions')
    .toCollection()
    .modify((row: Record<string, unknown>) => {
      row.searchWords = searchWordsOf(row.title, row.problem);
    });
}

const scoped = '&[ownerUserId+id], [ownerUserId+companyId]';

/** Every published version, oldest first. Never edit a published entry: add a new one. */
export const DB_VERSIONS: readonly VersionSpec[] = [
  {
    version: 1,
    stores: {
      companies: '&[ownerUserId+id], ownerUserId',
      departments: scoped,
      employees: `${scoped}, [ownerUserId+userId]`,
      goals: `${scoped}, [ownerUserId+companyId+status]`,
      projects: `${scoped}, [ownerUserId+companyId+status]`,
      suggestions: `${scoped}, [ownerUserId+companyId+status], [ownerUserId+companyId+authorId], [ownerUserId+companyId+departmentId]`,
      registries: scoped,
      enums: '&ownerUserId',
      units: '&[ownerUserId+id], ownerUserId',
      outbox: '++seq, &id, [ownerUserId+seq], [ownerUserId+entityKey], [ownerUserId+status], *fileIds',
      files: '&id, ownerUserId',
      syncState: '&[ownerUserId+companyId], ownerUserId',
      leases: '&name',
    },
    upgrade: upgradeToV1,
  },
  {
    version: 2,
    stores: {
      staleRows: '&[ownerUserId+companyId+entityKey], [ownerUserId+companyId], [ownerUserId+entityKey]',
    },
    upgrade: upgradeToV2,
  },
  {
    version: 3,
    stores: {
      suggestions: `${scoped}, [ownerUserId+companyId+status], [ownerUserId+companyId+authorId], [ownerUserId+companyId+departmentId], [ownerUserId+companyId+dueAt], [ownerUserId+companyId+status+dueAt], [ownerUserId+companyId+departmentId+dueAt], [ownerUserId+companyId+goalId+dueAt], [ownerUserId+companyId+status+departmentId+dueAt], *searchWords`,
      notifications: `${scoped}, [ownerUserId+companyId+createdAt]`,
    },
    upgrade: upgradeToV3,
  },
  {
    // Issue 12: the projects list by status (the list filters) and by last change, and a goal's projects.
    version: 4,
    stores: {
      goals: `${scoped}, [ownerUserId+companyId+status], [ownerUserId+companyId+updatedAt]`,
      projects: `${scoped}, [ownerUserId+companyId+status], [ownerUserId+companyId+updatedAt], [ownerUserId+companyId+status+updatedAt], *goalIds, suggestionId`,
    },
  },
  {
    // Issue 13: the registries by state and number, a registry's projects, and the last dashboards computed.
    version: 5,
    stores: {
      registries: `${scoped}, [ownerUserId+companyId+status], [ownerUserId+companyId+number]`,
      projects: `${scoped}, [ownerUserId+companyId+status], [ownerUserId+companyId+updatedAt], [ownerUserId+companyId+status+updatedAt], *goalIds, suggestionId, registryId`,
      dashboards: '[ownerUserId+companyId+key], [ownerUserId+companyId]',
    },
  },
];

/** What a tab learns when another one opens a newer schema (or deletes the database). */
export interface DatabaseVersionChange {
  name: string;
  /** The schema version the other tab opens; null when it deletes the database. */
  newVersion: number | null;
}

const versionChangeListeners = new Set<(change: DatabaseVersionChange) => void>();

/**
 * Calls `listener` when another tab (or the service worker) opens a newer version of an app database: this
 * tab's connection is closed by then and stays closed, so the app should ask the user to reload. Returns the
 * unsubscribe.
 */
export function onDatabaseVersionChange(listener: (change: DatabaseVersionChange) => void): () => void {
  versionChangeListeners.add(listener);
  return () => {
    versionChangeListeners.delete(listener);
  };
}

export class AppDatabase extends Dexie {
  companies!: Table<StoredCompany, [string, string]>;
  departments!: Table<StoredDepartment, [string, string]>;
  employees!: Table<StoredEmployee, [string, string]>;
  goals!: Table<StoredGoal, [string, string]>;
  projects!: Table<StoredProject, [string, string]>;
  suggestions!: Table<StoredSuggestion, [string, string]>;
  registries!: Table<StoredRegistry, [string, string]>;
  dashboards!: Table<StoredDashboard, [string, string, string]>;
  notifications!: Table<StoredNotification, [string, string]>;
  enums!: Table<StoredEnums, string>;
  units!: Table<StoredUnit, [string, string]>;
  outbox!: EntityTable<OutboxRow, 'seq'>;
  files!: Table<StoredFile, string>;
  syncState!: Table<SyncState, [string, string]>;
  leases!: Table<Lease, string>;
  staleRows!: Table<StaleRow, [string, string, string]>;
  /** The transactions open now, so a page going into the back-forward cache can release them (page-lifecycle.ts). */
  readonly openTransactions: TransactionTracker = trackTransactions();

  /** `versions` is for the upgrade tests, which open a database at an older version first. */
  constructor(name: string = DATABASE_NAME, versions: readonly VersionSpec[] = DB_VERSIONS) {
    super(name);
    this.use({ stack: 'dbcore', name: 'suggestionSearchWords', create: suggestionSearchWordsMiddleware });
    this.use(this.openTransactions.middleware);
    for (const spec of versions) {
      const version = this.version(spec.version).stores(spec.stores);
      if (spec.upgrade) version.upgrade(spec.upgrade);
    }
    this.on('versionchange', (event: IDBVersionChangeEvent) => this.closeForNewerVersion(event));
  }

  /**
   * Dexie's own handler (which runs after this one unless this one answers false) closes the connection but
   * reopens it on the next call, at this tab's older version, which fails or blocks the other tab's upgrade
   * again. This code cannot read the newer schema, so the connection stays closed until the page reloads.
   */
  private closeForNewerVersion(event: IDBVersionChangeEvent): false | undefined {
    const newVersion = event.newVersion ? Math.ceil(event.newVersion / 10) : null;
    // A deletion (a cleanup, a test) is not a newer schema: Dexie's handler closes and reopens afresh.
    if (newVersion === null) return undefined;
    this.close({ disableAutoOpen: true });
    for (const listener of [...versionChangeListeners]) {
      try {
        listener({ name: this.name, newVersion });
      } catch (error) {
        console.error('A database version change listener failed', error);
      }
    }
    return false;
  }

  /** The mirrored table of that name. */
  mirror(table: MirrorTable): Table<Owned<{ id: string }>, [string, string]> {
    return this[table];
  }
}

let appDatabase: AppDatabase | undefined;

/** The app's database, opened on first use. */
export function getAppDatabase(): AppDatabase {
  if (!appDatabase) {
    appDatabase = new AppDatabase();
    // WebKit freezes a page kept in its back-forward cache with its open transactions, which then block every
    // other page of the origin: a page (not the service worker) releases them when it is hidden. The page's entry
    // installs the window (src/main.tsx) without importing this module, so Dexie stays out of the entry chunk.
    releaseWithThePage(appDatabase.openTransactions);
  }
  return appDatabase;
}
