// Sign-up, e-mail confirmation, sign-in and password recovery. What it guarantees:
// - registration, resending and recovery answer the same whether or not the e-mail is known, and do the same
//   work: count the mail limits (mail/limits.ts, on the address string) and enqueue one job; the job looks the
//   account up and queues the mail (mail/outbox.ts), so neither the answer nor its time tells who is registered;
// - mailed tokens are random 256-bit values stored only as SHA-256 hashes, single-use, with expiry;
// - sign-in is throttled per (account, client address) without locking the owner out from a clean address
//   (auth/throttle.ts), registration per address and in all, and an unknown e-mail still costs one hash;
// - a password reset ends every session of the user.

import { createHash, randomBytes } from 'node:crypto';
import type { HrRegistrationInput, Locale, RegistrationInput } from '../../../src/domain/auth';
import type { TokenPair } from '../../../src/domain/user';
import { paths } from '../../../src/domain/paths';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { AppError } from '../../errors';
import { enqueueJob } from '../../jobs/runner';
import { takeMailRate } from '../../mail/limits';
import { queueMail } from '../../mail/outbox';
import { renderMail, type MailKind } from '../../mail/templates';
import { beginSignInAttempt, clearAccountFailures } from '../../auth/throttle';
import { authorityOf, findUserByEmail, greetingNameOf, type UserRow } from '../../auth/users';

export const VERIFY_TOKEN_TTL_MS = 24 * 3600 * 1000;
export const RECOVERY_TOKEN_TTL_MS = 3600 * 1000;

type EmailTokenKind = 'verify' | 'recovery';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

async function createEmailToken(db: Queryable, userId: string, kind: EmailTokenKind, ttlMs: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.kysely
    .insertInto('email_tokens')
    .values({ user_id: userId, kind, token_hash: hashToken(token), expires_at: new Date(Date.now() + ttlMs) })
    .execute();
  return token;
}

/** Marks a valid token used and returns its user id; null for unknown, used or expired tokens. */
async function consumeEmailToken(db: Queryable, token: string, kind: EmailTokenKind): Promise<string | null> {
  const row = await db.kysely
    .updateTable('email_tokens')
    .set((eb) => ({ used_at: eb.fn<Date>('now') }))
    .where('token_hash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where((eb) => eb('expires_at', '>', eb.fn<Date>('now')))
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** The jobs that turn a mail-causing call into mail (./jobs.ts runs them). */
export const AUTH_MAIL_JOBS = {
  registered: 'auth.registered',
  resendVerification: 'auth.resendVerification',
  recovery: 'auth.recovery',
} as const;

async function queueAccountMail(tx: Queryable, user: UserRow, kind: MailKind, link: string): Promise<void> {
  const mail = renderMail(kind, user.locale, { name: greetingNameOf(user), link });
  await queueMail(tx, { to: user.email, ...mail, link, kind });
}

/** A new confirmation link for `user`, queued in `tx`. */
export async function queueVerificationMail(tx: Queryable, appUrl: string, user: UserRow): Promise<void> {
  const token = await createEmailToken(tx, user.id, 'verify', VERIFY_TOKEN_TTL_MS);
  await queueAccountMail(tx, user, 'verify', `${appUrl}${paths.auth.registerVerified}?token=${token}`);
}

/** "You already have an account": what a registration with a known address mails. */
export async function queueExistingAccountMail(tx: Queryable, appUrl: string, user: UserRow): Promise<void> {
  await queueAccountMail(tx, user, 'existing', `${appUrl}${paths.auth.login}`);
}

/** A new recovery link for `user`, queued in `tx`. */
export async function queueRecoveryMail(tx: Queryable, appUrl: string, user: UserRow): Promise<void> {
  const token = await createEmailToken(tx, user.id, 'recovery', RECOVERY_TOKEN_TTL_MS);
  await queueAccountMail(tx, user, 'recovery', `${appUrl}${paths.auth.recoveryPasswordConfirm}?token=${token}`);
}

/** The whole request side of resend-verification and recovery: the same for any address. */
async function enqueueMailRequest(ctx: AppContext, kind: string, email: string, address: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await takeMailRate(tx, { recipient: email, address }, ctx.clock.now());
    await enqueueJob(tx, { kind, payload: { email } });
  });
  ctx.jobs.wake();
}

type Registration = (RegistrationInput | HrRegistrationInput) & { role: string; mainGoal?: string | undefined };

