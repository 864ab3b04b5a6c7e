// POST /sync/push (docs/api.md, "Push"): the outbox sends up to 100 of its rows in one request instead of
// one request per row. Signed in once for the whole batch (an expired token answers 403 'Token Expired.'
// before anything runs); every operation is applied as its direct route would apply it (service.ts).

import type { FastifyInstance } from 'fastify';
import { array, enums, object, optional, size, string, unknown } from 'superstruct';
import { Uuid } from '../../../src/domain/suggestion';
import type { AppContext } from '../../context';
import { localeOf, parseBody } from '../../http';
import { submitSuggestionOperation } from '../suggestions/routes';
import { applyPush, compilePushable, MAX_PUSH_OPERATIONS } from './service';

/** The writes the outbox may push; each is also its own route. */
export const PUSHABLE_OPERATIONS = [submitSuggestionOperation] as const;

const PushOperationInput = object({
  id: Uuid,
  method: enums(['POST', 'PATCH', 'DELETE'] as const),
  path: size(string(), 1, 2000),
  body: optional(unknown()),
});

export const PushInput = object({
  operations: size(array(PushOperationInput), 1, MAX_PUSH_OPERATIONS),
});

export function registerPushRoutes(app: FastifyInstance, ctx: AppContext): void {
  const pushable = compilePushable(PUSHABLE_OPERATIONS);
  app.post('/sync/push', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const { operations } = parseBody(PushInput, request.body);
    const results = await applyPush(
      { db: ctx.db, pushable, user, locale: localeOf(request), logFailure: (error) => request.log.error({ err: error }, 'push operation failed') },
      operations,
    );
    void reply.header('Cache-Control', 'no-store');
    return { data: { results }, message: 'OK' };
  });
}
