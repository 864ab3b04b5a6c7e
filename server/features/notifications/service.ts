// Notifications (issue 11, src/domain/notification.ts): rows of their recipient, written by `notify` in the
// transaction of the change that caused them, so a notification exists iff its change committed.

import type { Selectable } from 'kysely';
import type { NotificationKind, NotificationRow } from '../../../src/domain/notification';
import type { Queryable } from '../../db/database';
import type { DB } from '../../db/kysely';

export function toNotificationRow(row: Selectable<DB['notifications']>): NotificationRow {
  return {
    id: row.id,
    companyId: row.company_id,
    userId: row.user_id,
    kind: row.kind,
    suggestionId: row.suggestion_id,
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
  params: Record<string, string | null>;
}

/** Writes one notification per recipient in the caller's transaction. */
export async function notify(tx: Queryable, notice: Notice, now: Date): Promise<void> {
  const recipients = [...new Set(notice.userIds.filter((id): id is string => typeof id === 'string' && id !== notice.actorId))];
  if (recipients.length === 0) return;
  await tx.kysely
    .insertInto('notifications')
    .values(
      recipients.map((userId) => ({
        company_id: notice.companyId,
        user_id: userId,
        kind: notice.kind,
        suggestion_id: notice.suggestionId,
        params: JSON.stringify(notice.params),
        created_at: now.toISOString(),
      })),
    )
    .execute();
}
