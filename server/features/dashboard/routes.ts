// The dashboard calls of docs/api.md, "Dashboard" (issue 13): the figures of a period for the caller's scope
// (src/domain/dashboard.ts, dashboardScopeOf), and the financial director's EBITDA per month.

import type { DeclaredRoute } from '../../route';

export const dashboardRoutes: readonly DeclaredRoute[] = [];
