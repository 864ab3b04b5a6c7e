// Small helpers every route uses: the request's language, body validation with the shared structs of
// src/domain (failing with field codes that the error handler localizes), the one check of query strings
// and path parameters for characters no text may hold, and the list of the routes an app registered.
//
// What it guarantees: together with `validate` (src/domain/validation.ts), which refuses those characters in
// every body, no request reaches a handler, and so the database, with a C0 control character, DEL or an
// unpaired surrogate in its body, query or path. Headers need no check of their own: none reaches the database
// as sent (Authorization must match the bearer-token pattern, Idempotency-Key must be a uuid, Language is only
// compared with 'en').

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Struct } from 'superstruct';
import type { Locale } from '../src/domain/auth';
import { hasControlCharacters, validate } from '../src/domain/validation';
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

function isRefused(value: unknown): boolean {
  if (typeof value === 'string') return hasControlCharacters(value);
  return Array.isArray(value) && value.some(isRefused);
}

/**
 * Refuses, before anything else of a request runs, a path parameter or a query value (or name) holding a
 * character that single-line text may not hold (`hasControlCharacters`): a path parameter answers 404, as
 * any path naming nothing does; a query answers 400 with `errors.<name>` = `controlCharacters` (`_` when the
 * name itself is refused). Every route, declared or not, API or static, is covered, the not-found handler too.
 */
export function registerInputChecks(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const params: unknown = request.params;
    if (typeof params === 'object' && params !== null && Object.values(params).some(isRefused)) {
      done(new AppError('notFound', 404));
      return;
    }
    const query: unknown = request.query;
    const fieldErrors: Record<string, string> = {};
    if (typeof query === 'object' && query !== null) {
      for (const [name, value] of Object.entries(query)) {
        if (hasControlCharacters(name)) fieldErrors._ = 'controlCharacters';
        else if (isRefused(value)) fieldErrors[name] = 'controlCharacters';
      }
    }
    done(Object.keys(fieldErrors).length > 0 ? new AppError('validation', 400, { fieldErrors }) : undefined);
  });
}

export interface RegisteredRoute {
  method: string;
  /** The full path in Fastify's syntax, prefix included: '/main-service/api/v1/companies/:companyId'. */
  url: string;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Records every route registered on `app` (and its plugins) from now on; call before the routes are added. */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
}

/** The routes `recordRoutes` saw on `app`, in the order they were added (the fuzz test walks them all). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registered.get(app) ?? [];
}
