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
  {
    // Companies, their members, departments, employees and proposals (issue 4). Tenant tables lead their
    // keys with company_id (Citus-ready). Every mirrored table carries `change_seq`, the seq of its last
    // entry in `changes`, set by the one trigger function below, so every write from any code path lands in
    // the feed in the same transaction. The trigger takes a per-company transaction-scoped advisory lock
    // before drawing a seq, so a company's seqs become visible in commit order: a reader that has seen seq N
    // has seen every lower seq of that company (GET /sync/pull relies on it).
    id: '0003_companies_suggestions_sync',
    statements: [
      `CREATE TABLE changes (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id uuid NOT NULL,
        table_name text NOT NULL,
        row_id uuid NOT NULL,
        op text NOT NULL CHECK (op IN ('upsert', 'delete')),
        changed_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX changes_company_seq_idx ON changes (company_id, seq)`,
      `CREATE INDEX changes_row_idx ON changes (table_name, row_id, seq)`,
      `CREATE FUNCTION record_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        r jsonb;
        company uuid;
        next_seq bigint;
      BEGIN
        IF TG_OP = 'DELETE' THEN r := to_jsonb(OLD); ELSE r := to_jsonb(NEW); END IF;
        IF TG_TABLE_NAME = 'companies' THEN company := (r->>'id')::uuid; ELSE company := (r->>'company_id')::uuid; END IF;
        PERFORM pg_advisory_xact_lock(hashtext('changes:' || company::text));
        INSERT INTO changes (company_id, table_name, row_id, op)
          VALUES (company, TG_TABLE_NAME, (r->>'id')::uuid, CASE WHEN TG_OP = 'DELETE' THEN 'delete' ELSE 'upsert' END)
          RETURNING seq INTO next_seq;
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        NEW.change_seq := next_seq;
        RETURN NEW;
      END
      $fn$`,
      `CREATE TABLE companies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        inn text,
        kpp text,
        legal_form text NOT NULL DEFAULT 'LEGAL_ENTITY' CHECK (legal_form IN ('LEGAL_ENTITY', 'ENTREPRENEUR')),
        website text,
        employee_count integer,
        logo_image_id uuid,
        verification_status text NOT NULL DEFAULT 'UNVERIFIED'
          CHECK (verification_status IN ('UNVERIFIED', 'PAYMENT_REPORTED', 'VERIFIED', 'REJECTED')),
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        change_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX companies_inn_key ON companies (inn) WHERE inn IS NOT NULL`,
      `CREATE TABLE company_members (
        company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        roles text[] NOT NULL DEFAULT '{}',
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, user_id)
      )`,
      `CREATE INDEX company_members_user_idx ON company_members (user_id)`,
      `CREATE TABLE departments (
        company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        head_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        change_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`,
      `CREATE TABLE employees (
        company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        last_name text NOT NULL,
        first_name text NOT NULL,
        middle_name text,
        position text,
        email text,
        service_number text,
        department_id uuid,
        active boolean NOT NULL DEFAULT true,
        imported boolean NOT NULL DEFAULT false,
        change_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, department_id) REFERENCES departments (company_id, id)
      )`,
      `CREATE UNIQUE INDEX employees_service_number_key ON employees (company_id, service_number) WHERE service_number IS NOT NULL`,
      `CREATE UNIQUE INDEX employees_user_key ON employees (company_id, user_id) WHERE user_id IS NOT NULL`,
      `CREATE TABLE suggestions (
        company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        title text NOT NULL,
        problem text NOT NULL,
        solution text NOT NULL,
        expected_effect text NOT NULL,
        effect_amount_minor bigint,
        effect_currency text CHECK (effect_currency IN ('RUB', 'USD', 'AUD')),
        department_id uuid NOT NULL,
        goal_id uuid,
        author_id uuid NOT NULL REFERENCES users (id),
        author_name text NOT NULL,
        status text NOT NULL DEFAULT 'UNDER_CONSIDERATION' CHECK (status IN ('UNDER_CONSIDERATION', 'APPROVED', 'REJECTED')),
        due_at timestamptz NOT NULL,
        submitted_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        review_comment text,
        history jsonb NOT NULL DEFAULT '[]',
        change_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, department_id) REFERENCES departments (company_id, id),
        CHECK ((effect_amount_minor IS NULL) = (effect_currency IS NULL))
      )`,
      `CREATE UNIQUE INDEX suggestions_id_key ON suggestions (id)`,
      `CREATE INDEX suggestions_author_idx ON suggestions (company_id, author_id, created_at)`,
      `CREATE INDEX suggestions_department_idx ON suggestions (company_id, department_id, created_at)`,
      `CREATE TABLE suggestion_images (
        company_id uuid NOT NULL,
        suggestion_id uuid NOT NULL,
        file_id uuid NOT NULL REFERENCES files (id),
        position smallint NOT NULL CHECK (position BETWEEN 0 AND 2),
        PRIMARY KEY (company_id, suggestion_id, position),
        FOREIGN KEY (company_id, suggestion_id) REFERENCES suggestions (company_id, id) ON DELETE CASCADE
      )`,
      `CREATE UNIQUE INDEX suggestion_images_file_key ON suggestion_images (file_id)`,
      `CREATE TABLE idempotency_keys (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        key uuid NOT NULL,
        request_hash text NOT NULL,
        state text NOT NULL CHECK (state IN ('running', 'done')),
        response_status integer,
        response_body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, key)
      )`,
      `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`,
      `CREATE TRIGGER companies_changes BEFORE INSERT OR UPDATE OR DELETE ON companies FOR EACH ROW EXECUTE FUNCTION record_change()`,
      `CREATE TRIGGER departments_changes BEFORE INSERT OR UPDATE OR DELETE ON departments FOR EACH ROW EXECUTE FUNCTION record_change()`,
      `CREATE TRIGGER employees_changes BEFORE INSERT OR UPDATE OR DELETE ON employees FOR EACH ROW EXECUTE FUNCTION record_change()`,
      `CREATE TRIGGER suggestions_changes BEFORE INSERT OR UPDATE OR DELETE ON suggestions FOR EACH ROW EXECUTE FUNCTION record_change()`,
    ],
  },
  {
    // Companies and people (issue 5): the verification payment (invoice number, amount, when "I paid" was
    // pressed, the admin's decision), each employee's company roles (the source of truth; an employee linked
    // to a user mirrors them into company_members in the same transaction), when an invitation was sent
    // (so the mirrored employee row shows "invited"), invitations (only the token's sha-256 is kept) and the
    // import reports (so the report screen survives a reload).
    id: '0004_companies_people',
    statements: [
      `CREATE SEQUENCE invoice_numbers START 1001`,
      `ALTER TABLE companies
         ADD COLUMN invoice_number text,
         ADD COLUMN invoice_amount_minor bigint,
         ADD COLUMN payment_reported_at timestamptz,
         ADD COLUMN verification_decided_at timestamptz,
         ADD COLUMN verification_decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
         ADD COLUMN verification_comment text`,
      `CREATE UNIQUE INDEX companies_invoice_number_key ON companies (invoice_number) WHERE invoice_number IS NOT NULL`,
      `CREATE INDEX companies_verification_idx ON companies (verification_status, payment_reported_at)`,
      `ALTER TABLE employees
         ADD COLUMN roles text[] NOT NULL DEFAULT '{EMPLOYEE}',
         ADD COLUMN invited_at timestamptz`,
      `UPDATE employees e SET roles = m.roles FROM company_members m
        WHERE m.company_id = e.company_id AND m.user_id = e.user_id AND cardinality(m.roles) > 0`,
      `CREATE UNIQUE INDEX employees_email_key ON employees (company_id, lower(email)) WHERE email IS NOT NULL`,
      `CREATE INDEX employees_name_idx ON employees (company_id, last_name, first_name, id)`,
      `CREATE INDEX employees_department_idx ON employees (company_id, department_id)`,
      `CREATE UNIQUE INDEX departments_name_key ON departments (company_id, lower(name))`,
      `CREATE TABLE invitations (
        company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        employee_id uuid NOT NULL,
        email text NOT NULL,
        roles text[] NOT NULL,
        token_hash text NOT NULL UNIQUE,
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'ACCEPTED', 'REVOKED')),
        invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        sent_count integer NOT NULL DEFAULT 1,
        last_sent_at timestamptz NOT NULL DEFAULT now(),
        accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
        accepted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id),
        FOREIGN KEY (company_id, employee_id) REFERENCES employees (company_id, id) ON DELETE CASCADE
      )`,
      `CREATE UNIQUE INDEX invitations_pending_key ON invitations (company_id, lower(email)) WHERE status = 'PENDING'`,
      `CREATE TABLE employee_imports (
        company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        file_name text NOT NULL,
        report jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (company_id, id)
      )`,
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
