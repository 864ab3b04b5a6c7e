// A write declared once and reachable two ways: as its own route (POST /companies/:companyId/suggestions)
// and as an operation inside a push batch (routes.ts of this folder). The declaration holds the three parts
// of every route (STYLE.md): the input struct, the access check and the service call; both ways parse the
// body with the same struct, hash the request the same way for its Idempotency-Key and run the same work in
// the transaction that stores the key, so a row sent alone and then inside a batch is one request.

import type { FastifyInstance } from 'fastify';
import type { Struct } from 'superstruct';
import type { Locale } from '../../../src/domain/auth';
import type { UserRow } from '../../auth/users';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { localeOf, parseBody } from '../../http';
import { runIdempotent, type IdempotentResult } from '../../idempotency';

export type OperationMethod = 'POST' | 'PATCH' | 'DELETE';

/**
 * Runs a read once per transaction under `key` (its promise is shared, a refusal included). For the checks
 * no pushable operation changes: memberships, roles, departments and the start rule are management writes,
 * online-only by design, so within one push batch their answer holds for every operation. A direct call
 * gets a fresh one, so there it is simply the read.
 */
export type Once = <T>(key: string, read: () => Promise<T>) => Promise<T>;

export function createOnce(): Once {
  const reads = new Map<string, Promise<unknown>>();
  return <T>(key: string, read: () => Promise<T>): Promise<T> => {
    const known = reads.get(key);
    if (known) return known as Promise<T>;
    const started = read();
    reads.set(key, started);
    return started;
  };
}

export interface OperationCall<Input> {
  user: UserRow;
  /** The path's parameters, decoded (`companyId` of '/companies/:companyId/suggestions'). */
  params: Readonly<Record<string, string>>;
  input: Input;
  locale: Locale;
  once: Once;
}

export interface OperationSpec<Input> {
  method: OperationMethod;
  /** Under the API prefix, in Fastify's syntax: '/companies/:companyId/suggestions'. */
  path: string;
  input: Struct<Input, unknown>;
  /** Access check and service call; runs in the transaction that also stores the Idempotency-Key. */
  run(tx: Queryable, call: OperationCall<Input>): Promise<IdempotentResult>;
}

/** What a caller may do with a body it has not parsed yet, whatever the operation's input type. */
export interface Operation {
  method: OperationMethod;
  path: string;
  /** Parses the body (400 with field errors when it does not fit) and returns the work to run. */
  prepare(call: Omit<OperationCall<unknown>, 'input'> & { body: unknown }): (tx: Queryable) => Promise<IdempotentResult>;
}

export function defineOperation<Input>(spec: OperationSpec<Input>): Operation {
  return {
    method: spec.method,
    path: spec.path,
    prepare({ body, ...call }) {
      const input = parseBody(spec.input, body);
      return (tx) => spec.run(tx, { ...call, input });
    },
  };
}

/** The operation's direct route: sign-in check, body, then the work under the request's Idempotency-Key. */
export function registerOperationRoute(app: FastifyInstance, ctx: AppContext, operation: Operation): void {
  app.route<{ Params: Record<string, string> }>({
    method: operation.method,
    url: operation.path,
    handler: async (request, reply) => {
      const user = await ctx.requireUser(request);
      const work = operation.prepare({ user, params: request.params, body: request.body, locale: localeOf(request), once: createOnce() });
      return runIdempotent(ctx.db, request, reply, user.id, work);
    },
  });
}
