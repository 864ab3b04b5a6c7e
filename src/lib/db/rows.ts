// Reading stored rows: IndexedDB is untrusted (an older build, a browser bug, a user with devtools may have
// written anything), so every row read here is checked with its struct. A row that fails is left out and
// reported on the console, so one bad row never breaks a screen; `readRows` tells how many were left out.
import { type Describe, array, enums, nullable, number, object, optional, record, string, type, unknown } from 'superstruct';
import { Goal } from '../../domain/goal';
import { NotificationRow } from '../../domain/notification';
import { Project } from '../../domain/project';
import { Registry } from '../../domain/registry';
import { CompanyRow, DepartmentRow, EmployeeRow, Suggestion } from '../../domain/suggestion';
import { EnumsData, Unit } from '../../domain/user';
import { type AppDatabase, type MirrorTable, type OutboxRow, type StaleRow, type StoredFile, MIRROR_TABLES, OUTBOX_METHODS, OUTBOX_STATUSES } from './database';

const ownerTag = type({ ownerUserId: string() });

/** Anything with superstruct's `is`. */
export interface RowCheck<T> {
  is(value: unknown): value is T;
}

/** The struct each mirrored table's rows must satisfy (without the owner tag). */
export const MIRROR_ROW_STRUCTS: Record<MirrorTable, RowCheck<{ id: string }>> = {
  companies: CompanyRow,
  departments: DepartmentRow,
  employees: EmployeeRow,
  goals: Goal,
  projects: Project,
  suggestions: Suggestion,
  registries: Registry,
  notifications: NotificationRow,
};

export const StoredOutboxRow: Describe<OutboxRow> = object({
  seq: number(),
  id: string(),
  ownerUserId: string(),
  kind: string(),
  method: enums(OUTBOX_METHODS),
  path: string(),
  body: unknown(),
  fileIds: array(string()),
  fileField: optional(string()),
  entityKey: string(),
  dependsOn: optional(nullable(string())),
  status: enums(OUTBOX_STATUSES),
  attempts: number(),
  nextAttemptAt: number(),
  lastError: nullable(object({ status: number(), message: string(), errors: optional(record(string(), string())) })),
  createdAt: number(),
  updatedAt: number(),
});

export const StoredFileRow = type({
  id: string(),
  ownerUserId: string(),
  data: unknown(),
  type: string(),
  name: string(),
  size: number(),
  uploadKey: string(),
  uploaded: nullable(type({ imageId: string(), imageLink: string(), name: string() })),
  createdAt: number(),
});

export const StoredStaleRow: Describe<StaleRow> = object({
  ownerUserId: string(),
  companyId: string(),
  entityKey: string(),
  table: enums(MIRROR_TABLES),
  id: string(),
  markedAt: number(),
});

export const StoredEnumsRow = object({ ownerUserId: string(), data: EnumsData, updatedAt: number() });
export const StoredUnitRow = Unit;

export interface CheckedRows<T> {
  rows: T[];
  /** Rows that failed their struct and were left out. */
  rejected: number;
}

/** Keeps the rows that satisfy `struct` (and carry an owner tag when `owned`). */
export function checkRows<T>(struct: RowCheck<T>, rows: readonly unknown[], what: string, owned = true): CheckedRows<T> {
  const valid: T[] = [];
  let rejected = 0;
  for (const row of rows) {
    if (struct.is(row) && (!owned || ownerTag.is(row))) {
      valid.push(row);
    } else {
      rejected += 1;
    }
  }
  if (rejected > 0) console.warn(`Left out ${rejected} stored ${what} row(s) that do not match their struct`);
  return { rows: valid, rejected };
}

export function isStoredFile(row: unknown): row is StoredFile {
  return StoredFileRow.is(row) && isArrayBuffer(row.data);
}

/** `instanceof` fails across realms (a worker's or the IndexedDB implementation's clone). */
export function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

/** The rows of one company in a mirrored table, as this user sees them, checked. */
export async function readCompanyRows(
  db: AppDatabase,
  table: MirrorTable,
  ownerUserId: string,
  companyId: string,
): Promise<CheckedRows<{ id: string } & { ownerUserId: string }>> {
  const stored =
    table === 'companies'
      ? await db.companies.where('[ownerUserId+id]').equals([ownerUserId, companyId]).toArray()
      : await db.mirror(table).where('[ownerUserId+companyId]').equals([ownerUserId, companyId]).toArray();
  return checkRows(MIRROR_ROW_STRUCTS[table], stored, table) as CheckedRows<{ id: string } & { ownerUserId: string }>;
}
