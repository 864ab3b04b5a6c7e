// The notification calls of docs/api.md ("Notifications"). Marking read is declared as an operation
// (server/operation.ts), so the outbox may push it in a batch and a replay under the same Idempotency-Key
// answers the stored result; the list is a plain read. Any member of the company, about their own
// notifications only: others' ids in a read mark are ignored (never a 403 that would confirm they exist).

import { type } from 'superstruct';
import { NotificationReadInput } from '../../../src/domain/notification';
import { defineOperation } from '../../operation';
import { access, defineRoute, idParams, ok, queryEnum, queryLimit, queryText, type DeclaredRoute } from '../../route';
import { listNotifications, markNotificationsRead } from './service';

export const DEFAULT_NOTIFICATION_LIMIT = 50;
export const MAX_NOTIFICATION_LIMIT = 200;

/** `POST /companies/:companyId/notifications/read` `{ ids }`: answers `{ data: { read: n } }`, n newly marked. */
export const readNotificationsOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/notifications/read',
  permission: 'company.read',
  input: NotificationReadInput,
  async run(tx, { member, input, now }) {
    const read = await markNotificationsRead(tx, member.companyId, member.userId, input.ids, now);
    return { status: 200, body: { data: { read }, message: 'OK' } };
  },
});

const NotificationListQuery = type({
  cursor: queryText(1000),
  limit: queryLimit(DEFAULT_NOTIFICATION_LIMIT, MAX_NOTIFICATION_LIMIT),
  unread: queryEnum(['true', 'false'] as const),
});

export const notificationRoutes: readonly DeclaredRoute[] = [
  readNotificationsOperation.route,

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/notifications',
    access: access.company('company.read'),
    params: idParams('companyId'),
    query: NotificationListQuery,
    handler: async ({ db, member, query: { cursor, limit, unread } }) =>
      ok(await listNotifications(db, member.companyId, member.userId, { cursor, limit, unreadOnly: unread === 'true' })),
  }),
];
