// The review deadline job over 50,000 open proposals (issue 11, "Benchmarks"): one pass of
// `runDeadlinePass` (server/features/suggestions/deadlines.ts) on PostgreSQL, its wall time and the number of
// SQL statements it sent, then a second pass (nothing left to do: the steady state of a pass every 10 minutes).
//
// - A fresh schema on the PostgreSQL of BENCH_DATABASE_URL (else DATABASE_URL, else the local test database),
//   migrated, seeded with INSERT ... SELECT generate_series: COMPANIES companies of 10 departments each (a head
//   per department, a CEO, an owner), PROPOSALS proposals UNDER_CONSIDERATION spread over them in five equal
//   parts by due date: not due for 2 days or more (nothing to do), within the reminder's 2 days (reminded),
//   overdue at level 0 (escalated to the CEO), at level 1 for 3 days (escalated to the owner), and already at
//   the owner (nothing to do). Plus as many decided proposals, which the pass must not even read. The schema is
//   dropped at the end, also on failure or Ctrl-C.
// - Statements are counted on the wire: every `query` of a pg client (the pool's connections) while a pass
//   runs, BEGIN and COMMIT included.
// Figures are printed and recorded in docs/benchmarks.md ("Deadline job"), never asserted.
// Run: node --import tsx tests/bench/deadlines.ts [--proposals=50000] [--companies=10] [--batch=500]
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Database } from '../../server/db/database';
import { runDeadlinePass, DEADLINE_BATCH } from '../../server/features/suggestions/deadlines';
import { openBenchSchema } from './server-support';
import { report, round } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const PROPOSALS = arg('proposals', 50_000);
const COMPANIES = arg('companies', 10);
const BATCH = arg('batch', DEADLINE_BATCH);

const log = (message: string) => process.stderr.write(`${message}\n`);

/** Counts the statements every pg client sends from now on. */
function countStatements(): { read(): number; reset(): void } {
  let count = 0;
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    count += 1;
    return original.apply(this, args);
  };
  return {
    read: () => count,
    reset: () => {
      count = 0;
    },
  };
}

