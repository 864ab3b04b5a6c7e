// The dashboard of a large company on PostgreSQL (issue 13): GET /companies/{c}/dashboard over real HTTP against
// the real main-service, one request at a time, for a year and a quarter of the whole company, for a year of one
// department (its head's scope) and for two years of the whole company.
//
// - A fresh schema on the PostgreSQL of BENCH_DATABASE_URL (else DATABASE_URL, else the local test database),
//   migrated, then seeded fast with INSERT ... SELECT generate_series: one company, 10 departments, EMPLOYEES
//   employees (the first 500 with an account, the authors; every 20th inactive), 20 goals, PROPOSALS proposals
//   over the last 2 years in every state (decided within 300 hours), PROJECTS projects (4 in 5 made from an
//   approved proposal) in every state and in RUB, USD and AUD, with teams of 1 to 4, goals, indicator reports,
//   report due dates and overdue flags; the approved projects older than a month in 25 sent registries of 100
//   (every fifth still SENT, the others APPROVED, one item in 16 with an adjusted final cost); EBITDA for 24
//   months. The change-feed trigger runs for every row, as for real writes. The schema is dropped at the end, also
//   on failure or Ctrl-C.
// - The real server (`node --import tsx server/index.ts`) on a free port, on that schema; the owner and the head of
//   one department sign in through the API.
// - Each case: WARMUP requests, then RUNS requests one at a time; min, median, p95 and max of the latency seen by
//   the client. Then the same dashboards through the service alone on the bench's own connection (no HTTP).
// Timings are printed and recorded in docs/benchmarks.md ("Dashboard"), never asserted. Target: median <= 200 ms.
// Run: node --import tsx tests/bench/dashboard.ts [--proposals=50000] [--projects=5000] [--runs=30] [--statements] [--explain]
//   [--without-indexes]
//   --statements also prints the median time of each statement of the company's year; --explain prints EXPLAIN
//   (ANALYZE, BUFFERS) of every statement of the company's and the department's year; --without-indexes drops the
//   indexes of migration 0014 (server/db/migrations/0014-dashboard-indexes.ts) first, to see what they are worth.
import { loadavg } from 'node:os';
import { CompiledQuery } from 'kysely';
import { API_PREFIX } from '../../src/domain/paths';
import { hashPassword } from '../../server/auth/passwords';
import { findMembership } from '../../server/auth/access';
import type { Database, Queryable, SqlParam } from '../../server/db/database';
import { createKysely } from '../../server/db/kysely';
import { computeDashboard } from '../../server/features/dashboard/service';
import { openBenchSchema, PASSWORD, SCRYPT_LOG_N, signIn, skipWithoutPostgres, timedGet } from './server-support';
import { median, percentile, report, round } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const PROPOSALS = arg('proposals', 50_000);
const PROJECTS = arg('projects', 5_000);
const EMPLOYEES = arg('employees', 2_000);
const RUNS = arg('runs', 30);
const WARMUP = 5;
const EXPLAIN = process.argv.includes('--explain');
const STATEMENTS = process.argv.includes('--statements');
/** Drops the indexes of migration 0014 after migrating: the figures without them. */
const WITHOUT_INDEXES = process.argv.includes('--without-indexes');
const AUTHORS = 500;

const log = (message: string) => process.stderr.write(`${message}\n`);

const summary = (ms: readonly number[]) => ({
  n: ms.length,
  minMs: round(Math.min(...ms), 1),
  medianMs: round(median(ms), 1),
  p95Ms: round(percentile(ms, 95), 1),
  maxMs: round(Math.max(...ms), 1),
});

// ------------------------------------------------------------------------------------------- database

interface Seeded {
  companyId: string;
  owner: string;
  head: string;
  headDepartment: string;
}

