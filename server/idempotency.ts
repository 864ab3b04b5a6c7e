// Idempotency-Key on every mutating call (docs/api.md, "Idempotency"). A hook validates the header on
// POST/PATCH/DELETE (absent: nothing is denied; malformed: 400). Routes that change data run their work
// through `runIdempotent`, which opens the transaction in which both the change and the key row are
// written: a replay answers the stored status and body with `Idempotent-Replayed: true`, the same key
// with another request answers 422, and a replay while the first still runs answers 409
// (`pg_try_advisory_xact_lock` on (user, key): held until the first one commits or rolls back, on
// PostgreSQL across nodes; PGlite runs one transaction at a time, so there the second simply waits and
// replays). Keys are kept 30 days (at least the 14 promised) and swept by a recurring job.
// `applyIdempotent` is that per-key logic inside a caller's transaction (the push endpoint runs one per
// operation, under a savepoint); `errorAnswer` is the one mapping of an error to the answer a call gives.

import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../src/domain/auth';
import { requestIdentity } from '../src/domain/idempotency';
import { isUuid } from '../src/domain/suggestion';
import type { Database, Queryable } from './db/database';
import { AppError } from './errors';
import { hasMessage, translate } from './i18n/messages';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_KEEP_DAYS = 30;
/** How often old keys are swept (a recurring job: once per interval across all nodes). */
export const IDEMPOTENCY_CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** The request's key, or null when none was sent. A malformed key is a 400. */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !isUuid(raw.trim())) throw new AppError('idempotencyKeyInvalid', 400);
  return raw.trim().toLowerCase();
}

/** Validates the header on every mutating call before anything else runs. */
export function registerIdempotencyHook(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      if (MUTATING.has(request.method)) idempotencyKeyOf(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}

/** Hash of (method, path, body); for uploads `body` is the file's sha-256. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(requestIdentity(method, path, body))
    .digest('hex');
}

export interface IdempotentResult {
  status: number;
  body: unknown;
}

/** A request's key as stored: per user, with the hash of what was asked under it. */
export interface KeyedRequest {
  userId: string;
  /** The Idempotency-Key, lower-case. */
  key: string;
  /** `requestHash` of the request as the direct route sees it. */
  hash: string;
}

export type KeyedResult = IdempotentResult & { replayed: boolean };

/**
 * The per-key logic, inside the caller's transaction `tx`: the advisory lock on (user, key) (409 with
 * `Retry-After: 1` while another transaction holds it), the stored answer (replayed), 422 when the key was
 * used for another request; otherwise runs `work` in `tx` and stores its answer there. Errors propagate, so
 * the caller's rollback (of the transaction or of a savepoint) drops the key together with the change.
 */
export async function applyIdempotent(tx: Queryable, keyed: KeyedRequest, work: (tx: Queryable) => Promise<IdempotentResult>): Promise<KeyedResult> {
  const { userId, key, hash } = keyed;
  const lock = await tx.kysely
    .selectNoFrom((eb) => eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.fn('hashtext', [eb.val(`idempotency:${userId}:${key}`)])]).as('locked'))
    .executeTakeFirst();
  if (!lock?.locked) throw new AppError('idempotencyInProgress', 409, { headers: { 'Retry-After': '1' } });
  const existing = await tx.kysely
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'state', 'response_status', 'response_body'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (existing) {
    if (existing.request_hash !== hash) throw new AppError('idempotencyMismatch', 422);
    if (existing.state !== 'done' || existing.response_status === null) throw new AppError('idempotencyInProgress', 409, { headers: { 'Retry-After': '1' } });
    return { status: existing.response_status, body: existing.response_body, replayed: true };
  }
  const result = await work(tx);
  await tx.kysely
    .insertInto('idempotency_keys')
    .values({ user_id: userId, key, request_hash: hash, state: 'done', response_status: result.status, response_body: JSON.stringify(result.body ?? null) })
    .execute();
  return { ...result, replayed: false };
}

/** Whether `userId` already has an answer (or a running request) stored under `key`. */
export async function isKnownIdempotencyKey(db: Queryable, userId: string, key: string): Promise<boolean> {
  const row = await db.kysely.selectFrom('idempotency_keys').select('key').where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
  return row !== undefined;
}

/**
 * Runs `work` in one transaction with the key row (when the request has a key) and sends the answer.
 * Errors thrown by `work` roll everything back, key included, so a corrected retry may reuse the key.
 */
export async function runIdempotent(
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  work: (tx: Queryable) => Promise<IdempotentResult>,
  hashBody: unknown = request.body,
): Promise<FastifyReply> {
  const key = idempotencyKeyOf(request);
  if (!key) {
    const result = await db.transaction(work);
    return reply.code(result.status).send(result.body);
  }
  const hash = requestHash(request.method, request.url, hashBody);
  const outcome = await db.transaction((tx) => applyIdempotent(tx, { userId, key, hash }, work));
  if (outcome.replayed) void reply.header(REPLAYED_HEADER, 'true');
  return reply.code(outcome.status).send(outcome.body);
}

/** What a failed call answers: status, headers and `{ message, errors? }` in the request's language. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { message: string; errors?: Record<string, string> };
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && ('code' in error || 'statusCode' in error);
}

/** Maps anything thrown in a request to a coded error; unknown failures become 500 `internal`. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isFastifyError(error)) {
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return new AppError('payloadTooLarge', 413);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return new AppError('unsupportedMediaType', 415);
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return new AppError('malformedJson', 400);
    }
    const status = error.statusCode ?? 500;
    if (error instanceof SyntaxError && status === 400) return new AppError('malformedJson', 400);
    if (status === 404) return new AppError('notFound', 404);
    if (status === 413) return new AppError('payloadTooLarge', 413);
    if (status === 415) return new AppError('unsupportedMediaType', 415);
    if (status >= 400 && status < 500) return new AppError('badRequest', status);
  }
  return new AppError('internal', 500);
}

/**
 * The one mapping of an error to its answer, used by the app's error handler and by each operation of a
 * push, so an operation inside a batch answers exactly what its direct call would have answered. It lives
 * beside the stored answers because a replay must give back the same bytes either way.
 */
export function errorAnswer(error: unknown, locale: Locale): ErrorAnswer {
  const appError = toAppError(error);
  const { fieldErrors, values, valueIds, headers, literalMessage } = appError.extras;
  const translatedIds = Object.fromEntries(Object.entries(valueIds ?? {}).map(([name, ids]) => [name, ids.map((id) => translate(locale, id)).join(', ')]));
  const body: ErrorAnswer['body'] = {
    message: literalMessage ?? translate(locale, `error.${appError.code}`, { ...values, ...translatedIds }),
  };
  if (fieldErrors) {
    body.errors = Object.fromEntries(
      Object.entries(fieldErrors).map(([field, code]) => {
        const id = hasMessage(`error.validation.${code}`) ? `error.validation.${code}` : 'error.validation.fallback';
        return [field, translate(locale, id, { field })];
      }),
    );
  }
  return { status: appError.status, headers: { ...headers }, body };
}

/**
 * Deletes keys older than IDEMPOTENCY_KEEP_DAYS before `now`; returns how many. Run by the job runner as a
 * recurring job (server/jobs/maintenance.ts), which makes it run once per interval across every node.
 */
export async function cleanupIdempotencyKeys(db: Queryable, now: Date): Promise<number> {
  const result = await db.kysely
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_KEEP_DAYS * 24 * 3600 * 1000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
