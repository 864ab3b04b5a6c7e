// The one way the service reaches its data: PGlite (embedded PostgreSQL, one process per data
// directory) by default, a PostgreSQL server through `pg` when DATABASE_URL is set. Both speak the
// same SQL, so migrations and queries are written once. A transaction runs on one connection and is
// rolled back when its callback throws.

import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './lock';

// Uint8Array (a Buffer too) travels as bytea on both drivers (uploaded files).
export type SqlParam = string | number | boolean | Date | null | readonly string[] | Uint8Array;

export interface Queryable {
  query<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** The first row, or null. */
  one<T>(sql: string, params?: readonly SqlParam[]): Promise<T | null>;
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

function asQueryable(run: (sql: string, params: unknown[]) => Promise<unknown[]>): Queryable {
  return {
    async query<T>(sql: string, params: readonly SqlParam[] = []) {
      return (await run(sql, [...params])) as T[];
    },
    async one<T>(sql: string, params: readonly SqlParam[] = []) {
      const rows = (await run(sql, [...params])) as T[];
      return rows[0] ?? null;
    },
  };
}

async function openPglite(dataDir: string | null): Promise<Database> {
  let lock: DataDirLock | null = null;
  let db: PGlite;
  if (dataDir !== null) {
    await mkdir(dataDir, { recursive: true });
    lock = acquireDataDirLock(dataDir);
    try {
      db = await PGlite.create(path.join(dataDir, 'pglite'));
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    db = await PGlite.create();
  }
  const base = asQueryable(async (sql, params) => (await db.query(sql, params)).rows);
  let closed = false;
  return {
    kind: 'pglite',
    ...base,
    transaction: (work) => db.transaction((tx) => work(asQueryable(async (sql, params) => (await tx.query(sql, params)).rows))),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.close();
      } finally {
        lock?.release();
      }
    },
  };
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
  const base = asQueryable(async (sql, params) => (await pool.query(sql, params)).rows as unknown[]);
  let closed = false;
  return {
    kind: 'postgres',
    ...base,
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(asQueryable(async (sql, params) => (await client.query(sql, params)).rows as unknown[]));
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
  };
}

/** PostgreSQL's unique_violation, raised the same way by pg and PGlite. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}
