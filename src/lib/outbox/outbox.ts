// The outbox: writes made on the device that the server has not confirmed yet (DESIGN.md, "Offline-first
// data flow").
// Guarantees: a feature's store writes its local change and the outbox row in ONE Dexie transaction
// (`writeWithOutbox` + `enqueue`), so the device never holds a change without its row or a row without its
// change; photos are stored as ArrayBuffer + type + name in `files` in that same transaction; a row leaves
// the outbox only when the server confirmed it (the replayer) or when the user discards it (`discard`,
// `discardUnreadable`); running out of storage surfaces as `StorageQuotaError`, never swallowed.
// What the user is shown is what is stored: `readOutbox` gives every row of the user, those that fail their
// struct (an older build, a damaged database) listed apart as unreadable instead of vanishing, and
// `countUnsent` counts exactly those two lists. "Edit and resend" (`revise`) only touches a row the server
// refused (conflict or failed), never one on its way or waiting its turn. After a reconnect,
// `makeNetworkFailuresDue` puts rows that only met a dead network back in line at once.
import Dexie, { type Table } from 'dexie';
import {
  type AppDatabase,
  type NewOutboxRow,
  type OutboxMethod,
  type OutboxRow,
  type OutboxStatus,
  type StoredFile,
} from '../db/database';
import { StoredOutboxRow, isArrayBuffer } from '../db/rows';

/** The device ran out of storage for this write; nothing of it was stored. */
export class StorageQuotaError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('The device has no storage left for this change', options);
    this.name = 'StorageQuotaError';
  }
}

/** Dexie reports a full disk as QuotaExceededError, sometimes wrapped in an AbortError. */
export function isQuotaError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const { name, inner, cause } = current as { name?: unknown; inner?: unknown; cause?: unknown };
    if (name === 'QuotaExceededError') return true;
    current = inner ?? cause;
  }
  return false;
}

/**
 * Runs `write` in one read-write transaction over `tables` plus the outbox and files, so the local change and
 * its outbox row commit together or not at all.
 */
export async function writeWithOutbox<T>(db: AppDatabase, tables: readonly Table[], write: () => Promise<T>): Promise<T> {
  try {
    return await db.transaction('rw', [...tables, db.outbox, db.files], write);
  } catch (error) {
    if (isQuotaError(error)) throw new StorageQuotaError({ cause: error });
    throw error;
  }
}

function requireOutboxTransaction(db: AppDatabase, tables: readonly string[]): void {
  const tx = Dexie.currentTransaction;
  if (!tx || tx.mode !== 'readwrite' || !tables.every((name) => tx.storeNames.includes(name))) {
    throw new Error(`enqueue must run inside a read-write transaction over ${tables.join(', ')} (use writeWithOutbox)`);
  }
  if (tx.db !== db) throw new Error('enqueue got a different database than the running transaction');
}

export interface EnqueueInput {
  ownerUserId: string;
  kind: string;
  method: OutboxMethod;
  path: string;
  body: unknown;
  entityKey: string;
  /** The Idempotency-Key; made here when omitted. */
  id?: string;
  fileIds?: string[];
  fileField?: string;
  dependsOn?: string | null;
  /** Epoch ms; the clock of the caller. */
  now?: number;
}

/** Adds one row to the outbox. Must run inside `writeWithOutbox` (throws otherwise). */
export async function enqueue(db: AppDatabase, input: EnqueueInput): Promise<OutboxRow> {
  requireOutboxTransaction(db, ['outbox', 'files']);
  const now = input.now ?? Date.now();
  const fileIds = input.fileIds ?? [];
  for (const fileId of fileIds) {
    const file = await db.files.get(fileId);
    if (!file || file.ownerUserId !== input.ownerUserId) throw new Error(`enqueue: file ${fileId} is not stored for this user`);
  }
  const row: NewOutboxRow = {
    id: input.id ?? crypto.randomUUID(),
    ownerUserId: input.ownerUserId,
    kind: input.kind,
    method: input.method,
    path: input.path,
    body: input.body,
    fileIds,
    ...(input.fileField !== undefined ? { fileField: input.fileField } : {}),
    entityKey: input.entityKey,
    dependsOn: input.dependsOn ?? null,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  };
  const seq = await db.outbox.add(row);
  return { ...row, seq };
}

