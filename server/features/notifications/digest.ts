// The daily digest: for users who chose one mail a day (users.notification_mail = 'digest'), the recurring job
// `notifications.digest` (hourly) mails every notification not mailed yet in one message, grouped by company,
// newest first, each with its link. What it guarantees:
// - at most one digest per user per 24 hours (`digest_sent_at`), and only when something waits;
// - nothing is mailed twice: one transaction per user locks the user's row (FOR UPDATE SKIP LOCKED: a second
//   runner skips a user the first is mailing) and claims the notifications with a guarded UPDATE
//   (`mailed_at IS NULL`) in the transaction that queues the mail and sets `digest_sent_at`; the instant job
//   (mail.ts) claims with the same guard, so a notification goes out either instantly or in a digest, once;
// - switching from the digest back to instant mail (PATCH /user) sends what waits at once in one last digest
//   (`sendPendingDigest`, in the transaction of the switch), so the waiting notifications are neither lost nor
//   mailed again one by one. Switching to the digest leaves the not yet mailed ones for it.

import { paths } from '../../../src/domain/paths';
import { greetingNameOf, toUserRow } from '../../auth/users';
import type { Database, Queryable } from '../../db/database';
import type { JobHandler, RecurringJob } from '../../jobs/runner';
import { queueMail } from '../../mail/outbox';
import { renderDigestMail, type DigestGroup } from '../../mail/templates';
import { toNotificationWords } from './mail';

export const NOTIFICATION_DIGEST_JOB = 'notifications.digest';
export const DIGEST_MAIL_KIND = 'digest';
const HOUR_MS = 3600 * 1000;
/** At most one digest a user in this time. */
export const DIGEST_INTERVAL_MS = 24 * HOUR_MS;
/** Users looked up per query of a pass. */
const DIGEST_BATCH = 200;

/**
 * Claims the user's unmailed notifications and queues them as one digest, in `tx`. `onlyDigestUser`: only while
 * the user still wants the digest and their last one is at least a day old (the hourly job); otherwise at once
 * (the switch to instant mail). Answers how many notifications it mailed (0: nothing waited, or another runner
 * has the user).
 */
async function mailDigest(tx: Queryable, appUrl: string, userId: string, now: Date, onlyDigestUser: boolean): Promise<number> {
  let userQuery = tx.kysely.selectFrom('users').selectAll().where('id', '=', userId).where('active', '=', true);
  if (onlyDigestUser) {
    const cutoff = new Date(now.getTime() - DIGEST_INTERVAL_MS);
    userQuery = userQuery
      .where('notification_mail', '=', 'digest')
      .where((eb) => eb.or([eb('digest_sent_at', 'is', null), eb('digest_sent_at', '<=', cutoff)]));
  }
  const found = await userQuery.forUpdate().skipLocked().executeTakeFirst();
  if (!found) return 0;
  const user = toUserRow(found);
  const claimed = await tx.kysely
    .updateTable('notifications')
    .set({ mailed_at: now })
    .where('user_id', '=', user.id)
    .where('mailed_at', 'is', null)
    .returning(['id', 'company_id', 'suggestion_id', 'goal_id', 'project_id', 'registry_id', 'kind', 'params', 'created_at'])
    .execute();
  if (claimed.length === 0) return 0;
  const companies = await tx.kysely
    .selectFrom('companies')
    .select(['id', 'name'])
    .where('id', '=', (eb) => eb.fn.any(eb.val([...new Set(claimed.map((row) => row.company_id))])))
    .execute();
  const companyName = new Map(companies.map((company) => [company.id, company.name]));
  // Newest first, within a company and between companies (the company with the newest news leads).
  const sorted = [...claimed].sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1));
  const groups = new Map<string, DigestGroup>();
  for (const row of sorted) {
    const group = groups.get(row.company_id) ?? { company: companyName.get(row.company_id) ?? '', notifications: [] };
    group.notifications.push(toNotificationWords(appUrl, row));
    groups.set(row.company_id, group);
  }
  const link = `${appUrl}${paths.notifications}`;
  const mail = renderDigestMail(user.locale, { name: greetingNameOf(user), groups: [...groups.values()], link });
  await queueMail(tx, { to: user.email, ...mail, link, kind: DIGEST_MAIL_KIND });
  await tx.kysely.updateTable('users').set({ digest_sent_at: now }).where('id', '=', user.id).execute();
  return claimed.length;
}

/** Sends what waits for `userId` in one digest now (the switch to instant mail), in `tx`. */
export function sendPendingDigest(tx: Queryable, appUrl: string, userId: string, now: Date): Promise<number> {
  return mailDigest(tx, appUrl, userId, now, false);
}

/** One pass of the digest job: every digest user due a digest with something waiting. Answers the mails queued. */
export async function runDigestPass(db: Database, appUrl: string, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - DIGEST_INTERVAL_MS);
  let after: string | null = null;
  let mails = 0;
  for (;;) {
    let query = db.kysely
      .selectFrom('users as u')
      .select('u.id')
      .where('u.notification_mail', '=', 'digest')
      .where('u.active', '=', true)
      .where((eb) => eb.or([eb('u.digest_sent_at', 'is', null), eb('u.digest_sent_at', '<=', cutoff)]))
      .where((eb) => eb.exists(eb.selectFrom('notifications as n').select('n.id').whereRef('n.user_id', '=', 'u.id').where('n.mailed_at', 'is', null)));
    if (after !== null) query = query.where('u.id', '>', after);
    const users = await query.orderBy('u.id').limit(DIGEST_BATCH).execute();
    for (const { id } of users) {
      const mailed = await db.transaction((tx) => mailDigest(tx, appUrl, id, now, true));
      if (mailed > 0) mails += 1;
    }
    const last = users.at(-1);
    if (!last || users.length < DIGEST_BATCH) return mails;
    after = last.id;
  }
}

export function notificationDigestJob(appUrl: string): JobHandler {
  return {
    kind: NOTIFICATION_DIGEST_JOB,
    async run(_payload, job) {
      await runDigestPass(job.db, appUrl, job.now);
    },
  };
}

export const NOTIFICATION_DIGEST_RECURRING: RecurringJob = { kind: NOTIFICATION_DIGEST_JOB, everyMs: HOUR_MS };