/** The company of the header. Times are relative to the database's now(), the server's clock at the time. */
async function seed(db: Database): Promise<Seeded> {
  const hash = await hashPassword(PASSWORD, SCRYPT_LOG_N);
  return db.transaction(async (tx) => {
    const user = async (email: string, role: string) =>
      (await tx.one<{ id: string }>(
        `INSERT INTO users (email, password_hash, first_name, last_name, role, authorities, email_verified_at)
         VALUES ($1, $2, 'Иван', 'Петров', $3, $4, now()) RETURNING id`,
        [email, hash, role, [`ROLE_${role}`]],
      ))!.id;
    const owner = await user('owner@bench.test', 'OWNER');
    const head = await user('head@bench.test', 'MIDDLE_MANAGER');
    const authors = (
      await tx.query<{ id: string }>(
        `INSERT INTO users (email, password_hash, first_name, last_name, role, authorities, email_verified_at)
         SELECT 'author' || n || '@bench.test', '!', 'Иван', 'Автор ' || n, 'EMPLOYEE', '{ROLE_EMPLOYEE}', now() FROM generate_series(1, $1::int) n
         RETURNING id`,
        [AUTHORS],
      )
    ).map((row) => row.id);
    const companyId = (await tx.one<{ id: string }>(`INSERT INTO companies (name) VALUES ('ООО «Показатели»') RETURNING id`))!.id;
    const departments = (
      await tx.query<{ id: string }>(
        `INSERT INTO departments (company_id, name, head_user_id)
         SELECT $1, 'Участок ' || n, CASE WHEN n = 1 THEN $2::uuid END FROM generate_series(1, 10) n ORDER BY n RETURNING id`,
        [companyId, head],
      )
    ).map((row) => row.id);
    const headDepartment = (await tx.one<{ id: string }>(`SELECT id FROM departments WHERE company_id = $1 AND head_user_id = $2`, [companyId, head]))!.id;
    await tx.query(`INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, '{OWNER}'), ($1, $3, '{MIDDLE_MANAGER}')`, [companyId, owner, head]);
    await tx.query(`INSERT INTO company_members (company_id, user_id, roles) SELECT $1, u, '{EMPLOYEE}' FROM unnest($2::uuid[]) u`, [companyId, authors]);
    await tx.query(
      `INSERT INTO employees (company_id, user_id, department_id, last_name, first_name, active, roles)
       VALUES ($1, $2, NULL, 'Хозяинов', 'Иван', true, '{OWNER}'), ($1, $3, $4, 'Головин', 'Иван', true, '{MIDDLE_MANAGER}')`,
      [companyId, owner, head, headDepartment],
    );
    // Employees: the first AUTHORS are the authors' own rows; every 20th is inactive.
    const employees = (
      await tx.query<{ id: string }>(
        `INSERT INTO employees (company_id, user_id, department_id, last_name, first_name, active)
         SELECT $1, ($2::uuid[])[n], ($3::uuid[])[1 + n % 10], 'Сотрудник ' || n, 'Иван', n % 20 <> 0
           FROM generate_series(1, $4::int) n ORDER BY n RETURNING id`,
        [companyId, authors, departments, EMPLOYEES],
      )
    ).map((row) => row.id);
    const goals = (
      await tx.query<{ id: string }>(
        `INSERT INTO goals (company_id, id, direction, scope, description, expected_result, indicator_value, indicator_unit, owner_goal,
                            start_date, end_date, business_customer_employee_id, process, status)
         SELECT $1, gen_random_uuid(), 'Направление ' || n, 'Цех', 'Описание', 'Результат', 100 * n, 'MINUTES', 'Цель', '2025-01-01', '2027-12-31', $2,
                'Процесс', (ARRAY['NEW', 'TO_WORK', 'CLARIFICATION', 'APPROVED'])[1 + n % 4]
           FROM generate_series(1, 20) n ORDER BY n RETURNING id`,
        [companyId, employees[0]!],
      )
    ).map((row) => row.id);

    // Proposals over the last 2 years: 10 % under consideration, 2 % waiting for clarification, 50 % approved, 38 %
    // rejected, decided 1 to 300 hours after submission (never after now). The open ones as the deadline job leaves
    // them (reminded; past their due date escalated to the owner), so its first pass in the server has nothing to
    // change: the bench measures the dashboard, not a backlog of the job.
    await tx.query(
      `INSERT INTO suggestions (company_id, id, title, problem, solution, expected_effect, department_id, goal_id, author_id, author_name,
                                status, due_at, submitted_at, received_at, decided_at, reminded_at, escalation_level, escalated_at, overdue_at,
                                history, created_at, updated_at)
       SELECT $1, gen_random_uuid(), 'Предложение ' || n, 'Проблема', 'Решение', 'Эффект', ($2::uuid[])[1 + n % 10],
              CASE WHEN n % 20 = 0 THEN ($3::uuid[])[1 + (n / 20) % 20] END, ($4::uuid[])[1 + (n * 7) % $6::int], 'Автор',
              status, at + interval '5 days', at, at,
              CASE WHEN status <> 'UNDER_CONSIDERATION' THEN least(at + ((n * 13) % 300 + 1) * interval '1 hour', now()) END,
              CASE WHEN status = 'UNDER_CONSIDERATION' THEN at END,
              CASE WHEN status = 'UNDER_CONSIDERATION' AND at + interval '5 days' <= now() THEN 2 ELSE 0 END,
              CASE WHEN status = 'UNDER_CONSIDERATION' AND at + interval '5 days' <= now() THEN at + interval '5 days' END,
              CASE WHEN status = 'UNDER_CONSIDERATION' AND at + interval '5 days' <= now() THEN at + interval '5 days' END,
              '[]', at, at
         FROM (SELECT n, now() - (n % 730) * interval '1 day' - ((n * 37) % 1440) * interval '1 minute' AS at,
                      CASE WHEN n % 50 < 5 THEN 'UNDER_CONSIDERATION' WHEN n % 50 = 5 THEN 'CLARIFICATION' WHEN n % 50 < 31 THEN 'APPROVED' ELSE 'REJECTED' END AS status
                 FROM generate_series(1, $5::int) n) g`,
      [companyId, departments, goals, authors, PROPOSALS, AUTHORS],
    );

    // Projects: 4 in 5 from an approved proposal (every sixth one in order of decision), the rest made directly
    // (every 50th of those with no department).
    await tx.query(
      `WITH approved AS (
         SELECT id, department_id, decided_at, row_number() OVER (ORDER BY decided_at, id) AS rn
           FROM suggestions WHERE company_id = $1 AND status = 'APPROVED'
       ), planned AS (
         SELECT m,
                a.id AS suggestion_id,
                CASE WHEN a.id IS NOT NULL THEN a.department_id WHEN m % 50 = 0 THEN NULL ELSE ($2::uuid[])[1 + m % 10] END AS department_id,
                least(coalesce(a.decided_at + interval '1 day', now() - (m % 700) * interval '1 day'), now()) AS created,
                (ARRAY['NEW', 'NEW', 'CALCULATING', 'CALCULATING', 'CALCULATED', 'CALCULATED', 'FOR_REVISION',
                       'APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'APPROVED',
                       'COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED'])[1 + m % 20] AS status,
                CASE WHEN m % 10 = 0 THEN 'USD' WHEN m % 25 = 1 THEN 'AUD' ELSE 'RUB' END AS currency,
                (m % 100 + 1) * 1000000::bigint AS costs
           FROM generate_series(1, $4::int) m
           LEFT JOIN approved a ON m <= $4::int * 4 / 5 AND a.rn = m * 6
       ), dated AS (
         SELECT p.*,
                CASE WHEN status IN ('APPROVED', 'COMPLETED') THEN least(created + (m % 60 + 5) * interval '1 day', now()) END AS approved_at
           FROM planned p
       )
       INSERT INTO projects (company_id, id, name, problem, type, suggestion_id, department_id, author_name, goal_ids, baseline_metric,
                             completion_date, actual_completion_date, reporting_frequency, post_monitoring_periodicity,
                             project_manager_employee_id, team, currency, profit_basis_points, max_per_project_minor, estimated_costs_minor,
                             expected_effect_12m_minor, actual_effect_12m_minor, effect_repeatability, status, indicator_reports,
                             next_report_due, report_overdue_at, approved_at, created_at, updated_at)
       SELECT $1, gen_random_uuid(), 'Проект ' || m, 'Проблема', 'ORGANIZATIONAL', suggestion_id, department_id, 'Автор',
              CASE WHEN m % 5 = 0 THEN ARRAY[($3::uuid[])[1 + m % 20]] ELSE '{}' END,
              CASE WHEN m % 5 = 0 THEN '{"value": 100, "unitId": "MINUTES"}'::jsonb END,
              '2027-12-31',
              CASE WHEN status = 'COMPLETED' THEN to_char(least(approved_at + (m % 120 + 10) * interval '1 day', now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD') END,
              'MONTHLY', 'QUARTERLY',
              ($5::uuid[])[1 + (m * 11) % $6::int],
              (SELECT jsonb_agg(jsonb_build_object('employeeId', ($5::uuid[])[1 + (m * 13 + k * 101) % $6::int], 'name', 'Участник', 'serviceNumber', NULL, 'role', 'Участник'))
                 FROM generate_series(1, 1 + m % 4) k),
              currency, 1000, CASE WHEN m % 3 = 0 THEN 10000000 END,
              CASE WHEN status IN ('CALCULATED', 'APPROVED', 'COMPLETED') THEN costs END,
              CASE WHEN status IN ('CALCULATED', 'APPROVED', 'COMPLETED') THEN costs * (m % 5 + 2) END,
              CASE WHEN status = 'COMPLETED' THEN costs * (m % 5 + 2) * 9 / 10 END,
              'RECURRING', status,
              CASE WHEN status IN ('APPROVED', 'COMPLETED') THEN
                (SELECT jsonb_agg(jsonb_build_object('id', gen_random_uuid(), 'date', to_char((approved_at + r * interval '30 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
                                                     'value', 100 - r * (m % 7), 'comment', NULL, 'at', approved_at + r * interval '30 days', 'byUserId', NULL, 'byName', NULL))
                   FROM generate_series(1, 3) r)
              ELSE '[]' END,
              CASE WHEN status IN ('APPROVED', 'COMPLETED') THEN to_char((now() + (m % 60 - 20) * interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD') END,
              CASE WHEN status IN ('APPROVED', 'COMPLETED') AND m % 7 = 0 THEN now() - interval '1 day' END,
              approved_at, created, created
         FROM dated`,
      [companyId, departments, goals, PROJECTS, employees, EMPLOYEES],
    );

    // Registries of 100 of the projects approved more than a month ago, in order of approval: 25 of them, every
    // fifth still SENT; one item in 16 (an id ending in 0) with an adjusted final cost.
    await tx.query(
      `WITH eligible AS (
         SELECT p.*, (row_number() OVER (ORDER BY approved_at, id) - 1) / 100 + 1 AS grp
           FROM projects p WHERE company_id = $1 AND status IN ('APPROVED', 'COMPLETED') AND approved_at < now() - interval '30 days'
       ), grouped AS (
         SELECT grp, max(approved_at) AS last_approved,
                jsonb_agg(jsonb_build_object(
                  'projectId', id, 'name', name, 'departmentId', department_id, 'projectManagerName', 'Менеджер', 'currency', currency,
                  'estimatedCostsMinor', estimated_costs_minor, 'expectedEffect12mMinor', expected_effect_12m_minor,
                  'remunerationMinor', least(div(expected_effect_12m_minor::numeric * profit_basis_points, 10000), max_per_project_minor),
                  'finalCostMinor', CASE WHEN right(id::text, 1) = '0' THEN estimated_costs_minor * 11 / 10 END,
                  'adjustmentReason', CASE WHEN right(id::text, 1) = '0' THEN 'Подорожали материалы' END) ORDER BY approved_at, id) AS items
           FROM eligible WHERE grp <= 25 GROUP BY grp
       )
       INSERT INTO registries (company_id, id, number, status, items, totals, sent_by_name, sent_at, decided_by_name, decided_at)
       SELECT $1, gen_random_uuid(), grp, CASE WHEN grp % 5 = 0 THEN 'SENT' ELSE 'APPROVED' END, items, '[]', 'Финансов',
              least(last_approved + interval '5 days', now()),
              CASE WHEN grp % 5 <> 0 THEN 'Хозяинов' END,
              CASE WHEN grp % 5 <> 0 THEN least(last_approved + interval '10 days', now()) END
         FROM grouped`,
      [companyId],
    );
    await tx.query(
      `UPDATE projects p SET registry_id = r.id
         FROM registries r CROSS JOIN LATERAL jsonb_array_elements(r.items) AS item
        WHERE r.company_id = $1 AND p.company_id = $1 AND p.id = (item ->> 'projectId')::uuid`,
      [companyId],
    );
    await tx.query(
      `INSERT INTO company_ebitda (company_id, month, currency, amount_minor)
       SELECT $1, to_char(now() - n * interval '1 month', 'YYYY-MM'), 'RUB', (800 + n * 30) * 1000000000::bigint FROM generate_series(0, 23) n`,
      [companyId],
    );
    return { companyId, owner, head, headDepartment };
  });
}

