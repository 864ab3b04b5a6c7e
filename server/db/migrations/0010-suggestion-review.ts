// Proposal review (issue 11). A proposal gets a fourth state, CLARIFICATION (the deciding person asked the
// author to clarify; the clock is paused from `clarification_at` until the author resends), who decided and
// when, and the deadline's bookkeeping for the job runner: `reminded_at` (the holder was reminded on day 3 of
// their 5 days), `escalation_level` (0 the department's head, 1 the CEO, 2 the owner) with `escalated_at`,
// and `overdue_at` (when the deadline job flagged it). `due_at` stays the one due date the screens show.
// Notifications (in the app, mirrored like any synced row, and by mail instantly or as a daily digest) are
// rows of their recipient; users choose how they are mailed.

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0010_suggestion_review',
  statements: [
    `ALTER TABLE suggestions DROP CONSTRAINT suggestions_status_check`,
    `ALTER TABLE suggestions ADD CONSTRAINT suggestions_status_check
      CHECK (status IN ('UNDER_CONSIDERATION', 'CLARIFICATION', 'APPROVED', 'REJECTED'))`,
    `ALTER TABLE suggestions
      ADD COLUMN decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      ADD COLUMN decided_by_name text,
      ADD COLUMN decided_at timestamptz,
      ADD COLUMN clarification_at timestamptz,
      ADD COLUMN reminded_at timestamptz,
      ADD COLUMN escalation_level smallint NOT NULL DEFAULT 0 CHECK (escalation_level BETWEEN 0 AND 2),
      ADD COLUMN escalated_at timestamptz,
      ADD COLUMN overdue_at timestamptz`,
    // The deadline job's pass: open proposals by due date.
    `CREATE INDEX suggestions_open_due_idx ON suggestions (due_at) WHERE status = 'UNDER_CONSIDERATION'`,
    `CREATE TABLE notifications (
      company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL,
      suggestion_id uuid,
      params jsonb NOT NULL DEFAULT '{}',
      read_at timestamptz,
      mailed_at timestamptz,
      change_seq bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (company_id, id)
    )`,
    `CREATE UNIQUE INDEX notifications_id_key ON notifications (id)`,
    `CREATE INDEX notifications_user_idx ON notifications (company_id, user_id, created_at)`,
    `CREATE INDEX notifications_unmailed_idx ON notifications (user_id, created_at) WHERE mailed_at IS NULL`,
    `CREATE TRIGGER notifications_changes BEFORE INSERT OR UPDATE OR DELETE ON notifications FOR EACH ROW EXECUTE FUNCTION record_change()`,
    `ALTER TABLE users
      ADD COLUMN notification_mail text NOT NULL DEFAULT 'instant' CHECK (notification_mail IN ('instant', 'digest')),
      ADD COLUMN digest_sent_at timestamptz`,
  ],
};
