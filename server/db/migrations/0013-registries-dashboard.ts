// The registry and the dashboard (issue 13).
//
// - `registries`: what the direction manager or the financial director sent to the owner, and the owner's
//   decision. The company's OPEN registry is not a row: it is every APPROVED or COMPLETED project with no
//   `registry_id` (src/domain/registry.ts); sending it makes a SENT row whose `items` are snapshots of those
//   projects' figures as they stood (name, currency, estimated costs, effect, remuneration), so what the owner
//   decides on never moves under them. The owner's adjusted final cost and its reason are written into the item
//   at approval, and `totals` (per currency) are the figures of record. An APPROVED registry never changes again:
//   a trigger refuses any UPDATE of one (the service answers 409 before that; the trigger is the last guard).
//   RETURNED gives its projects back (their `registry_id` is cleared in the same transaction).
// - `projects.registry_id`: the SENT or APPROVED registry holding the project, null while it is in the open one.
//   `projects.approved_at`: when the direction manager approved it (the dashboard's period of an expected
//   effect), backfilled from the audit trail.
// - `company_ebitda`: EBITDA per calendar month and currency, entered by the financial director; the dashboard
//   divides the period's effect by the EBITDA of the period's months.
// - `notifications.registry_id`: the registry a notification is about.

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0013_registries_dashboard',
  statements: [
    `CREATE TABLE registries (
      company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
      id uuid NOT NULL,
      number integer NOT NULL CHECK (number > 0),
      status text NOT NULL CHECK (status IN ('SENT', 'APPROVED', 'RETURNED')),
      items jsonb NOT NULL DEFAULT '[]',
      totals jsonb NOT NULL DEFAULT '[]',
      sent_by uuid REFERENCES users (id) ON DELETE SET NULL,
      sent_by_name text NOT NULL,
      sent_at timestamptz NOT NULL,
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_by_name text,
      decided_at timestamptz,
      decision_comment text,
      history jsonb NOT NULL DEFAULT '[]',
      change_seq bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (company_id, id),
      UNIQUE (company_id, number),
      CHECK ((status = 'SENT') = (decided_at IS NULL))
    )`,
    `CREATE UNIQUE INDEX registries_id_key ON registries (id)`,
    `CREATE INDEX registries_status_idx ON registries (company_id, status, decided_at)`,
    `CREATE TRIGGER registries_changes BEFORE INSERT OR UPDATE OR DELETE ON registries FOR EACH ROW EXECUTE FUNCTION record_change()`,
    `CREATE FUNCTION registries_immutable() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF OLD.status = 'APPROVED' THEN
        RAISE EXCEPTION 'registry % is approved and cannot change', OLD.id USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END
    $fn$`,
    `CREATE TRIGGER registries_approved_immutable BEFORE UPDATE ON registries FOR EACH ROW EXECUTE FUNCTION registries_immutable()`,

    `ALTER TABLE projects ADD COLUMN registry_id uuid, ADD COLUMN approved_at timestamptz`,
    `ALTER TABLE projects ADD FOREIGN KEY (company_id, registry_id) REFERENCES registries (company_id, id)`,
    `UPDATE projects SET approved_at = (
       SELECT max((entry ->> 'at')::timestamptz) FROM jsonb_array_elements(history) AS entry WHERE entry ->> 'toStatus' = 'APPROVED'
     ) WHERE status IN ('APPROVED', 'COMPLETED')`,
    // The open registry: the company's approved projects not yet sent.
    `CREATE INDEX projects_open_registry_idx ON projects (company_id, status) WHERE registry_id IS NULL AND status IN ('APPROVED', 'COMPLETED')`,
    `CREATE INDEX projects_registry_idx ON projects (company_id, registry_id) WHERE registry_id IS NOT NULL`,

    `CREATE TABLE company_ebitda (
      company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
      month text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      currency text NOT NULL CHECK (currency IN ('RUB', 'USD', 'AUD')),
      amount_minor bigint NOT NULL,
      entered_by uuid REFERENCES users (id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (company_id, month, currency)
    )`,

    `ALTER TABLE notifications ADD COLUMN registry_id uuid`,
  ],
};