// ------------------------------------------------------------------------------------------- measures

interface Case {
  name: string;
  token: string;
  userId: string;
  query: { from: string; to: string; departmentId?: string };
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const daysBefore = (days: number) => dayOf(new Date(Date.now() - days * 86_400_000));

const dashboardPath = (companyId: string, query: Case['query']) => `${API_PREFIX}/companies/${companyId}/dashboard?${new URLSearchParams(query).toString()}`;

/** EXPLAIN (ANALYZE, BUFFERS) of every query computeDashboard sends, through the service itself, in its transaction. */
async function explain(db: Database, seeded: Seeded, userId: string, query: Case['query']): Promise<string> {
  const plans: string[] = [];
  const member = await findMembership(db, userId, seeded.companyId);
  if (!member) throw new Error(`${userId} is no member`);
  await db.transaction(async (tx) => {
    const explainingKysely = createKysely(async (sql, params) => {
      if (/^\s*(select|with)\b/i.test(sql)) {
        const plan = await tx.kysely.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, [...params]));
        plans.push(`${sql.replace(/\s+/g, ' ').slice(0, 160)}\n${plan.rows.map((line) => line['QUERY PLAN']).join('\n')}`);
      }
      return tx.kysely.executeQuery(CompiledQuery.raw(sql, [...params]));
    });
    const explaining: Queryable = {
      query: <T>(sql: string, params?: readonly SqlParam[]) => tx.query<T>(sql, params),
      one: <T>(sql: string, params?: readonly SqlParam[]) => tx.one<T>(sql, params),
      get kysely() {
        return explainingKysely;
      },
    };
    // The service's transaction is this one: its SET TRANSACTION is the first statement here.
    await computeDashboard({ transaction: (work) => work(explaining) }, member, query, new Date());
  });
  return plans.join('\n\n');
}

