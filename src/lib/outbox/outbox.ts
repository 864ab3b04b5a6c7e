// The outbox: writes made on the device that the server has not confirmed yet (DESIGN.md, "Offline-first
// data flow").
// Guarantees: a feature's store writes its local change and the outbox row in ONE Dexie transaction
// (`writeWithOutbox` + `enqueue`), so the device never holds a change without its row or a row without its
// change; photos are stored as ArrayBuffer + type + name in `files` in that same transaction; a row leaves
// the outbox only when the server confirmed it (the replayer) or when the user discards it (`discard`);
// running out of storage surfaces as `StorageQuotaError`, never swallowed.
import Dexie, { type Table } from 'dexie';
import {
  type AppDatabase,
  type NewOutboxRow,
  type OutboxMethod,
  type OutboxRow,
  type StoredFile,
} from '../db/database';
import { StoredOutboxRow, checkRows, isArrayBuffer } from '../db/rows';

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

/** This user's outbox in send order, checked (for the "Unsent" screen and the badge). */
export async function listOutbox(db: AppDatabase, ownerUserId: string): Promise<OutboxRow[]> {
  const stored = await db.outbox.where('[ownerUserId+seq]').between([ownerUserId, Dexie.minKey], [ownerUserId, Dexie.maxKey]).toArray();
  return checkRows(StoredOutboxRow, stored, 'outbox').rows;
}

/** How many of this user's writes are not confirmed by the server. */
export function countUnsent(db: AppDatabase, ownerUserId: string): Promise<number> {
  return db.outbox.where('[ownerUserId+seq]').between([ownerUserId, Dexie.minKey], [ownerUserId, Dexie.maxKey]).count();
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
      for (const id of row.fileIds) stillUsed.add(id);
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

/** Puts a parked (or waiting) row back in line for the next drain. */
export async function retry(db: AppDatabase, id: string, now = Date.now()): Promise<boolean> {
  const changed = await db.outbox
    .where('id')
    .equals(id)
    .modify({ status: 'pending', attempts: 0, nextAttemptAt: 0, lastError: null, updatedAt: now });
  return changed > 0;
}

/**
 * "Edit and resend": a new body under a NEW Idempotency-Key (the server remembers the old key with the old
 * body and would answer 422), in the same place in the queue.
 */
export async function revise(db: AppDatabase, id: string, body: unknown, now = Date.now()): Promise<string | null> {
  const newId = crypto.randomUUID();
  const changed = await db.outbox
    .where('id')
    .equals(id)
    .modify({ id: newId, body, status: 'pending', attempts: 0, nextAttemptAt: 0, lastError: null, updatedAt: now });
  return changed > 0 ? newId : null;
}
