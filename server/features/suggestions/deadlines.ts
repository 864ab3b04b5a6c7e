// The review deadline (issue 11), run by the job runner as `suggestions.deadlines` every 10 minutes. One pass
// looks at proposals UNDER_CONSIDERATION only (a proposal in CLARIFICATION waits on its author: its clock is
// paused, and the resend moves `due_at` on by the paused time), in three steps:
//   1. reminder: not reminded yet and `due_at` within SUGGESTION_DUE_DAYS - SUGGESTION_REMINDER_DAY days (day 3
//      of 5) but not past -> `reminded_at`, history REMINDED, SUGGESTION_REMINDER to its holders at its level;
//   2. overdue: `due_at` passed at level 0 -> `overdue_at`, escalated to the next level somebody fills (the CEO,
//      or the owners when there is no CEO: holders.ts `escalationOf`), history OVERDUE and ESCALATED,
//      SUGGESTION_ESCALATED to the new holders;
//   3. step: at level 1 and SUGGESTION_ESCALATION_STEP_DAYS past both its escalation and its due date (so a
//      clarification's pause counts here too) -> level 2 (the owners), history ESCALATED, SUGGESTION_ESCALATED.
// What it guarantees:
// - each effect happens once, even with two runners or two passes at the same time: a batch (DEADLINE_BATCH
//   rows) is claimed with SELECT ... FOR UPDATE SKIP LOCKED on the step's condition (a row another pass holds
//   is skipped, and once that pass commits the row no longer meets the condition), and the row's update, its
//   history and its notifications (with their instant mail job) are written in that batch's transaction;
// - state lives in the rows (`reminded_at`, `escalation_level`, `escalated_at`, `overdue_at`) and the job in the
//   jobs table, so a restart, a crash mid-pass (its batch rolls back) or a missed run loses nothing: the next
//   pass does what is due;
// - a pass is cheap at scale: each step walks the partial index suggestions_open_due_idx (due_at WHERE status =
//   'UNDER_CONSIDERATION') once, by keyset, a few statements per batch; holders are looked up once per
//   (company, department, level) and pass (tests/bench/deadlines.ts has the figures).

import { sql } from 'kysely';
import type { NotificationKind } from '../../../src/domain/notification';
import {
  SUGGESTION_DUE_DAYS,
  SUGGESTION_ESCALATION_STEP_DAYS,
  SUGGESTION_REMINDER_DAY,
  type EscalationLevel,
  type SuggestionHistoryEntry,
} from '../../../src/domain/suggestion';
import type { Database, Queryable } from '../../db/database';
import type { JobHandler, RecurringJob } from '../../jobs/runner';
import { notifyAll, type Notice } from '../notifications/service';
import { escalationOf, holdersOf, type Holders } from './holders';

export const SUGGESTION_DEADLINES_JOB = 'suggestions.deadlines';
export const DEADLINES_EVERY_MS = 10 * 60 * 1000;
/** Proposals claimed per transaction. */
export const DEADLINE_BATCH = 500;
const DAY_MS = 24 * 3600 * 1000;
/** The reminder comes this long before the due date (day 3 of 5: 2 days before). */
const REMINDER_BEFORE_MS = (SUGGESTION_DUE_DAYS - SUGGESTION_REMINDER_DAY) * DAY_MS;
const STEP_MS = SUGGESTION_ESCALATION_STEP_DAYS * DAY_MS;

type Step = 'reminder' | 'overdue' | 'step';

export interface DeadlinePassResult {
  reminded: number;
  /** Overdue proposals escalated from their department's head. */
  escalated: number;
  /** Proposals escalated from the CEO to the owners. */
  steppedUp: number;
}

interface ClaimedRow {
  company_id: string;
  id: string;
  department_id: string;
  department_name: string | null;
  title: string;
  due_at: Date;
  escalation_level: number;
}

/** Holders looked up once per (company, department, level, question) within a pass. */
type HolderCache = Map<string, Promise<Holders>>;

function asLevel(value: number): EscalationLevel {
  return value >= 2 ? 2 : value === 1 ? 1 : 0;
}

function cached(cache: HolderCache, key: string, look: () => Promise<Holders>): Promise<Holders> {
  const known = cache.get(key);
  if (known) return known;
  const started = look();
  cache.set(key, started);
  return started;
}

/** Claims up to `limit` rows meeting `step`'s condition at `now`, after `after` in (due_at, id) order. */
async function claim(tx: Queryable, step: Step, now: Date, after: { due: Date; id: string } | null, limit: number): Promise<ClaimedRow[]> {
  let query = tx.kysely
    .selectFrom('suggestions as s')
    .select((eb) => [
      's.company_id',
      's.id',
      's.department_id',
      's.title',
      's.due_at',
      's.escalation_level',
      eb
        .selectFrom('departments as d')
        .select('d.name')
        .whereRef('d.company_id', '=', 's.company_id')
        .whereRef('d.id', '=', 's.department_id')
        .as('department_name'),
    ])
    .where('s.status', '=', 'UNDER_CONSIDERATION');
  if (step === 'reminder') {
    query = query
      .where('s.reminded_at', 'is', null)
      .where('s.due_at', '>', now)
      .where('s.due_at', '<=', new Date(now.getTime() + REMINDER_BEFORE_MS));
  } else if (step === 'overdue') {
    query = query.where('s.escalation_level', '=', 0).where('s.due_at', '<=', now);
  } else {
    const stepped = new Date(now.getTime() - STEP_MS);
    query = query.where('s.escalation_level', '=', 1).where('s.escalated_at', '<=', stepped).where('s.due_at', '<=', stepped);
  }
  if (after) {
    // The keyset of this walk; `due_at >=` lets the index start there (a Date holds milliseconds, the column
    // microseconds: a row met again is skipped by the condition above, as it changed).
    query = query.where('s.due_at', '>=', after.due).where((eb) => eb(eb.refTuple('s.due_at', 's.id'), '>', eb.tuple(eb.val(after.due), eb.cast<string>(eb.val(after.id), 'uuid'))));
  }
  return query.orderBy('s.due_at').orderBy('s.id').limit(limit).forUpdate().skipLocked().execute();
}

