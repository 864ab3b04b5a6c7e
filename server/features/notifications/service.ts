// Notifications (issue 11, src/domain/notification.ts): rows of their recipient. What this module guarantees:
// - a notification exists iff the change that caused it committed: `notify` writes it in that change's
//   transaction, and with it (same transaction) the `notifications.mail` job for the recipients who want each
//   event mailed (users.notification_mail = 'instant'), so a rolled-back decision mails nothing;
// - each notification is mailed at most once: whoever mails it (the instant job of mail.ts or the digest of
//   digest.ts) first sets its `mailed_at` with a guarded UPDATE (`mailed_at IS NULL`) in the transaction that
//   queues the mail, so two runners, a retried job and the digest never mail one twice;
// - a user reads and marks only their own notifications: the list and the read mark filter by the caller, and
//   others' ids are ignored without a word (never a 403 that would confirm they exist).

import { sql, type Selectable } from 'kysely';
import type { NotificationKind, NotificationRow } from '../../../src/domain/notification';
import { isUuid } from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { enqueueJob } from '../../jobs/runner';

/** The job that mails the notifications of one `notify` to their instant recipients (mail.ts). */
export const NOTIFICATION_MAIL_JOB = 'notifications.mail';

export function toNotificationRow(row: Selectable<DB['notifications']>): NotificationRow {
  return {
    id: row.id,
    companyId: row.company_id,
    userId: row.user_id,
    kind: row.kind,
    suggestionId: row.suggestion_id,
    goalId: row.goal_id,
    projectId: row.project_id,
    registryId: row.registry_id,
    params: row.params as Record<string, string | null>,
    readAt: row.read_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

export interface Notice {
  companyId: string;
  /** Recipients (duplicates and nulls are dropped; nobody is told of their own act: pass `actorId`). */
  userIds: readonly (string | null)[];
  actorId?: string | null;
  kind: NotificationKind;
  suggestionId: string | null;
  /** What a goal's or a project's notice is about (issue 12). */
  goalId?: string | null;
  projectId?: string | null;
  /** What a registry's notice is about (issue 13). */
  registryId?: string | null;
  params: Record<string, string | null>;
}

/** Writes one notification per recipient in the caller's transaction, and queues their instant mail. */
export async function notify(tx: Queryable, notice: Notice, now: Date): Promise<void> {
  await notifyAll(tx, [notice], now);
}

/**
 * `notify` for many notices in one go (the deadline job's batches): one INSERT for every row, and one
 * `notifications.mail` job for those of them whose recipient wants each event mailed.
 */
export async function notifyAll(tx: Queryable, notices: readonly Notice[], now: Date): Promise<void> {
  const values = notices.flatMap((notice) =>
    [...new Set(notice.userIds.filter((id): id is string => typeof id === 'string' && id !== notice.actorId))].map((userId) => ({
      company_id: notice.companyId,
      user_id: userId,
      kind: notice.kind,
      suggestion_id: notice.suggestionId,
      goal_id: notice.goalId ?? null,
      project_id: notice.projectId ?? null,
      registry_id: notice.registryId ?? null,
      params: JSON.stringify(notice.params),
      created_at: now.toISOString(),
    })),
  );
  if (values.length === 0) return;
  // One statement: the rows, and which of them go to a recipient who wants them mailed one by one.
  const instant = await tx.kysely
    .with('inserted', (db) => db.insertInto('notifications').values(values).returning(['id', 'user_id']))
    .selectFrom('inserted')
    .innerJoin('users as u', 'u.id', 'inserted.user_id')
    .select('inserted.id')
    .where('u.notification_mail', '=', 'instant')
    .execute();
  if (instant.length > 0) await enqueueJob(tx, { kind: NOTIFICATION_MAIL_JOB, payload: { ids: instant.map((row) => row.id) } });
}

export interface NotificationListOptions {
  cursor: string | undefined;
  limit: number;
  unreadOnly: boolean;
}

interface ListCursor {
  c: string;
  i: string;
}

const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function encodeCursor(row: { created_key: string; id: string }): string {
  return Buffer.from(JSON.stringify({ c: row.created_key, i: row.id } satisfies ListCursor)).toString('base64url');
}

/** A cursor this list made, or 400 `errors.cursor` (never a value the query would choke on). */
function decodeCursor(raw: string): ListCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && 'c' in value && 'i' in value) {
      const { c, i } = value;
      if (typeof c === 'string' && CURSOR_INSTANT.test(c) && !Number.isNaN(Date.parse(c)) && new Date(c).toISOString().slice(0, 19) === c.slice(0, 19) && isUuid(i)) {
        return { c, i: i.toLowerCase() };
      }
    }
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('validation', 400, { fieldErrors: { cursor: 'invalid' } });
}

/**
 * The caller's notifications in the company, newest first, `limit` a page; an exact keyset cursor on
 * (created_at to the microsecond, id): the deadline job writes many rows in one instant.
 */
export async function listNotifications(
  db: Queryable,
  companyId: string,
  userId: string,
  options: NotificationListOptions,
): Promise<{ items: NotificationRow[]; nextCursor: string | null }> {
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;
  let query = db.kysely
    .selectFrom('notifications as n')
    .selectAll('n')
    .select(sql<string>`to_char(timezone('UTC', n.created_at), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('created_key'))
    .where('n.company_id', '=', companyId)
    .where('n.user_id', '=', userId);
  if (options.unreadOnly) query = query.where('n.read_at', 'is', null);
  if (cursor) {
    query = query.where((eb) =>
      eb(eb.refTuple('n.created_at', 'n.id'), '<', eb.tuple(eb.cast<Date>(eb.val(cursor.c), 'timestamptz'), eb.cast<string>(eb.val(cursor.i), 'uuid'))),
    );
  }
  const rows = await query
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(options.limit + 1)
    .execute();
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return { items: page.map(toNotificationRow), nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null };
}

/**
 * Marks the caller's notifications among `ids` read (now); ids of others' or unknown ones are ignored, and a
 * notification already read keeps its first `read_at`. Answers how many were marked by this call.
 */
export async function markNotificationsRead(tx: Queryable, companyId: string, userId: string, ids: readonly string[], now: Date): Promise<number> {
  const marked = await tx.kysely
    .updateTable('notifications')
    .set({ read_at: now })
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('id', '=', (eb) => eb.fn.any(eb.val(ids.map((id) => id.toLowerCase()))))
    .where('read_at', 'is', null)
    .returning('id')
    .execute();
  return marked.length;
}
