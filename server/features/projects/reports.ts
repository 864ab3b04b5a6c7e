// The indicator-report job (issue 12), run by the job runner as `projects.reports` every hour. A project reports its
// indicator while APPROVED (at its reporting frequency) or COMPLETED (post-monitoring); `next_report_due` is the
// calendar date of the next report, moved on by the service when a report is filed. The job compares it with the
// pass's `now` read as a UTC calendar date, in two steps:
//   1. due today: `next_report_due` is today and this due date was not reminded yet -> `report_reminded_due`
//      set to it, PROJECT_REPORT_DUE (title, dueDate) to the project manager;
//   2. overdue: `next_report_due` is before today and not flagged yet -> `report_overdue_at`, and
//      PROJECT_REPORT_OVERDUE (title, dueDate) to the project manager. A report filed since would have moved
//      `next_report_due` on and cleared `report_overdue_at`, so a flagged project is one with no report since.
// What it guarantees:
// - each reminder and each flag happens once per due date, however many runners or passes run at once: a batch
//   is claimed with SELECT ... FOR UPDATE SKIP LOCKED on the step's condition (a row another pass holds is
//   skipped; once that pass commits, the row no longer meets the condition), and the row's update and its
//   notification (with its instant mail job) are written in the batch's transaction;
// - state lives in the rows, so a restart or a missed run loses nothing: the next pass does what is due (a due
//   date missed entirely is flagged overdue, not reminded late);
// - a project in any other state (NEW, CALCULATING, CALCULATED, FOR_REVISION) is never looked at;
// - the manager is told only while their employee record has an active membership; the row is marked either way.

import type { NotificationKind } from '../../../src/domain/notification';
import type { ProjectStatus } from '../../../src/domain/project';
import type { Database, Queryable } from '../../db/database';
import type { JobHandler, RecurringJob } from '../../jobs/runner';
import { notifyAll, type Notice } from '../notifications/service';

export const PROJECT_REPORTS_JOB = 'projects.reports';
export const PROJECT_REPORTS_EVERY_MS = 60 * 60 * 1000;
/** Projects claimed per transaction. */
export const PROJECT_REPORTS_BATCH = 500;

/** The states whose indicator reports come due (PROJECT_REPORTING_STATUSES of the domain). */
const REPORTING: readonly ProjectStatus[] = ['APPROVED', 'COMPLETED'];

type Step = 'due' | 'overdue';

export interface ProjectReportPassResult {
  /** Managers reminded of a report due today. */
  reminded: number;
  /** Projects flagged with an overdue report. */
  overdue: number;
}

interface ClaimedRow {
  company_id: string;
  id: string;
  name: string;
  next_report_due: string | null;
  manager_user_id: string | null;
}

/** The calendar date of `now` in UTC, 'YYYY-MM-DD' (the form of `next_report_due`). */
export function reportDateOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Claims up to `limit` projects meeting `step`'s condition on `today`; another pass's rows are skipped. */
function claim(tx: Queryable, step: Step, today: string, limit: number): Promise<ClaimedRow[]> {
  let query = tx.kysely
    .selectFrom('projects as p')
    .select((eb) => [
      'p.company_id',
      'p.id',
      'p.name',
      'p.next_report_due',
      // The manager's user while a member of the company; a subquery, so only the project row is locked.
      eb
        .selectFrom('employees as e')
        .innerJoin('company_members as m', (join) => join.onRef('m.company_id', '=', 'e.company_id').onRef('m.user_id', '=', 'e.user_id'))
        .select('e.user_id')
        .whereRef('e.company_id', '=', 'p.company_id')
        .whereRef('e.id', '=', 'p.project_manager_employee_id')
        .where('m.active', '=', true)
        .as('manager_user_id'),
    ])
    .where('p.status', 'in', REPORTING)
    .where('p.next_report_due', 'is not', null);
  query =
    step === 'due'
      ? query
          .where('p.next_report_due', '=', today)
          .where((eb) => eb.or([eb('p.report_reminded_due', 'is', null), eb('p.report_reminded_due', '<>', eb.ref('p.next_report_due'))]))
      : query.where('p.next_report_due', '<', today).where('p.report_overdue_at', 'is', null);
  return query.orderBy('p.next_report_due').orderBy('p.id').limit(limit).forUpdate().skipLocked().execute();
}

/** Marks the batch in one statement: the due date reminded, or the report flagged overdue (a change the pull carries). */
async function apply(tx: Queryable, step: Step, rows: readonly ClaimedRow[], now: Date): Promise<void> {
  const update = tx.kysely
    .updateTable('projects')
    .where('id', '=', (eb) => eb.fn.any(eb.val(rows.map((row) => row.id))));
  if (step === 'due') await update.set((eb) => ({ report_reminded_due: eb.ref('next_report_due') })).execute();
  else await update.set({ report_overdue_at: now, updated_at: now }).execute();
}

function noticesOf(step: Step, rows: readonly ClaimedRow[]): Notice[] {
  const kind: NotificationKind = step === 'due' ? 'PROJECT_REPORT_DUE' : 'PROJECT_REPORT_OVERDUE';
  return rows.map((row) => ({
    companyId: row.company_id,
    userIds: [row.manager_user_id],
    kind,
    suggestionId: null,
    projectId: row.id,
    params: { title: row.name, dueDate: row.next_report_due },
  }));
}

/** One step over every project it applies to, a batch per transaction; answers how many it marked. */
async function runStep(db: Database, step: Step, now: Date, batch: number): Promise<number> {
  const today = reportDateOf(now);
  let changed = 0;
  for (;;) {
    // Every claimed row leaves the step's condition in its transaction, so the next claim starts afresh.
    const rows = await db.transaction(async (tx) => {
      const claimed = await claim(tx, step, today, batch);
      if (claimed.length === 0) return claimed;
      await apply(tx, step, claimed, now);
      await notifyAll(tx, noticesOf(step, claimed), now);
      return claimed;
    });
    changed += rows.length;
    if (rows.length < batch) return changed;
  }
}

/** One pass of the indicator-report job at `now`. */
export async function runProjectReportPass(db: Database, now: Date, options: { batch?: number } = {}): Promise<ProjectReportPassResult> {
  const batch = options.batch ?? PROJECT_REPORTS_BATCH;
  const reminded = await runStep(db, 'due', now, batch);
  const overdue = await runStep(db, 'overdue', now, batch);
  return { reminded, overdue };
}

export const projectReportsJob: JobHandler = {
  kind: PROJECT_REPORTS_JOB,
  async run(_payload, job) {
    await runProjectReportPass(job.db, job.now);
  },
};

export const PROJECT_REPORT_JOB_HANDLERS: readonly JobHandler[] = [projectReportsJob];
export const PROJECT_REPORT_RECURRING: readonly RecurringJob[] = [{ kind: PROJECT_REPORTS_JOB, everyMs: PROJECT_REPORTS_EVERY_MS }];