interface Planned {
  row: ClaimedRow;
  holders: Holders;
  entries: SuggestionHistoryEntry[];
}

async function plan(tx: Queryable, step: Step, rows: readonly ClaimedRow[], at: string, cache: HolderCache): Promise<Planned[]> {
  const planned: Planned[] = [];
  for (const row of rows) {
    const level = asLevel(row.escalation_level);
    const key = `${step === 'reminder' ? 'hold' : 'escalate'}:${row.company_id}:${row.department_id}:${level}`;
    const holders = await cached(cache, key, () =>
      step === 'reminder' ? holdersOf(tx, row.company_id, row.department_id, level) : escalationOf(tx, row.company_id, row.department_id, level),
    );
    const entry = (kind: SuggestionHistoryEntry['kind']): SuggestionHistoryEntry => ({ at, kind, byUserId: null, comment: null });
    const entries =
      step === 'reminder'
        ? [entry('REMINDED')]
        : step === 'overdue'
          ? [entry('OVERDUE'), { ...entry('ESCALATED'), escalationLevel: holders.level }]
          : [{ ...entry('ESCALATED'), escalationLevel: holders.level }];
    planned.push({ row, holders, entries });
  }
  return planned;
}

/** Writes the batch's state and history in one statement. */
async function apply(tx: Queryable, step: Step, planned: readonly Planned[], now: Date): Promise<void> {
  const records = planned.map(({ row, holders, entries }) => ({ company_id: row.company_id, id: row.id, level: holders.level, entries }));
  const values = sql<{ company_id: string; id: string; level: number; entries: unknown }>`jsonb_to_recordset(${JSON.stringify(records)}::jsonb)`.as<'v'>(
    sql`v(company_id uuid, id uuid, level smallint, entries jsonb)`,
  );
  await tx.kysely
    .updateTable('suggestions as s')
    .from(values)
    .set((eb) => ({
      ...(step === 'reminder'
        ? { reminded_at: now }
        : step === 'overdue'
          ? { overdue_at: now, escalated_at: now, escalation_level: eb.ref('v.level') }
          : { escalated_at: now, escalation_level: eb.ref('v.level') }),
      history: sql`s.history || v.entries`,
      updated_at: now,
    }))
    .whereRef('s.company_id', '=', 'v.company_id')
    .whereRef('s.id', '=', 'v.id')
    .execute();
}

function noticesOf(step: Step, planned: readonly Planned[]): Notice[] {
  const kind: NotificationKind = step === 'reminder' ? 'SUGGESTION_REMINDER' : 'SUGGESTION_ESCALATED';
  return planned.map(({ row, holders }) => ({
    companyId: row.company_id,
    userIds: holders.userIds,
    kind,
    suggestionId: row.id,
    params: { title: row.title, dueAt: row.due_at.toISOString(), departmentName: row.department_name },
  }));
}

/** One step over every row it applies to, a batch per transaction; answers how many rows it changed. */
async function runStep(db: Database, step: Step, now: Date, cache: HolderCache, batch: number): Promise<number> {
  const at = now.toISOString();
  let after: { due: Date; id: string } | null = null;
  let changed = 0;
  for (;;) {
    const from: { due: Date; id: string } | null = after;
    const rows = await db.transaction(async (tx) => {
      const claimed = await claim(tx, step, now, from, batch);
      if (claimed.length === 0) return claimed;
      const planned = await plan(tx, step, claimed, at, cache);
      await apply(tx, step, planned, now);
      await notifyAll(tx, noticesOf(step, planned), now);
      return claimed;
    });
    changed += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < batch) return changed;
    after = { due: last.due_at, id: last.id };
  }
}

/** One pass of the deadline job at `now`. */
export async function runDeadlinePass(db: Database, now: Date, options: { batch?: number } = {}): Promise<DeadlinePassResult> {
  const batch = options.batch ?? DEADLINE_BATCH;
  const cache: HolderCache = new Map();
  const reminded = await runStep(db, 'reminder', now, cache, batch);
  const escalated = await runStep(db, 'overdue', now, cache, batch);
  const steppedUp = await runStep(db, 'step', now, cache, batch);
  return { reminded, escalated, steppedUp };
}

export const deadlinesJob: JobHandler = {
  kind: SUGGESTION_DEADLINES_JOB,
  async run(_payload, job) {
    await runDeadlinePass(job.db, job.now);
  },
};

export const DEADLINE_JOB_HANDLERS: readonly JobHandler[] = [deadlinesJob];

export const DEADLINE_RECURRING: readonly RecurringJob[] = [{ kind: SUGGESTION_DEADLINES_JOB, everyMs: DEADLINES_EVERY_MS }];
