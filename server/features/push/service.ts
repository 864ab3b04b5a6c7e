// The push batch (docs/api.md, "Push"): the outbox's rows applied in order in ONE transaction, each as the
// operation its direct route declares (operation.ts), each under its own Idempotency-Key.
// Guarantees:
// - every operation answers exactly what its direct call would have answered (status and body, in the
//   request's language, through `errorAnswer`), and is recognised as the same request as that call: the key
//   is (user, operation id) and the hash is taken over (method, '/main-service' + path, body), so a row sent
//   alone and then inside a batch (or the reverse) replays instead of applying twice;
// - each operation runs under a SAVEPOINT: a refusal (4xx) rolls back that operation only, key included,
//   and the next operation runs;
// - a 5xx (a bug, a database failure) rolls back that operation and stops the batch: it answers its error,
//   every later operation answers 503 `error.pushNotApplied` (nothing of it ran), the earlier ones commit;
// - an operation whose method and path match no pushable operation answers 404 `error.notFound`;
// - checks no pushable operation can change (membership, the start rule) are read once per batch (`once`).
// The batch holds its transaction (and on PostgreSQL the company's change-feed lock) until the last
// operation: at most MAX_PUSH_OPERATIONS operations keep that short.

import { sql } from 'kysely';
import type { Locale } from '../../../src/domain/auth';
import { API_PREFIX } from '../../../src/domain/paths';
import type { UserRow } from '../../auth/users';
import { systemClock, type Clock } from '../../clock';
import type { Database, Queryable } from '../../db/database';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import { applyIdempotent, errorAnswer, requestHash, type IdempotentResult } from '../../idempotency';
import { createOnce, type Once, type Operation, type OperationMethod } from '../../operation';

export const MAX_PUSH_OPERATIONS = 100;

/** The part of API_PREFIX that outbox paths leave out: rows say '/api/v1/...'. */
const SERVICE_PREFIX = '/main-service';

export interface PushOperation {
  id: string;
  method: OperationMethod;
  /** As the outbox row keeps it: '/api/v1/companies/<id>/suggestions'. */
  path: string;
  body?: unknown;
}

export interface PushResult {
  id: string;
  status: number;
  body: unknown;
  /** Only when the answer asks to wait (409 while the same key is still running elsewhere). */
  retryAfter?: string;
}

interface CompiledOperation {
  operation: Operation;
  pattern: RegExp;
  names: string[];
}

interface Match {
  operation: Operation;
  params: Record<string, string>;
}

export interface Pushable {
  match(method: string, path: string): Match | null;
}

/** Matches (method, path) against the operations' Fastify-style paths ('/companies/:companyId/...'). */
export function compilePushable(operations: readonly Operation[]): Pushable {
  const compiled: CompiledOperation[] = operations.map((operation) => {
    const names: string[] = [];
    const source = operation.path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(segment.slice(1));
        return '([^/]+)';
      })
      .join('/');
    return { operation, pattern: new RegExp(`^${source}$`), names };
  });
  return {
    match(method, path) {
      const full = `${SERVICE_PREFIX}${path}`;
      if (!full.startsWith(`${API_PREFIX}/`)) return null;
      const local = full.slice(API_PREFIX.length);
      for (const { operation, pattern, names } of compiled) {
        if (operation.method !== method) continue;
        const found = pattern.exec(local);
        if (!found) continue;
        const params: Record<string, string> = {};
        try {
          names.forEach((name, i) => {
            params[name] = decodeURIComponent(found[i + 1] ?? '');
          });
        } catch {
          // A malformed escape (%zz) matches nothing, as Fastify would not route it either.
          return null;
        }
        return { operation, params };
      }
      return null;
    },
  };
}

export interface PushContext {
  db: Database;
  pushable: Pushable;
  user: UserRow;
  locale: Locale;
  /** The service's clock (default the system's): each operation reads it once as its `now`. */
  clock?: Clock;
  /** Told of a 5xx inside the batch (the error handler logs the same for a direct call). */
  logFailure: (error: unknown) => void;
}

interface BatchContext extends PushContext {
  /** Shared by the batch's operations: one transaction, so one answer per check (operation.ts). */
  once: Once;
}

function failure(id: string, error: unknown, locale: Locale): PushResult {
  const answer = errorAnswer(error, locale);
  const retryAfter = answer.headers['Retry-After'];
  return { id, status: answer.status, body: answer.body, ...(retryAfter !== undefined ? { retryAfter } : {}) };
}

/** One operation under its savepoint; answers its result, never throws for the operation's own failure. */
async function applyOne(tx: Queryable, context: BatchContext, operation: PushOperation): Promise<PushResult> {
  const { user, locale } = context;
  try {
    const found = context.pushable.match(operation.method, operation.path);
    if (!found) throw new AppError('notFound', 404);
    const work = found.operation.prepare({ user, params: found.params, body: operation.body, locale, once: context.once, now: (context.clock ?? systemClock).now() });
    const keyed = {
      userId: user.id,
      key: operation.id.toLowerCase(),
      hash: requestHash(operation.method, `${SERVICE_PREFIX}${operation.path}`, operation.body),
    };
    // Never released: a new savepoint of the same name hides the previous one, and a rollback goes to the
    // latest, so each operation costs one statement here instead of two. Plain statements on the batch's
    // connection: Kysely's own savepoints belong to transactions it opens, which ours never are.
    await sql`SAVEPOINT push_operation`.execute(tx.kysely);
    let outcome: IdempotentResult;
    try {
      outcome = await applyIdempotent(tx, keyed, work);
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT push_operation`.execute(tx.kysely);
      throw error;
    }
    return { id: operation.id, status: outcome.status, body: outcome.body };
  } catch (error) {
    const result = failure(operation.id, error, locale);
    if (result.status >= 500) context.logFailure(error);
    return result;
  }
}

/** Applies the operations in order in one transaction; one result per operation, in the same order. */
export async function applyPush(context: PushContext, operations: readonly PushOperation[]): Promise<PushResult[]> {
  return context.db.transaction(async (tx) => {
    const batch: BatchContext = { ...context, once: createOnce() };
    const results: PushResult[] = [];
    let stopped = false;
    for (const operation of operations) {
      if (stopped) {
        results.push({ id: operation.id, status: 503, body: { message: translate(context.locale, 'error.pushNotApplied') } });
        continue;
      }
      const result = await applyOne(tx, batch, operation);
      results.push(result);
      // A server failure may be the database's: do not pile more work on it; the client sends the rest again.
      if (result.status >= 500) stopped = true;
    }
    return results;
  });
}
