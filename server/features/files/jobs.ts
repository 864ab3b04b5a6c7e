// The files feature's jobs, composed into the runner by app.ts: unattached uploads older than a day are
// removed every hour (one run per hour across every node, by the runner's claim; unattached.ts says which
// files that is and why a file being attached at that moment is safe).

import type { JobHandler, RecurringJob } from '../../jobs/runner';
import { removeStaleUploads } from './unattached';

const HOUR_MS = 3600 * 1000;

export const removeStaleUploadsJob: JobHandler = {
  kind: 'files.removeStale',
  run: async (_payload, job) => {
    await removeStaleUploads(job.db, job.now);
  },
};

export const FILE_JOB_HANDLERS: readonly JobHandler[] = [removeStaleUploadsJob];

export const FILE_RECURRING: readonly RecurringJob[] = [{ kind: 'files.removeStale', everyMs: HOUR_MS }];
