// Benchmark: the main-service's memory (issue 10, "Memory"; docs/benchmarks.md, "Server memory"). The real
// server runs as a child process (`node --import tsx server/index.ts`) on a fresh database with the demo seed:
//   pglite    a new DATA_DIR (the embedded default: initdb, migrations and seed on the first start);
//   postgres  DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) in a new schema, dropped after.
// Samples: idle (`--settle` seconds after /health first answers), the same after a full garbage collection,
// and again idle after `--requests` typical requests one at a time (a sign-in for every tenth, the rest the
// lists a signed-in user opens: /user, companies, employees, departments, suggestions, invitations). Then the
// server is stopped (SIGTERM) and started again on the same database ("restart": no initdb, no migrations,
// the seed finds its rows), and sampled idle once more.
// Each sample: RSS and peak RSS (VmRSS / VmHWM of /proc/<pid>/status), and the process's own
// process.memoryUsage() (heap used, external, arrayBuffers), asked over an IPC channel that a preloaded
// snippet answers; the snippet also runs the collection (v8's gc, exposed at run time). Figures are
// printed, never asserted.
// Run: node --import tsx tests/bench/server-memory.ts [--db=pglite,postgres] [--requests=200] [--settle=10]
//      [--env=NAME=value ...] [--node-flag=--flag ...] (extra variables and node flags for the server, to compare)
//      [--entry=/tmp/server.mjs] (a bundle of server/index.ts run with plain node, to compare with tsx)
//      or --pools=8MB,128MB (query times with each PGlite buffer pool size, below)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findFreePort, ROOT_DIR } from '../e2e/support/server';
import { JWT_SECRET } from './server-support';
import { report } from './support';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const DATABASES = arg('db', 'pglite,postgres').split(',');
const REQUESTS = Number(arg('requests', '200'));
const SETTLE_MS = Number(arg('settle', '10')) * 1000;
const EXTRA_ENV = Object.fromEntries(
  args.filter((a) => a.startsWith('--env=')).map((a) => {
    const [name = '', ...value] = a.slice('--env='.length).split('=');
    return [name, value.join('=')];
  }),
);
/** A server built to JavaScript (`--entry=/tmp/server.mjs`), run with plain node instead of tsx. */
const ENTRY = arg('entry', '');
/** Extra flags for the server's node (`--node-flag=--liftoff-only`), to compare V8 settings. */
const NODE_FLAGS = args.filter((a) => a.startsWith('--node-flag=')).map((a) => a.slice('--node-flag='.length));
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PASSWORD = 'demo1234';
const LOGINS = ['owner@demo.local', 'hr@demo.local', 'employee@demo.local', 'head@demo.local'];
const MiB = 1024 * 1024;

const log = (message: string) => process.stderr.write(`${message}\n`);

// Preloaded into the server: answers 'memory' and 'gc' over the IPC channel. Plain JavaScript in a data URL,
// so nothing of the bench is compiled into the server.
const PROBE = `
import v8 from 'node:v8';
import vm from 'node:vm';
if (process.send) {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  process.on('message', (message) => {
    if (message === 'gc') gc();
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    process.send({ rss, heapTotal, heapUsed, external, arrayBuffers });
  });
  // The channel must not keep a stopping server alive.
  process.channel?.unref();
}
`;

interface Usage {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Sample {
  rssMiB: number;
  peakRssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  arrayBuffersMiB: number;
}

const mib = (bytes: number) => Math.round(bytes / MiB);

function procStatus(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

function ask(child: ChildProcess, message: 'memory' | 'gc'): Promise<Usage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not answer the memory probe')), 30_000);
    child.once('message', (usage) => {
      clearTimeout(timer);
      resolve(usage as Usage);
    });
    child.send(message);
  });
}