export interface FileInput {
  ownerUserId: string;
  data: ArrayBuffer;
  type: string;
  name: string;
  id?: string;
  now?: number;
}

/** Keeps a photo for a later upload. Must run inside `writeWithOutbox`. Returns its id. */
export async function storeFile(db: AppDatabase, input: FileInput): Promise<StoredFile> {
  requireOutboxTransaction(db, ['files']);
  if (!isArrayBuffer(input.data)) throw new TypeError('storeFile takes an ArrayBuffer (Blobs are unreliable in Safari IndexedDB)');
  const file: StoredFile = {
    id: input.id ?? crypto.randomUUID(),
    ownerUserId: input.ownerUserId,
    data: input.data,
    type: input.type,
    name: input.name,
    size: input.data.byteLength,
    uploadKey: crypto.randomUUID(),
    uploaded: null,
    createdAt: input.now ?? Date.now(),
  };
  await db.files.add(file);
  return file;
}

/** The entity key of a mirrored row: outbox rows with it hold unsent changes of that row. */
export function entityKeyOf(table: string, id: string): string {
  return `${table}:${id}`;
}

function ownerRange(db: AppDatabase, ownerUserId: string) {
  return db.outbox.where('[ownerUserId+seq]').between([ownerUserId, Dexie.minKey], [ownerUserId, Dexie.maxKey]);
}

/** A stored outbox row that fails its struct: shown and countable, never sent, removable by the user. */
export interface UnreadableOutboxRow {
  seq: number;
  id: string | null;
  kind: string | null;
  createdAt: number | null;
}

export interface OutboxContents {
  /** The user's rows that pass their struct, in send order. */
  rows: OutboxRow[];
  /** The user's rows that do not, in send order (what can still be read of them). */
  unreadable: UnreadableOutboxRow[];
}

function field<T>(raw: unknown, name: string, is: (value: unknown) => value is T): T | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const value: unknown = (raw as Record<string, unknown>)[name];
  return is(value) ? value : null;
}
const isString = (value: unknown): value is string => typeof value === 'string';
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** Splits raw stored rows into checked rows and what can be told of the others (keeps their order). */
export function partitionOutbox(stored: readonly unknown[]): OutboxContents {
  const rows: OutboxRow[] = [];
  const unreadable: UnreadableOutboxRow[] = [];
  for (const raw of stored) {
    if (StoredOutboxRow.is(raw)) {
      rows.push(raw);
      continue;
    }
    const seq = field(raw, 'seq', isFiniteNumber);
    // The primary key: a row found through the owner index always has one.
    if (seq === null) continue;
    unreadable.push({ seq, id: field(raw, 'id', isString), kind: field(raw, 'kind', isString), createdAt: field(raw, 'createdAt', isFiniteNumber) });
  }
  return { rows, unreadable };
}

/** This user's outbox in send order: the rows, and apart the rows that fail their struct (still this user's). */
export async function readOutbox(db: AppDatabase, ownerUserId: string): Promise<OutboxContents> {
  // No console warning here: the unreadable rows are not hidden, the Unsent screen lists them.
  return partitionOutbox(await ownerRange(db, ownerUserId).toArray());
}

/** This user's readable outbox rows in send order (`readOutbox` also gives the unreadable ones). */
export async function listOutbox(db: AppDatabase, ownerUserId: string): Promise<OutboxRow[]> {
  return (await readOutbox(db, ownerUserId)).rows;
}

/**
 * How many of this user's writes are not confirmed by the server: exactly `rows.length + unreadable.length`
 * of `readOutbox`, which reads the same index range (a count, so the badge does not load every body).
 */
export function countUnsent(db: AppDatabase, ownerUserId: string): Promise<number> {
  return ownerRange(db, ownerUserId).count();
}

/**
 * Whether this user has rows the replayer will still try on its own (pending, or cut off while sending);
 * with `dueBy`, only rows already due by then count.
 */
export async function hasWaitingRows(db: AppDatabase, ownerUserId: string, dueBy?: number): Promise<boolean> {
  const { rows } = partitionOutbox(await ownerRange(db, ownerUserId).toArray());
  return rows.some((row) => (row.status === 'pending' || row.status === 'sending') && (dueBy === undefined || row.nextAttemptAt <= dueBy));
}

