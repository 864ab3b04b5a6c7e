import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import type { Database } from '../db/database';
import { createTestDatabase, openSameDatabase, type TestDatabase } from '../test-support';
import { createJobRunner, enqueueJob, JobPermanentError, recurringKey, type JobContext, type JobHandler, type JobLog, type JobRunnerOptions } from './runner';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const START = new Date('2026-05-01T10:00:00Z');
const at = (ms: number) => new Date(START.getTime() + ms);

/** A kind of its own per test: a runner claims only the kinds it has handlers for, so tests never meet. */
const kindOf = (name: string) => `test.${name}.${randomUUID().slice(0, 8)}`;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

interface Logged {
  level: 'error' | 'warn';
  message: string;
}

function recordingLog(): JobLog & { lines: Logged[] } {
  const lines: Logged[] = [];
  return {
    lines,
    error: (_detail, message) => lines.push({ level: 'error', message }),
    warn: (_detail, message) => lines.push({ level: 'warn', message }),
  };
}

function runner(options: Partial<JobRunnerOptions> & Pick<JobRunnerOptions, 'handlers'>) {
  return createJobRunner({ db: database.db, clock: createManualClock(START), log: recordingLog(), ...options });
}

interface JobRow {
  state: string;
  attempts: number;
  max_attempts: number | null;
  run_at: Date | null;
  last_error: string | null;
  claimed_by: string | null;
  finished_at: Date | null;
  payload: unknown;
}

// In the order they were due (jobs enqueued within one millisecond have no other order: ids are random).
const jobsOf = (kind: string, db: Database = database.db) =>
  db.query<JobRow>('SELECT * FROM jobs WHERE kind = $1 ORDER BY run_at NULLS FIRST, created_at, id', [kind]);

/** A handler that records each call's payload and context. */
function recorder(kind: string, extra: Partial<JobHandler> = {}) {
  const calls: { payload: unknown; job: JobContext }[] = [];
  const handler: JobHandler = {
    kind,
    run: (payload, job) => {
      calls.push({ payload, job });
      return Promise.resolve();
    },
    ...extra,
  };
  return { calls, handler };
}

