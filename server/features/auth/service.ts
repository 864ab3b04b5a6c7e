// Sign-up, e-mail confirmation, sign-in and password recovery. What it guarantees:
// - registration, resending and recovery answer the same whether or not the e-mail is known (the
//   difference goes into the mailbox, never into the response), and spend the same password work;
// - mailed tokens are random 256-bit values stored only as SHA-256 hashes, single-use, with expiry;
// - sign-in is throttled (auth/throttle.ts) and an unknown e-mail still costs one hash;
// - a password reset ends every session of the user.

import { createHash, randomBytes } from 'node:crypto';
import type { HrRegistrationInput, Locale, RegistrationInput } from '../../../src/domain/auth';
import type { TokenPair } from '../../../src/domain/user';
import { paths } from '../../../src/domain/paths';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import { AppError } from '../../errors';
import { renderMail, type MailKind } from '../../mail/templates';
import { assertNotThrottled, clearAccountFailures, recordFailure } from '../../auth/throttle';
import { authorityOf, findUserByEmail, greetingNameOf, type UserRow } from '../../auth/users';

export const VERIFY_TOKEN_TTL_MS = 24 * 3600 * 1000;
export const RECOVERY_TOKEN_TTL_MS = 3600 * 1000;

type EmailTokenKind = 'verify' | 'recovery';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

async function createEmailToken(db: Queryable, userId: string, kind: EmailTokenKind, ttlMs: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(`INSERT INTO email_tokens (user_id, kind, token_hash, expires_at) VALUES ($1, $2, $3, $4)`, [
    userId,
    kind,
    hashToken(token),
    new Date(Date.now() + ttlMs),
  ]);
  return token;
}

/** Marks a valid token used and returns its user id; null for unknown, used or expired tokens. */
async function consumeEmailToken(db: Queryable, token: string, kind: EmailTokenKind): Promise<string | null> {
  const row = await db.one<{ user_id: string }>(
    `UPDATE email_tokens SET used_at = now()
     WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()
     RETURNING user_id`,
    [hashToken(token), kind],
  );
  return row?.user_id ?? null;
}

async function sendMail(ctx: AppContext, user: UserRow, kind: MailKind, link: string): Promise<void> {
  const mail = renderMail(kind, user.locale, { name: greetingNameOf(user), link });
  await ctx.mailer.send({ to: user.email, ...mail, link, kind });
}

async function sendVerification(ctx: AppContext, user: UserRow): Promise<void> {
  const token = await createEmailToken(ctx.db, user.id, 'verify', VERIFY_TOKEN_TTL_MS);
  await sendMail(ctx, user, 'verify', `${ctx.config.appUrl}${paths.auth.registerVerified}?token=${token}`);
}

type Registration = (RegistrationInput | HrRegistrationInput) & { role: string; mainGoal?: string | undefined };

export async function register(ctx: AppContext, input: Registration, locale: Locale): Promise<void> {
  // Hash first, for known and unknown addresses alike, so the answer time tells nothing.
  const passwordHash = await ctx.passwords.hash(input.password);
  let user: UserRow | null = null;
  try {
    user = await ctx.db.one<UserRow>(
      `INSERT INTO users (email, password_hash, first_name, last_name, middle_name, position, other_position, phone,
                          registration_company, registration_inn, main_goal, role, authorities, locale)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING *`,
      [
        input.email,
        passwordHash,
        input.firstName,
        input.lastName,
        input.middleName || null,
        input.position,
        input.position === 'OTHER' ? (input.otherPosition ?? null) : null,
        input.phone,
        input.company,
        input.inn,
        input.mainGoal ?? null,
        input.role,
        [authorityOf(input.role)],
        locale,
      ],
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  if (user) {
    await sendVerification(ctx, user);
    return;
  }
  const existing = await findUserByEmail(ctx.db, input.email);
  if (existing) await sendMail(ctx, existing, 'existing', `${ctx.config.appUrl}${paths.auth.login}`);
}

export async function resendVerification(ctx: AppContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (user?.active && user.email_verified_at === null) await sendVerification(ctx, user);
}

export async function verifyEmail(ctx: AppContext, token: string): Promise<{ email: string }> {
  const email = await ctx.db.transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, token, 'verify');
    if (!userId) return null;
    const row = await tx.one<{ email: string }>(
      `UPDATE users SET email_verified_at = COALESCE(email_verified_at, now()), updated_at = now() WHERE id = $1 RETURNING email`,
      [userId],
    );
    return row?.email ?? null;
  });
  if (!email) throw new AppError('emailTokenInvalid', 400);
  return { email };
}

export async function login(ctx: AppContext, email: string, password: string, address: string): Promise<TokenPair> {
  const keys = { account: email.toLowerCase(), address };
  await assertNotThrottled(ctx.db, keys);
  const user = await findUserByEmail(ctx.db, email);
  let valid = false;
  if (user) valid = await ctx.passwords.verify(password, user.password_hash);
  else await ctx.passwords.spendOne(password);
  if (!user || !valid) {
    await recordFailure(ctx.db, keys);
    throw new AppError('invalidCredentials', 401);
  }
  if (!user.active) throw new AppError('accountDisabled', 401);
  await clearAccountFailures(ctx.db, keys.account);
  if (ctx.passwords.needsRehash(user.password_hash)) {
    // The cost was raised since this hash was made: upgrade it now that we know the password.
    await ctx.db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [user.id, await ctx.passwords.hash(password)]);
  }
  return ctx.tokens.issuePair(user.id);
}

export async function requestRecovery(ctx: AppContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user?.active) return;
  const token = await createEmailToken(ctx.db, user.id, 'recovery', RECOVERY_TOKEN_TTL_MS);
  await sendMail(ctx, user, 'recovery', `${ctx.config.appUrl}${paths.auth.recoveryPasswordConfirm}?token=${token}`);
}

export async function confirmRecovery(ctx: AppContext, token: string, password: string): Promise<void> {
  const passwordHash = await ctx.passwords.hash(password);
  const email = await ctx.db.transaction(async (tx) => {
    const userId = await consumeEmailToken(tx, token, 'recovery');
    if (!userId) return null;
    // Following the mailed link proves the address too.
    const row = await tx.one<{ email: string }>(
      `UPDATE users SET password_hash = $2, email_verified_at = COALESCE(email_verified_at, now()), updated_at = now()
       WHERE id = $1 RETURNING email`,
      [userId, passwordHash],
    );
    await tx.query(`UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND kind = 'recovery' AND used_at IS NULL`, [userId]);
    await ctx.tokens.revokeAllOf(userId, tx);
    return row?.email ?? null;
  });
  if (!email) throw new AppError('emailTokenInvalid', 400);
  await clearAccountFailures(ctx.db, email.toLowerCase());
}
