// Load on the real main-service against PostgreSQL (issue 10, "Tests and figures"): a company of 50,000
// proposals, its list (50 a page) and GET /health under autocannon at a fixed concurrency, and the list one
// request at a time.
//
// - A fresh schema on the PostgreSQL of BENCH_DATABASE_URL (else DATABASE_URL, else the local test database),
//   migrated, then seeded fast with INSERT ... SELECT generate_series: one company, 10 departments, 50 authors,
//   PROPOSALS proposals over a year, in bursts of 20 within one millisecond (as push batches write them), every
//   tenth with an image. The change-feed trigger runs for every row, as for real writes. The schema is dropped
//   at the end, also on failure or Ctrl-C.
// - The real server (`node --import tsx server/index.ts`) on a free port, on that schema; the owner (who sees
//   every proposal), a department head and an author sign in through the API.
// - One request at a time: the owner walks the whole list by its cursors (every depth once), then asks for the
//   first page and for deep pages again; the head and the author walk theirs. Medians and p99 of the latency
//   seen by the client.
// - Under load: autocannon, CONNECTIONS connections for SECONDS seconds each, on GET /health, the first page,
//   and deep pages (the cursors of the second half of the list, each connection cycling through them):
//   requests per second, p50/p99 latency, errors (failed connections, timeouts and non-2xx answers), and the
//   server's RSS (from /proc, sampled every 250 ms; idle before, the peak during each run).
// Timings are printed and recorded in docs/benchmarks.md ("Server load"), never asserted.
// Run: node --import tsx tests/bench/server-load.ts [--proposals=50000] [--connections=10] [--seconds=10] [--explain]
//   --explain also prints EXPLAIN (ANALYZE, BUFFERS) of the list's own query (first page and a deep page).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { CompiledQuery } from 'kysely';
import { API_PREFIX } from '../../src/domain/paths';
import { hashPassword } from '../../server/auth/passwords';
import { findMembership } from '../../server/auth/access';
import type { Database, Queryable, SqlParam } from '../../server/db/database';
import { createKysely } from '../../server/db/kysely';
import { listSuggestions } from '../../server/features/suggestions/service';
import { openBenchSchema, PASSWORD, SCRYPT_LOG_N, signIn, skipWithoutPostgres, timedGet, type BenchServer } from './server-support';
import { median, percentile, report, round } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const PROPOSALS = arg('proposals', 50_000);
const CONNECTIONS = arg('connections', 10);
const SECONDS = arg('seconds', 10);
const EXPLAIN = process.argv.includes('--explain');
const PAGE = 50;

const log = (message: string) => process.stderr.write(`${message}\n`);

// ------------------------------------------------------------------------------------------- database

interface Seeded {
  companyId: string;
  owner: string;
  head: string;
  author: string;
  headDepartment: string;
}

/** One company of PROPOSALS proposals; the owner, a head of one department and one author can sign in. */
async function seed(db: Database): Promise<Seeded> {
  const hash = await hashPassword(PASSWORD, SCRYPT_LOG_N);
  return db.transaction(async (tx) => {
    const user = async (email: string, passwordHash: string) =>
      (await tx.one<{ id: string }>(
        `INSERT INTO users (email, password_hash, first_name, last_name, role, authorities, email_verified_at)
         VALUES ($1, $2, 'Иван', 'Петров', 'OWNER', '{ROLE_OWNER}', now()) RETURNING id`,
        [email, passwordHash],
      ))!.id;
    const owner = await user('owner@bench.test', hash);
    const head = await user('head@bench.test', hash);
    const authors: string[] = [await user('author@bench.test', hash)];
    for (let i = 1; i < 50; i += 1) authors.push(await user(`author${i}@bench.test`, '!'));
    const companyId = (await tx.one<{ id: string }>(`INSERT INTO companies (name) VALUES ('ООО «Нагрузка»') RETURNING id`))!.id;
    const departments: string[] = [];
    for (let i = 1; i <= 10; i += 1) {
      const row = await tx.one<{ id: string }>('INSERT INTO departments (company_id, name, head_user_id) VALUES ($1, $2, $3) RETURNING id', [
        companyId,
        `Участок ${i}`,
        i === 1 ? head : null,
      ]);
      departments.push(row!.id);
    }
    const member = (userId: string, roles: string[]) => tx.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [companyId, userId, roles]);
    await member(owner, ['OWNER']);
    await member(head, ['MIDDLE_MANAGER']);
    for (const a of authors) await member(a, ['EMPLOYEE']);
    // Bursts of 20 within one millisecond, a burst every 10 minutes back from now (about a year in all).
    await tx.query(
      `INSERT INTO suggestions (company_id, id, title, problem, solution, expected_effect, effect_amount_minor, effect_currency,
                                department_id, author_id, author_name, status, due_at, submitted_at, received_at, history,
                                created_at, updated_at)
       SELECT $1, gen_random_uuid(), 'Предложение ' || n, repeat('Слишком много шагов. ', 8), repeat('Убрать два шага. ', 8), 'Быстрее',
              CASE WHEN n % 4 = 0 THEN 150000 END, CASE WHEN n % 4 = 0 THEN 'RUB' END,
              ($2::uuid[])[1 + n % 10], ($3::uuid[])[1 + n % 50], 'Автор ' || (n % 50),
              (ARRAY['UNDER_CONSIDERATION', 'APPROVED', 'REJECTED'])[1 + n % 3], at + interval '5 days', at, at,
              jsonb_build_array(jsonb_build_object('at', at, 'kind', 'SUBMITTED', 'byUserId', ($3::uuid[])[1 + n % 50], 'comment', null)),
              at, at
         FROM (SELECT n, date_trunc('milliseconds', now()) - (n / 20) * interval '10 minutes' + (n % 20) * interval '1 microsecond' AS at
                 FROM generate_series(1, $4::int) n) g`,
      [companyId, departments, authors, PROPOSALS],
    );
    // Every tenth proposal has an image (a row of suggestion_images and its file), so the page's image
    // sub-query finds some.
    await tx.query(
      `WITH picked AS (
         SELECT s.id AS suggestion_id, s.author_id, gen_random_uuid() AS file_id
           FROM suggestions s WHERE s.company_id = $1 AND s.title ~ '7$'
       ), stored AS (
         INSERT INTO files (id, owner_id, company_id, content_type, size, name, bytes)
         SELECT file_id, author_id, $1, 'image/png', 68, 'photo.png', '\\x89504e47'::bytea FROM picked
       )
       INSERT INTO suggestion_images (company_id, suggestion_id, file_id, position) SELECT $1, suggestion_id, file_id, 0 FROM picked`,
      [companyId],
    );
    return { companyId, owner, head, author: authors[0]!, headDepartment: departments[0]! };
  });
}

