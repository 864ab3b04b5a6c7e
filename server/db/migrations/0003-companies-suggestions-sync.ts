// Companies, their members, departments, employees and proposals (issue 4). Tenant tables lead their
// keys with company_id (Citus-ready). Every mirrored table carries `change_seq`, the seq of its last
// entry in `changes`, set by the one trigger function below, so every write from any code path lands in
// the feed in the same transaction. The trigger takes a per-company transaction-scoped advisory lock
// before drawing a seq, so a company's seqs become visible in commit order: a reader that has seen seq N
// has seen every lower seq of that company (GET /sync/pull relies on it).

import type { Migration } from './migration';

export const migration: Migration = {
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
};
