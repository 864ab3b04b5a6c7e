// The registry calls of docs/api.md, "Registry" (issue 13): the open registry and the sent ones, sending the
// open registry to the owner, the owner's approval (with final-cost adjustments) or return. The writes are
// operations (server/operation.ts), so a push batch of the outbox runs the same code as the direct call; their
// permissions ('registry.send': DIRECTION_MANAGER, FINANCIAL_DIRECTOR; 'registry.decide': OWNER) are checked before
// the body is read, and the registry's transition table again on the locked rows (service.ts). The reads are open
// to every member, as the projects' figures are. The exports are export-routes.ts.

import { array, is, object, refine, size, Struct } from 'superstruct';
import {
  CostAdjustment,
  REGISTRY_MAX_ADJUSTMENTS,
  REGISTRY_MAX_PROJECTS,
  RegistryApproveInput,
  RegistryReturnInput,
  RegistrySendInput,
} from '../../../src/domain/registry';
import { Uuid } from '../../../src/domain/suggestion';
import type { IdempotentResult } from '../../idempotency';
import { defineOperation, type Operation, type OperationCall } from '../../operation';
import { access, defineRoute, idParams, ok, type DeclaredRoute } from '../../route';
import { approveRegistry, messageOf, readRegistry, readRegistryOverview, returnRegistry, sendRegistry, type RegistryOutcome } from './service';

/**
 * `struct` whose fields are checked against `shape` (the same fields without the 'duplicate' refinements) until
 * they fit it. Superstruct runs an array's refiner even when one of its elements failed (a later element's failed
 * refinement resets the array's status), and the domain's 'duplicate' refiners read every id as a string: a body
 * like `{ projectIds: [0, ''] }` would throw inside them. Until the shape fits, the shape's own field errors are
 * the answer (the domain's codes on the same paths); then the domain's struct decides, its refinements included.
 */
function shapeFirst<T, S, U, V>(struct: Struct<T, S>, shape: Struct<U, V>): Struct<T, S> {
  return new Struct<T, S>({
    type: struct.type,
    schema: struct.schema,
    coercer: (value, context) => struct.coercer(value, context),
    validator: (value, context) => struct.validator(value, context),
    refiner: (value, context) => struct.refiner(value, context),
    *entries(value, context) {
      if (is(value, shape)) yield* struct.entries(value, context);
      else yield* shape.entries(value, context);
    },
  });
}

// An empty send is `required` (the domain's size() would call it `size`, "too long").
const SendBody = shapeFirst(
  RegistrySendInput,
  object({ id: Uuid, projectIds: refine(size(array(Uuid), 0, REGISTRY_MAX_PROJECTS), 'required', (ids) => ids.length > 0) }),
);
const ApproveBody = shapeFirst(RegistryApproveInput, object({ adjustments: size(array(CostAdjustment), 0, REGISTRY_MAX_ADJUSTMENTS), comment: RegistryApproveInput.schema.comment }));

/** `{ data: registry, message }`, the message in the request's language. */
function answer(outcome: RegistryOutcome, locale: OperationCall<unknown>['locale']): IdempotentResult {
  return { status: outcome.status, body: { data: outcome.registry, message: messageOf(outcome, locale) } };
}

/** Sending the open registry (the projects the sender saw in it) to the owner. */
export const sendRegistryOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/registry/send',
  permission: 'registry.send',
  input: SendBody,
  run: async (tx, { user, member, input, locale, now }) => answer(await sendRegistry(tx, member, user, input, { now }), locale),
});

/** The owner's approval of a sent registry, with the adjusted final costs and their reasons. */
export const approveRegistryOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/registry/:registryId/approve',
  permission: 'registry.decide',
  input: ApproveBody,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await approveRegistry(tx, member, user, params.registryId ?? '', input, { now }), locale),
});

/** The owner's return of a sent registry, with the comment; its projects go back to the open registry. */
export const returnRegistryOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/registry/:registryId/return',
  permission: 'registry.decide',
  input: RegistryReturnInput,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await returnRegistry(tx, member, user, params.registryId ?? '', input, { now }), locale),
});

/** The writes of this feature the outbox may push in a batch (app.ts lists them in PUSHABLE_OPERATIONS). */
export const REGISTRY_OPERATIONS: readonly Operation[] = [sendRegistryOperation, approveRegistryOperation, returnRegistryOperation];

export const registryRoutes: readonly DeclaredRoute[] = [
  ...REGISTRY_OPERATIONS.map((operation) => operation.route),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/registry',
    access: access.company('company.read'),
    params: idParams('companyId'),
    handler: async ({ db, member }) => ok(await readRegistryOverview(db, member)),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/registry/:registryId',
    access: access.company('company.read'),
    params: idParams('companyId', 'registryId'),
    handler: async ({ db, member, params }) => ok(await readRegistry(db, member, params.registryId)),
  }),
];