// ------------------------------------------------------------------------------------------- server

/** Resident set size of a process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? round(Number(match[1]) / 1024) : Number.NaN;
}

// ------------------------------------------------------------------------------------------- measures

interface Page {
  items: { id: string }[];
  nextCursor: string | null;
}

const listPath = (companyId: string, cursor: string | null, scope = 'all') =>
  `${API_PREFIX}/companies/${companyId}/suggestions?limit=${PAGE}${scope === 'all' ? '' : `&scope=${scope}`}${cursor ? `&cursor=${cursor}` : ''}`;

async function timedPage(server: BenchServer, token: string, path: string): Promise<{ ms: number; page: Page }> {
  const { ms, body } = await timedGet(server, token, path);
  return { ms, page: (JSON.parse(body) as { data: Page }).data };
}

/** Walks a whole list one request at a time: the latency of every page, and the cursor of every page after the first. */
async function walk(server: BenchServer, token: string, companyId: string, scope: string): Promise<{ ms: number[]; cursors: string[]; rows: number }> {
  const ms: number[] = [];
  const cursors: string[] = [];
  const seen = new Set<string>();
  let rows = 0;
  let cursor: string | null = null;
  do {
    const { ms: took, page }: { ms: number; page: Page } = await timedPage(server, token, listPath(companyId, cursor, scope));
    ms.push(took);
    for (const item of page.items) seen.add(item.id);
    rows += page.items.length;
    cursor = page.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  if (seen.size !== rows) throw new Error(`the ${scope} list returned ${rows - seen.size} rows twice`);
  return { ms, cursors, rows };
}

const summary = (ms: readonly number[]) => ({ n: ms.length, medianMs: round(median(ms), 2), p99Ms: round(percentile(ms, 99), 2), maxMs: round(Math.max(...ms), 2) });

interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  peakRssMiB: number;
}

async function load(server: BenchServer, title: string, paths: readonly string[], token: string | null): Promise<LoadFigures> {
  let peak = rssMiB(server.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid))), 250);
  try {
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { Language: 'en', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      requests: paths.map((path) => ({ method: 'GET' as const, path })),
    });
    const figures = {
      requestsPerSecond: round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      requests: result.requests.total,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      peakRssMiB: peak,
    };
    log(`${title}: ${JSON.stringify(figures)}`);
    return figures;
  } finally {
    clearInterval(sampler);
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of the queries listSuggestions runs for `userId`, through the service itself. */
async function explain(db: Database, seeded: Seeded, userId: string, scope: 'all' | 'mine', cursor: string | undefined): Promise<string> {
  const plans: string[] = [];
  // The service's typed queries (Kysely) are explained too, then run, on the same database.
  const explainingKysely = createKysely(async (sql, params) => {
    const plan = await db.kysely.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, [...params]));
    plans.push(plan.rows.map((line) => line['QUERY PLAN']).join('\n'));
    return db.kysely.executeQuery(CompiledQuery.raw(sql, [...params]));
  });
  const explaining: Queryable = {
    async query<T>(sql: string, params?: readonly SqlParam[]) {
      const plan = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      plans.push(plan.map((line) => line['QUERY PLAN']).join('\n'));
      return db.query<T>(sql, params);
    },
    async one<T>(sql: string, params?: readonly SqlParam[]) {
      return (await explaining.query<T>(sql, params))[0] ?? null;
    },
    get kysely() {
      return explainingKysely;
    },
  };
  const member = await findMembership(db, userId, seeded.companyId);
  if (!member) throw new Error(`${userId} is no member`);
  await listSuggestions(explaining, member, { scope, status: undefined, cursor, limit: PAGE });
  return plans.join('\n\n');
}

