// The exports of a registry (issue 13): `GET /companies/{companyId}/registry/{registryId}/export?format=xlsx|pdf`,
// in the request's language.

import type { DeclaredRoute } from '../../route';

export const registryExportRoutes: readonly DeclaredRoute[] = [];
