// The schema, as one ordered list of migrations. Each is applied once, recorded in
// `schema_migrations`, and all pending ones run in one transaction at start, so a failed migration
// leaves the database as it was. On a PostgreSQL server an advisory lock makes nodes starting
// together apply them one after another. Never edit a published migration: add the next one.
//
// Keys: users are keyed by uuid; later tenant tables lead their keys with company_id (DESIGN.md).

import type { Database } from './database';

export interface Migration {
  id: string;
  statements: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: '0001_auth',
    statements: [
      `CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        password_hash text NOT NULL,
        first_name text NOT NULL,
        last_name text NOT NULL,
        middle_name text,
        position text,
        other_position text,
        phone text,
        registration_company text,
        registration_inn text,
        main_goal text,
        role text NOT NULL,
        authorities text[] NOT NULL DEFAULT '{}',
        locale text NOT NULL DEFAULT 'ru' CHECK (locale IN ('ru', 'en')),
        email_verified_at timestamptz,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX users_email_key ON users (lower(email))`,
      `CREATE TABLE email_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('verify', 'recovery')),
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, kind)`,
      `CREATE TABLE refresh_tokens (
        jti uuid PRIMARY KEY,
        family uuid NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        rotated_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family)`,
      `CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)`,
      `CREATE TABLE auth_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        scope text NOT NULL CHECK (scope IN ('account', 'address')),
        key text NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX auth_attempts_key_idx ON auth_attempts (scope, key, attempted_at)`,
      `CREATE TABLE mail_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        to_address text NOT NULL,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        link text,
        kind text NOT NULL,
        transport text NOT NULL CHECK (transport IN ('smtp', 'console')),
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        error text
      )`,
      `CREATE INDEX mail_outbox_to_idx ON mail_outbox (lower(to_address), created_at)`,
      `CREATE TABLE settings (
        key text PRIMARY KEY,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
    ],
  },
  {
    // Uploaded images, kept in the database so API nodes stay stateless (DESIGN.md). company_id is
    // filled once companies exist (issue 4); until then a file belongs to its uploader alone.
    id: '0002_files',
    statements: [
      `CREATE TABLE files (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        company_id uuid,
        content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
        size integer NOT NULL CHECK (size > 0),
        name text NOT NULL,
        bytes bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX files_owner_idx ON files (owner_id, created_at)`,
      `CREATE INDEX files_company_idx ON files (company_id) WHERE company_id IS NOT NULL`,
    ],
  },
];

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
