// The batched drain of the replay benchmark: the outbox sent through the push endpoint
// (src/lib/outbox/push.ts), written so it can be lifted into the replayer's drainHeld.
// What it keeps of the replayer's rules: the signed-in user's rows only, read in seq order; per entity strictly
// in order (a batch holds at most one row per entityKey, none whose `dependsOn` is still queued, and a row
// waits while an earlier row of its entity waits); rows with photos are left to the one-at-a-time path
// (their uploads come first); each row is marked 'sending' (attempts + 1) before its batch leaves; the rows
// the server confirmed leave the outbox with their photos, and the server's entities are stored by the
// kinds' success handlers, in ONE Dexie transaction per batch. What it leaves out (the replayer has it): the
// lock, backoff and parking; a failure here stops the drain and is reported.
import Dexie from 'dexie';
import type { AppDatabase, OutboxRow } from '../../../src/lib/db/database';
import { StoredOutboxRow, checkRows } from '../../../src/lib/db/rows';
import { dropUnusedFiles } from '../../../src/lib/outbox/outbox';
import { MAX_PUSH_OPERATIONS, fitBatch, pushOperations, type OperationAnswer, type PushExchange, type PushOperation } from '../../../src/lib/outbox/push';
import type { SuccessHandler } from '../../../src/lib/outbox/replayer';

export interface PushDrainOptions {
  db: AppDatabase;
  exchange: PushExchange;
  ownerUserId: string;
  handlers: Readonly<Record<string, SuccessHandler>>;
  now?: () => number;
}

export interface PushDrainResult {
  sent: number;
  requests: number;
  /** Operations the server did not confirm (left in the outbox); the benchmark expects none. */
  unconfirmed: Array<{ id: string; status: number }>;
  stopped: string | null;
  /** Time spent waiting for the push answers; the rest of the drain is the device's own work. */
  requestMs: number;
}

function isSuccess(answer: OperationAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

function dataOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'data' in body ? body.data : null;
}

async function readQueue(db: AppDatabase, ownerUserId: string): Promise<OutboxRow[]> {
  const stored = await db.outbox.where('[ownerUserId+seq]').between([ownerUserId, Dexie.minKey], [ownerUserId, Dexie.maxKey]).toArray();
  return checkRows(StoredOutboxRow, stored, 'outbox').rows;
}

/** The rows that may go together now, in seq order: one per entity, nothing waiting on a queued row. */
export function pushableRows(queue: readonly OutboxRow[], now: number): OutboxRow[] {
  const present = new Set(queue.map((row) => row.id));
  const blocked = new Set<string>();
  const taken: OutboxRow[] = [];
  for (const row of queue) {
    const waits =
      blocked.has(row.entityKey) ||
      (row.dependsOn != null && present.has(row.dependsOn)) ||
      row.status !== 'pending' ||
      row.nextAttemptAt > now ||
      row.fileIds.length > 0;
    // Whatever happens to this row, later rows of its entity wait for it.
    blocked.add(row.entityKey);
    if (!waits) taken.push(row);
  }
  return taken;
}

const operationOf = (row: OutboxRow): PushOperation => ({ id: row.id, method: row.method, path: row.path, body: row.body });

/** Sends one batch and settles its rows; false when the drain must stop (no answer, refused, signed out). */
async function sendBatch(options: PushDrainOptions, batch: readonly OutboxRow[], result: PushDrainResult): Promise<boolean> {
  const { db, handlers } = options;
  const now = options.now ?? (() => Date.now());
  // Marked as on their way first, as the replayer does for each row it sends.
  await db.transaction('rw', db.outbox, async () => {
    const stored = await db.outbox.bulkGet(batch.map((row) => row.seq));
    // A row discarded or revised meanwhile is left as it is.
    const marked = stored.flatMap((current, i) => (current && current.id === batch[i]?.id ? [{ ...current, status: 'sending' as const, attempts: current.attempts + 1, updatedAt: now() }] : []));
    await db.outbox.bulkPut(marked);
  });
  result.requests += 1;
  const asked = performance.now();
  const outcome = await pushOperations(options.exchange, batch.map(operationOf));
  result.requestMs += performance.now() - asked;
  if (outcome.kind !== 'results') {
    result.stopped = outcome.kind === 'refused' ? `refused ${outcome.status}` : outcome.kind;
    return false;
  }
  await db.transaction('rw', db.tables, async () => {
    const stored = await db.outbox.bulkGet(batch.map((row) => row.seq));
    const confirmed: number[] = [];
    for (const [index, row] of batch.entries()) {
      const answer = outcome.answers[index];
      const current = stored[index];
      // Discarded or revised meanwhile: the server's answer belongs to a row that is no longer there.
      if (!current || current.id !== row.id) continue;
      if (!answer || !isSuccess(answer)) {
        // The replayer applies its settleFailure rules here; the benchmark only reports it.
        result.unconfirmed.push({ id: row.id, status: answer?.status ?? 0 });
        await db.outbox.put({ ...current, status: 'pending', updatedAt: now() });
        continue;
      }
      confirmed.push(row.seq);
      await dropUnusedFiles(db, row.fileIds);
      await handlers[row.kind]?.({ db, row, data: dataOf(answer.body) });
      result.sent += 1;
    }
    await db.outbox.bulkDelete(confirmed);
  });
  return true;
}

export async function drainByPush(options: PushDrainOptions): Promise<PushDrainResult> {
  const now = options.now ?? (() => Date.now());
  const result: PushDrainResult = { sent: 0, requests: 0, unconfirmed: [], stopped: null, requestMs: 0 };
  const tried = new Set<string>();
  // Passes, as in the replayer: the queue is read once per pass (its rows are independent: one per entity),
  // sent batch after batch; the next pass sees what the last one unblocked or what was queued meanwhile.
  for (;;) {
    const candidates = pushableRows(await readQueue(options.db, options.ownerUserId), now()).filter((row) => !tried.has(row.id));
    if (candidates.length === 0) return result;
    for (let start = 0; start < candidates.length; ) {
      const ahead = candidates.slice(start, start + MAX_PUSH_OPERATIONS);
      const batch = ahead.slice(0, fitBatch(ahead.map(operationOf)));
      for (const row of batch) tried.add(row.id);
      if (!(await sendBatch(options, batch, result))) return result;
      start += batch.length;
    }
  }
}