describe('enqueueJob', () => {
  it('writes the job in the caller transaction: a rollback leaves no job', async () => {
    const kind = kindOf('rollback');
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueJob(tx, { kind, payload: { n: 1 } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await jobsOf(kind)).toEqual([]);

    await database.db.transaction((tx) => enqueueJob(tx, { kind, payload: { n: 2 } }));
    expect((await jobsOf(kind)).map((j) => j.payload)).toEqual([{ n: 2 }]);
  });

  it('keeps one pending job per key; once it ran, the key may be enqueued again', async () => {
    const kind = kindOf('key');
    const { calls, handler } = recorder(kind);
    const r = runner({ handlers: [handler] });
    await enqueueJob(database.db, { kind, key: `${kind}:once`, payload: 'first' });
    await enqueueJob(database.db, { kind, key: `${kind}:once`, payload: 'second' });
    expect((await jobsOf(kind)).map((j) => j.payload)).toEqual(['first']);

    expect(await r.runDue()).toBe(1);
    await enqueueJob(database.db, { kind, key: `${kind}:once`, payload: 'third' });
    expect(await r.runDue()).toBe(1);
    expect(calls.map((c) => c.payload)).toEqual(['first', 'third']);
    expect((await jobsOf(kind)).map((j) => j.state)).toEqual(['done', 'done']);
  });
});

describe('runDue', () => {
  it('runs what is due by the runner clock, not what is scheduled later', async () => {
    const kind = kindOf('due');
    const clock = createManualClock(START);
    const { calls, handler } = recorder(kind);
    const r = runner({ clock, handlers: [handler] });
    await enqueueJob(database.db, { kind, payload: 'now' });
    await enqueueJob(database.db, { kind, payload: 'in an hour', runAt: at(3600_000) });

    expect(await r.runDue()).toBe(1);
    expect(calls.map((c) => c.payload)).toEqual(['now']);
    expect(calls[0]?.job).toMatchObject({ now: START, attempt: 1, kind });

    clock.advance(3599_000);
    expect(await r.runDue()).toBe(0);
    clock.advance(1000);
    expect(await r.runDue()).toBe(1);
    expect(calls.map((c) => c.payload)).toEqual(['now', 'in an hour']);
    expect((await jobsOf(kind)).map((j) => [j.state, j.finished_at])).toEqual([
      ['done', START],
      ['done', at(3600_000)],
    ]);
  });

  it('also runs the jobs that the jobs it runs enqueue', async () => {
    const first = kindOf('first');
    const second = kindOf('second');
    const { calls, handler } = recorder(second);
    const r = runner({
      handlers: [{ kind: first, run: (payload, job) => job.db.transaction((tx) => enqueueJob(tx, { kind: second, payload })) }, handler],
    });
    await enqueueJob(database.db, { kind: first, payload: 'chained' });
    expect(await r.runDue()).toBe(2);
    expect(calls.map((c) => c.payload)).toEqual(['chained']);
  });

  it('leaves kinds it has no handler for to runners that have one', async () => {
    const kind = kindOf('foreign');
    await enqueueJob(database.db, { kind });
    expect(await runner({ handlers: [recorder(kindOf('other')).handler] }).runDue()).toBe(0);
    expect((await jobsOf(kind)).map((j) => j.state)).toEqual(['pending']);
  });
});

describe('failures', () => {
  it('retries with exponential backoff, then keeps the job failed with its last error', async () => {
    const kind = kindOf('retry');
    const clock = createManualClock(START);
    const log = recordingLog();
    let attempts = 0;
    const r = runner({
      clock,
      log,
      handlers: [
        {
          kind,
          maxAttempts: 3,
          run: () => {
            attempts += 1;
            return Promise.reject(new Error(`refused #${attempts}`));
          },
        },
      ],
    });
    await enqueueJob(database.db, { kind });

    expect(await r.runDue()).toBe(1);
    expect(await jobsOf(kind)).toMatchObject([{ state: 'pending', attempts: 1, run_at: at(30_000), last_error: 'Error: refused #1', max_attempts: 3 }]);
    expect(await r.runDue()).toBe(0);

    clock.advance(30_000);
    expect(await r.runDue()).toBe(1);
    expect(await jobsOf(kind)).toMatchObject([{ state: 'pending', attempts: 2, run_at: at(90_000), last_error: 'Error: refused #2' }]);

    clock.advance(60_000);
    expect(await r.runDue()).toBe(1);
    expect(await jobsOf(kind)).toMatchObject([{ state: 'failed', attempts: 3, last_error: 'Error: refused #3', finished_at: at(90_000) }]);

    clock.advance(24 * 3600_000);
    expect(await r.runDue()).toBe(0);
    expect(attempts).toBe(3);
    expect(log.lines.map((l) => l.level)).toEqual(['warn', 'warn', 'error']);
  });

  it('fails at once on a JobPermanentError (a payload that can never be valid)', async () => {
    const kind = kindOf('permanent');
    const r = runner({ handlers: [{ kind, run: () => Promise.reject(new JobPermanentError('payload is not { id }')) }] });
    await enqueueJob(database.db, { kind, payload: 'junk' });
    expect(await r.runDue()).toBe(1);
    expect(await jobsOf(kind)).toMatchObject([{ state: 'failed', attempts: 1, last_error: 'JobPermanentError: payload is not { id }' }]);
  });
});

describe('several runners on one database', () => {
  it('runs each job exactly once when two server processes poll at the same time', async () => {
    const kind = kindOf('race');
    const second = await openSameDatabase(database);
    try {
      const runs = new Map<string, string[]>();
      const handlerFor = (who: string): JobHandler => ({
        kind,
        async run(_payload, job) {
          runs.set(job.id, [...(runs.get(job.id) ?? []), who]);
          // A round trip, so the two runners' work interleaves.
          await job.db.query('SELECT 1');
        },
      });
      const a = createJobRunner({ db: database.db, clock: createManualClock(START), log: recordingLog(), handlers: [handlerFor('a')], name: 'a' });
      const b = createJobRunner({ db: second.db, clock: createManualClock(START), log: recordingLog(), handlers: [handlerFor('b')], name: 'b' });
      await database.db.transaction(async (tx) => {
        for (let i = 0; i < 60; i++) await enqueueJob(tx, { kind, payload: i });
      });

      const counts = await Promise.all([a.runDue(), b.runDue(), a.runDue(), b.runDue()]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(60);
      expect(runs.size).toBe(60);
      for (const [id, who] of runs) expect(who, id).toHaveLength(1);
      const rows = await jobsOf(kind);
      expect(rows.every((row) => row.state === 'done' && row.attempts === 1)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it("runs a job again once its runner's lease ran out (the process crashed or hung), and ignores the late outcome", async () => {
    const kind = kindOf('lease');
    const clock = createManualClock(START);
    const hung = deferred();
    const started = deferred();
    const calls: string[] = [];
    const logA = recordingLog();
    const a = createJobRunner({
      db: database.db,
      clock,
      log: logA,
      leaseMs: 60_000,
      name: 'a',
      handlers: [
        {
          kind,
          async run() {
            calls.push('a');
            started.resolve();
            await hung.promise;
          },
        },
      ],
    });
    const b = createJobRunner({ db: database.db, clock, log: recordingLog(), leaseMs: 60_000, name: 'b', handlers: [{ kind, run: () => Promise.resolve(void calls.push('b')) }] });
    await enqueueJob(database.db, { kind });

    const passOfA = a.runDue();
    await started.promise;
    expect(await b.runDue()).toBe(0);
    clock.advance(59_999);
    expect(await b.runDue()).toBe(0);
    clock.advance(1);
    expect(await b.runDue()).toBe(1);
    expect(await jobsOf(kind)).toMatchObject([{ state: 'done', attempts: 2, claimed_by: 'b' }]);

    hung.resolve();
    await passOfA;
    expect(calls).toEqual(['a', 'b']);
    expect(await jobsOf(kind)).toMatchObject([{ state: 'done', attempts: 2, claimed_by: 'b' }]);
    expect(logA.lines).toEqual([{ level: 'warn', message: 'job finished after its lease: another runner has it' }]);
  });
});

describe('recurring jobs', () => {
  it('keeps one pending row per kind and runs it once per interval, whatever the number of runners', async () => {
    const kind = kindOf('recurring');
    const clock = createManualClock(START);
    const { calls, handler } = recorder(kind);
    const recurring = [{ kind, everyMs: 3600_000 }];
    const a = runner({ clock, handlers: [handler], recurring });
    const b = runner({ clock, handlers: [handler], recurring });
    const pending = async () => (await jobsOf(kind)).filter((j) => j.state === 'pending');

    await Promise.all([a.runDue(), b.runDue()]);
    expect(calls).toHaveLength(1);
    expect(await pending()).toMatchObject([{ run_at: at(3600_000) }]);
    expect(await database.db.one('SELECT key FROM jobs WHERE kind = $1 AND state = $2', [kind, 'pending'])).toEqual({ key: recurringKey(kind) });

    clock.advance(1800_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(calls).toHaveLength(1);

    clock.advance(1800_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(calls).toHaveLength(2);
    expect(await pending()).toMatchObject([{ run_at: at(7200_000) }]);
    // A new process (a restart) finds the pending row and adds none.
    await runner({ clock, handlers: [handler], recurring }).runDue();
    expect(await pending()).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  it('schedules the next run even when one fails for good', async () => {
    const kind = kindOf('recurring-failing');
    const clock = createManualClock(START);
    const r = runner({ clock, handlers: [{ kind, maxAttempts: 1, run: () => Promise.reject(new Error('disk full')) }], recurring: [{ kind, everyMs: 600_000 }] });
    expect(await r.runDue()).toBe(1);
    expect((await jobsOf(kind)).map((j) => [j.state, j.run_at])).toEqual([
      ['failed', START],
      ['pending', at(600_000)],
    ]);
  });
});

describe('a started runner', () => {
  it('runs a job at once when woken after the transaction that enqueued it, and stops cleanly', async () => {
    const kind = kindOf('wake');
    const ran = deferred();
    // An hour between polls: only wake() can make this job run while the test waits.
    const r = runner({ pollMs: 3600_000, handlers: [{ kind, run: () => Promise.resolve(ran.resolve()) }] });
    r.start();
    try {
      await r.runDue();
      await database.db.transaction((tx) => enqueueJob(tx, { kind }));
      r.wake();
      await ran.promise;
    } finally {
      await r.stop();
    }
    expect(await jobsOf(kind)).toMatchObject([{ state: 'done' }]);
  });
});