export async function register(ctx: AppContext, input: Registration, locale: Locale, address: string): Promise<void> {
  // Counted before the hash, so a refused call costs no scrypt.
  await takeMailRate(ctx.db, { recipient: input.email, address }, ctx.clock.now());
  // Hash first, for known and unknown addresses alike, so the answer time tells nothing.
  const passwordHash = await ctx.passwords.hash(input.password);
  await ctx.db.transaction(async (tx) => {
    // A known address inserts nothing and raises nothing; the job tells the two apart, after the answer.
    const created = await tx.kysely
      .insertInto('users')
      .values({
        email: input.email,
        password_hash: passwordHash,
        first_name: input.firstName,
        last_name: input.lastName,
        middle_name: input.middleName || null,
        position: input.position,
        other_position: input.position === 'OTHER' ? (input.otherPosition ?? null) : null,
        phone: input.phone,
        registration_company: input.company,
        registration_inn: input.inn,
        main_goal: input.mainGoal ?? null,
        role: input.role,
        authorities: [authorityOf(input.role)],
        locale,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    await enqueueJob(tx, { kind: AUTH_MAIL_JOBS.registered, payload: { email: input.email, userId: created?.id ?? null } });
  });
  ctx.jobs.wake();
}

export async function resendVerification(ctx: AppContext, email: string, address: string): Promise<void> {
  await enqueueMailRequest(ctx, AUTH_MAIL_JOBS.resendVerification, email, address);
}

export async function verifyEmail(ctx: AppContext, token: string): Promise<{ email: string }> {
  const email = await ctx.db.transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, token, 'verify');
    if (!userId) return null;
    const row = await tx.kysely
      .updateTable('users')
      .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.fn<Date>('now')), updated_at: eb.fn<Date>('now') }))
      .where('id', '=', userId)
      .returning('email')
      .executeTakeFirst();
    return row?.email ?? null;
  });
  if (!email) throw new AppError('emailTokenInvalid', 400);
  return { email };
}

export async function login(ctx: AppContext, email: string, password: string, address: string): Promise<TokenPair> {
  const keys = { account: email.toLowerCase(), address };
  // Counted as a failure until the password proves right (auth/throttle.ts), so parallel guesses all count.
  const attempt = await beginSignInAttempt(ctx.db, keys, ctx.clock.now());
  let user: UserRow | null;
  let valid = false;
  try {
    user = await findUserByEmail(ctx.db, email);
    if (user) valid = await ctx.passwords.verify(password, user.password_hash);
    else await ctx.passwords.spendOne(password);
  } catch (error) {
    // The password was never checked (busy hash queue, database error): not a guess.
    await attempt.withdraw();
    throw error;
  }
  if (!user || !valid) throw new AppError('invalidCredentials', 401);
  await attempt.succeeded();
  if (!user.active) throw new AppError('accountDisabled', 401);
  if (ctx.passwords.needsRehash(user.password_hash)) {
    // The cost was raised since this hash was made: upgrade it now that we know the password (at sign-in
    // priority: the person is waiting for this answer).
    try {
      const upgraded = await ctx.passwords.hash(password, 'signIn');
      await ctx.db.kysely
        .updateTable('users')
        .set((eb) => ({ password_hash: upgraded, updated_at: eb.fn<Date>('now') }))
        .where('id', '=', user.id)
        .execute();
    } catch (error) {
      // Too busy to hash now: the sign-in still succeeds and the upgrade waits for the next one.
      if (!(error instanceof AppError && error.code === 'serverBusy')) throw error;
    }
  }
  return ctx.tokens.issuePair(user.id);
}

export async function requestRecovery(ctx: AppContext, email: string, address: string): Promise<void> {
  await enqueueMailRequest(ctx, AUTH_MAIL_JOBS.recovery, email, address);
}

export async function confirmRecovery(ctx: AppContext, token: string, password: string): Promise<void> {
  const passwordHash = await ctx.passwords.hash(password);
  const email = await ctx.db.transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, token, 'recovery');
    if (!userId) return null;
    // Following the mailed link proves the address too.
    const row = await tx.kysely
      .updateTable('users')
      .set((eb) => ({
        password_hash: passwordHash,
        email_verified_at: eb.fn.coalesce('email_verified_at', eb.fn<Date>('now')),
        updated_at: eb.fn<Date>('now'),
      }))
      .where('id', '=', userId)
      .returning('email')
      .executeTakeFirst();
    // Every other recovery link of the user dies with this one.
    await tx.kysely
      .updateTable('email_tokens')
      .set((eb) => ({ used_at: eb.fn<Date>('now') }))
      .where('user_id', '=', userId)
      .where('kind', '=', 'recovery')
      .where('used_at', 'is', null)
      .execute();
    await ctx.tokens.revokeAllOf(userId, tx);
    return row?.email ?? null;
  });
  if (!email) throw new AppError('emailTokenInvalid', 400);
  await clearAccountFailures(ctx.db, email.toLowerCase());
}
