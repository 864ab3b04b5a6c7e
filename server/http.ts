// Small helpers every route uses: the request's language and body validation with the shared
// structs of src/domain, failing with field codes that the error handler localizes.

import type { FastifyRequest } from 'fastify';
import type { Struct } from 'superstruct';
import type { Locale } from '../src/domain/auth';
import { validate } from '../src/domain/validation';
import { AppError } from './errors';
import { parseLocale } from './i18n/messages';

export function localeOf(request: FastifyRequest): Locale {
  return parseLocale(request.headers.language);
}

/** The validated body, or a 400 with `errors.<field>`. A body that is not a JSON object is a 400 too. */
export function parseBody<T, S>(struct: Struct<T, S>, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('badRequest', 400);
  const result = validate(struct, body);
  if (!result.ok) throw new AppError('validation', 400, { fieldErrors: result.errors });
  return result.value;
}

/** The answer of a call that has no data and no message for the user. */
export const OK = { data: null, message: 'OK' } as const;
