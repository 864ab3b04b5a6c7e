// Declared routes: every call of the API is declared once with who may call it, the structs of its path,
// query and body, and its handler (STYLE.md: "Declared routes"). What a declaration guarantees, in this order:
//
//   1. the caller: a valid access token of an active user (401 / 403 `Token Expired.`), unless `public`;
//   2. access, before anything of the request is parsed or read: for a company route, an active membership of
//      the path's company (a non-member, a missing or a malformed company id answer 404 alike, so another
//      tenant's ids are never confirmed and an outsider cannot learn the body's rules) holding the route's
//      permission (403); for an admin route, the platform admin (403);
//   3. the path's other parameters (a malformed one names nothing: 404), the query (400 with field errors) and
//      the body (400 with field errors), all validated by the shared structs of src/domain;
//   4. the handler: reads run on the database; writes run inside the transaction that also stores the request's
//      Idempotency-Key (idempotency.ts), with the company access checked again inside it, so the change, the
//      key and the check see one state and a refused or failed write leaves nothing behind.
//
// Errors leave through the app's one error handler (app.ts). Features export arrays of declared routes;
// app.ts registers them all, and the fuzz test walks the same list.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { coerce, defaulted, enums, integer, object, optional, refine, size, string, type Struct } from 'superstruct';
import type { Locale } from '../src/domain/auth';
import type { Permission } from '../src/domain/permissions';
import { Uuid } from '../src/domain/suggestion';
import { validate } from '../src/domain/validation';
import { requireAccess, requireAdmin, type Membership } from './auth/access';
import type { UserRow } from './auth/users';
import type { AppContext } from './context';
import type { Queryable } from './db/database';
import { AppError } from './errors';
import { localeOf, parseBody } from './http';
import { runIdempotent } from './idempotency';

export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Who may call a route. */
export type RouteAccess =
  | { readonly kind: 'public' }
  | { readonly kind: 'user' }
  | { readonly kind: 'admin' }
  | { readonly kind: 'company'; readonly permission: Permission };

export const access = {
  /** No sign-in: sign-up, sign-in, recovery, health. */
  public: { kind: 'public' },
  /** Any signed-in user; the handler decides from the user alone (their own profile, their companies). */
  user: { kind: 'user' },
  /** The platform admin. */
  admin: { kind: 'admin' },
  /** A member of the path's `:companyId` holding `permission` (src/domain/permissions.ts). */
  company: (permission: Permission) => ({ kind: 'company', permission }) as const,
} as const;

type CallerOf<A extends RouteAccess> = A extends { kind: 'public' } ? null : UserRow;
type MemberOf<A extends RouteAccess> = A extends { kind: 'company' } ? Membership : null;

export interface RouteCall<A extends RouteAccess, P, Q, B> {
  ctx: AppContext;
  request: FastifyRequest;
  reply: FastifyReply;
  /** A write's transaction (the one that stores its Idempotency-Key); the database for a read. */
  db: Queryable;
  user: CallerOf<A>;
  member: MemberOf<A>;
  params: P;
  query: Q;
  body: B;
  locale: Locale;
}

/** What a handler answers: a status (200 by default) and the JSON body. */
export interface RouteAnswer {
  status?: number;
  body: unknown;
}

/** `{ data, message }`, the usual success body (DESIGN.md, API conventions). */
export function ok(data: unknown, message = 'OK', status = 200): RouteAnswer {
  return { status, body: { data, message } };
}

export interface RouteSpec<A extends RouteAccess, P, Q, B> {
  method: RouteMethod;
  /** Under the API prefix, in Fastify's syntax; company routes start with '/companies/:companyId'. */
  path: string;
  access: A;
  params?: Struct<P, unknown>;
  query?: Struct<Q, unknown>;
  body?: Struct<B, unknown>;
  /** A call that sends no body at all is taken as `{}` (calls whose body has no fields). */
  bodyMayBeEmpty?: boolean;
  /** Whether the handler runs in the idempotent transaction; default: every method but GET. */
  write?: boolean;
  /** What the Idempotency-Key's request hash covers when it is not the JSON body (an upload: its file's hash). */
  identity?(call: RouteCall<A, P, Q, B>): unknown;
  handler(call: RouteCall<A, P, Q, B>): Promise<RouteAnswer | FastifyReply>;
}

/** A declared route as the app registers it and as tests walk it (structs exposed for the fuzz test). */
export interface DeclaredRoute {
  method: RouteMethod;
  path: string;
  access: RouteAccess;
  params: Struct<unknown, unknown> | undefined;
  query: Struct<unknown, unknown> | undefined;
  body: Struct<unknown, unknown> | undefined;
  register(app: FastifyInstance, ctx: AppContext): void;
}

/** A uuid path segment, lower-cased (ids are stored lower-case). */
export const PathId = coerce(Uuid, string(), (value) => value.toLowerCase());

