// The service's own housekeeping, as recurring jobs (one run per interval across every node, by the runner's
// claim): old idempotency keys, counted rate events older than any window, and finished jobs. Failed jobs are
// kept: they are what an operator looks at.

import { cleanupIdempotencyKeys, IDEMPOTENCY_CLEANUP_INTERVAL_MS } from '../idempotency';
import { pruneRateEvents } from '../rate-limit';
import type { Queryable } from '../db/database';
import type { JobHandler, RecurringJob } from './runner';

/** Rate events are kept this long: longer than the longest window any rule counts (a day). */
export const RATE_EVENTS_KEEP_SECONDS = 2 * 24 * 3600;
/** Done jobs are kept a week, for whoever wants to see what ran. */
export const DONE_JOBS_KEEP_DAYS = 7;
const HOUR_MS = 3600 * 1000;

/** Deletes jobs that ended `done` before now − DONE_JOBS_KEEP_DAYS; returns how many. */
export async function pruneDoneJobs(db: Queryable, now: Date): Promise<number> {
  const result = await db.kysely
    .deleteFrom('jobs')
    .where('state', '=', 'done')
    .where('finished_at', '<', new Date(now.getTime() - DONE_JOBS_KEEP_DAYS * 24 * HOUR_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const MAINTENANCE_JOB_HANDLERS: readonly JobHandler[] = [
  {
    kind: 'idempotency.cleanup',
    run: async (_payload, job) => {
      await cleanupIdempotencyKeys(job.db, job.now);
    },
  },
  {
    kind: 'rateEvents.prune',
    run: async (_payload, job) => {
      await pruneRateEvents(job.db, job.now, RATE_EVENTS_KEEP_SECONDS);
    },
  },
  {
    kind: 'jobs.prune',
    run: async (_payload, job) => {
      await pruneDoneJobs(job.db, job.now);
    },
  },
];

export const MAINTENANCE_RECURRING: readonly RecurringJob[] = [
  { kind: 'idempotency.cleanup', everyMs: IDEMPOTENCY_CLEANUP_INTERVAL_MS },
  { kind: 'rateEvents.prune', everyMs: HOUR_MS },
  { kind: 'jobs.prune', everyMs: 6 * HOUR_MS },
];
