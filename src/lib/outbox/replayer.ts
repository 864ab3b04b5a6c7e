// The replayer: sends the outbox to the main-service (DESIGN.md, "Offline-first data flow", points 2-3).
// Guarantees:
// - one sender at a time across tabs and the service worker: the Web Lock 'outbox-replay' taken with
//   ifAvailable (a second drain returns 'busy' at once); where Web Locks are missing, a lease row in
//   IndexedDB, renewed while sending and expiring when its holder dies;
// - only the signed-in user's rows are sent, in seq order, strictly in order per entity: a row waits while an
//   earlier row with the same entityKey (or its `dependsOn`) is still in the outbox, whatever its state;
//   a stored row that fails its struct is never sent and never breaks a drain: it is treated as parked (the
//   rows of its entity behind it wait) until the user discards it;
// - every request goes through the one transport (`HttpClient.exchange` of src/lib/http.ts: bearer token,
//   `Language`, deadline, the one shared refresh) and carries the row's id as Idempotency-Key (each photo its
//   own key), so a replay after a lost answer or a killed page is absorbed by the server; photos are
//   uploaded first and their imageIds put into the body; an upload that ends after the user discarded the
//   row writes nothing (no orphan photo row), and a row discarded while its photos went up is not posted;
// - every request has a deadline, passed to the transport (20 s for JSON, 20 s + 1 s per 100 KB for a photo):
//   a hanging network is a network failure like a refused connection;
// - a network failure (no answer at all) is not an attempt of the row: `attempts` and its backoff stay as
//   they were, the drain stops ('offline'), and the row waits for the next reconnect signal (`wake()` makes
//   such rows due at once); answered transient failures (408, 429, 5xx, and a 409 that carries Retry-After:
//   the same key still running on the server) are retried later with exponential backoff and full jitter
//   capped at 5 minutes (Retry-After honoured), never given up; 403 'Token Expired.': the transport's one
//   shared refresh, then the same request once more (a refresh with no answer is a network failure); 401, a
//   refused refresh or 'Token Expired.' again after it: the drain stops ('auth'), rows stay pending; 409:
//   parked as 'conflict'; 422 and other 4xx: parked as 'failed' with the server's message, without blocking
//   other entities;
// - 2xx: the row (and its photos) leave the outbox and the server's entity is stored by the kind's handler,
//   in one transaction. A row is removed only on success (or by the user's discard).
// It takes the transport, clock, deadlines and random source as parameters, so the same code runs in the
// page, the service worker and tests.
import Dexie from 'dexie';
import type { Exchange, ExchangeRequest, HttpClient } from '../http';
import type { AppDatabase, OutboxError, OutboxRow, StoredFile } from '../db/database';
import { isStoredFile } from '../db/rows';
import { dropUnusedFiles, makeNetworkFailuresDue, partitionOutbox } from './outbox';

export const REPLAY_LOCK_NAME = 'outbox-replay';
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 5 * 60_000;
/** Retry-After longer than this is treated as this (a confused proxy should not stall the queue for days). */
export const RETRY_AFTER_CAP_MS = 60 * 60_000;
export const LEASE_MS = 60_000;
export const UPLOAD_PATH = '/api/v1/files/upload';
/** The deadline of a JSON request (and the base of an upload's). */
export const REQUEST_TIMEOUT_MS = 20_000;
/** An upload gets this much more time per byte: 1 s per 100 KB. */
export const UPLOAD_MS_PER_BYTE = 1_000 / 100_000;

/** How long an upload of `size` bytes may take before it counts as a network failure. */
export function uploadDeadlineMs(size: number, baseMs = REQUEST_TIMEOUT_MS): number {
  return baseMs + Math.ceil(Math.max(size, 0) * UPLOAD_MS_PER_BYTE);
}

export interface Clock {
  now(): number;
}

