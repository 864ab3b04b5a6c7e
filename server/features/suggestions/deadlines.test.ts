// The review deadline job with a clock moved by hand: the reminder on day 3 exactly once, overdue and
// escalated to the CEO on day 5, to the owner two days later (straight to the owner without a CEO), paused
// while the proposal waits on its author's clarification, and one notification each however many runners or
// passes run at once.

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dueDateOf, type SuggestionHistoryEntry } from '../../../src/domain/suggestion';
import { createManualClock } from '../../clock';
import { createJobRunner, recurringKey } from '../../jobs/runner';
import { mailsTo, openSameDatabase, testAppPerFile } from '../../test-support';
import { createCompany, type Fixture } from './fixtures';
import { DEADLINE_JOB_HANDLERS, DEADLINE_RECURRING, runDeadlinePass, SUGGESTION_DEADLINES_JOB } from './deadlines';

const DAY = 24 * 3600 * 1000;
const START = new Date('2026-07-01T08:00:00Z');
const clock = createManualClock(START);

const t = testAppPerFile({ clock });

async function person(name: string, locale: 'ru' | 'en' = 'en') {
  const email = `${name}.${randomUUID()}@example.com`;
  const row = await t.db.one<{ id: string }>(
    `INSERT INTO users (email, password_hash, first_name, last_name, role, locale, email_verified_at) VALUES ($1, '!', $2, 'Test', 'EMPLOYEE', $3, now()) RETURNING id`,
    [email, name, locale],
  );
  return { id: row!.id, email };
}

interface Cast {
  company: Fixture;
  head: { id: string; email: string };
  ceo: { id: string; email: string } | null;
  owner: { id: string; email: string };
  author: { id: string; email: string };
}

async function cast(options: { withCeo?: boolean } = {}): Promise<Cast> {
  const head = await person('head');
  const ceo = options.withCeo === false ? null : await person('ceo');
  const owner = await person('owner');
  const author = await person('author');
  const members: Record<string, string[]> = { [head.id]: ['MIDDLE_MANAGER'], [owner.id]: ['OWNER'], [author.id]: ['EMPLOYEE'] };
  if (ceo) members[ceo.id] = ['CEO'];
  const company = await createCompany(t.db, `Deadline Co ${randomUUID().slice(0, 6)}`, members, { A: head.id });
  return { company, head, ceo, owner, author };
}

/** A proposal received now (the clock's), in department A, due in 5 days. */
async function propose(c: Cast, title = 'Fewer changeovers'): Promise<string> {
  const id = randomUUID();
  const received = clock.now().toISOString();
  const history: SuggestionHistoryEntry[] = [{ at: received, kind: 'SUBMITTED', byUserId: c.author.id, comment: null }];
  await t.db.query(
    `INSERT INTO suggestions (company_id, id, title, problem, solution, expected_effect, department_id, author_id, author_name, due_at, submitted_at, received_at, history)
     VALUES ($1, $2, $3, 'Slow', 'Faster', 'Time', $4, $5, 'Test Author', $6, $7, $7, $8)`,
    [c.company.companyId, id, title, c.company.departments.A!, c.author.id, dueDateOf(received), received, JSON.stringify(history)],
  );
  return id;
}

interface Sent {
  user_id: string;
  kind: string;
}

const deadlineNotices = (suggestionId: string) =>
  t.db.query<Sent>(
    `SELECT user_id, kind FROM notifications WHERE suggestion_id = $1 AND kind IN ('SUGGESTION_REMINDER', 'SUGGESTION_ESCALATED') ORDER BY created_at, user_id`,
    [suggestionId],
  );

interface State {
  status: string;
  escalation_level: number;
  reminded_at: Date | null;
  overdue_at: Date | null;
  escalated_at: Date | null;
  due_at: Date;
  history: SuggestionHistoryEntry[];
}

const stateOf = async (id: string) => (await t.db.one<State>('SELECT status, escalation_level, reminded_at, overdue_at, escalated_at, due_at, history FROM suggestions WHERE id = $1', [id]))!;
const kinds = (state: State) => state.history.map((entry) => entry.kind);

/**
 * Moves the clock to `ms` after `from` and runs what is due there, the deadline job among it: its 10-minute
 * schedule is set to fall on this very instant, so a test can look at the exact boundaries.
 */
async function at(from: Date, ms: number): Promise<void> {
  clock.set(new Date(from.getTime() + ms));
  await t.db.query(`UPDATE jobs SET run_at = $1 WHERE key = $2 AND state = 'pending'`, [clock.now(), recurringKey(SUGGESTION_DEADLINES_JOB)]);
  await t.ctx.jobs.runDue();
}

