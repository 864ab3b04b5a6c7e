// Rate limits counted in the database, so every node of the service sees the same counts (DESIGN.md). A rule
// is (bucket, limit, window): at most `limit` events of one key in any `windowSeconds`. `takeRate` counts an
// event and refuses the one over the limit with 429 and Retry-After (seconds until the oldest counted event
// leaves the window); a refused event is not counted, so an attacker who keeps trying does not extend the
// wait of the key's owner. Time comes from the caller's clock (ctx.clock), so tests move it by hand.
//
// Concurrency: the count and the insert run under a transaction-scoped advisory lock on (bucket, key), so
// concurrent requests of one key cannot all slip under the limit. Pass a transaction when the event belongs
// to a larger change; with the database itself, takeRate opens its own.

import type { Database, Queryable } from './db/database';
import { AppError } from './errors';

export interface RateRule {
  /** What is counted, e.g. 'register.address'. */
  bucket: string;
  limit: number;
  windowSeconds: number;
  /** The error code of the refusal (its message `error.<code>` may use `{minutes}`); default `tooManyRequests`. */
  code?: string;
}

/** Seconds until one more event of `key` is allowed under `rule`, 0 when it is allowed now. */
export async function rateWait(db: Queryable, rule: RateRule, key: string, now: Date): Promise<number> {
  const since = new Date(now.getTime() - rule.windowSeconds * 1000);
  // The limit-th newest event in the window, if there are that many: the oldest one that still counts.
  const row = await db.kysely
    .selectFrom('rate_events')
    .select('at')
    .where('bucket', '=', rule.bucket)
    .where('key', '=', key)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(1)
    .offset(rule.limit - 1)
    .executeTakeFirst();
  if (!row) return 0;
  const oldestCounted = row.at.getTime();
  return Math.max(1, Math.ceil((oldestCounted + rule.windowSeconds * 1000 - now.getTime()) / 1000));
}

export function tooManyRequests(rule: Pick<RateRule, 'code'>, waitSeconds: number): AppError {
  return new AppError(rule.code ?? 'tooManyRequests', 429, {
    values: { minutes: Math.max(1, Math.ceil(waitSeconds / 60)) },
    headers: { 'Retry-After': String(waitSeconds) },
  });
}

async function take(tx: Queryable, rules: readonly RateRule[], key: string, now: Date): Promise<void> {
  for (const rule of rules) {
    await tx.kysely
      .selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.fn('hashtext', [eb.val(`rate:${rule.bucket}:${key}`)])]).as('locked'))
      .execute();
  }
  let wait = 0;
  let refused: RateRule | null = null;
  for (const rule of rules) {
    const w = await rateWait(tx, rule, key, now);
    if (w > wait) {
      wait = w;
      refused = rule;
    }
  }
  if (refused) throw tooManyRequests(refused, wait);
  if (rules.length === 0) return;
  await tx.kysely
    .insertInto('rate_events')
    .values(rules.map((rule) => ({ bucket: rule.bucket, key, at: now })))
    .execute();
}

/**
 * Counts one event of `key` under every rule (e.g. a per-hour and a per-day limit), or throws 429 (nothing
 * counted) when any rule is already at its limit. `db` may be a transaction; a Database opens its own.
 */
export async function takeRate(db: Database | Queryable, rules: RateRule | readonly RateRule[], key: string, now: Date): Promise<void> {
  const list = Array.isArray(rules) ? (rules as readonly RateRule[]) : [rules as RateRule];
  if ('transaction' in db) await db.transaction((tx) => take(tx, list, key, now));
  else await take(db, list, key, now);
}

/** Deletes events older than `olderThanSeconds` (the longest window in use); returns how many. */
export async function pruneRateEvents(db: Queryable, now: Date, olderThanSeconds: number): Promise<number> {
  const result = await db.kysely
    .deleteFrom('rate_events')
    .where('at', '<', new Date(now.getTime() - olderThanSeconds * 1000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
