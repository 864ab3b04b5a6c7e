// Rate limits shared by every node (DESIGN.md: counters live in the database, not in one process's memory):
// one row per counted event under (bucket, key), e.g. ('register.address', '10.0.0.7'). Rows older than the
// longest window are deleted as events are counted.

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0005_rate_events',
  statements: [
    `CREATE TABLE rate_events (
      bucket text NOT NULL,
      key text NOT NULL,
      at timestamptz NOT NULL
    )`,
    `CREATE INDEX rate_events_key_idx ON rate_events (bucket, key, at)`,
    `CREATE INDEX rate_events_at_idx ON rate_events (at)`,
  ],
};
