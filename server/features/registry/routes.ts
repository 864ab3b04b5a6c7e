// The registry calls of docs/api.md, "Registry" (issue 13): the open registry and the sent ones, sending the
// open registry to the owner, the owner's approval (with final-cost adjustments) or return, and the exports of a
// registry (XLSX, PDF). The writes are operations (server/operation.ts), so a push batch of the outbox runs the
// same code as the direct call.

import type { Operation } from '../../operation';
import type { DeclaredRoute } from '../../route';

/** The writes of this feature the outbox may push in a batch (app.ts lists them in PUSHABLE_OPERATIONS). */
export const REGISTRY_OPERATIONS: readonly Operation[] = [];

export const registryRoutes: readonly DeclaredRoute[] = [];