/** The median time of each statement computeDashboard sends (by its first words), over `runs` dashboards. */
async function statementTimes(db: Database, seeded: Seeded, userId: string, query: Case['query'], runs: number): Promise<Record<string, number>> {
  const times = new Map<string, number[]>();
  const member = await findMembership(db, userId, seeded.companyId);
  if (!member) throw new Error(`${userId} is no member`);
  for (let i = 0; i < runs; i += 1) {
    await db.transaction(async (tx) => {
      const timingKysely = createKysely(async (sql, params) => {
        const at = performance.now();
        const result = await tx.kysely.executeQuery(CompiledQuery.raw(sql, [...params]));
        const name = sql.replace(/\s+/g, ' ').trim().slice(0, 60);
        times.set(name, [...(times.get(name) ?? []), performance.now() - at]);
        return result;
      });
      const timing: Queryable = {
        query: <T>(sql: string, params?: readonly SqlParam[]) => tx.query<T>(sql, params),
        one: <T>(sql: string, params?: readonly SqlParam[]) => tx.one<T>(sql, params),
        get kysely() {
          return timingKysely;
        },
      };
      await computeDashboard({ transaction: (work) => work(timing) }, member, query, new Date());
    });
  }
  return Object.fromEntries([...times].map(([name, ms]) => [name, round(median(ms), 2)]));
}