async function sample(child: ChildProcess, message: 'memory' | 'gc'): Promise<Sample> {
  const usage = await ask(child, message);
  const status = procStatus(child.pid ?? 0);
  return {
    rssMiB: mib(status.rss),
    peakRssMiB: mib(status.peak),
    heapUsedMiB: mib(usage.heapUsed),
    heapTotalMiB: mib(usage.heapTotal),
    externalMiB: mib(usage.external),
    arrayBuffersMiB: mib(usage.arrayBuffers),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function call<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/main-service/api/v1${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      Language: 'en',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** `count` requests one after the other: a sign-in every tenth (rotating the demo logins), lists otherwise. */
async function typicalRequests(base: string, count: number): Promise<void> {
  const signIn = (email: string) => call<{ access_token: string }>(base, 'POST', '/auth/login', undefined, { email, password: PASSWORD });
  let token = (await signIn(LOGINS[0] ?? '')).access_token;
  const me = await call<{ data: { companies: { id: string }[] } }>(base, 'GET', '/user', token);
  const companyId = me.data.companies[0]?.id;
  if (!companyId) throw new Error('the demo owner has no company');
  const lists = ['/user', '/companies', `/companies/${companyId}/employees?limit=50`, `/companies/${companyId}/departments`, `/companies/${companyId}/suggestions?limit=50`, `/companies/${companyId}/invitations`];
  for (let i = 2; i < count; i += 1) {
    if (i % 10 === 0) {
      // Signs in as the owner again (other logins may not see every list); a fresh pair, like a new device.
      token = (await signIn(LOGINS[0] ?? '')).access_token;
    } else {
      await call(base, 'GET', lists[i % lists.length] ?? '/user', token);
    }
  }
}

interface Run {
  db: string;
  startMs: number;
  idle: Sample;
  idleAfterGc: Sample;
  afterRequests: Sample;
  afterRequestsGc: Sample;
  restartMs: number;
  restartIdle: Sample;
}

interface Server {
  child: ChildProcess;
  base: string;
  startMs: number;
  stop(): Promise<void>;
}

/** Starts the server with `env` and waits until /health answers. */
async function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await findFreePort();
  const base = `http://127.0.0.1:${port}`;
  let output = '';
  const started = performance.now();
  const probe = `data:text/javascript,${encodeURIComponent(PROBE)}`;
  const entry = ENTRY ? ['--import', probe, ENTRY] : ['--import', 'tsx', '--import', probe, 'server/index.ts'];
  const child = spawn(process.execPath, [...NODE_FLAGS, ...entry], {
    cwd: ROOT_DIR,
    env: { ...env, PORT: String(port), APP_URL: base },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 15_000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 5_000);
    }
  };
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited during start:\n${output}`);
      const up = await fetch(`${base}/main-service/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (performance.now() - started > 180_000) throw new Error(`the server did not start in 180 s:\n${output}`);
      await sleep(100);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, base, startMs: Math.round(performance.now() - started), stop };
}

