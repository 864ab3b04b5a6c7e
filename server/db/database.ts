// The one way the service reaches its data: PGlite (embedded PostgreSQL, one process per data
// directory) by default, a PostgreSQL server through `pg` when DATABASE_URL is set. Both speak the
// same SQL, so migrations and queries are written once. A transaction runs on one connection and is
// rolled back when its callback throws. Every Queryable, each transaction included, carries its own
// Kysely (`.kysely`, ./kysely.ts) for typed queries that run on that same connection.

import path from 'node:path';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Kysely } from 'kysely';
import { acquireDataDirLock, type DataDirLock } from './lock';
import { createKysely, pgExecute, pgliteExecute, type DB, type Execute } from './kysely';

// Uint8Array (a Buffer too) travels as bytea on both drivers (uploaded files).
export type SqlParam = string | number | boolean | Date | null | readonly string[] | Uint8Array;

export interface Queryable {
  query<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** The first row, or null. */
  one<T>(sql: string, params?: readonly SqlParam[]): Promise<T | null>;
  /** Typed queries (./kysely.ts) that run where this Queryable runs: inside its transaction, for a tx. */
  readonly kysely: Kysely<DB>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** PostgreSQL only: the schema every connection works in. */
  schema?: string | undefined;
  /** PGlite only: where the data lives; `null` keeps it in memory (tests). */
  dataDir?: string | null;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.schema);
  if (options.dataDir === null || options.dataDir === undefined) return openPglite(null);
  return openPglite(options.dataDir);
}

function asQueryable(run: (sql: string, params: unknown[]) => Promise<unknown[]>, execute: Execute): Queryable {
  let kysely: Kysely<DB> | null = null;
  return {
    // Built on first use: most transactions never touch it.
    get kysely() {
      return (kysely ??= createKysely(execute));
    },
    async query<T>(sql: string, params: readonly SqlParam[] = []) {
      return (await run(sql, [...params])) as T[];
    },
    async one<T>(sql: string, params: readonly SqlParam[] = []) {
      const rows = (await run(sql, [...params])) as T[];
      return rows[0] ?? null;
    },
  };
}

/**
 * How PGlite's postgres is started: PGlite's own parameters (single-user mode, its -F, sync I/O) plus a small
 * buffer pool. initdb picks shared_buffers=128MB, and all of postgres's shared memory lives in the WASM heap
 * and is written at start, so that pool alone was 128 MiB of resident memory before the first query
 * (docs/benchmarks.md, "Server memory"). 8MB is postgres's own built-in default; a page not in the pool is read
 * from the data directory through the OS's page cache, and list pages, inserts and full scans of a 72 MB table
 * measured no slower than with 128MB. Durability is unchanged: a commit's WAL is written to the files before
 * the commit is answered (no relaxedDurability), so an acknowledged write survives a killed process.
 */
export const PGLITE_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB'];

/** Creates a PGlite database in the directory given as its argument, then closes it (a clean shutdown). */
const INITDB_SCRIPT = `
const { PGlite } = require(process.argv[1]);
PGlite.create(process.argv[2], { startParams: JSON.parse(process.argv[3]) }).then((db) => db.close()).catch((error) => {
  console.error(error);
  process.exit(1);
});`;

/**
 * Creates the files of a new embedded database in a child process. PGlite runs initdb in a second WASM
 * instance of its own; in our process that instance and its copies of the data directory stayed in memory
 * (430 MiB) until a full garbage collection, which an idle server does not run, and its freed memory stayed
 * resident. In a child it all goes when the child exits. The child works in a scratch directory renamed into
 * place once the database is complete, so a first start interrupted half-way leaves no half-made database.
 * Called with the data directory's lock held: no other server works in it, so scratch directories left by
 * interrupted starts are ours to remove.
 */
async function initialisePgliteDir(pgDir: string): Promise<void> {
  if (existsSync(path.join(pgDir, 'PG_VERSION'))) return;
  const parent = path.dirname(pgDir);
  const scratchPrefix = `${path.basename(pgDir)}.init-`;
  for (const entry of await readdir(parent)) {
    if (entry.startsWith(scratchPrefix)) await rm(path.join(parent, entry), { recursive: true, force: true });
  }
  const scratch = path.join(parent, `${scratchPrefix}${process.pid}`);
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const child = spawn(process.execPath, ['-e', INITDB_SCRIPT, pglite, scratch, JSON.stringify(PGLITE_START_PARAMS)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  try {
    if (code !== 0) throw new Error(`Could not create the embedded database in ${pgDir} (initdb exited with ${code}):\n${stderr.trim()}`);
    await rename(scratch, pgDir);
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    // A directory with files but no PG_VERSION (left by an interrupted start of an older version): PGlite
    // completes it in this process, as it did before.
    if (typeof error === 'object' && error !== null && 'code' in error && (error.code === 'ENOTEMPTY' || error.code === 'EEXIST')) return;
    throw error;
  }
}

async function openPglite(dataDir: string | null): Promise<Database> {
  let lock: DataDirLock | null = null;
  let db: PGlite;
  if (dataDir !== null) {
    await mkdir(dataDir, { recursive: true });
    lock = acquireDataDirLock(dataDir);
    try {
      const pgDir = path.join(dataDir, 'pglite');
      await initialisePgliteDir(pgDir);
      db = await PGlite.create(pgDir, { startParams: [...PGLITE_START_PARAMS] });
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    db = await PGlite.create({ startParams: [...PGLITE_START_PARAMS] });
  }
  const base = asQueryable(async (sql, params) => (await db.query(sql, params)).rows, pgliteExecute(db));
  let closed = false;
  // Object.assign keeps base's lazy `kysely` getter (a spread would build it here).
  return Object.assign(base, {
    kind: 'pglite' as const,
    transaction: <T>(work: (tx: Queryable) => Promise<T>) =>
      db.transaction((tx) => work(asQueryable(async (sql, params) => (await tx.query(sql, params)).rows, pgliteExecute(tx)))),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
  });
}

async function openPostgres(url: string, schema: string | undefined): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', (error) => console.error('[db] idle connection error:', error.message));
  await pool.query('SELECT 1');
  const base = asQueryable(async (sql, params) => (await pool.query(sql, params)).rows as unknown[], pgExecute(pool));
  let closed = false;
  return Object.assign(base, {
    kind: 'postgres' as const,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(asQueryable(async (sql, params) => (await client.query(sql, params)).rows as unknown[], pgExecute(client)));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => console.error('[db] rollback failed:', rollbackError));
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  });
}

/** PostgreSQL's unique_violation, raised the same way by pg and PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}