// ------------------------------------------------------------------------------------------- run

await skipWithoutPostgres('server load');

// Other work on the machine slows every figure: printed with them.
const loadAverageAtStart = loadavg().map((l) => round(l, 2));
const bench = await openBenchSchema('bench_load');
const { db } = bench;

try {
  let started = performance.now();
  const seeded = await seed(db);
  await db.query('ANALYZE');
  const seedSeconds = round((performance.now() - started) / 1000);
  log(`seeded ${PROPOSALS} proposals in ${seedSeconds} s (schema ${bench.name})`);

  started = performance.now();
  const server = await bench.startServer();
  const startSeconds = round((performance.now() - started) / 1000);
  const idleRssMiB = rssMiB(server.pid);
  const [owner, head, author] = [await signIn(server, 'owner@bench.test'), await signIn(server, 'head@bench.test'), await signIn(server, 'author@bench.test')];

  // One request at a time.
  const whole = await walk(server, owner, seeded.companyId, 'all');
  if (whole.rows !== PROPOSALS) throw new Error(`the owner's list has ${whole.rows} rows, not ${PROPOSALS}`);
  const firstPage: number[] = [];
  for (let i = 0; i < 200; i += 1) firstPage.push((await timedPage(server, owner, listPath(seeded.companyId, null))).ms);
  const deepCursors = whole.cursors.slice(Math.floor(whole.cursors.length / 2));
  const deepPage: number[] = [];
  for (let i = 0; i < 200; i += 1) deepPage.push((await timedPage(server, owner, listPath(seeded.companyId, deepCursors[(i * 37) % deepCursors.length]!))).ms);
  // The same pages through the service alone (the query and the mapping, no HTTP, no sign-in check), on the
  // bench's own connection: what of a request's time is the database's.
  const ownerMember = await findMembership(db, seeded.owner, seeded.companyId);
  if (!ownerMember) throw new Error('the owner is no member');
  const servicePage: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const cursor = i % 2 === 0 ? undefined : deepCursors[(i * 37) % deepCursors.length];
    const at = performance.now();
    await listSuggestions(db, ownerMember, { scope: 'all', status: undefined, cursor, limit: PAGE });
    servicePage.push(performance.now() - at);
  }
  const headWalk = await walk(server, head, seeded.companyId, 'all');
  const authorWalk = await walk(server, author, seeded.companyId, 'mine');
  const sequential = {
    ownerWholeList: { pages: whole.ms.length, ...summary(whole.ms) },
    ownerFirstPage: summary(firstPage),
    ownerDeepPage: summary(deepPage),
    ownerPageInProcess: summary(servicePage),
    headWholeList: { rows: headWalk.rows, ...summary(headWalk.ms) },
    authorMineWholeList: { rows: authorWalk.rows, ...summary(authorWalk.ms) },
  };
  log(`one at a time: ${JSON.stringify(sequential, null, 2)}`);

  // Under load.
  const rssBeforeLoadMiB = rssMiB(server.pid);
  const health = await load(server, 'GET /health', [`${API_PREFIX}/health`], null);
  const first = await load(server, 'first page', [listPath(seeded.companyId, null)], owner);
  const deep = await load(
    server,
    'deep pages',
    deepCursors.filter((_, i) => i % 25 === 0).map((cursor) => listPath(seeded.companyId, cursor)),
    owner,
  );
  const rssAfterMiB = rssMiB(server.pid);

  if (EXPLAIN) {
    log(`\nEXPLAIN the owner's first page:\n${await explain(db, seeded, seeded.owner, 'all', undefined)}`);
    log(`\nEXPLAIN the owner's last page:\n${await explain(db, seeded, seeded.owner, 'all', deepCursors.at(-1))}`);
    log(`\nEXPLAIN the head's last page:\n${await explain(db, seeded, seeded.head, 'all', headWalk.cursors.at(-1))}`);
    log(`\nEXPLAIN the author's last page of their own:\n${await explain(db, seeded, seeded.author, 'mine', authorWalk.cursors.at(-1))}`);
  }

  report('server-load', {
    loadAverageAtStart,
    loadAverageAtEnd: loadavg().map((l) => round(l, 2)),
    proposals: PROPOSALS,
    pageSize: PAGE,
    connections: CONNECTIONS,
    seconds: SECONDS,
    seedSeconds,
    startSeconds,
    sequential,
    load: { health, firstPage: first, deepPages: deep },
    rss: { idleMiB: idleRssMiB, beforeLoadMiB: rssBeforeLoadMiB, afterMiB: rssAfterMiB },
  });
} finally {
  await bench.close();
}
