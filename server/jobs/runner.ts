// The job runner: work that must happen once across every server process (mail, cleanups, and soon review
// deadlines, escalations, reminders, digests), kept in the `jobs` table of the one database. What it guarantees:
// - a job exists iff the change that caused it committed: `enqueueJob` writes in the caller's transaction;
// - two runners (two processes, or two runners over one Database) never run one job at the same time: a job is
//   claimed with FOR UPDATE SKIP LOCKED and a lease (`locked_until`); a runner whose lease ran out (it crashed,
//   or hung) finds its job taken by another and its late outcome ignored (the claim is checked on completion);
// - a failed run is retried with exponential backoff up to the handler's maxAttempts, then left `failed` with
//   its last error for an operator (never deleted silently); a JobPermanentError fails at once;
// - a recurring kind has exactly one pending row (key `recurring:<kind>`), re-enqueued `everyMs` after each run;
// - time is the runner's Clock: tests move a ManualClock and call `runDue()`; production polls every `pollMs`
//   and `wake()` makes it poll at once (call it after the transaction that enqueued something).
// At least once, not exactly once: a process that dies after a handler's effect and before the completion
// commits runs it again after the lease. Handlers make their effect idempotent (the mail handler checks the
// outbox row it sends; cleanups are naturally so).

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Clock } from '../clock';
import type { Database, Queryable } from '../db/database';
import type { DB } from '../db/kysely';

/** How long a claimed job is its runner's; after that another runner may run it again. */
export const DEFAULT_LEASE_MS = 5 * 60 * 1000;
export const DEFAULT_MAX_ATTEMPTS = 5;
/** A poll finds jobs whose time came without a wake() (retries, schedules, another node's enqueue). */
export const DEFAULT_POLL_MS = 5000;
/** Jobs one runner runs at once (a slow SMTP server must not hold up the cleanups). */
export const DEFAULT_CONCURRENCY = 4;
const RETRY_BASE_MS = 30 * 1000;
const RETRY_CAP_MS = 60 * 60 * 1000;
const ERROR_TEXT_LIMIT = 2000;

/** The wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed: 30 s, 1 min, 2 min, ... 1 h. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_CAP_MS);
}

export interface JobContext {
  db: Database;
  /** The runner's clock when the job was claimed. */
  now: Date;
  /** 1 on the first run. */
  attempt: number;
  id: string;
  kind: string;
}

export interface JobHandler {
  kind: string;
  /** Validates `payload` (it comes from storage); throws to fail this attempt. */
  run(payload: unknown, job: JobContext): Promise<void>;
  /** Default DEFAULT_MAX_ATTEMPTS. */
  maxAttempts?: number;
}

export interface RecurringJob {
  kind: string;
  everyMs: number;
}

/** Fails a job without retrying (a payload that can never be valid). */
export class JobPermanentError extends Error {
  override name = 'JobPermanentError';
}

/** The part of a pino / Fastify logger the runner writes to. */
export interface JobLog {
  error(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

export interface JobRunnerOptions {
  db: Database;
  clock: Clock;
  handlers: readonly JobHandler[];
  recurring?: readonly RecurringJob[];
  log: JobLog;
  pollMs?: number;
  leaseMs?: number;
  /** Jobs this runner runs at once (default DEFAULT_CONCURRENCY); with 1 it runs them one by one, oldest first. */
  concurrency?: number;
  /** Names this runner in `claimed_by` (default host:pid:random). */
  name?: string;
}

export interface JobRunner {
  /** Polls every pollMs until stop(). */
  start(): void;
  /** Stops polling and waits for the jobs in flight. */
  stop(): Promise<void>;
  /** Claims and runs every job due at clock.now() (including jobs those jobs enqueue); resolves with how many ran. */
  runDue(): Promise<number>;
  /** A started runner polls now (after a transaction that enqueued something). */
  wake(): void;
}

export interface NewJob {
  kind: string;
  payload?: unknown;
  /** Default: as soon as possible (due whatever the runner's clock says). */
  runAt?: Date;
  /** A job that must exist once: a second enqueue while one with this key is pending does nothing. */
  key?: string;
}

/** Writes a job in `tx`, the transaction of the change that causes it. */
export async function enqueueJob(tx: Queryable, job: NewJob): Promise<void> {
  await tx.kysely
    .insertInto('jobs')
    .values({ kind: job.kind, payload: JSON.stringify(job.payload ?? null), key: job.key ?? null, run_at: job.runAt ?? null })
    // The partial unique index on a pending job's key: the job is already there.
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

export function recurringKey(kind: string): string {
  return `recurring:${kind}`;
}

type ClaimedJob = Pick<Selectable<DB['jobs']>, 'id' | 'kind' | 'payload' | 'attempts'>;

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, ERROR_TEXT_LIMIT);
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, clock, log } = options;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const name = options.name ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  const handlers = new Map<string, JobHandler>();
  for (const handler of options.handlers) {
    if (handlers.has(handler.kind)) throw new Error(`two job handlers for ${handler.kind}`);
    handlers.set(handler.kind, handler);
  }
  const recurring = new Map<string, number>();
  for (const { kind, everyMs } of options.recurring ?? []) {
    if (!handlers.has(kind)) throw new Error(`recurring job ${kind} has no handler`);
    if (!(everyMs > 0)) throw new Error(`recurring job ${kind} needs everyMs > 0`);
    recurring.set(kind, everyMs);
  }
  // A runner claims only the kinds it can run: a node of an older version leaves newer kinds to the others.
  const kinds = [...handlers.keys()];