/** `navigator.locks` as far as the replayer needs it. */
export interface ExclusiveLocks {
  request<T>(name: string, options: { ifAvailable: true }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

export interface SuccessContext {
  db: AppDatabase;
  row: OutboxRow;
  /** The `data` of the server's answer (null when it had none). */
  data: unknown;
}

/** Stores what the server answered for a row of one kind; runs in the transaction that removes the row. */
export type SuccessHandler = (context: SuccessContext) => Promise<void>;

export interface ReplayerOptions {
  db: AppDatabase;
  /** The one transport (bearer token, `Language`, deadline, the shared refresh); its prefix goes before row paths. */
  http: Pick<HttpClient, 'exchange'>;
  /** The signed-in user: only their rows are sent. */
  getOwnerUserId: () => string | null | Promise<string | null>;
  clock: Clock;
  /** In [0, 1): the jitter of the backoff. */
  random: () => number;
  /** `navigator.locks`; null or omitted: the IndexedDB lease. */
  locks?: ExclusiveLocks | null;
  handlers?: Readonly<Record<string, SuccessHandler>>;
  /** Told after every change to the outbox (sent, parked, rescheduled). */
  onChange?: () => void;
  /**
   * A JSON request with no answer after this long counts as a network failure (default 20 s); an upload
   * gets this plus 1 s per 100 KB (`uploadDeadlineMs`).
   */
  requestTimeoutMs?: number;
}

export interface DrainResult {
  /** 'busy': another tab or the service worker is sending; 'signed-out': no user. */
  skipped: 'busy' | 'signed-out' | null;
  sent: number;
  /** Rows parked as conflict or failed in this drain. */
  parked: number;
  /** Rows rescheduled after a transient failure in this drain. */
  retried: number;
  /** Stopped early: no network, or the session could not be refreshed. */
  stopped: 'offline' | 'auth' | 'throttled' | null;
  /** The earliest time a waiting row may be tried again, null when none waits. */
  nextAttemptAt: number | null;
}

export interface Replayer {
  drain(): Promise<DrainResult>;
  /**
   * Connectivity came back: the signed-in user's rows that met only a dead network are due at once (see
   * `makeNetworkFailuresDue`). Returns how many; the caller drains next.
   */
  wake(): Promise<number>;
}

type Answer =
  | { kind: 'answer'; status: number; body: unknown; retryAfterMs: number | null }
  | { kind: 'network'; message: string }
  | { kind: 'auth'; message: string };

type Outcome = 'sent' | 'parked' | 'retry' | 'offline' | 'auth' | 'throttled' | 'gone';

/** Whether rows are left that the replayer will try again on its own (pending or cut off while sending). */
export function hasRowsLeftWaiting(result: DrainResult): boolean {
  return result.stopped !== null || result.nextAttemptAt !== null;
}

/** Full-jitter exponential backoff (AWS architecture blog): uniform in [0, min(cap, base * 2^(n-1))]. */
export function backoffDelay(attempts: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.floor(random() * ceiling);
}

/** Retry-After in seconds or as an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(Math.max(seconds, 0) * 1000, RETRY_AFTER_CAP_MS);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.min(Math.max(at - now, 0), RETRY_AFTER_CAP_MS);
}

function messageOf(body: unknown): string | null {
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
    return (body as { message: string }).message;
  }
  return null;
}

function fieldErrorsOf(body: unknown): Record<string, string> | undefined {
  const errors = typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;
  if (typeof errors !== 'object' || errors === null) return undefined;
  const entries = Object.entries(errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function dataOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'data' in body ? (body).data : null;
}

/**
 * The transport's exchange as the replayer's rules read it: no answer (refused, cut, past the deadline, or a
 * refresh that got none) is the network; a session that could not be renewed is 'auth'; every answer keeps its
 * status, with Retry-After in ms.
 */
function answerOf(exchange: Exchange, now: number): Answer {
  if (exchange.kind === 'network') return { kind: 'network', message: exchange.message };
  if (exchange.kind === 'auth') return { kind: 'auth', message: exchange.message };
  return { kind: 'answer', status: exchange.status, body: exchange.body, retryAfterMs: parseRetryAfter(exchange.retryAfter, now) };
}

type QueueEntry = { seq: number; row: OutboxRow } | { seq: number; row: null; id: string | null; entityKey: string | null };

function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function randomHolderId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

export function createReplayer(options: ReplayerOptions): Replayer {
  const { db, clock, random, http } = options;
  const handlers = options.handlers ?? {};
  const holder = randomHolderId();
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // One drain at a time inside this replayer even where the lock is re-entrant for one context.
  let running: Promise<DrainResult> | null = null;

  const notify = () => options.onChange?.();

  /** One request through the transport, as the replayer's rules read it. */
  async function send(request: ExchangeRequest): Promise<Answer> {
    return answerOf(await http.exchange(request), clock.now());
  }

  async function update(row: OutboxRow, changes: Partial<OutboxRow>): Promise<boolean> {
    // The row may have been discarded (or revised under a new key) meanwhile: then leave it be.
    const changed = await db.outbox
      .where('seq')
      .equals(row.seq)
      .and((current) => current.id === row.id)
      .modify({ ...changes, updatedAt: clock.now() });
    notify();
    return changed > 0;
  }

  /** Applies a failed answer to the row; returns what the drain does next. */
  async function settleFailure(row: OutboxRow, answer: Exclude<Answer, { kind: 'answer'; status: 200 }>, attemptsBefore: number): Promise<Outcome> {
    if (answer.kind === 'auth') {
      await update(row, { status: 'pending', lastError: { status: 401, message: answer.message } });
      return 'auth';
    }
    const now = clock.now();
    if (answer.kind === 'network') {
      // Nothing answered: the device is offline, not the row at fault. The attempt is given back and the
      // row keeps its place in time (it was due), so it goes out as soon as connectivity is seen again.
      await update(row, { status: 'pending', attempts: attemptsBefore, lastError: { status: 0, message: answer.message } });
      return 'offline';
    }
    const lastError: OutboxError = { status: answer.status, message: messageOf(answer.body) ?? `HTTP ${answer.status}` };
    const errors = fieldErrorsOf(answer.body);
    if (errors) lastError.errors = errors;
    const stillRunning = answer.status === 409 && answer.retryAfterMs !== null;
    if (isTransient(answer.status) || stillRunning) {
      const delay = Math.max(backoffDelay(row.attempts, random), answer.retryAfterMs ?? 0);
      await update(row, { status: 'pending', nextAttemptAt: now + delay, lastError });
      return answer.status === 429 ? 'throttled' : 'retry';
    }
    if (answer.status === 401) {
      await update(row, { status: 'pending', lastError });
      return 'auth';
    }
    await update(row, { status: answer.status === 409 ? 'conflict' : 'failed', lastError });
    return 'parked';
  }

  async function uploadFile(file: StoredFile): Promise<{ ok: true; imageId: string } | { ok: false; answer: Answer } | { ok: false; gone: true }> {
    if (file.uploaded) return { ok: true, imageId: file.uploaded.imageId };
    const form = new FormData();
    form.append('file', new Blob([file.data], { type: file.type }), file.name);
    const answer = await send({
      method: 'POST',
      url: UPLOAD_PATH,
      body: form,
      idempotencyKey: file.uploadKey,
      timeoutMs: uploadDeadlineMs(file.data.byteLength, timeoutMs),
    });
    if (answer.kind === 'answer' && answer.status >= 200 && answer.status < 300) {
      const data = dataOf(answer.body) as { imageId?: unknown; imageLink?: unknown; name?: unknown } | null;
      if (typeof data?.imageId === 'string') {
        const uploaded = {
          imageId: data.imageId,
          imageLink: typeof data.imageLink === 'string' ? data.imageLink : '',
          name: typeof data.name === 'string' ? data.name : file.name,
        };
        // Only onto the row as it is now, and only if it is still there: the user may have discarded the
        // proposal while the photo went up, and a put of the old copy would bring the photo back as an orphan.
        // (A put of the whole row: update() lost the ArrayBuffer under fake-indexeddb, seen in the tests.)
        const kept = await db.transaction('rw', db.files, async () => {
          const current = await db.files.get(file.id);
          if (!isStoredFile(current)) return false;
          await db.files.put({ ...current, uploaded });
          return true;
        });
        return kept ? { ok: true, imageId: uploaded.imageId } : { ok: false, gone: true };
      }
      return { ok: false, answer: { kind: 'answer', status: 502, body: { message: 'The upload answer has no imageId' }, retryAfterMs: null } };
    }
    return { ok: false, answer };
  }

  /** Whether the row is still in the outbox under the same key (not discarded, not revised meanwhile). */
  async function isStillQueued(row: OutboxRow): Promise<boolean> {
    const stored = await db.outbox.get(row.seq);
    return stored?.id === row.id;
  }

  async function sendRow(row: OutboxRow): Promise<Outcome> {
    const attempts = row.attempts + 1;
    if (!(await update(row, { status: 'sending', attempts }))) return 'gone';
    const current: OutboxRow = { ...row, status: 'sending', attempts };

    let body = current.body;
    if (current.fileIds.length > 0) {
      const imageIds: string[] = [];
      for (const fileId of current.fileIds) {
        const file = await db.files.get(fileId);
        if (!isStoredFile(file)) {
          // Discarded meanwhile (its photos went with it): nothing to send, nothing to park.
          if (!(await isStillQueued(current))) return 'gone';
          await update(current, { status: 'failed', lastError: { status: 0, message: `The photo ${fileId} is no longer on this device` } });
          return 'parked';
        }
        const uploaded = await uploadFile(file);
        if (!uploaded.ok && 'gone' in uploaded) {
          if (!(await isStillQueued(current))) return 'gone';
          await update(current, { status: 'failed', lastError: { status: 0, message: `The photo ${fileId} is no longer on this device` } });
          return 'parked';
        }
        if (!uploaded.ok) return settleFailure(current, uploaded.answer, row.attempts);
        imageIds.push(uploaded.imageId);
      }
      // The user may have discarded (or revised) the row while its photos went up: then it is not posted.
      if (!(await isStillQueued(current))) return 'gone';
      const field = current.fileField ?? 'imageIds';
      body = { ...(typeof body === 'object' && body !== null ? body : {}), [field]: imageIds };
    }

    // A row without a body (a DELETE, say) sends none, not the JSON text 'null'.
    const answer = await send({ method: current.method, url: current.path, body: body ?? undefined, idempotencyKey: current.id, timeoutMs });
    if (answer.kind === 'answer' && answer.status >= 200 && answer.status < 300) {
      await db.transaction('rw', db.tables, async () => {
        const stored = await db.outbox.get(current.seq);
        if (!stored || stored.id !== current.id) return;
        await db.outbox.delete(current.seq);
        await dropUnusedFiles(db, current.fileIds);
        await handlers[current.kind]?.({ db, row: current, data: dataOf(answer.body) });
      });
      notify();
      return 'sent';
    }
    return settleFailure(current, answer, row.attempts);
  }

  /**
   * The user's queue in seq order: readable rows to send, and unreadable ones reduced to what keeps the
   * order (their entity key and id, when those can be read).
   */
  async function readQueue(ownerUserId: string): Promise<QueueEntry[]> {
    const stored = await db.outbox.where('[ownerUserId+seq]').between([ownerUserId, Dexie.minKey], [ownerUserId, Dexie.maxKey]).toArray();
    const { rows, unreadable } = partitionOutbox(stored);
    const bySeq = new Map<number, unknown>(stored.map((raw) => [raw.seq, raw]));
    const entries: QueueEntry[] = rows.map((row) => ({ seq: row.seq, row }));
    for (const bad of unreadable) {
      const raw = bySeq.get(bad.seq) as { entityKey?: unknown } | undefined;
      entries.push({ seq: bad.seq, row: null, id: bad.id, entityKey: typeof raw?.entityKey === 'string' ? raw.entityKey : null });
    }
    return entries.sort((a, b) => a.seq - b.seq);
  }

  async function renewLease(): Promise<boolean> {
    if (options.locks) return true;
    return db.transaction('rw', db.leases, async () => {
      const now = clock.now();
      const lease = await db.leases.get(REPLAY_LOCK_NAME);
      if (lease && lease.holder !== holder && lease.expiresAt > now) return false;
      await db.leases.put({ name: REPLAY_LOCK_NAME, holder, expiresAt: now + LEASE_MS });
      return true;
    });
  }

  async function releaseLease(): Promise<void> {
    if (options.locks) return;
    await db.transaction('rw', db.leases, async () => {
      const lease = await db.leases.get(REPLAY_LOCK_NAME);
      if (lease?.holder === holder) await db.leases.delete(REPLAY_LOCK_NAME);
    });
  }

  async function drainHeld(): Promise<DrainResult> {
    const result: DrainResult = { skipped: null, sent: 0, parked: 0, retried: 0, stopped: null, nextAttemptAt: null };
    const ownerUserId = await options.getOwnerUserId();
    if (!ownerUserId) return { ...result, skipped: 'signed-out' };
    const tried = new Set<string>();
    let progressed = true;
    // Passes until nothing more can be done now: a pass sees the rows enqueued during the previous one.
    let leaseLost = false;
    while (progressed && result.stopped === null && !leaseLost) {
      progressed = false;
      const queue = await readQueue(ownerUserId);
      const present = new Set(queue.map((entry) => (entry.row ? entry.row.id : entry.id)).filter((id): id is string => id !== null));
      const blocked = new Set<string>();
      for (const entry of queue) {
        const { row } = entry;
        if (!row) {
          // Unreadable: never sent; like a parked row it holds back the later rows of its entity.
          if (entry.entityKey !== null) blocked.add(entry.entityKey);
          continue;
        }
        const waits =
          blocked.has(row.entityKey) ||
          (row.dependsOn != null && present.has(row.dependsOn)) ||
          row.status === 'conflict' ||
          row.status === 'failed' ||
          row.nextAttemptAt > clock.now() ||
          tried.has(row.id);
        if (waits) {
          blocked.add(row.entityKey);
          continue;
        }
        if (!(await renewLease())) {
          // Our lease ran out and another sender took over: leave the rest to it.
          leaseLost = true;
          break;
        }
        tried.add(row.id);
        const outcome = await sendRow(row);
        if (outcome === 'sent') {
          result.sent += 1;
          present.delete(row.id);
          progressed = true;
          continue;
        }
        if (outcome === 'gone') continue;
        blocked.add(row.entityKey);
        if (outcome === 'parked') result.parked += 1;
        else result.retried += outcome === 'auth' ? 0 : 1;
        if (outcome === 'offline' || outcome === 'auth' || outcome === 'throttled') {
          result.stopped = outcome;
          break;
        }
      }
    }
    const remaining = await readQueue(ownerUserId);
    for (const { row } of remaining) {
      if (row && (row.status === 'pending' || row.status === 'sending')) {
        result.nextAttemptAt = result.nextAttemptAt === null ? row.nextAttemptAt : Math.min(result.nextAttemptAt, row.nextAttemptAt);
      }
    }
    return result;
  }

  async function drainOnce(): Promise<DrainResult> {
    const busy: DrainResult = { skipped: 'busy', sent: 0, parked: 0, retried: 0, stopped: null, nextAttemptAt: null };
    if (options.locks) {
      return options.locks.request(REPLAY_LOCK_NAME, { ifAvailable: true }, async (lock) => (lock ? drainHeld() : busy));
    }
    if (!(await renewLease())) return busy;
    try {
      return await drainHeld();
    } finally {
      await releaseLease();
    }
  }

  return {
    drain() {
      running ??= drainOnce().finally(() => {
        running = null;
      });
      return running;
    },
    async wake() {
      const ownerUserId = await options.getOwnerUserId();
      if (!ownerUserId) return 0;
      const woken = await makeNetworkFailuresDue(db, ownerUserId);
      if (woken > 0) notify();
      return woken;
    },
  };
}
