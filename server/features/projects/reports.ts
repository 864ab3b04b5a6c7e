// The indicator-report job (issue 12): filled by the reports slice.
import type { JobHandler, RecurringJob } from '../../jobs/runner';

export const PROJECT_REPORT_JOB_HANDLERS: readonly JobHandler[] = [];
export const PROJECT_REPORT_RECURRING: readonly RecurringJob[] = [];
