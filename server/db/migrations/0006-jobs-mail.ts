// The job runner's queue (server/jobs/runner.ts) and transactional mail (server/mail/outbox.ts).
//
// `jobs`: one row per piece of work to do once, claimed with FOR UPDATE SKIP LOCKED under a lease
// (`locked_until`, `claimed_by`), so two server processes never run one job at the same time and a crashed
// process's job runs again after its lease. A job ends `done` or `failed` (with `last_error`): rows are never
// deleted silently; done rows are pruned after a week by a recurring job, failed ones stay for an operator.
// `key` names a job that must exist once while pending (recurring jobs, one mail's send): a partial unique
// index makes a second enqueue of a pending key do nothing. `run_at` NULL is "as soon as possible": due whatever
// the runner's clock says (its clock, not the database's, decides what is due, so tests can move it).
//
// `mail_outbox`: a mail is written in the transaction of the change that causes it, with no transport yet;
// the `mail.send` job records the transport and `sent_at` when it went out, `attempts` and the last `error`
// otherwise. `sending_until` is the claim of a send in progress, so a second runner that reaches the same
// mail (after a lease expired) waits instead of sending it again.

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0006_jobs_mail',
  statements: [
    `CREATE TABLE jobs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      kind text NOT NULL,
      payload jsonb NOT NULL DEFAULT 'null'::jsonb,
      key text,
      state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed')),
      run_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      max_attempts integer,
      last_error text,
      locked_until timestamptz,
      claimed_by text,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`,
    `CREATE UNIQUE INDEX jobs_pending_key_idx ON jobs (key) WHERE state = 'pending' AND key IS NOT NULL`,
    `CREATE INDEX jobs_due_idx ON jobs (run_at NULLS FIRST, created_at, id) WHERE state = 'pending'`,
    `CREATE INDEX jobs_finished_idx ON jobs (finished_at) WHERE state <> 'pending'`,
    `ALTER TABLE mail_outbox ALTER COLUMN transport DROP NOT NULL`,
    `ALTER TABLE mail_outbox ADD COLUMN attempts integer NOT NULL DEFAULT 0`,
    `ALTER TABLE mail_outbox ADD COLUMN sending_until timestamptz`,
    `CREATE INDEX mail_outbox_unsent_idx ON mail_outbox (created_at) WHERE sent_at IS NULL`,
    // The idempotency cleanup's old claim: the runner's recurring job replaces it.
    `DELETE FROM settings WHERE key = 'idempotency_cleanup_at'`,
  ],
};
