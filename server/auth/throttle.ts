// Sign-in throttling. Failed attempts are rows in `auth_attempts` (in the database, so every node
// sees the same counts): at most 5 failures per account and 20 per client address in 15 minutes.
// Past that, sign-in answers 429 with Retry-After until the oldest counted failure leaves the window.
// A successful sign-in clears the account's failures (not the address's).

import type { Database } from '../db/database';
import { AppError } from '../errors';

export const THROTTLE_WINDOW_MINUTES = 15;
export const ACCOUNT_LIMIT = 5;
export const ADDRESS_LIMIT = 20;

export interface AttemptKeys {
  /** Lower-cased e-mail as typed, whether or not such an account exists. */
  account: string;
  address: string;
}

const WINDOW = `interval '${THROTTLE_WINDOW_MINUTES} minutes'`;

/** Seconds until `scope:key` may try again, or 0 when it is under its limit. */
async function waitSeconds(db: Database, scope: 'account' | 'address', key: string, limit: number): Promise<number> {
  const row = await db.one<{ wait: number }>(
    `SELECT GREATEST(1, CEIL(EXTRACT(EPOCH FROM (attempted_at + ${WINDOW} - now()))))::int AS wait
     FROM auth_attempts
     WHERE scope = $1 AND key = $2 AND attempted_at > now() - ${WINDOW}
     ORDER BY attempted_at DESC
     OFFSET $3 LIMIT 1`,
    [scope, key, limit - 1],
  );
  return row?.wait ?? 0;
}

export async function assertNotThrottled(db: Database, keys: AttemptKeys): Promise<void> {
  const wait = Math.max(
    await waitSeconds(db, 'account', keys.account, ACCOUNT_LIMIT),
    await waitSeconds(db, 'address', keys.address, ADDRESS_LIMIT),
  );
  if (wait > 0) {
    throw new AppError('tooManyAttempts', 429, {
      values: { minutes: Math.ceil(wait / 60) },
      headers: { 'Retry-After': String(wait) },
    });
  }
}

export async function recordFailure(db: Database, keys: AttemptKeys): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO auth_attempts (scope, key) VALUES ('account', $1), ('address', $2)`, [keys.account, keys.address]);
    // Keep the table small: what left the window no longer counts.
    await tx.query(`DELETE FROM auth_attempts WHERE key IN ($1, $2) AND attempted_at < now() - ${WINDOW}`, [keys.account, keys.address]);
  });
}

export async function clearAccountFailures(db: Database, account: string): Promise<void> {
  await db.query(`DELETE FROM auth_attempts WHERE scope = 'account' AND key = $1`, [account]);
}
