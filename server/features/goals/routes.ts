// The goal calls of docs/api.md, "Goals" (issue 12): filled by the goals slice.
import type { DeclaredRoute } from '../../route';
import type { Operation } from '../../operation';

/** The writes of this feature the outbox may push in a batch (app.ts lists them in PUSHABLE_OPERATIONS). */
export const GOAL_OPERATIONS: readonly Operation[] = [];

export const goalRoutes: readonly DeclaredRoute[] = [...GOAL_OPERATIONS.map((operation) => operation.route)];