describe('the deadline job', () => {
  it('does nothing before day 3, reminds the head on day 3 exactly once, and mails the reminder', async () => {
    const c = await cast();
    const submitted = clock.now();
    const id = await propose(c, 'Shorter setups');
    await at(submitted, 3 * DAY - 60_000);
    expect(await deadlineNotices(id)).toEqual([]);
    expect((await stateOf(id)).reminded_at).toBeNull();

    await at(submitted, 3 * DAY);
    expect(await deadlineNotices(id)).toEqual([{ user_id: c.head.id, kind: 'SUGGESTION_REMINDER' }]);
    const reminded = await stateOf(id);
    expect(reminded.reminded_at?.getTime()).toBe(submitted.getTime() + 3 * DAY);
    expect(kinds(reminded)).toEqual(['SUBMITTED', 'REMINDED']);
    expect(reminded.escalation_level).toBe(0);

    // Another pass, a pass of another process and the next scheduled run: nothing more.
    const second = await openSameDatabase(t.database);
    try {
      await Promise.all([runDeadlinePass(t.db, clock.now()), runDeadlinePass(second.db, clock.now())]);
    } finally {
      await second.close();
    }
    await at(submitted, 3 * DAY + 20 * 60_000);
    expect(await deadlineNotices(id)).toHaveLength(1);
    expect(kinds(await stateOf(id))).toEqual(['SUBMITTED', 'REMINDED']);
    const [mail, ...more] = await mailsTo(t.db, c.head.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('2 days left to decide on “Shorter setups”');
    expect(mail?.text_body).toContain(`http://app.test/companies/${c.company.companyId}/suggestions/${id}`);
  });

  it('flags an overdue proposal on day 5 and escalates it to the CEO, then on day 7 to the owner', async () => {
    const c = await cast();
    const submitted = clock.now();
    const id = await propose(c);
    await at(submitted, 3 * DAY);
    await at(submitted, 5 * DAY - 1);
    expect((await stateOf(id)).escalation_level).toBe(0);

    await at(submitted, 5 * DAY);
    const overdue = await stateOf(id);
    expect(overdue).toMatchObject({ status: 'UNDER_CONSIDERATION', escalation_level: 1 });
    expect(overdue.overdue_at?.getTime()).toBe(submitted.getTime() + 5 * DAY);
    expect(overdue.escalated_at?.getTime()).toBe(submitted.getTime() + 5 * DAY);
    expect(kinds(overdue)).toEqual(['SUBMITTED', 'REMINDED', 'OVERDUE', 'ESCALATED']);
    expect(overdue.history.at(-1)).toMatchObject({ kind: 'ESCALATED', escalationLevel: 1, byUserId: null });
    expect(await deadlineNotices(id)).toEqual([
      { user_id: c.head.id, kind: 'SUGGESTION_REMINDER' },
      { user_id: c.ceo!.id, kind: 'SUGGESTION_ESCALATED' },
    ]);
    expect((await mailsTo(t.db, c.ceo!.email)).map((mail) => mail.subject)).toEqual(['Overdue proposal “Fewer changeovers” is now yours to decide']);

    await at(submitted, 7 * DAY - 1);
    expect((await stateOf(id)).escalation_level).toBe(1);
    await at(submitted, 7 * DAY);
    const owners = await stateOf(id);
    expect(owners.escalation_level).toBe(2);
    expect(owners.escalated_at?.getTime()).toBe(submitted.getTime() + 7 * DAY);
    expect(owners.overdue_at?.getTime()).toBe(submitted.getTime() + 5 * DAY);
    expect(kinds(owners)).toEqual(['SUBMITTED', 'REMINDED', 'OVERDUE', 'ESCALATED', 'ESCALATED']);
    expect(owners.history.at(-1)).toMatchObject({ kind: 'ESCALATED', escalationLevel: 2 });
    expect((await deadlineNotices(id)).slice(2)).toEqual([{ user_id: c.owner.id, kind: 'SUGGESTION_ESCALATED' }]);

    // The owner is the last level: nothing more, however long it waits.
    await at(submitted, 30 * DAY);
    expect(await deadlineNotices(id)).toHaveLength(3);
    expect(kinds(await stateOf(id))).toHaveLength(5);
  });

  it('escalates straight to the owner when the company has no CEO', async () => {
    const c = await cast({ withCeo: false });
    const submitted = clock.now();
    const id = await propose(c);
    await at(submitted, 5 * DAY);
    const state = await stateOf(id);
    expect(state.escalation_level).toBe(2);
    expect(kinds(state)).toEqual(['SUBMITTED', 'OVERDUE', 'ESCALATED']);
    expect(state.history.at(-1)).toMatchObject({ kind: 'ESCALATED', escalationLevel: 2 });
    // No reminder: the first pass after it was due found it overdue already.
    expect(await deadlineNotices(id)).toEqual([{ user_id: c.owner.id, kind: 'SUGGESTION_ESCALATED' }]);
    await at(submitted, 9 * DAY);
    expect(await deadlineNotices(id)).toHaveLength(1);
  });

  it('pauses while the proposal waits on its author, and resumes with the due date moved by the pause', async () => {
    const c = await cast();
    const submitted = clock.now();
    const id = await propose(c);
    await at(submitted, 1 * DAY);
    await t.db.query(`UPDATE suggestions SET status = 'CLARIFICATION', clarification_at = $2 WHERE id = $1`, [id, clock.now()]);
    await at(submitted, 3 * DAY);
    await at(submitted, 6 * DAY);
    await at(submitted, 9 * DAY);
    expect(await deadlineNotices(id)).toEqual([]);
    expect(await stateOf(id)).toMatchObject({ status: 'CLARIFICATION', escalation_level: 0, reminded_at: null, overdue_at: null });

    // The author resends on day 9 after 8 days of pause (as the resend does: due_at moved on by the pause).
    await t.db.query(`UPDATE suggestions SET status = 'UNDER_CONSIDERATION', clarification_at = NULL, due_at = due_at + interval '8 days' WHERE id = $1`, [id]);
    await at(submitted, 11 * DAY - 1);
    expect(await deadlineNotices(id)).toEqual([]);
    await at(submitted, 11 * DAY);
    expect(await deadlineNotices(id)).toEqual([{ user_id: c.head.id, kind: 'SUGGESTION_REMINDER' }]);
    await at(submitted, 13 * DAY);
    expect((await stateOf(id)).escalation_level).toBe(1);
    expect((await deadlineNotices(id)).map((n) => n.kind)).toEqual(['SUGGESTION_REMINDER', 'SUGGESTION_ESCALATED']);
  });

  it('leaves decided proposals alone', async () => {
    const c = await cast();
    const submitted = clock.now();
    const approved = await propose(c);
    const rejected = await propose(c);
    await t.db.query(`UPDATE suggestions SET status = 'APPROVED' WHERE id = $1`, [approved]);
    await t.db.query(`UPDATE suggestions SET status = 'REJECTED' WHERE id = $1`, [rejected]);
    await at(submitted, 8 * DAY);
    expect(await deadlineNotices(approved)).toEqual([]);
    expect(await deadlineNotices(rejected)).toEqual([]);
    expect((await stateOf(approved)).escalation_level).toBe(0);
  });

  it('writes one notification each when two runners and two passes run at once', async () => {
    const c = await cast();
    const submitted = clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 25; i += 1) ids.push(await propose(c, `Batch ${i}`));
    const second = await openSameDatabase(t.database);
    try {
      // Two passes over one database at the same time, in small batches so that their claims interleave.
      const reminderTime = new Date(submitted.getTime() + 3 * DAY);
      const passes = await Promise.all([runDeadlinePass(t.db, reminderTime, { batch: 4 }), runDeadlinePass(second.db, reminderTime, { batch: 4 })]);
      expect(passes.reduce((sum, pass) => sum + pass.reminded, 0)).toBe(25);

      // Two job runners (two server processes) polling at the same time when the escalation is due.
      const runnerClock = createManualClock(new Date(submitted.getTime() + 5 * DAY));
      const log = { error: () => undefined, warn: () => undefined };
      const a = createJobRunner({ db: t.db, clock: runnerClock, log, handlers: DEADLINE_JOB_HANDLERS, recurring: DEADLINE_RECURRING, name: 'a' });
      const b = createJobRunner({ db: second.db, clock: runnerClock, log, handlers: DEADLINE_JOB_HANDLERS, recurring: DEADLINE_RECURRING, name: 'b' });
      await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
    } finally {
      await second.close();
    }
    for (const id of ids) {
      expect(await deadlineNotices(id), id).toEqual([
        { user_id: c.head.id, kind: 'SUGGESTION_REMINDER' },
        { user_id: c.ceo!.id, kind: 'SUGGESTION_ESCALATED' },
      ]);
      expect(kinds(await stateOf(id))).toEqual(['SUBMITTED', 'REMINDED', 'OVERDUE', 'ESCALATED']);
    }
    // Each notification mailed once.
    expect(await mailsTo(t.db, c.head.email)).toHaveLength(25);
    expect(await mailsTo(t.db, c.ceo!.email)).toHaveLength(25);
  });
});
