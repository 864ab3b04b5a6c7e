// Applies the schema: the migrations of migrations/ (one file each, listed in migrations/index.ts), each
// applied once and recorded in `schema_migrations`; all pending ones run in one transaction at start, so a
// failed migration leaves the database as it was. On a PostgreSQL server an advisory lock makes nodes
// starting together apply them one after another. Never edit a published migration: add the next one.
//
// Keys: users are keyed by uuid; tenant tables lead their keys with company_id (DESIGN.md).

import type { Database } from './database';
import { MIGRATIONS, type Migration } from './migrations/index';

export { MIGRATIONS, type Migration };

/** Applies the pending migrations; returns the ids applied now (empty when the schema was current). */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') {
      // One lock per schema, held until commit: parallel test schemas do not wait for each other.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('main-service:migrations:' || current_schema()))`);
    }
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      applied.push(migration.id);
    }
    return applied;
  });
}
