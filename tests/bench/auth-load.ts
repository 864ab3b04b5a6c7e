// Benchmark: a real sign-in while registrations are hammered (issue 10 item 3, docs/benchmarks.md "Sign-in under a
// registration storm"). The server runs as a child process (`node --import tsx server/index.ts`) with the default
// scrypt cost (log2 N = 17, 128 MiB a hash), on embedded PGlite in a throwaway directory, or on the PostgreSQL of
// DATABASE_URL in a fresh schema dropped afterwards. Two storms of 32 registrations at concurrency 16:
//   spread   each registration from its own client address (127.0.1.x: all of 127/8 is the loopback here), so
//            the per-address limit lets all 32 through and the hash queue is what they meet;
//   one      all 32 from one address (127.0.2.1): the per-address limit answers the 11th and later with 429.
// While a storm runs, one person signs in again and again (their own address, 127.0.0.1) and each sign-in's
// latency is kept. RSS is read from /proc/<pid>/status: before the storm, its peak during the storm (VmHWM after
// `5` is written to clear_refs) and 2 s after the last answer. Figures are printed as the last line (JSON).
// Run: node --import tsx tests/bench/auth-load.ts [--registrations=32] [--concurrency=16] [--root=DIR]
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx tests/bench/auth-load.ts
// --root runs the server of another checkout (e.g. an export of an older commit, for a before/after figure).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { findFreePort, ROOT_DIR } from '../e2e/support/server';
import { median, report, round } from './support';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const REGISTRATIONS = Number(arg('registrations', '32'));
const CONCURRENCY = Number(arg('concurrency', '16'));
const SERVER_ROOT = resolve(arg('root', ROOT_DIR));
const DATABASE_URL = process.env.DATABASE_URL;
const API = '/main-service/api/v1';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function vm(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no ${field} for ${pid}`);
  return Number(match[1]) / 1024;
}

interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** A POST with JSON from the given local address (fetch cannot choose it), on a fresh connection. */
function post(port: number, path: string, payload: unknown, localAddress: string): Promise<Answer> {
  const body = JSON.stringify(payload);
  const started = performance.now();
  return new Promise((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path: `${API}${path}`, method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), language: 'en' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: text, ms: performance.now() - started }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

let counter = 0;
function registration(): { email: string; password: string } & Record<string, string> {
  counter += 1;
  return {
    firstName: 'Иван',
    lastName: 'Петров',
    middleName: 'Сергеевич',
    position: 'GENERAL_DIRECTOR',
    company: 'ООО «Ромашка»',
    inn: '7707083893',
    mainGoal: 'QUALITY',
    phone: '+7 (912) 345-67-89',
    email: `storm.${process.pid}.${counter}@example.com`,
    role: 'OWNER',
    password: 'correct horse battery',
  };
}

async function startServer(): Promise<{ port: number; pid: number; stop: () => Promise<void> }> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-auth-'));
  const schema = `bench_auth_${process.pid}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', APP_URL: url, DATA_DIR: dataDir, SEED_DEMO: '0', LOG_LEVEL: 'warn' };
  delete env.SMTP_URL;
  delete env.PASSWORD_SCRYPT_LOG_N;
  if (DATABASE_URL) {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    env.DATABASE_SCHEMA = schema;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: SERVER_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    if (DATABASE_URL) {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited during start:\n${output}`);
    try {
      if ((await fetch(`${url}${API}/health`)).ok) break;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`, { cause: error });
    }
    await sleep(250);
  }
  if (!child.pid) throw new Error('no pid');
  return { port, pid: child.pid, stop };
}

const server = await startServer();
try {
  const person = { ...registration(), password: 'the real person' };
  const registered = await post(server.port, '/auth/register', person, '127.0.0.1');
  if (registered.status !== 200) throw new Error(`registering the person answered ${registered.status}: ${registered.body}`);
  const signIn = () => post(server.port, '/auth/login', { email: person.email, password: person.password }, '127.0.0.1');
  const quiet: number[] = [];
  for (let i = 0; i < 5; i++) {
    const answer = await signIn();
    if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}: ${answer.body}`);
    quiet.push(answer.ms);
  }
  await sleep(2000);

  const storm = async (name: string, addressOf: (i: number) => string) => {
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const rssBeforeMiB = round(vm(server.pid, 'VmRSS'));
    const statuses: Record<string, number> = {};
    let next = 0;
    let done = false;
    const started = performance.now();
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      while (next < REGISTRATIONS) {
        const i = next++;
        const answer = await post(server.port, '/auth/register', registration(), addressOf(i));
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      }
    });
    const all = Promise.all(workers).then(() => {
      done = true;
      return performance.now() - started;
    });
    // The first sign-in goes out once the storm has filled the queue, the next ones as each answers.
    await sleep(200);
    const signIns: Answer[] = [];
    while (!done) signIns.push(await signIn());
    const stormMs = await all;
    const peakRssMiB = round(vm(server.pid, 'VmHWM'));
    await sleep(2000);
    const rssAfterMiB = round(vm(server.pid, 'VmRSS'));
    const ms = signIns.map((a) => a.ms);
    return {
      storm: name,
      registrations: statuses,
      stormMs: round(stormMs),
      signIns: { count: ms.length, statuses: [...new Set(signIns.map((a) => a.status))], medianMs: round(median(ms)), maxMs: round(Math.max(...ms)), allMs: ms.map((m) => round(m, 0)) },
      rssBeforeMiB,
      peakRssMiB,
      rssAfterMiB,
    };
  };

  const spread = await storm('spread', (i) => `127.0.1.${(i % 250) + 1}`);
  const one = await storm('one', () => '127.0.2.1');
  report('auth-load', {
    environment: `Node ${process.version}; main-service child process on ${DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite'}, scrypt log2 N = 17; server from ${SERVER_ROOT}`,
    registrations: REGISTRATIONS,
    concurrency: CONCURRENCY,
    quietSignInMs: { median: round(median(quiet)), all: quiet.map((m) => round(m, 0)) },
    storms: [spread, one],
  });
} finally {
  await server.stop();
}