async function measure(db: string): Promise<Run> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-memory-'));
  const schema = `bench_memory_${randomBytes(4).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    JWT_SECRET,
    LOG_LEVEL: 'warn',
    ...EXTRA_ENV,
  };
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  delete env.SMTP_URL;
  let admin: pg.Client | null = null;
  if (db === 'postgres') {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    env.DATABASE_URL = DATABASE_URL;
    env.DATABASE_SCHEMA = schema;
  } else if (db !== 'pglite') {
    throw new Error(`unknown --db ${db} (pglite or postgres)`);
  }
  let server: Server | null = null;
  try {
    server = await startServer(env);
    const { child, base, startMs } = server;
    log(`${db}: up in ${startMs} ms; idling ${SETTLE_MS / 1000} s`);
    await sleep(SETTLE_MS);
    const idle = await sample(child, 'memory');
    const idleAfterGc = await sample(child, 'gc');
    log(`${db}: idle ${JSON.stringify(idle)}; after gc ${JSON.stringify(idleAfterGc)}`);
    await typicalRequests(base, REQUESTS);
    await sleep(SETTLE_MS);
    const afterRequests = await sample(child, 'memory');
    const afterRequestsGc = await sample(child, 'gc');
    log(`${db}: after ${REQUESTS} requests ${JSON.stringify(afterRequests)}; after gc ${JSON.stringify(afterRequestsGc)}`);
    await server.stop();

    server = await startServer(env);
    const restartMs = server.startMs;
    await sleep(SETTLE_MS);
    const restartIdle = await sample(server.child, 'memory');
    log(`${db}: restarted in ${restartMs} ms; idle ${JSON.stringify(restartIdle)}`);
    return { db, startMs, idle, idleAfterGc, afterRequests, afterRequestsGc, restartMs, restartIdle };
  } finally {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (admin) {
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    }
  }
}

// `--pools=8MB,128MB`: instead of the server, the cost of a smaller buffer pool in query time. One PGlite
// directory with a 200,000-row table (72 MB with its index) is opened with each shared_buffers in turn, in a
// child process of its own (its own compiled code and memory); after a warm-up and 5 s for V8's background
// compilation, each query is timed (mean of n runs), and the child's RSS read at the end. Two rounds, the
// sizes alternating, so a change in the machine's load shows as a difference between rounds.
const POOL_QUERIES = `
import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
const [dir, pool] = process.argv.slice(1);
const db = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=' + pool] });
if (!(await db.query("SELECT to_regclass('big') AS r")).rows[0].r) {
  await db.exec("CREATE TABLE big (id serial PRIMARY KEY, company int, created timestamptz DEFAULT now(), body text); INSERT INTO big (company, body) SELECT i % 50, repeat(md5(i::text), 8) FROM generate_series(1, 200000) i; CREATE INDEX ON big (company, created, id); ANALYZE big");
}
const time = async (sql, n, params = []) => { const t = performance.now(); for (let i = 0; i < n; i++) await db.query(sql, params); return Math.round(((performance.now() - t) / n) * 10) / 10; };
for (let i = 0; i < 3; i++) await db.query('SELECT count(*), sum(length(body)) FROM big');
await new Promise((r) => setTimeout(r, 5000));
const figures = {
  fullScanMs: await time('SELECT count(*), sum(length(body)) FROM big', 5),
  sortMs: await time('SELECT md5(body) FROM big ORDER BY 1 LIMIT 10', 3),
  groupMs: await time('SELECT company, count(*), max(created) FROM big GROUP BY company', 5),
  pageOf50Ms: await time('SELECT id, body FROM big WHERE company = $1 ORDER BY created DESC, id DESC LIMIT 50', 200, [7]),
  insertMs: await time("INSERT INTO big (company, body) VALUES (1, 'x')", 200),
  rssMiB: Math.round(Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024),
};
await db.close();
console.log(JSON.stringify(figures));
`;

async function comparePools(pools: readonly string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-pools-'));
  const runOne = (pool: string) =>
    new Promise<Record<string, number>>((resolve, reject) => {
      let output = '';
      const child = spawn(process.execPath, ['--input-type=module', '-e', POOL_QUERIES, join(dir, 'pglite'), pool], { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Record<string, number>) : reject(new Error(`the ${pool} run exited with ${code}`))));
    });
  try {
    await runOne(pools[0] ?? '8MB'); // creates the table, not counted
    const rows: { round: number; pool: string; figures: Record<string, number> }[] = [];
    for (const round of [1, 2]) {
      for (const pool of round === 1 ? pools : [...pools].reverse()) {
        const figures = await runOne(pool);
        log(`round ${round}, shared_buffers=${pool}: ${JSON.stringify(figures)}`);
        rows.push({ round, pool, figures });
      }
    }
    console.log('| round | shared_buffers | full scan ms | sort ms | group by ms | page of 50 ms | insert ms | RSS MiB |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const { round, pool, figures: f } of rows) {
      console.log(`| ${round} | ${pool} | ${f.fullScanMs} | ${f.sortMs} | ${f.groupMs} | ${f.pageOf50Ms} | ${f.insertMs} | ${f.rssMiB} |`);
    }
    report('server-memory-pools', { rows });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const POOLS = arg('pools', '');
if (POOLS) {
  await comparePools(POOLS.split(','));
  process.exit(0);
}

const runs: Run[] = [];
for (const db of DATABASES) runs.push(await measure(db));

console.log('| database | start ms | state | RSS MiB | peak RSS MiB | heap used MiB | external MiB | arrayBuffers MiB |');
console.log('|---|---|---|---|---|---|---|---|');
for (const run of runs) {
  const states: [string, Sample][] = [
    ['idle', run.idle],
    ['idle, after gc', run.idleAfterGc],
    [`after ${REQUESTS} requests`, run.afterRequests],
    [`after ${REQUESTS} requests, gc`, run.afterRequestsGc],
  ];
  for (const [state, s] of states) {
    console.log(`| ${run.db} | ${run.startMs} | ${state} | ${s.rssMiB} | ${s.peakRssMiB} | ${s.heapUsedMiB} | ${s.externalMiB} | ${s.arrayBuffersMiB} |`);
  }
  const r = run.restartIdle;
  console.log(`| ${run.db} | ${run.restartMs} | restart, idle | ${r.rssMiB} | ${r.peakRssMiB} | ${r.heapUsedMiB} | ${r.externalMiB} | ${r.arrayBuffersMiB} |`);
}
report('server-memory', { requests: REQUESTS, settleSeconds: SETTLE_MS / 1000, env: EXTRA_ENV, nodeFlags: NODE_FLAGS, entry: ENTRY || 'tsx server/index.ts', runs });
