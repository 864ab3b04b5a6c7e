// Companies and people (issue 5): the verification payment (invoice number, amount, when "I paid" was
// pressed, the admin's decision), each employee's company roles (the source of truth; an employee linked
// to a user mirrors them into company_members in the same transaction), when an invitation was sent
// (so the mirrored employee row shows "invited"), invitations (only the token's sha-256 is kept) and the
// import reports (so the report screen survives a reload).

import type { Migration } from './migration';

export const migration: Migration = {
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
};
