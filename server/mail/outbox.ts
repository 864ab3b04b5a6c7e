// Transactional mail. What it guarantees:
// - a mail exists iff the change that caused it committed: `queueMail` writes the `mail_outbox` row and its
//   `mail.send` job in the caller's transaction (a rolled-back invitation mails nothing, a replayed request
//   queues nothing more);
// - the job runner sends it (within milliseconds when the route wakes the runner, else at its next poll),
//   retries a failure with backoff (MAIL_MAX_ATTEMPTS, about three hours), and records `sent_at` and the
//   transport, or the last `error`;
// - it is never sent twice by two runners: the send claims the row first (`sending_until`, one UPDATE, so of two
//   runners only one gets it), and a row already sent is skipped. The one window left is a process that dies
//   between the SMTP server's acceptance and the `sent_at` write: that mail goes again once the claim expires
//   (at least once, as SMTP itself).

import { is, object, string } from 'superstruct';
import { isUuid } from '../../src/domain/suggestion';
import type { Queryable } from '../db/database';
import { DEFAULT_LEASE_MS, enqueueJob, JobPermanentError, type JobHandler } from '../jobs/runner';
import type { Mailer, OutgoingMail } from './mailer';

export const MAIL_SEND_JOB = 'mail.send';
/** 30 s, 1, 2, 4, 8, 16, 32 min, then hourly (runner.ts retryDelayMs): about three hours of trying. */
export const MAIL_MAX_ATTEMPTS = 10;
/** A send in progress is this runner's for as long as a job lease; the SMTP timeouts end it well before. */
const SEND_CLAIM_MS = DEFAULT_LEASE_MS;
const ERROR_LIMIT = 1000;

/** Queues `mail` in `tx`, the transaction of the change that causes it; returns the outbox row's id. */
export async function queueMail(tx: Queryable, mail: OutgoingMail): Promise<string> {
  const row = await tx.kysely
    .insertInto('mail_outbox')
    .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html, link: mail.link, kind: mail.kind })
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new Error('mail_outbox insert returned no row');
  await enqueueJob(tx, { kind: MAIL_SEND_JOB, payload: { mailId: row.id }, key: `mail:${row.id}` });
  return row.id;
}

const SendPayload = object({ mailId: string() });

type Claim = { state: 'claimed'; mail: OutgoingMail } | { state: 'sent' | 'busy' | 'gone' };

/** Takes the row for this send, unless it was sent or another runner is sending it now. */
async function claimMail(db: Queryable, id: string, now: Date): Promise<Claim> {
  // One UPDATE: of two runners claiming at once, the second finds the row claimed (or sent) and takes nothing.
  const row = await db.kysely
    .updateTable('mail_outbox')
    .set((eb) => ({ sending_until: new Date(now.getTime() + SEND_CLAIM_MS), attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where((eb) => eb.or([eb('sending_until', 'is', null), eb('sending_until', '<=', now)]))
    .returning(['to_address', 'subject', 'text_body', 'html_body', 'link', 'kind'])
    .executeTakeFirst();
  if (row) return { state: 'claimed', mail: { to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body, link: row.link, kind: row.kind } };
  const current = await db.kysely
    .selectFrom('mail_outbox')
    .select((eb) => eb('sent_at', 'is not', null).as('sent'))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current) return { state: 'gone' };
  return { state: current.sent ? 'sent' : 'busy' };
}

/** The `mail.send` job: sends one outbox row through `mailer`. */
export function mailJobHandlers(mailer: Mailer): JobHandler[] {
  return [
    {
      kind: MAIL_SEND_JOB,
      maxAttempts: MAIL_MAX_ATTEMPTS,
      async run(payload, job) {
        if (!is(payload, SendPayload) || !isUuid(payload.mailId)) throw new JobPermanentError('mail.send needs { mailId: uuid }');
        const id = payload.mailId;
        const claim = await claimMail(job.db, id, job.now);
        if (claim.state !== 'claimed') {
          if (claim.state === 'sent') return;
          if (claim.state === 'gone') throw new JobPermanentError(`mail ${id} is not in mail_outbox`);
          // Retried later, when the other runner has either sent it (then skipped) or let its claim lapse.
          throw new Error(`mail ${id} is being sent by another runner`);
        }
        try {
          await mailer.deliver(claim.mail);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await job.db.kysely.updateTable('mail_outbox').set({ error: message.slice(0, ERROR_LIMIT), sending_until: null }).where('id', '=', id).execute();
          throw error;
        }
        await job.db.kysely
          .updateTable('mail_outbox')
          .set({ sent_at: job.now, transport: mailer.transport, error: null, sending_until: null })
          .where('id', '=', id)
          .execute();
      },
    },
  ];
}
