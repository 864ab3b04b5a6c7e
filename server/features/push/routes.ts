// POST /sync/push (docs/api.md, "Push"): the outbox sends up to 100 of its rows in one request instead of
// one request per row. Signed in once for the whole batch (an expired token answers 403 'Token Expired.'
// before anything runs); every operation is applied as its direct route would apply it (service.ts).

import { array, enums, object, optional, size, string, unknown } from 'superstruct';
import { Uuid } from '../../../src/domain/suggestion';
import type { Operation } from '../../operation';
import { access, defineRoute, ok, type DeclaredRoute } from '../../route';
import { applyPush, compilePushable, MAX_PUSH_OPERATIONS } from './service';

const PushOperationInput = object({
  id: Uuid,
  method: enums(['POST', 'PATCH', 'DELETE'] as const),
  path: size(string(), 1, 2000),
  body: optional(unknown()),
});

export const PushInput = object({
  operations: size(array(PushOperationInput), 1, MAX_PUSH_OPERATIONS),
});

/**
 * `POST /sync/push` over `operations`, the writes the outbox may push (composed in app.ts; each is also its own
 * route). Not run in one idempotent transaction of its own: the batch opens its transaction and keys each
 * operation under its own Idempotency-Key (service.ts).
 */
export function pushRoute(operations: readonly Operation[]): DeclaredRoute {
  const pushable = compilePushable(operations);
  return defineRoute({
    method: 'POST',
    path: '/sync/push',
    access: access.user,
    body: PushInput,
    write: false,
    handler: async ({ ctx, request, reply, user, body, locale }) => {
      const results = await applyPush(
        { db: ctx.db, pushable, user, locale, clock: ctx.clock, logFailure: (error) => request.log.error({ err: error }, 'push operation failed') },
        body.operations,
      );
      void reply.header('Cache-Control', 'no-store');
      return ok({ results });
    },
  });
}
