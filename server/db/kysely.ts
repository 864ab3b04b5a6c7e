// Kysely, the typed query builder, on top of our Database. What it guarantees: every Queryable (the
// pool or PGlite, and each transaction that `db.transaction` opens) has its own Kysely, whose statements
// run exactly where that Queryable's SQL runs, so `tx.kysely.selectFrom(...)` is part of the transaction it
// was taken from; a Kysely can never open, commit or end a transaction of its own (`.transaction()`,
// `.startTransaction()` and savepoints throw), so `db.transaction` stays the one way in and out of one; and
// rows come back with the same JavaScript types on PGlite and on PostgreSQL (the types of ./schema.ts,
// generated from the migrated schema by `npm run db:types`): timestamptz and date as Date, int8 and
// numeric as strings, jsonb parsed, bytea as Uint8Array (a Buffer on pg). The Kysely of the Database
// itself runs each statement on any free pool connection (PostgreSQL): statements that must share one
// connection (a row lock, SET LOCAL, an advisory lock) belong in db.transaction.
//
// The dialect is Kysely's own PostgreSQL compiler, adapter and introspector with a small driver of ours
// that hands each compiled statement to the Queryable's executor (database.ts), in the way kysely-pglite
// and Kysely's PostgresDialect wrap their clients.

import { types as pgliteTypes, type QueryOptions, type Results } from '@electric-sql/pglite';
import type pg from 'pg';
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { DB } from './schema';

export type { DB };

/** The rows of one statement and, for INSERT / UPDATE / DELETE / MERGE, how many rows it touched. */
export interface ExecuteResult {
  rows: unknown[];
  numAffectedRows?: bigint | undefined;
}

/** Runs one statement on the connection (or pool) of a Queryable. */
export type Execute = (sql: string, params: readonly unknown[]) => Promise<ExecuteResult>;

const NO_TRANSACTIONS =
  'Kysely cannot open transactions here: open one with db.transaction(async (tx) => ...) and build its queries with tx.kysely';

class QueryableConnection implements DatabaseConnection {
  constructor(private readonly execute: Execute) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.execute(compiledQuery.sql, compiledQuery.parameters);
    // The driver checks nothing about the rows: their shape is what the generated types promise.
    const rows = result.rows as R[];
    return result.numAffectedRows === undefined ? { rows } : { rows, numAffectedRows: result.numAffectedRows };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Kysely streaming is not supported on this database layer: page with keyset queries instead');
  }
}

/** One connection object for every statement: the Queryable behind it chooses where each one runs. */
class QueryableDriver implements Driver {
  private readonly connection: QueryableConnection;

  constructor(execute: Execute) {
    this.connection = new QueryableConnection(execute);
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.connection);
  }

  beginTransaction(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  commitTransaction(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  rollbackTransaction(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  savepoint(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  rollbackToSavepoint(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  releaseSavepoint(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  async releaseConnection(): Promise<void> {}

  // The Database owns the pool or PGlite and closes it; a Kysely's destroy() leaves it open.
  async destroy(): Promise<void> {}
}

function queryableDialect(execute: Execute): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new QueryableDriver(execute),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  };
}

const WRITE_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);
const affected = (command: string | undefined, count: number | null | undefined) =>
  command !== undefined && WRITE_COMMANDS.has(command) && typeof count === 'number' ? BigInt(count) : undefined;

// pg answers int8 as a string; PGlite as a number, or a BigInt past 2^53. Kysely's statements read it as
// text on PGlite too, so an int8 (change_seq, count(*)) is the same string on both.
const PGLITE_KYSELY_OPTIONS: QueryOptions = { parsers: { [pgliteTypes.INT8]: (value: string) => value } };

/** The executor of PGlite itself or of one of its transactions. */
export function pgliteExecute(target: { query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> }): Execute {
  return async (sql, params) => {
    const result = await target.query<unknown>(sql, [...params], PGLITE_KYSELY_OPTIONS);
    return { rows: result.rows, numAffectedRows: affected(result.command, result.affectedRows) };
  };
}

/** The executor of a pg pool (each statement on any free connection) or of one checked-out client. */
export function pgExecute(target: pg.Pool | pg.PoolClient): Execute {
  return async (sql, params) => {
    const result = await target.query(sql, [...params]);
    return { rows: result.rows as unknown[], numAffectedRows: affected(result.command, result.rowCount) };
  };
}

/** The Kysely of one Queryable; database.ts builds it on first use. */
export function createKysely(execute: Execute): Kysely<DB> {
  return new Kysely<DB>({ dialect: queryableDialect(execute) });
}
