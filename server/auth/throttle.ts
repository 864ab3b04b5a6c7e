// Sign-in and registration throttling, counted in the database so every node sees the same counts, over the
// app's clock (ctx.clock), so tests move time by hand. What it guarantees:
//
// Sign-in (and the current-password check of a password change). Failures are rows of `sign_in_failures`
// (account as typed, lower-cased, whether or not it exists; client address; time), kept for 15 minutes.
// - One address may fail 5 times on one account (the pair), and 20 times across accounts, per 15 minutes.
//   Past that, that address is answered 429 with Retry-After (until the oldest counted failure leaves the
//   window), whatever the password. The attacker's own address is thus refused even with the right password
//   until its window ends: answering it would turn the refusal into an oracle (200 when the guess was right).
// - Failures never lock out other addresses: the owner's right password from an address that has not failed
//   is accepted however many failures other addresses piled on the account. An account under attack (10
//   failures in the window from any addresses) only slows the attack down: each address then gets 2 failures
//   on it instead of 5, and an address with no failure on it still gets its try.
// - A sign-in counts as a failure from the moment it is let through until its password proves right, under a
//   lock on the client address, so 100 guesses sent at once are counted like 100 sent one after another. One
//   that never reached the password check (e.g. the server was too busy to hash, 503) is withdrawn.
// - The right password clears the failures of its (account, address) pair; a password reset or change clears
//   all of the account's (the guesses were against the old password).
// - Refused attempts are not counted, so hammering a refused pair does not extend the wait.
//
// Registration. Counted with takeRate (rate-limit.ts) before the password is hashed: 10 per client address and
// 300 in all per hour; both are taken in one transaction, so a refusal by either counts in neither.

import type { Database, Queryable } from '../db/database';
import { AppError } from '../errors';
import { takeRate, type RateRule } from '../rate-limit';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Failures one address may make on one account in the window. */
export const PAIR_LIMIT = 5;
/** Failures one address may make across accounts in the window (one address trying many e-mails). */
export const ADDRESS_LIMIT = 20;
/** Failures on an account, from all addresses, past which it counts as under attack. */
export const ACCOUNT_UNDER_ATTACK = 10;
/** The pair limit while the account is under attack: a distributed guesser gets 2 guesses per address. */
export const PAIR_LIMIT_UNDER_ATTACK = 2;

/**
 * A real office registers a handful of people an hour from behind one NAT address; 10 leaves it room and
 * caps one address at 10 hashes an hour. 300 an hour in all is far above the service's sign-up rate and
 * caps what many addresses together can cost: 300 scrypt hashes (a few minutes of one core) an hour.
 */
export const REGISTRATIONS_PER_ADDRESS: RateRule = { bucket: 'register.address', limit: 10, windowSeconds: 3600, code: 'tooManyRegistrations' };
export const REGISTRATIONS_IN_ALL: RateRule = { bucket: 'register.all', limit: 300, windowSeconds: 3600, code: 'tooManyRegistrations' };

export interface AttemptKeys {
  /** Lower-cased e-mail as typed, whether or not such an account exists. */
  account: string;
  address: string;
}

/** Counts one registration from `address` (and in all), or throws 429 with Retry-After, counting nothing. */
export async function takeRegistration(db: Database, address: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    // Per address first: a refused address must not use up the shared budget (the rollback undoes it anyway).
    await takeRate(tx, REGISTRATIONS_PER_ADDRESS, address, now);
    await takeRate(tx, REGISTRATIONS_IN_ALL, '*', now);
  });
}

const windowStart = (now: Date) => new Date(now.getTime() - SIGN_IN_WINDOW_SECONDS * 1000);

/** The failures a limit counts: those of one address, on one account or across accounts. */
interface FailureScope {
  address: string;
  account?: string;
}

