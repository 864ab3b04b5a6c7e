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
//   photos uploaded by an earlier attempt that the server no longer takes (it removes a photo attached to
//   nothing after a day) are uploaded again under new keys, once, instead of parking the row;
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
//   in one transaction (not stored when the user signed out meanwhile: nothing of a user who left is written
//   to the mirror). A row is removed only on success (or by the user's discard);
// - batches (POST /sync/push through `pushOperations`, docs/api.md "Push"): within a pass, in seq order, the
//   rows that may go together are those 'pending' (or left 'sending' by a sender that died), due, not yet tried in this drain, first of their entity
//   still waiting (so a batch holds at most one row per entityKey, and the next row of that entity waits for
//   the next pass), with no `dependsOn` still queued, without photos (a row with photos goes alone: its
//   uploads come first), under a uuid key, and of a kind the caller says the server can push (`isPushable`:
//   the outbox-kind registry's `isPushableOutboxRow`); up to `fitBatch`'s limits (100 operations, 768 KiB).
//   Per batch: the lease is renewed, every row is marked 'sending' with attempts + 1 (only if still stored
//   under the same id), and the batch goes out with a deadline of 20 s + 50 ms per operation. The answer is
//   read with the rules above: no answer -> every row keeps its attempts and backoff, the drain stops
//   'offline'; the session gone -> all pending, 'auth'; the batch refused as a whole with 408, 429 or 5xx ->
//   each row as if it had had that answer (429 stops 'throttled'); refused with any other status (404/405:
//   a server without push, remembered for PUSH_UNAVAILABLE_MS; 413: too large; 400) -> the attempts are given
//   back and the rows go one by one as above; a result per operation -> every 2xx leaves the outbox in ONE
//   transaction (stored row checked by id, photos dropped, the kind's handler given `data`), every other
//   answer is settled exactly as the same answer to the row alone, except a 503 after an earlier operation's
//   5xx ('not applied': the server ran nothing of it), which gives the attempt back and leaves the row due.
//   The row's id is its operation's Idempotency-Key, the same as alone, so a batch whose answer was lost
//   replays, alone or in a batch, without doubling. `batch: false` sends every row alone.
// It takes the transport, clock, deadlines and random source as parameters, so the same code runs in the
// page, the service worker and tests.
import Dexie from 'dexie';
import type { Exchange, ExchangeRequest, HttpClient } from '../http';
import type { AppDatabase, OutboxError, OutboxRow, StoredFile } from '../db/database';
import { isStoredFile } from '../db/rows';
import { dropUnusedFiles, makeNetworkFailuresDue, partitionOutbox } from './outbox';
import { MAX_PUSH_OPERATIONS, fitBatch, pushOperations, type OperationAnswer, type PushOperation } from './push';

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

/** A push batch gets this much more time per operation than one JSON request. */
export const PUSH_MS_PER_OPERATION = 50;
/** After a server answered that it has no push (404/405), rows go one by one for this long. */
export const PUSH_UNAVAILABLE_MS = 10 * 60_000;

/** How long a push of `operations` may take before it counts as a network failure. */
export function pushDeadlineMs(operations: number, baseMs = REQUEST_TIMEOUT_MS): number {
  return baseMs + Math.max(operations, 0) * PUSH_MS_PER_OPERATION;
}

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

/**
 * The handlers by row kind: a table, or a loader (the app's: a feature's handler loads with its store when a row
 * of its kind is answered). Either way the handler is in hand before the transaction that runs it opens: an
 * IndexedDB transaction commits as soon as it waits on anything but its own requests.
 */
export type SuccessHandlers = Readonly<Record<string, SuccessHandler>> | ((kind: string) => Promise<SuccessHandler | undefined>);

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
  handlers?: SuccessHandlers;
  /** Told after every change to the outbox (sent, parked, rescheduled). */
  onChange?: () => void;
  /**
   * A JSON request with no answer after this long counts as a network failure (default 20 s); an upload
   * gets this plus 1 s per 100 KB (`uploadDeadlineMs`).
   */
  requestTimeoutMs?: number;
  /**
   * Whether the server's push (POST /sync/push) takes this row's method and path: the outbox-kind registry's
   * `isPushableOutboxRow` (src/app/outbox-kinds.ts). Omitted: no row goes in a batch.
   */
  isPushable?: (row: OutboxRow) => boolean;
  /** false: every row goes alone, one request each (the path before batches; kept measurable). Default true. */
  batch?: boolean;
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

