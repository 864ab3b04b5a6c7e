// The dashboard's proposals decided in a period (server/features/dashboard/service.ts: how many were approved and
// rejected, and the median time to a decision), answered from one index alone, in the order of decision, without
// reading the proposals' rows; the proposals submitted in a period are read through the existing (company_id,
// created_at) indexes. A company of 50,000 proposals: docs/benchmarks.md, "Dashboard" (tests/bench/dashboard.ts).

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0014_dashboard_indexes',
  statements: [
    `CREATE INDEX suggestions_decided_idx ON suggestions (company_id, decided_at) INCLUDE (department_id, status, created_at) WHERE status IN ('APPROVED', 'REJECTED')`,
  ],
};
