// The indicator-report job with a clock moved by hand: the project manager reminded on the due date exactly once,
// the report flagged overdue the day after exactly once, a filed report stopping both, projects not yet approved
// left alone, and one notification each however many runners or passes run at once.

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ProjectStatus } from '../../../src/domain/project';
import { createManualClock } from '../../clock';
import { createJobRunner, recurringKey } from '../../jobs/runner';
import { mailsTo, openSameDatabase, testAppPerFile } from '../../test-support';
import { createCompany, type Fixture } from '../suggestions/fixtures';
import { PROJECT_REPORT_JOB_HANDLERS, PROJECT_REPORT_RECURRING, PROJECT_REPORTS_JOB, runProjectReportPass } from './reports';

const START = new Date('2026-07-01T08:00:00Z');
const clock = createManualClock(START);

const t = testAppPerFile({ clock });

interface Cast {
  company: Fixture;
  manager: { id: string; email: string; employeeId: string };
}

async function cast(): Promise<Cast> {
  const email = `manager.${randomUUID()}@example.com`;
  const user = await t.db.one<{ id: string }>(
    `INSERT INTO users (email, password_hash, first_name, last_name, role, locale, email_verified_at) VALUES ($1, '!', 'Manager', 'Test', 'EMPLOYEE', 'en', now()) RETURNING id`,
    [email],
  );
  const company = await createCompany(t.db, `Reports Co ${randomUUID().slice(0, 6)}`, { [user!.id]: ['EMPLOYEE'] });
  const employee = await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2', [company.companyId, user!.id]);
  return { company, manager: { id: user!.id, email, employeeId: employee!.id } };
}

/** A project of `c`'s manager in `status`, its next report due on `due`. */
async function project(c: Cast, options: { status?: ProjectStatus; due: string | null; name?: string }): Promise<string> {
  const id = randomUUID();
  const status = options.status ?? 'APPROVED';
  await t.db.query(
    `INSERT INTO projects (company_id, id, name, problem, type, author_name, completion_date, actual_completion_date, reporting_frequency,
                           post_monitoring_periodicity, project_manager_employee_id, currency, profit_basis_points, effect_repeatability, status, next_report_due)
     VALUES ($1, $2, $3, 'Slow', 'TECHNICAL', 'Test Author', '2026-12-31', $4, 'MONTHLY', 'QUARTERLY', $5, 'RUB', 1000, 'RECURRING', $6, $7)`,
    [c.company.companyId, id, options.name ?? 'Faster setups', status === 'COMPLETED' ? '2026-06-01' : null, c.manager.employeeId, status, options.due],
  );
  return id;
}

interface Sent {
  user_id: string;
  kind: string;
  params: Record<string, string | null>;
}

const notices = (projectId: string) =>
  t.db.query<Sent>(`SELECT user_id, kind, params FROM notifications WHERE project_id = $1 ORDER BY created_at, kind`, [projectId]);

interface State {
  report_overdue_at: Date | null;
  report_reminded_due: string | null;
  next_report_due: string | null;
  history: unknown[];
}

const stateOf = async (id: string) => (await t.db.one<State>('SELECT report_overdue_at, report_reminded_due, next_report_due, history FROM projects WHERE id = $1', [id]))!;

/** Moves the clock to `when` and runs what is due there, the report job among it (its hourly run set to this instant). */
async function runJobsAt(when: Date): Promise<void> {
  clock.set(when);
  await t.db.query(`UPDATE jobs SET run_at = $1 WHERE key = $2 AND state = 'pending'`, [clock.now(), recurringKey(PROJECT_REPORTS_JOB)]);
  await t.ctx.jobs.runDue();
}

/** Two passes over one database at once, from two connections. */
async function twoPassesAt(now: Date, batch?: number) {
  const second = await openSameDatabase(t.database);
  try {
    return await Promise.all([runProjectReportPass(t.db, now, { batch }), runProjectReportPass(second.db, now, { batch })]);
  } finally {
    await second.close();
  }
}

const at = (iso: string) => new Date(iso);

