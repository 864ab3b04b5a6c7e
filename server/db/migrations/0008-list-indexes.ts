// The proposals list (GET /companies/{id}/suggestions) pages newest first by the keyset (created_at, id): an
// index in that very order lets a page read its 51 rows and stop, at any depth. Without it every page of a
// company-wide view sorted all of the company's proposals (a company of 50,000: tests/bench/server-load.ts,
// docs/benchmarks.md "Server load").

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0008_list_indexes',
  statements: [`CREATE INDEX suggestions_company_created_idx ON suggestions (company_id, created_at, id)`],
};