/** Seconds until the failure `limit` places back leaves the window, or 0 when fewer than `limit` are counted. */
async function waitFor(db: Queryable, scope: FailureScope, limit: number, now: Date): Promise<number> {
  let query = db.kysely
    .selectFrom('sign_in_failures')
    .select('at')
    .where('address', '=', scope.address)
    .where('at', '>', windowStart(now));
  if (scope.account !== undefined) query = query.where('account', '=', scope.account);
  const row = await query
    .orderBy('at', 'desc')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  if (!row) return 0;
  return Math.max(1, Math.ceil((row.at.getTime() + SIGN_IN_WINDOW_SECONDS * 1000 - now.getTime()) / 1000));
}

async function waitSeconds(db: Queryable, keys: AttemptKeys, now: Date): Promise<number> {
  // Only whether the account is under attack matters: at most that many rows are read.
  const recent = await db.kysely
    .selectFrom('sign_in_failures')
    .select('id')
    .where('account', '=', keys.account)
    .where('at', '>', windowStart(now))
    .limit(ACCOUNT_UNDER_ATTACK)
    .execute();
  const pairLimit = recent.length >= ACCOUNT_UNDER_ATTACK ? PAIR_LIMIT_UNDER_ATTACK : PAIR_LIMIT;
  return Math.max(
    await waitFor(db, { account: keys.account, address: keys.address }, pairLimit, now),
    await waitFor(db, { address: keys.address }, ADDRESS_LIMIT, now),
  );
}

function tooManyAttempts(wait: number): AppError {
  return new AppError('tooManyAttempts', 429, {
    values: { minutes: Math.ceil(wait / 60) },
    headers: { 'Retry-After': String(wait) },
  });
}

async function insertFailure(db: Queryable, keys: AttemptKeys, now: Date): Promise<string> {
  const row = await db.kysely
    .insertInto('sign_in_failures')
    .values({ account: keys.account, address: keys.address, at: now })
    .returning('id')
    .executeTakeFirst();
  // Keep the table to the window: what left it no longer counts (the index on `at` makes this cheap).
  await db.kysely.deleteFrom('sign_in_failures').where('at', '<=', windowStart(now)).execute();
  if (!row) throw new Error('sign_in_failures: INSERT returned no row');
  return row.id;
}

export async function assertNotThrottled(db: Queryable, keys: AttemptKeys, now: Date): Promise<void> {
  const wait = await waitSeconds(db, keys, now);
  if (wait > 0) throw tooManyAttempts(wait);
}

export async function recordFailure(db: Queryable, keys: AttemptKeys, now: Date): Promise<void> {
  await insertFailure(db, keys, now);
}

export interface SignInAttempt {
  /** The password was right: clears the pair's failures, this attempt's included. */
  succeeded(): Promise<void>;
  /** The password was never checked (e.g. 503): this attempt does not count. */
  withdraw(): Promise<void>;
}

/**
 * Lets a sign-in through, counted as a failure until `succeeded()`, or throws 429 with Retry-After. The check
 * and the count run under a lock on the client address, so concurrent guesses from it are all counted.
 */
export async function beginSignInAttempt(db: Database, keys: AttemptKeys, now: Date): Promise<SignInAttempt> {
  const id = await db.transaction(async (tx) => {
    await tx.kysely
      .selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.fn('hashtext', [eb.val(`sign-in:${keys.address}`)])]).as('locked'))
      .execute();
    await assertNotThrottled(tx, keys, now);
    return insertFailure(tx, keys, now);
  });
  return {
    async succeeded() {
      await db.kysely.deleteFrom('sign_in_failures').where('account', '=', keys.account).where('address', '=', keys.address).execute();
    },
    async withdraw() {
      await db.kysely.deleteFrom('sign_in_failures').where('id', '=', id).execute();
    },
  };
}

/** After a password reset or change: earlier guesses were against the old password. */
export async function clearAccountFailures(db: Queryable, account: string): Promise<void> {
  await db.kysely.deleteFrom('sign_in_failures').where('account', '=', account).execute();
}
