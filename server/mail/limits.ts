// Limits on every call that makes the service send a mail (recovery, resend-verification, registration,
// invitations), so nobody can flood a mailbox through us or use us to send mail in bulk. What they guarantee:
// - per recipient: counted on the address string as given (lower-cased), whether or not an account has it, so
//   the answer (200, or 429 with the same body and Retry-After) tells nothing about who is registered;
// - per caller: the client address of an anonymous call, the user of a signed-in one (an HR officer inviting a
//   department from an office behind one NAT is one caller, not the whole office);
// - counted in the database (rate-limit.ts), in the caller's transaction, so a refused or rolled-back call
//   counts nothing and every node sees the same counts.

import type { Database, Queryable } from '../db/database';
import { takeRate, type RateRule } from '../rate-limit';

/**
 * A person asking for their own link again has had three chances in a quarter of an hour; ten an hour is
 * more than any real use and stops a flood at ten mails.
 */
export const MAIL_RECIPIENT_RULES: readonly RateRule[] = [
  { bucket: 'mail.recipient.15m', limit: 3, windowSeconds: 15 * 60, code: 'mailRateLimited' },
  { bucket: 'mail.recipient.1h', limit: 10, windowSeconds: 3600, code: 'mailRateLimited' },
];
/** Anonymous mail-sending calls from one client address: a busy office's honest use stays well under it. */
export const MAIL_CALLER_RULES: readonly RateRule[] = [{ bucket: 'mail.caller', limit: 20, windowSeconds: 3600 }];
/** Invitations (new and resent) by one user: enough to invite a large department in an hour. */
export const MAIL_INVITER_RULES: readonly RateRule[] = [{ bucket: 'mail.inviter', limit: 200, windowSeconds: 3600 }];

export interface MailRateKeys {
  /** The address the mail would go to, as the caller gave it. */
  recipient: string;
  /** request.ip of an anonymous call. */
  address?: string;
  /** The id of the signed-in user who causes the mail. */
  userId?: string;
}

async function take(tx: Queryable, keys: MailRateKeys, now: Date): Promise<void> {
  await takeRate(tx, MAIL_RECIPIENT_RULES, keys.recipient.trim().toLowerCase(), now);
  if (keys.address !== undefined) await takeRate(tx, MAIL_CALLER_RULES, keys.address, now);
  if (keys.userId !== undefined) await takeRate(tx, MAIL_INVITER_RULES, keys.userId, now);
}

/**
 * Counts one mail-sending call under every limit that applies, or throws 429 (`mailRateLimited` for the
 * recipient, `tooManyRequests` for the caller). Pass the transaction of the call; a Database opens its own, so
 * that one refusal undoes the other counts.
 */
export async function takeMailRate(db: Database | Queryable, keys: MailRateKeys, now: Date): Promise<void> {
  if ('transaction' in db) await db.transaction((tx) => take(tx, keys, now));
  else await take(db, keys, now);
}