describe('the indicator-report job', () => {
  it('reminds the manager on the due date (UTC) exactly once, and mails the reminder', async () => {
    const c = await cast();
    const id = await project(c, { due: '2026-07-10', name: 'Chip sorting' });
    await runJobsAt(at('2026-07-09T23:59:00Z'));
    expect(await notices(id)).toEqual([]);

    await runJobsAt(at('2026-07-10T00:00:00Z'));
    expect(await notices(id)).toEqual([{ user_id: c.manager.id, kind: 'PROJECT_REPORT_DUE', params: { title: 'Chip sorting', dueDate: '2026-07-10' } }]);
    const reminded = await stateOf(id);
    expect(reminded).toMatchObject({ report_reminded_due: '2026-07-10', report_overdue_at: null, history: [] });

    // Another pass, two at once and the next hourly run: nothing more.
    await runProjectReportPass(t.db, at('2026-07-10T05:00:00Z'));
    await twoPassesAt(at('2026-07-10T06:00:00Z'));
    await runJobsAt(at('2026-07-10T23:59:59Z'));
    expect(await notices(id)).toHaveLength(1);
    const [mail, ...more] = await mailsTo(t.db, c.manager.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('The indicator report on “Chip sorting” is due today');
    expect(mail?.text_body).toContain('is due today, 10 July 2026.');
    expect(mail?.text_body).toContain(`http://app.test/companies/${c.company.companyId}/projects/${id}`);
  });

  it('flags a report not made by its due date as overdue the day after, exactly once', async () => {
    const c = await cast();
    const id = await project(c, { due: '2026-07-10' });
    await runProjectReportPass(t.db, at('2026-07-10T12:00:00Z'));
    const flagAt = at('2026-07-11T00:30:00Z');
    await runProjectReportPass(t.db, flagAt);
    const flagged = await stateOf(id);
    expect(flagged.report_overdue_at?.getTime()).toBe(flagAt.getTime());
    expect(flagged.history).toEqual([]);
    expect((await notices(id)).map((n) => [n.kind, n.params.dueDate])).toEqual([
      ['PROJECT_REPORT_DUE', '2026-07-10'],
      ['PROJECT_REPORT_OVERDUE', '2026-07-10'],
    ]);

    await runProjectReportPass(t.db, at('2026-07-11T01:30:00Z'));
    await twoPassesAt(at('2026-07-12T00:00:00Z'));
    expect(await notices(id)).toHaveLength(2);
    expect((await stateOf(id)).report_overdue_at?.getTime()).toBe(flagAt.getTime());
  });

  it('flags a due date the job missed entirely as overdue, without a late reminder', async () => {
    const c = await cast();
    const id = await project(c, { due: '2026-07-03' });
    await runProjectReportPass(t.db, at('2026-07-05T10:00:00Z'));
    expect((await notices(id)).map((n) => n.kind)).toEqual(['PROJECT_REPORT_OVERDUE']);
  });

  it('stops once a report is filed, and reminds the next due date in its turn', async () => {
    const c = await cast();
    const early = await project(c, { due: '2026-07-10' });
    const late = await project(c, { due: '2026-07-10' });
    // Reported early: the service moved the due date on before it came.
    await t.db.query(`UPDATE projects SET next_report_due = '2026-08-10' WHERE id = $1`, [early]);
    await runProjectReportPass(t.db, at('2026-07-10T09:00:00Z'));
    await runProjectReportPass(t.db, at('2026-07-11T09:00:00Z'));
    expect(await notices(early)).toEqual([]);
    expect((await notices(late)).map((n) => n.kind)).toEqual(['PROJECT_REPORT_DUE', 'PROJECT_REPORT_OVERDUE']);

    // Reported late: the due date moved past the report and the flag cleared, as the service does.
    await t.db.query(`UPDATE projects SET next_report_due = '2026-08-10', report_overdue_at = NULL WHERE id = $1`, [late]);
    for (const day of ['2026-07-12', '2026-07-20', '2026-08-09']) await runProjectReportPass(t.db, at(`${day}T09:00:00Z`));
    expect(await notices(late)).toHaveLength(2);
    expect((await stateOf(late)).report_overdue_at).toBeNull();

    // The next due date is reminded in its turn, once, for both.
    await runProjectReportPass(t.db, at('2026-08-10T09:00:00Z'));
    await runProjectReportPass(t.db, at('2026-08-10T10:00:00Z'));
    expect((await notices(early)).map((n) => [n.kind, n.params.dueDate])).toEqual([['PROJECT_REPORT_DUE', '2026-08-10']]);
    expect((await notices(late)).map((n) => [n.kind, n.params.dueDate]).slice(2)).toEqual([['PROJECT_REPORT_DUE', '2026-08-10']]);
  });

  it('leaves projects that are not approved or completed alone, and reminds a completed one (post-monitoring)', async () => {
    const c = await cast();
    const ignored: string[] = [];
    for (const status of ['NEW', 'CALCULATING', 'CALCULATED', 'FOR_REVISION'] as const) {
      ignored.push(await project(c, { status, due: '2026-07-10' }), await project(c, { status, due: '2026-07-01' }));
    }
    const completed = await project(c, { status: 'COMPLETED', due: '2026-07-10' });
    const none = await project(c, { due: null });
    await runProjectReportPass(t.db, at('2026-07-10T09:00:00Z'));
    await runProjectReportPass(t.db, at('2026-07-11T09:00:00Z'));
    for (const id of [...ignored, none]) {
      expect(await notices(id), id).toEqual([]);
      expect(await stateOf(id), id).toMatchObject({ report_overdue_at: null, report_reminded_due: null });
    }
    expect((await notices(completed)).map((n) => n.kind)).toEqual(['PROJECT_REPORT_DUE', 'PROJECT_REPORT_OVERDUE']);
  });

  it('marks the project but tells nobody when its manager left the company', async () => {
    const c = await cast();
    const id = await project(c, { due: '2026-07-10' });
    await t.db.query('UPDATE company_members SET active = false WHERE company_id = $1 AND user_id = $2', [c.company.companyId, c.manager.id]);
    await runProjectReportPass(t.db, at('2026-07-11T09:00:00Z'));
    expect(await notices(id)).toEqual([]);
    expect((await stateOf(id)).report_overdue_at).not.toBeNull();
  });

  it('writes one notification each when two runners and two passes run at once', async () => {
    const c = await cast();
    const due: string[] = [];
    const overdue: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      due.push(await project(c, { due: '2026-09-15', name: `Due ${i}` }));
      overdue.push(await project(c, { due: '2026-09-14', name: `Late ${i}` }));
    }
    // Two passes at the same time, in small batches so that their claims interleave.
    // (The other tests' projects share the database: the passes' counts include theirs, so each project is checked.)
    const passes = await twoPassesAt(at('2026-09-15T09:00:00Z'), 3);
    expect(passes.reduce((sum, pass) => sum + pass.reminded, 0)).toBeGreaterThanOrEqual(20);
    for (const id of due) expect((await notices(id)).map((n) => n.kind), id).toEqual(['PROJECT_REPORT_DUE']);
    for (const id of overdue) expect((await notices(id)).map((n) => n.kind), id).toEqual(['PROJECT_REPORT_OVERDUE']);

    // Two job runners (two server processes) polling at the same time the day after.
    const second = await openSameDatabase(t.database);
    try {
      const runnerClock = createManualClock(at('2026-09-16T09:00:00Z'));
      const log = { error: () => undefined, warn: () => undefined };
      const a = createJobRunner({ db: t.db, clock: runnerClock, log, handlers: PROJECT_REPORT_JOB_HANDLERS, recurring: PROJECT_REPORT_RECURRING, name: 'a' });
      const b = createJobRunner({ db: second.db, clock: runnerClock, log, handlers: PROJECT_REPORT_JOB_HANDLERS, recurring: PROJECT_REPORT_RECURRING, name: 'b' });
      await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
    } finally {
      await second.close();
    }
    for (const id of due) expect((await notices(id)).map((n) => n.kind), id).toEqual(['PROJECT_REPORT_DUE', 'PROJECT_REPORT_OVERDUE']);
    for (const id of overdue) expect((await notices(id)).map((n) => n.kind), id).toEqual(['PROJECT_REPORT_OVERDUE']);
    // Each notification mailed once.
    expect(await mailsTo(t.db, c.manager.email)).toHaveLength(60);
  });
});