/** The struct of a path whose parameters are all ids: `idParams('companyId', 'departmentId')`. */
export function idParams<const N extends string>(...names: readonly N[]): Struct<Record<N, string>, unknown> {
  return object(Object.fromEntries(names.map((name) => [name, PathId]))) as unknown as Struct<Record<N, string>, unknown>;
}

// Query values arrive as strings; an empty one (`?status=`) means "not given". Query structs are built with
// superstruct's `type()` so that parameters a route does not know are ignored, as browsers and proxies add some.

/** `?limit=`: an integer from 1 to `max`, `fallback` when absent or empty. */
export function queryLimit(fallback: number, max: number) {
  return defaulted(
    coerce(
      refine(integer(), 'invalid', (n) => n >= 1 && n <= max),
      string(),
      (value) => (value.trim() === '' ? fallback : Number(value)),
    ),
    fallback,
  );
}

/** An optional text parameter of at most `max` characters; empty is absent. */
export function queryText(max: number) {
  return coerce(optional(size(string(), 0, max)), string(), (value) => (value === '' ? undefined : value));
}

/** An optional choice among `values`; empty is absent. */
export function queryEnum<const T extends string>(values: readonly T[]) {
  return coerce(optional(enums(values)), string(), (value) => (value === '' ? undefined : value));
}

/** An optional uuid parameter (lower-cased); empty is absent. */
export const queryId = coerce(optional(PathId), string(), (value) => (value === '' ? undefined : value));

function validQuery<Q>(struct: Struct<Q, unknown>, raw: unknown): Q {
  const result = validate(struct, raw ?? {});
  if (!result.ok) throw new AppError('validation', 400, { fieldErrors: result.errors });
  return result.value;
}

function validParams<P>(struct: Struct<P, unknown>, raw: unknown): P {
  const result = validate(struct, raw ?? {});
  // A path segment that is not a valid id names nothing: answered like a missing one.
  if (!result.ok) throw new AppError('notFound', 404);
  return result.value;
}

function isReply(value: unknown, reply: FastifyReply): value is FastifyReply {
  return value === reply;
}

export function defineRoute<A extends RouteAccess, P = Record<string, string>, Q = Record<string, never>, B = undefined>(
  spec: RouteSpec<A, P, Q, B>,
): DeclaredRoute {
  const isWrite = spec.write ?? spec.method !== 'GET';
  return {
    method: spec.method,
    path: spec.path,
    access: spec.access,
    params: spec.params as Struct<unknown, unknown> | undefined,
    query: spec.query as Struct<unknown, unknown> | undefined,
    body: spec.body as Struct<unknown, unknown> | undefined,
    register(app, ctx) {
      app.route<{ Params: Record<string, string> }>({
        method: spec.method,
        url: spec.path,
        handler: async (request, reply) => {
          const rule = spec.access;
          const user = rule.kind === 'public' ? null : await ctx.requireUser(request);
          const companyId = request.params.companyId ?? '';
          const checkAccess = async (db: Queryable): Promise<Membership | null> => {
            if (rule.kind === 'admin' && user) requireAdmin(user);
            if (rule.kind !== 'company' || !user) return null;
            return requireAccess(db, user, companyId, rule.permission);
          };
          const member = await checkAccess(ctx.db);
          const params = (spec.params ? validParams(spec.params, request.params) : request.params) as P;
          const query = (spec.query ? validQuery(spec.query, request.query) : {}) as Q;
          const rawBody = request.body === undefined && spec.bodyMayBeEmpty ? {} : request.body;
          const body = (spec.body ? parseBody(spec.body, rawBody) : undefined) as B;
          const locale = localeOf(request);
          const call = (db: Queryable, checked: Membership | null): RouteCall<A, P, Q, B> => ({
            ctx,
            request,
            reply,
            db,
            user: user as CallerOf<A>,
            member: checked as MemberOf<A>,
            params,
            query,
            body,
            locale,
          });

          if (!isWrite || !user) {
            // Reads, and public calls (sign-up, sign-in: no user to key an Idempotency-Key to; their services
            // open the transactions they need).
            const answer = await spec.handler(call(ctx.db, member));
            if (isReply(answer, reply)) return answer;
            return reply.code(answer.status ?? 200).send(answer.body);
          }
          const run = async (tx: Queryable) => {
            const answer = await spec.handler(call(tx, await checkAccess(tx)));
            if (isReply(answer, reply)) throw new Error(`${spec.method} ${spec.path}: a write must answer a body, not send the reply itself`);
            return { status: answer.status ?? 200, body: answer.body };
          };
          const identity = spec.identity ? spec.identity(call(ctx.db, member)) : request.body;
          const sent = await runIdempotent(ctx.db, request, reply, user.id, run, identity);
          // A write may have enqueued jobs (a mail among them): committed now, so the runner may start them.
          ctx.jobs.wake();
          return sent;
        },
      });
    },
  };
}

/** Registers declared routes on the API scope. */
export function registerRoutes(app: FastifyInstance, ctx: AppContext, routes: readonly DeclaredRoute[]): void {
  for (const route of routes) route.register(app, ctx);
}