async function seed(db: Database, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const user = async (email: string, role: string) =>
      (await tx.one<{ id: string }>(
        `INSERT INTO users (email, password_hash, first_name, last_name, role, email_verified_at) VALUES ($1, '!', 'Иван', 'Петров', $2, now()) RETURNING id`,
        [email, role],
      ))!.id;
    for (let c = 0; c < COMPANIES; c += 1) {
      const companyId = (await tx.one<{ id: string }>(`INSERT INTO companies (name) VALUES ($1) RETURNING id`, [`ООО «Сроки ${c}»`]))!.id;
      const member = (userId: string, roles: string[]) => tx.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [companyId, userId, roles]);
      await member(await user(`owner${c}@bench.test`, 'OWNER'), ['OWNER']);
      await member(await user(`ceo${c}@bench.test`, 'CEO'), ['CEO']);
      const author = await user(`author${c}@bench.test`, 'EMPLOYEE');
      await member(author, ['EMPLOYEE']);
      const departments: string[] = [];
      for (let d = 0; d < 10; d += 1) {
        const head = await user(`head${c}.${d}@bench.test`, 'MIDDLE_MANAGER');
        await member(head, ['MIDDLE_MANAGER']);
        departments.push((await tx.one<{ id: string }>('INSERT INTO departments (company_id, name, head_user_id) VALUES ($1, $2, $3) RETURNING id', [companyId, `Участок ${d}`, head]))!.id);
      }
      const share = Math.ceil(PROPOSALS / COMPANIES);
      // Part n % 5: 0 not due soon, 1 in the reminder window, 2 overdue at level 0, 3 at level 1 for 3 days, 4 at level 2.
      await tx.query(
        `INSERT INTO suggestions (company_id, id, title, problem, solution, expected_effect, department_id, author_id, author_name,
                                  status, due_at, submitted_at, received_at, history, escalation_level, escalated_at, overdue_at, reminded_at)
         SELECT $1, gen_random_uuid(), 'Предложение ' || n, 'Слишком много шагов', 'Убрать два шага', 'Быстрее',
                ($2::uuid[])[1 + (n / 5) % 10], $3::uuid, 'Автор', 'UNDER_CONSIDERATION', due, due - interval '5 days', due - interval '5 days',
                jsonb_build_array(jsonb_build_object('at', due - interval '5 days', 'kind', 'SUBMITTED', 'byUserId', $3::uuid::text, 'comment', null)),
                CASE n % 5 WHEN 3 THEN 1 WHEN 4 THEN 2 ELSE 0 END,
                CASE WHEN n % 5 >= 3 THEN due END,
                CASE WHEN n % 5 >= 3 THEN due END,
                CASE WHEN n % 5 >= 2 THEN due - interval '2 days' END
           FROM (SELECT n, $4::timestamptz + CASE n % 5
                         WHEN 0 THEN interval '2 days 1 hour' + (n % 1000) * interval '3 minutes'
                         WHEN 1 THEN interval '1 minute' + (n % 1000) * interval '2 minutes'
                         WHEN 2 THEN - (n % 1000) * interval '1 minute'
                         WHEN 3 THEN - interval '3 days' - (n % 1000) * interval '1 minute'
                         ELSE - interval '8 days' - (n % 1000) * interval '1 minute' END AS due
                   FROM generate_series(1, $5::int) n) g`,
        [companyId, departments, author, now, share],
      );
      // As many decided ones, which the pass must not read.
      await tx.query(
        `INSERT INTO suggestions (company_id, id, title, problem, solution, expected_effect, department_id, author_id, author_name,
                                  status, due_at, submitted_at, received_at)
         SELECT $1, gen_random_uuid(), 'Решено ' || n, 'Было', 'Стало', 'Лучше', ($2::uuid[])[1 + n % 10], $3, 'Автор',
                (ARRAY['APPROVED', 'REJECTED'])[1 + n % 2], $4::timestamptz - n * interval '1 minute', $4::timestamptz - interval '30 days', $4::timestamptz - interval '30 days'
           FROM generate_series(1, $5::int) n`,
        [companyId, departments, author, now, share],
      );
    }
  });
}

const bench = await openBenchSchema('bench_deadlines');
const { db } = bench;

try {
  const now = new Date();
  let started = performance.now();
  await seed(db, now);
  await db.query('ANALYZE');
  log(`seeded ${PROPOSALS} open and ${PROPOSALS} decided proposals in ${COMPANIES} companies in ${round((performance.now() - started) / 1000)} s (schema ${bench.name})`);

  const statements = countStatements();
  started = performance.now();
  const first = await runDeadlinePass(db, now, { batch: BATCH });
  const firstMs = performance.now() - started;
  const firstStatements = statements.read();
  const notifications = Number((await db.one<{ n: string }>('SELECT count(*)::text AS n FROM notifications'))?.n);
  const mailJobs = Number((await db.one<{ n: string }>(`SELECT count(*)::text AS n FROM jobs WHERE kind = 'notifications.mail'`))?.n);
  log(`first pass: ${round(firstMs)} ms, ${firstStatements} statements, ${JSON.stringify(first)}, ${notifications} notifications, ${mailJobs} mail jobs`);

  statements.reset();
  started = performance.now();
  const second = await runDeadlinePass(db, now, { batch: BATCH });
  const secondMs = performance.now() - started;
  const secondStatements = statements.read();
  log(`second pass: ${round(secondMs)} ms, ${secondStatements} statements, ${JSON.stringify(second)}`);

  report('deadlines', {
    proposals: PROPOSALS,
    companies: COMPANIES,
    batch: BATCH,
    firstPassMs: round(firstMs),
    firstPassStatements: firstStatements,
    ...first,
    notifications,
    mailJobs,
    secondPassMs: round(secondMs),
    secondPassStatements: secondStatements,
  });
} finally {
  await bench.close();
}
