// A write declared once and reachable two ways: as its own route (POST /companies/:companyId/suggestions)
// and as an operation inside a push batch (features/push). The declaration holds the three parts
// of every route (STYLE.md): the input struct, the access check and the service call; both ways parse the
// body with the same struct, hash the request the same way for its Idempotency-Key and run the same work in
// the transaction that stores the key, so a row sent alone and then inside a batch is one request.

import type { Struct } from 'superstruct';
import type { Locale } from '../src/domain/auth';
import type { Permission } from '../src/domain/permissions';
import { requireAccess, type Membership } from './auth/access';
import type { UserRow } from './auth/users';
import type { Queryable } from './db/database';
import { parseBody } from './http';
import type { IdempotentResult } from './idempotency';
import { access, defineRoute, idParams, type DeclaredRoute } from './route';

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
  /** The caller's membership of the path's company, holding the operation's permission. */
  member: Membership;
  /** The path's parameters, decoded (`companyId` of '/companies/:companyId/suggestions'). */
  params: Readonly<Record<string, string>>;
  input: Input;
  locale: Locale;
  once: Once;
  /** The service's clock (server/clock.ts) read once for the operation: tests move it by hand. */
  now: Date;
}

export interface OperationSpec<Input> {
  method: OperationMethod;
  /** Under the API prefix, in Fastify's syntax, in a company: '/companies/:companyId/suggestions'. */
  path: string;
  /** What the caller must hold in the path's company (src/domain/permissions.ts). */
  permission: Permission;
  input: Struct<Input, unknown>;
  /** The service call (and any check on the data itself); runs in the transaction that stores the key. */
  run(tx: Queryable, call: OperationCall<Input>): Promise<IdempotentResult>;
}

/** What a caller may do with a body it has not parsed yet, whatever the operation's input type. */
export interface Operation {
  method: OperationMethod;
  path: string;
  /**
   * The work of one operation of a push batch: the company access first (404 for a non-member, 403 without the
   * permission), then the body (400 with field errors), then the service call, all inside `tx`.
   */
  prepare(call: Omit<OperationCall<unknown>, 'input' | 'member'> & { body: unknown }): (tx: Queryable) => Promise<IdempotentResult>;
  /** The operation's own route, declared like every other (server/route.ts). */
  route: DeclaredRoute;
}

function pathParamNames(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

export function defineOperation<Input>(spec: OperationSpec<Input>): Operation {
  const paramsStruct = idParams(...pathParamNames(spec.path));
  return {
    method: spec.method,
    path: spec.path,
    prepare({ body, ...call }) {
      return async (tx) => {
        const companyId = call.params.companyId ?? '';
        const member = await call.once(`access:${companyId}:${spec.permission}`, () => requireAccess(tx, call.user, companyId, spec.permission));
        const input = parseBody(spec.input, body);
        return spec.run(tx, { ...call, member, input });
      };
    },
    route: defineRoute({
      method: spec.method,
      path: spec.path,
      access: access.company(spec.permission),
      params: paramsStruct,
      body: spec.input,
      handler: ({ ctx, db, user, member, params, body, locale }) => spec.run(db, { user, member, params, input: body, locale, once: createOnce(), now: ctx.clock.now() }),
    }),
  };
}
