// Uploaded images, kept in the database so API nodes stay stateless (DESIGN.md). company_id is
// filled once companies exist (issue 4); until then a file belongs to its uploader alone.

import type { Migration } from './migration';

export const migration: Migration = {
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
};