  let recurringEnsured = false;
  // One pass at a time per runner; a runDue() during a pass runs its own pass after it.
  let tail: Promise<unknown> = Promise.resolve();
  let started = false;
  let ticking = false;
  let wakeAgain = false;
  let timer: NodeJS.Timeout | undefined;

  async function ensureRecurring(): Promise<void> {
    const now = clock.now();
    for (const kind of recurring.keys()) await enqueueJob(db, { kind, key: recurringKey(kind), runAt: now });
  }

  async function claim(): Promise<(ClaimedJob & { now: Date }) | null> {
    const now = clock.now();
    // One statement: the oldest due job that no live lease holds and no other claim has locked, taken.
    const row = await db.kysely
      .updateTable('jobs')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), locked_until: new Date(now.getTime() + leaseMs), claimed_by: name }))
      .where('id', '=', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('state', '=', 'pending')
          .where((w) => w.or([w('run_at', 'is', null), w('run_at', '<=', now)]))
          .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', now)]))
          .where((w) => w('kind', '=', w.fn.any(w.val(kinds))))
          .orderBy('run_at', (order) => order.asc().nullsFirst())
          .orderBy('created_at')
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'kind', 'payload', 'attempts'])
      .executeTakeFirst();
    return row ? { ...row, now } : null;
  }

  /** The guard of every outcome: the job is still ours (no other runner took it after our lease). */
  const ours = (job: ClaimedJob) => (eb: ExpressionBuilder<DB, 'jobs'>) =>
    eb.and([eb('id', '=', job.id), eb('state', '=', 'pending'), eb('claimed_by', '=', name), eb('attempts', '=', job.attempts)]);

  async function scheduleNext(tx: Queryable, kind: string, now: Date): Promise<void> {
    const everyMs = recurring.get(kind);
    if (everyMs !== undefined) await enqueueJob(tx, { kind, key: recurringKey(kind), runAt: new Date(now.getTime() + everyMs) });
  }

  async function complete(job: ClaimedJob): Promise<void> {
    const now = clock.now();
    await db.transaction(async (tx) => {
      const done = await tx.kysely
        .updateTable('jobs')
        .set({ state: 'done', finished_at: now, locked_until: null, last_error: null })
        .where(ours(job))
        .returning('id')
        .executeTakeFirst();
      if (!done) {
        log.warn({ job: job.id, kind: job.kind }, 'job finished after its lease: another runner has it');
        return;
      }
      await scheduleNext(tx, job.kind, now);
    });
  }

  async function fail(job: ClaimedJob, handler: JobHandler, error: unknown): Promise<void> {
    const now = clock.now();
    const maxAttempts = handler.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const final = error instanceof JobPermanentError || job.attempts >= maxAttempts;
    const detail = { job: job.id, kind: job.kind, attempt: job.attempts, maxAttempts, err: error };
    await db.transaction(async (tx) => {
      // Failed for good when it ended, or due again after the backoff.
      const outcome = final ? { state: 'failed', finished_at: now } : { run_at: new Date(now.getTime() + retryDelayMs(job.attempts)) };
      const updated = await tx.kysely
        .updateTable('jobs')
        .set({ ...outcome, last_error: errorText(error), max_attempts: maxAttempts, locked_until: null })
        .where(ours(job))
        .returning('id')
        .executeTakeFirst();
      if (!updated) {
        log.warn({ job: job.id, kind: job.kind }, 'job failed after its lease: another runner has it');
        return;
      }
      if (!final) {
        log.warn(detail, 'job failed, will retry');
        return;
      }
      log.error(detail, 'job failed for good');
      await scheduleNext(tx, job.kind, now);
    });
  }

  async function runOne(job: ClaimedJob & { now: Date }): Promise<void> {
    const handler = handlers.get(job.kind);
    if (!handler) throw new Error(`claimed a job of unknown kind ${job.kind}`);
    try {
      await handler.run(job.payload, { db, now: job.now, attempt: job.attempts, id: job.id, kind: job.kind });
    } catch (error) {
      await fail(job, handler, error);
      return;
    }
    await complete(job);
  }

  async function pass(): Promise<number> {
    if (!recurringEnsured) {
      await ensureRecurring();
      recurringEnsured = true;
    }
    let ran = 0;
    const errors: unknown[] = [];
    const workers = new Set<Promise<void>>();
    // One worker while the queue is idle (one query a poll); each claimed job lets one more join, up to the bound.
    const work = async (): Promise<void> => {
      for (;;) {
        const job = await claim();
        if (!job) return;
        ran += 1;
        if (workers.size < concurrency) spawn();
        await runOne(job);
      }
    };
    const spawn = () => {
      const worker: Promise<void> = work()
        .catch((error: unknown) => {
          errors.push(error);
        })
        .finally(() => workers.delete(worker));
      workers.add(worker);
    };
    spawn();
    while (workers.size > 0) await Promise.all([...workers]);
    if (errors.length > 0) throw errors[0];
    return ran;
  }

  function runDue(): Promise<number> {
    const next = tail.then(pass);
    tail = next.catch(() => undefined);
    return next;
  }

  async function tick(): Promise<void> {
    if (ticking) {
      wakeAgain = true;
      return;
    }
    ticking = true;
    clearTimeout(timer);
    try {
      do {
        wakeAgain = false;
        try {
          await runDue();
        } catch (error) {
          log.error({ err: error }, 'job poll failed');
        }
      } while (wakeAgain && started);
    } finally {
      ticking = false;
      if (started) {
        timer = setTimeout(() => void tick(), pollMs);
        timer.unref();
      }
    }
  }

  return {
    start() {
      if (started) return;
      started = true;
      void tick();
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      await tail;
    },
    runDue,
    wake() {
      if (started) void tick();
    },
  };
}
