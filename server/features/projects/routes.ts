// The project calls of docs/api.md, "Projects" (issue 12): filled by the projects slice.
import type { DeclaredRoute } from '../../route';
import type { Operation } from '../../operation';

/** The writes of this feature the outbox may push in a batch (app.ts lists them in PUSHABLE_OPERATIONS). */
export const PROJECT_OPERATIONS: readonly Operation[] = [];

export const projectRoutes: readonly DeclaredRoute[] = [...PROJECT_OPERATIONS.map((operation) => operation.route)];
