// The auth feature's jobs: the second half of registration, resend-verification and recovery. The request only
// counted the limits and enqueued one of these (the same work for any address); here the account is looked up
// and, when there is one to write to, the mail is queued in one transaction with its token.

import { is, nullable, object, string } from 'superstruct';
import { isUuid } from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import { findUserByEmail, findUserById, type UserRow } from '../../auth/users';
import { JobPermanentError, type JobHandler } from '../../jobs/runner';
import { AUTH_MAIL_JOBS, queueExistingAccountMail, queueRecoveryMail, queueVerificationMail } from './service';

const EmailPayload = object({ email: string() });
const RegisteredPayload = object({ email: string(), userId: nullable(string()) });

function emailOf(payload: unknown, kind: string): string {
  if (!is(payload, EmailPayload)) throw new JobPermanentError(`${kind} needs { email }`);
  return payload.email;
}

/** A job that mails one account (or nobody) in one transaction. */
function mailJob(kind: string, work: (tx: Queryable, payload: unknown) => Promise<void>): JobHandler {
  return { kind, run: (payload, job) => job.db.transaction((tx) => work(tx, payload)) };
}

export function authJobHandlers(appUrl: string): JobHandler[] {
  const unverified = (user: UserRow | null): user is UserRow => user !== null && user.active && user.email_verified_at === null;
  return [
    mailJob(AUTH_MAIL_JOBS.registered, async (tx, payload) => {
      if (!is(payload, RegisteredPayload) || (payload.userId !== null && !isUuid(payload.userId))) {
        throw new JobPermanentError(`${AUTH_MAIL_JOBS.registered} needs { email, userId }`);
      }
      if (payload.userId !== null) {
        const user = await findUserById(tx, payload.userId);
        if (unverified(user)) await queueVerificationMail(tx, appUrl, user);
        return;
      }
      const existing = await findUserByEmail(tx, payload.email);
      if (existing) await queueExistingAccountMail(tx, appUrl, existing);
    }),
    mailJob(AUTH_MAIL_JOBS.resendVerification, async (tx, payload) => {
      const user = await findUserByEmail(tx, emailOf(payload, AUTH_MAIL_JOBS.resendVerification));
      if (unverified(user)) await queueVerificationMail(tx, appUrl, user);
    }),
    mailJob(AUTH_MAIL_JOBS.recovery, async (tx, payload) => {
      const user = await findUserByEmail(tx, emailOf(payload, AUTH_MAIL_JOBS.recovery));
      if (user?.active) await queueRecoveryMail(tx, appUrl, user);
    }),
  ];
}
