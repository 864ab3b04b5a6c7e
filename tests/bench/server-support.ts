// The real main-service on PostgreSQL, for the benches that measure it (dashboard, server-load, deadlines).
// - DATABASE_URL is BENCH_DATABASE_URL, else DATABASE_URL, else the local test database; `skipWithoutPostgres`
//   ends the process with exit code 0 and a warning when it does not answer: such a bench is skipped, not failed.
// - `openBenchSchema(prefix)` gives one run a schema of its own, created and migrated, and the server on it; its
//   `close` stops that server, closes the pool and drops the schema. It runs on Ctrl-C too, and when the schema
//   cannot be opened or migrated, so that a run leaves nothing behind.
// - The server is `server/index.ts` in production on a free port of 127.0.0.1, with no demo data and JWT_SECRET;
//   it counts as started once it says it is running, and rejects with its output when it exits first or is not up
//   within 60 s (then it is stopped). `stop` is SIGTERM, SIGKILL after 15 s, at once when it has already exited.
// - Users seeded with `hashPassword(PASSWORD, SCRYPT_LOG_N)` sign in with `signIn`, which answers their token.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { API_PREFIX } from '../../src/domain/paths';
import { openDatabase, type Database } from '../../server/db/database';
import { migrate } from '../../server/db/migrations';
import { ROOT_DIR, findFreePort } from '../e2e/support/server';

export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const PASSWORD = 'bench-password';
/** The server's default scrypt cost, so sign-in does not re-hash. */
export const SCRYPT_LOG_N = 17;
export const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Skips the bench (exit code 0, a warning naming it) when there is no PostgreSQL at DATABASE_URL. */
export async function skipWithoutPostgres(bench: string): Promise<void> {
  if (await reachable(DATABASE_URL)) return;
  console.warn(`skipping the ${bench} benchmark: no PostgreSQL at ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')} (set BENCH_DATABASE_URL)`);
  process.exit(0);
}

export interface BenchSchema {
  name: string;
  /** A pool on the schema, migrated. */
  db: Database;
  /** Starts the server on the schema; `close` stops it. */
  startServer(): Promise<BenchServer>;
  close(): Promise<void>;
}

/** A fresh schema named `${prefix}_${pid}_${random}`: see the header. */
export async function openBenchSchema(prefix: string): Promise<BenchSchema> {
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(`CREATE SCHEMA ${name}`);
  let db: Database | null = null;
  let server: BenchServer | null = null;
  const close = async () => {
    await server?.stop();
    server = null;
    await db?.close();
    db = null;
    await admin(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  };
  process.once('SIGINT', () => {
    void close().finally(() => process.exit(130));
  });
  try {
    const opened = await openDatabase({ databaseUrl: DATABASE_URL, schema: name });
    db = opened;
    await migrate(opened);
    return { name, db: opened, startServer: async () => (server = await startServer(name)), close };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface BenchServer {
  url: string;
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

async function startServer(schema: string): Promise<BenchServer> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATABASE_URL,
      DATABASE_SCHEMA: schema,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (output += chunk));
  child.stderr?.on('data', (chunk: string) => (output += chunk));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 60_000;
  while (!output.includes('Dashboard is running at')) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (child.pid === undefined) throw new Error('the server has no pid');
  return { url, pid: child.pid, output: () => output, stop };
}

export async function signIn(server: BenchServer, email: string): Promise<string> {
  const response = await fetch(`${server.url}${API_PREFIX}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Language: 'en' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** GET `path` with the bearer `token`: the latency seen by the client, reading the whole body; a status other than 200 throws. */
export async function timedGet(server: BenchServer, token: string, path: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}`, Language: 'en' } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 300)}`);
  return { ms, body };
}
