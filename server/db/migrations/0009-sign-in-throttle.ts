// Sign-in failures counted per (account, client address), per address and per account (auth/throttle.ts), so
// that failures from one address no longer lock the account for everyone. One row per failed (or still
// running) sign-in; rows older than the throttle's window are deleted as failures are recorded. The old
// per-scope table goes: its rows only mattered for 15 minutes and cannot be paired with an address.

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0009_sign_in_throttle',
  statements: [
    `CREATE TABLE sign_in_failures (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      account text NOT NULL,
      address text NOT NULL,
      at timestamptz NOT NULL
    )`,
    `CREATE INDEX sign_in_failures_pair_idx ON sign_in_failures (account, address, at)`,
    `CREATE INDEX sign_in_failures_address_idx ON sign_in_failures (address, at)`,
    `CREATE INDEX sign_in_failures_at_idx ON sign_in_failures (at)`,
    `DROP TABLE auth_attempts`,
  ],
};
