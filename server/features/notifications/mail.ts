// Instant mail of notifications: the `notifications.mail` job that `notify` queues in the transaction of the
// change. What it guarantees: one mail per notification whose recipient wants each event mailed
// (users.notification_mail = 'instant' when the job runs), in the recipient's language (users.locale), with the
// link to the proposal, goal or project; never twice (the rows are claimed by setting `mailed_at` with a guarded UPDATE, in the
// transaction that queues their mails, so two runners or a retried job find nothing left to claim). A
// notification whose recipient switched to the digest in between is left for the digest (digest.ts); an
// inactive user gets no mail.
//
// The mail is rendered by a job, not inside `notify`, because the link needs the service's public address
// (APP_URL), which belongs to the app's configuration and not to the change that notifies.

import { array, is, object, size } from 'superstruct';
import { paths } from '../../../src/domain/paths';
import { Uuid } from '../../../src/domain/suggestion';
import { greetingNameOf, toUserRow } from '../../auth/users';
import type { Queryable } from '../../db/database';
import { JobPermanentError, type JobHandler } from '../../jobs/runner';
import { queueMail } from '../../mail/outbox';
import { renderNotificationMail, type NotificationWords } from '../../mail/templates';
import { NOTIFICATION_MAIL_JOB } from './service';

/** Mail kinds in `mail_outbox.kind`. */
export const NOTIFICATION_MAIL_KIND = 'notification';

const MailPayload = object({ ids: size(array(Uuid), 1, 100_000) });

/** What a notification row names: its proposal, project or goal (rows older than issue 12 name only a proposal). */
interface NotificationTarget {
  company_id: string;
  suggestion_id: string | null;
  goal_id?: string | null;
  project_id?: string | null;
  registry_id?: string | null;
  kind?: string;
}

/** The link of a notification: its project, goal or proposal, or the notifications page when it names none. */
export function notificationLink(appUrl: string, row: NotificationTarget): string {
  // The most specific first: a project's notice may also name the proposal it was made from.
  if (row.project_id) return `${appUrl}${paths.company.project(row.company_id, row.project_id)}`;
  if (row.registry_id) return row.kind === 'REGISTRY_SENT' ? `${appUrl}${paths.company.registryApprove(row.company_id)}?id=${row.registry_id}` : `${appUrl}${paths.company.registry(row.company_id)}`;
  if (row.goal_id) return `${appUrl}${paths.company.goal(row.company_id, row.goal_id)}`;
  if (row.suggestion_id) return `${appUrl}${paths.company.suggestion(row.company_id, row.suggestion_id)}`;
  return `${appUrl}${paths.notifications}`;
}

export function toNotificationWords(
  appUrl: string,
  row: NotificationTarget & { kind: string; params: unknown; created_at: Date },
): NotificationWords {
  const params: Record<string, string | null> = {};
  // The params come from storage: only string or null values are words.
  if (typeof row.params === 'object' && row.params !== null) {
    for (const [key, value] of Object.entries(row.params)) params[key] = typeof value === 'string' ? value : null;
  }
  return { kind: row.kind, params, link: notificationLink(appUrl, row), createdAt: row.created_at };
}

/** Claims the instant recipients' unmailed notifications among `ids` and queues one mail each, in `tx`. */
export async function mailNotifications(tx: Queryable, appUrl: string, ids: readonly string[], now: Date): Promise<number> {
  const claimed = await tx.kysely
    .updateTable('notifications as n')
    .from('users as u')
    .set({ mailed_at: now })
    .whereRef('u.id', '=', 'n.user_id')
    .where('n.id', '=', (eb) => eb.fn.any(eb.val([...ids])))
    .where('n.mailed_at', 'is', null)
    .where('u.notification_mail', '=', 'instant')
    .where('u.active', '=', true)
    .returning(['n.id', 'n.company_id', 'n.suggestion_id', 'n.goal_id', 'n.project_id', 'n.registry_id', 'n.kind', 'n.params', 'n.created_at', 'n.user_id'])
    .execute();
  if (claimed.length === 0) return 0;
  const users = await tx.kysely
    .selectFrom('users')
    .selectAll()
    .where('id', '=', (eb) => eb.fn.any(eb.val([...new Set(claimed.map((row) => row.user_id))])))
    .execute();
  const companies = await tx.kysely
    .selectFrom('companies')
    .select(['id', 'name'])
    .where('id', '=', (eb) => eb.fn.any(eb.val([...new Set(claimed.map((row) => row.company_id))])))
    .execute();
  const userById = new Map(users.map((user) => [user.id, toUserRow(user)]));
  const companyName = new Map(companies.map((company) => [company.id, company.name]));
  for (const row of claimed) {
    const user = userById.get(row.user_id);
    if (!user) continue;
    const notification = toNotificationWords(appUrl, row);
    const mail = renderNotificationMail(user.locale, { name: greetingNameOf(user), company: companyName.get(row.company_id) ?? '', notification });
    await queueMail(tx, { to: user.email, ...mail, link: notification.link, kind: NOTIFICATION_MAIL_KIND });
  }
  return claimed.length;
}

export function notificationMailJob(appUrl: string): JobHandler {
  return {
    kind: NOTIFICATION_MAIL_JOB,
    async run(payload, job) {
      if (!is(payload, MailPayload)) throw new JobPermanentError('notifications.mail needs { ids: uuid[] }');
      await job.db.transaction((tx) => mailNotifications(tx, appUrl, payload.ids, job.now));
    },
  };
}