/**
 * Connectivity came back: this user's rows that failed only because nothing answered (status 0, still
 * pending) are due at once. Returns how many. Rows the server answered keep their backoff.
 */
export async function makeNetworkFailuresDue(db: AppDatabase, ownerUserId: string): Promise<number> {
  return ownerRange(db, ownerUserId)
    .filter((row) => StoredOutboxRow.is(row) && row.status === 'pending' && row.lastError?.status === 0 && row.nextAttemptAt > 0)
    .modify({ nextAttemptAt: 0 });
}

/** Whether this user has unsent changes of that entity. */
export async function hasUnsentChanges(db: AppDatabase, ownerUserId: string, entityKey: string): Promise<boolean> {
  return (await db.outbox.where('[ownerUserId+entityKey]').equals([ownerUserId, entityKey]).count()) > 0;
}

/** Removes files of a removed outbox row that no remaining row uses. Runs inside a transaction over both. */
export async function dropUnusedFiles(db: AppDatabase, fileIds: readonly string[]): Promise<void> {
  if (fileIds.length === 0) return;
  const stillUsed = new Set<string>();
  await db.outbox
    .where('fileIds')
    .anyOf([...fileIds])
    .each((row) => {
      // A damaged row can hold anything here: only an array names files.
      const ids: unknown = row.fileIds;
      if (Array.isArray(ids)) for (const id of ids) if (typeof id === 'string') stillUsed.add(id);
    });
  await db.files.bulkDelete(fileIds.filter((id) => !stillUsed.has(id)));
}

/** The user's explicit "discard": the only way besides a confirmed send that a row leaves the outbox. */
export async function discard(db: AppDatabase, id: string): Promise<boolean> {
  return db.transaction('rw', [db.outbox, db.files], async () => {
    const row = await db.outbox.where('id').equals(id).first();
    if (!row) return false;
    await db.outbox.delete(row.seq);
    await dropUnusedFiles(db, row.fileIds);
    return true;
  });
}

/**
 * The user's discard of a row that fails its struct (listed as unreadable by `readOutbox`): removes that
 * stored row, if it is this user's, and the photos no other row uses. Returns whether it removed it.
 */
export async function discardUnreadable(db: AppDatabase, ownerUserId: string, seq: number): Promise<boolean> {
  return db.transaction('rw', [db.outbox, db.files], async () => {
    const raw: unknown = await db.outbox.get(seq);
    if (field(raw, 'ownerUserId', isString) !== ownerUserId) return false;
    const ids: unknown = field(raw, 'fileIds', Array.isArray);
    await db.outbox.delete(seq);
    await dropUnusedFiles(db, Array.isArray(ids) ? ids.filter(isString) : []);
    return true;
  });
}

/** Puts a parked (or waiting) row back in line for the next drain. */
export async function retry(db: AppDatabase, id: string, now = Date.now()): Promise<boolean> {
  const changed = await db.outbox
    .where('id')
    .equals(id)
    .modify({ status: 'pending', attempts: 0, nextAttemptAt: 0, lastError: null, updatedAt: now });
  return changed > 0;
}

/** The states in which a row may be edited and resent: the server refused it and nothing is sending it. */
export const REVISABLE_STATUSES: readonly OutboxStatus[] = ['conflict', 'failed'];

/**
 * "Edit and resend": a new body under a NEW Idempotency-Key (the server remembers the old key with the old
 * body and would answer 422), in the same place in the queue. Only a row the server refused (conflict or
 * failed) may be revised: a row being sent or waiting its turn answers null and is left as it is, since its
 * request may already be on the wire under the old key.
 */
export async function revise(db: AppDatabase, id: string, body: unknown, now = Date.now()): Promise<string | null> {
  return db.transaction('rw', db.outbox, async () => {
    const row: unknown = await db.outbox.where('id').equals(id).first();
    if (!StoredOutboxRow.is(row) || !REVISABLE_STATUSES.includes(row.status)) return null;
    const newId = crypto.randomUUID();
    await db.outbox.update(row.seq, { id: newId, body, status: 'pending', attempts: 0, nextAttemptAt: 0, lastError: null, updatedAt: now });
    return newId;
  });
}