/** The push validates operation ids as uuids; a row under another key goes alone (its route takes any key). */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const operationOf = (row: OutboxRow): PushOperation => ({ id: row.id, method: row.method, path: row.path, body: row.body });

/** What became of a batch: an outcome per row it settled, and the rows to send alone instead. */
interface BatchOutcome {
  settled: Array<[OutboxRow, Outcome]>;
  alone: OutboxRow[];
}

function randomHolderId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
}

export function createReplayer(options: ReplayerOptions): Replayer {
  const { db, clock, random, http } = options;
  const handlers = options.handlers ?? {};
  /** The handler of `kind`, loaded if need be; a failed load rejects and the row stays queued. */
  const handlerOf = async (kind: string): Promise<SuccessHandler | undefined> => (typeof handlers === 'function' ? handlers(kind) : handlers[kind]);
  const holder = randomHolderId();
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const isPushable = options.batch === false ? () => false : (options.isPushable ?? (() => false));
  // A server that answered 404/405 to a push has none (an older build): rows go alone until then.
  let pushUnavailableUntil = Number.NEGATIVE_INFINITY;
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

  /**
   * The server took the row, but the code that stores its answer could not be loaded (offline, with its chunk
   * not cached, say): the row stays as if nothing had answered, and is sent again under its key when the
   * connection returns; the server answers the same, and then the answer is stored.
   */
  function keepForLoadFailure(row: OutboxRow, attemptsBefore: number, error: unknown): Promise<Outcome> {
    console.error(`Could not load the success handler of ${row.kind}`, error);
    return settleFailure(row, { kind: 'network', message: `The device could not store the answer to ${row.kind}` }, attemptsBefore);
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

  async function uploadFile(file: StoredFile): Promise<{ ok: true; imageId: string; earlier?: true } | { ok: false; answer: Answer } | { ok: false; gone: true }> {
    if (file.uploaded) return { ok: true, imageId: file.uploaded.imageId, earlier: true };
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
    // Photos whose imageId comes from an earlier attempt: the server may have removed them since (it keeps a
    // photo that is attached to nothing for a day), and then they are uploaded again (below).
    const uploadedEarlier: string[] = [];
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
        if (uploaded.earlier) uploadedEarlier.push(fileId);
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
      // Signed out while the request was on its way: the row is done, but nothing of the answer is stored
      // for a user who left this device.
      const isStillSignedIn = (await options.getOwnerUserId()) === current.ownerUserId;
      let handler: SuccessHandler | undefined;
      try {
        handler = isStillSignedIn ? await handlerOf(current.kind) : undefined;
      } catch (error) {
        return keepForLoadFailure(current, row.attempts, error);
      }
      await db.transaction('rw', db.tables, async () => {
        const stored = await db.outbox.get(current.seq);
        if (!stored || stored.id !== current.id) return;
        await db.outbox.delete(current.seq);
        await dropUnusedFiles(db, current.fileIds);
        await handler?.({ db, row: current, data: dataOf(answer.body) });
      });
      notify();
      return 'sent';
    }
    const field = current.fileField ?? 'imageIds';
    if (uploadedEarlier.length > 0 && answer.kind === 'answer' && answer.status === 400 && fieldErrorsOf(answer.body)?.[field] !== undefined) {
      // The server no longer takes photos uploaded by an earlier attempt (removed while the proposal waited, say
      // a day offline after its photos went up): forget those uploads, under new keys (the old ones would
      // replay the old imageIds), and send again at once. Photos uploaded in this attempt are never reset, so
      // a refusal of fresh uploads parks the row like every other 400.
      await forgetUploads(uploadedEarlier);
      await update(current, { status: 'pending', attempts: row.attempts, nextAttemptAt: clock.now() });
      return 'retry';
    }
    return settleFailure(current, answer, row.attempts);
  }

  /** Clears the kept upload answers of these photos and gives each a new upload key. */
  async function forgetUploads(fileIds: readonly string[]): Promise<void> {
    await db.transaction('rw', db.files, async () => {
      for (const fileId of fileIds) {
        const file = await db.files.get(fileId);
        if (isStoredFile(file)) await db.files.put({ ...file, uploaded: null, uploadKey: crypto.randomUUID() });
      }
    });
  }

  /** Whether `row` (already found due and first of its entity) may go in a batch now. */
  function batchable(row: OutboxRow): boolean {
    return (
      clock.now() >= pushUnavailableUntil &&
      (row.status === 'pending' || row.status === 'sending') &&
      row.fileIds.length === 0 &&
      UUID_PATTERN.test(row.id) &&
      isPushable(row)
    );
  }

  /** Marks the rows 'sending' with attempts + 1, as sendRow does; returns those still stored under their id. */
  async function markSending(batch: readonly OutboxRow[]): Promise<OutboxRow[]> {
    const marked = await db.transaction('rw', db.outbox, async () => {
      const stored = await db.outbox.bulkGet(batch.map((row) => row.seq));
      const now = clock.now();
      const rows: OutboxRow[] = [];
      const writes: OutboxRow[] = [];
      for (const [index, row] of batch.entries()) {
        const current = stored[index];
        // Discarded (or revised under a new key) since the queue was read: not ours to send.
        if (!current || current.id !== row.id) continue;
        const attempts = row.attempts + 1;
        rows.push({ ...row, status: 'sending', attempts });
        writes.push({ ...current, status: 'sending', attempts, updatedAt: now });
      }
      await db.outbox.bulkPut(writes);
      return rows;
    });
    notify();
    return marked;
  }

  /** Gives the attempt back to rows the server never ran (or that go alone next), leaving them due. */
  async function giveBack(rows: readonly OutboxRow[], lastError: OutboxError | null): Promise<void> {
    if (rows.length === 0) return;
    await db.transaction('rw', db.outbox, async () => {
      const stored = await db.outbox.bulkGet(rows.map((row) => row.seq));
      const now = clock.now();
      const writes: OutboxRow[] = [];
      for (const [index, row] of rows.entries()) {
        const current = stored[index];
        if (!current || current.id !== row.id) continue;
        writes.push({ ...current, status: 'pending', attempts: row.attempts - 1, ...(lastError ? { lastError } : {}), updatedAt: now });
      }
      await db.outbox.bulkPut(writes);
    });
    notify();
  }

  /** Removes the rows the server confirmed and stores its entities, all in ONE transaction. */
  async function removeSent(sent: ReadonlyArray<{ row: OutboxRow; answer: OperationAnswer }>): Promise<void> {
    if (sent.length === 0) return;
    // As in sendRow: after a sign-out the rows are done, but no answer is stored for the user who left.
    const signedIn = await options.getOwnerUserId();
    const kinds = [...new Set(sent.filter(({ row }) => row.ownerUserId === signedIn).map(({ row }) => row.kind))];
    const handlerByKind = new Map(await Promise.all(kinds.map(async (kind) => [kind, await handlerOf(kind)] as const)));
    await db.transaction('rw', db.tables, async () => {
      const stored = await db.outbox.bulkGet(sent.map(({ row }) => row.seq));
      const gone: number[] = [];
      for (const [index, { row, answer }] of sent.entries()) {
        const current = stored[index];
        // Discarded or revised meanwhile: the answer belongs to a row that is no longer there.
        if (!current || current.id !== row.id) continue;
        gone.push(row.seq);
        await dropUnusedFiles(db, row.fileIds);
        if (signedIn === row.ownerUserId) await handlerByKind.get(row.kind)?.({ db, row, data: dataOf(answer.body) });
      }
      await db.outbox.bulkDelete(gone);
    });
    notify();
  }

  /**
   * Sends `batch` (rows `batchable` chose, within fitBatch's limits) in one push and settles every row by
   * the answer: see the header for the mapping. The rows it returns as `alone` are left pending with their
   * attempts given back; the caller sends them one by one.
   */
  async function pushBatch(batch: readonly OutboxRow[]): Promise<BatchOutcome> {
    const rows = await markSending(batch);
    const settled: Array<[OutboxRow, Outcome]> = batch.filter((row) => !rows.some((kept) => kept.seq === row.seq)).map((row) => [row, 'gone']);
    if (rows.length === 0) return { settled, alone: [] };
    const outcome = await pushOperations((request) => http.exchange(request), rows.map(operationOf), { timeoutMs: pushDeadlineMs(rows.length, timeoutMs) });
    // The attempts each row had before this batch: what a failure with no answer gives back.
    const before = (row: OutboxRow) => row.attempts - 1;

    if (outcome.kind === 'network' || outcome.kind === 'auth') {
      for (const row of rows) settled.push([row, await settleFailure(row, outcome, before(row))]);
      return { settled, alone: [] };
    }
    if (outcome.kind === 'refused') {
      const answer: Answer = { kind: 'answer', status: outcome.status, body: outcome.body, retryAfterMs: parseRetryAfter(outcome.retryAfter, clock.now()) };
      // Answered for every row alike: a busy or failing server, a throttle, the session (401).
      if (isTransient(outcome.status) || outcome.status === 401) {
        for (const row of rows) settled.push([row, await settleFailure(row, answer, before(row))]);
        return { settled, alone: [] };
      }
      // No push here (404/405: an older server), too large (413), or a batch it could not read (400): each
      // row goes alone, where its own route answers it.
      if (outcome.status === 404 || outcome.status === 405) pushUnavailableUntil = clock.now() + PUSH_UNAVAILABLE_MS;
      await giveBack(rows, null);
      return { settled, alone: rows.map((row) => ({ ...row, status: 'pending', attempts: before(row) })) };
    }

    const sent: Array<{ row: OutboxRow; answer: OperationAnswer }> = [];
    const failed: Array<{ row: OutboxRow; answer: OperationAnswer }> = [];
    const notApplied: OutboxRow[] = [];
    let notAppliedMessage: string | null = null;
    let serverFailed = false;
    for (const [index, row] of rows.entries()) {
      const answer = outcome.answers[index];
      if (!answer) continue; // pushOperations answers every operation; kept for the index's type
      if (answer.status >= 200 && answer.status < 300) {
        sent.push({ row, answer });
      } else if (serverFailed && answer.status === 503) {
        // After an operation failed on the server, the rest of the batch was not run: nothing of it happened.
        notApplied.push(row);
        notAppliedMessage ??= messageOf(answer.body);
      } else {
        failed.push({ row, answer });
      }
      if (answer.status >= 500) serverFailed = true;
    }
    try {
      await removeSent(sent);
      for (const { row } of sent) settled.push([row, 'sent']);
    } catch (error) {
      // Nothing was removed (one transaction): the rows stay, as for a lost answer.
      for (const { row } of sent) settled.push([row, await keepForLoadFailure(row, before(row), error)]);
    }
    for (const { row, answer } of failed) {
      const failure: Answer = { kind: 'answer', status: answer.status, body: answer.body, retryAfterMs: parseRetryAfter(answer.retryAfter, clock.now()) };
      settled.push([row, await settleFailure(row, failure, before(row))]);
    }
    await giveBack(notApplied, { status: 503, message: notAppliedMessage ?? 'HTTP 503' });
    for (const row of notApplied) settled.push([row, 'retry']);
    return { settled, alone: [] };
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
      // Rows chosen for a batch, waiting until there are enough for one (or the pass ends).
      const gathered: OutboxRow[] = [];

      /** Counts what became of a row that was tried; a stop is kept for the drain. */
      const tally = (row: OutboxRow, outcome: Outcome) => {
        if (outcome === 'sent') {
          result.sent += 1;
          present.delete(row.id);
          progressed = true;
          return;
        }
        if (outcome === 'gone') return;
        blocked.add(row.entityKey);
        if (outcome === 'parked') result.parked += 1;
        else result.retried += outcome === 'auth' ? 0 : 1;
        if ((outcome === 'offline' || outcome === 'auth' || outcome === 'throttled') && result.stopped === null) result.stopped = outcome;
      };

      /** One row alone, as before batches; false when the drain must stop. */
      const sendAlone = async (row: OutboxRow): Promise<boolean> => {
        if (!(await renewLease())) {
          // Our lease ran out and another sender took over: leave the rest to it.
          leaseLost = true;
          return false;
        }
        tried.add(row.id);
        tally(row, await sendRow(row));
        return result.stopped === null;
      };

      /** Sends the gathered rows in batches: only full ones unless `all`; false when the drain must stop. */
      const sendGathered = async (all: boolean): Promise<boolean> => {
        while (gathered.length >= MAX_PUSH_OPERATIONS || (all && gathered.length > 0)) {
          const batch = gathered.splice(0, fitBatch(gathered.slice(0, MAX_PUSH_OPERATIONS).map(operationOf)));
          if (!(await renewLease())) {
            leaseLost = true;
            return false;
          }
          const { settled, alone } = await pushBatch(batch);
          for (const [row, outcome] of settled) tally(row, outcome);
          for (const row of alone) if (!(await sendAlone(row))) return false;
          if (result.stopped !== null) return false;
        }
        return true;
      };

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
        if (batchable(row)) {
          // Whatever its batch brings, the later rows of its entity wait for the next pass.
          tried.add(row.id);
          blocked.add(row.entityKey);
          gathered.push(row);
          if (!(await sendGathered(false))) break;
          continue;
        }
        if (!(await sendAlone(row))) break;
      }
      if (result.stopped === null && !leaseLost) await sendGathered(true);
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