// ------------------------------------------------------------------------------------------- run

await skipWithoutPostgres('dashboard');

const loadAverageAtStart = loadavg().map((l) => round(l, 2));
const bench = await openBenchSchema('bench_dashboard');
const { db } = bench;

try {
  if (WITHOUT_INDEXES) await db.query('DROP INDEX suggestions_decided_idx');
  let started = performance.now();
  const seeded = await seed(db);
  // What autovacuum does to tables some time after a bulk load: statistics, and the visibility map the index-only
  // scans rely on.
  const tables = 'suggestions, projects, employees, registries, goals, departments, company_ebitda, company_members, users';
  await db.query(`ANALYZE ${tables}`);
  // Until the proposals' pages are all marked all-visible (what the index-only scans rely on), as they are some time
  // after a write: a transaction of another client of the database, open while VACUUM runs, keeps them from it.
  let visibility: { pages: number; visible: number } | null = null;
  for (let pass = 0; pass < 10; pass += 1) {
    await db.query(`VACUUM ${tables}`);
    visibility = await db.one<{ pages: number; visible: number }>(
      `SELECT relpages AS pages, relallvisible AS visible FROM pg_class WHERE oid = 'suggestions'::regclass`,
    );
    if (visibility && visibility.visible >= visibility.pages) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  log(`suggestions: ${JSON.stringify(visibility)} pages all-visible`);
  const seedSeconds = round((performance.now() - started) / 1000);
  const counts = await db.one<Record<string, string>>(
    `SELECT (SELECT count(*) FROM suggestions)::text AS proposals, (SELECT count(*) FROM projects)::text AS projects,
            (SELECT count(*) FROM employees)::text AS employees, (SELECT count(*) FROM registries)::text AS registries,
            (SELECT count(*) FROM projects WHERE registry_id IS NOT NULL)::text AS "projectsInRegistries"`,
  );
  log(`seeded in ${seedSeconds} s (schema ${bench.name}): ${JSON.stringify(counts)}`);

  started = performance.now();
  const server = await bench.startServer();
  const startSeconds = round((performance.now() - started) / 1000);
  const [owner, head] = [await signIn(server, 'owner@bench.test'), await signIn(server, 'head@bench.test')];

  const today = daysBefore(0);
  const cases: Case[] = [
    { name: 'companyYear', token: owner, userId: seeded.owner, query: { from: daysBefore(364), to: today } },
    { name: 'companyQuarter', token: owner, userId: seeded.owner, query: { from: daysBefore(90), to: today } },
    { name: 'departmentYear', token: head, userId: seeded.head, query: { from: daysBefore(364), to: today } },
    { name: 'companyTwoYears', token: owner, userId: seeded.owner, query: { from: daysBefore(729), to: today } },
  ];
  const overHttp: Record<string, ReturnType<typeof summary> & { answerBytes: number }> = {};
  for (const c of cases) {
    const path = dashboardPath(seeded.companyId, c.query);
    for (let i = 0; i < WARMUP; i += 1) await timedGet(server, c.token, path);
    const ms: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const { ms: took, body } = await timedGet(server, c.token, path);
      ms.push(took);
      bytes = Buffer.byteLength(body);
    }
    overHttp[c.name] = { ...summary(ms), answerBytes: bytes };
    log(`${c.name} over HTTP: ${JSON.stringify(overHttp[c.name])}`);
  }

  // The same dashboards through the service alone, on the bench's own connection pool.
  const inProcess: Record<string, ReturnType<typeof summary>> = {};
  for (const c of cases) {
    const member = await findMembership(db, c.userId, seeded.companyId);
    if (!member) throw new Error(`${c.userId} is no member`);
    const ms: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i += 1) {
      const at = performance.now();
      await computeDashboard(db, member, c.query, new Date());
      if (i >= WARMUP) ms.push(performance.now() - at);
    }
    inProcess[c.name] = summary(ms);
  }
  log(`in process: ${JSON.stringify(inProcess)}`);

  if (STATEMENTS) log(`statements of the company's year (median ms): ${JSON.stringify(await statementTimes(db, seeded, cases[0]!.userId, cases[0]!.query, RUNS), null, 2)}`);

  if (EXPLAIN) {
    const year = cases[0]!;
    log(`\nEXPLAIN the company's year:\n${await explain(db, seeded, year.userId, year.query)}`);
    const department = cases[2]!;
    log(`\nEXPLAIN the department's year:\n${await explain(db, seeded, department.userId, department.query)}`);
  }

  report('dashboard', {
    indexes: WITHOUT_INDEXES ? 'without 0014' : 'all',
    loadAverageAtStart,
    loadAverageAtEnd: loadavg().map((l) => round(l, 2)),
    seeded: counts,
    seedSeconds,
    startSeconds,
    runs: RUNS,
    warmup: WARMUP,
    overHttp,
    inProcess,
  });
} finally {
  await bench.close();
}
