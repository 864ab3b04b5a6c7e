// The exports of a registry (docs/api.md "Registry exports"):
// `GET /companies/{companyId}/registry/{registryId}/export?format=xlsx|pdf`, in the request's language. Any member
// may download any registry of their company (every member sees the registries); a non-member, another company's
// registry and a missing one answer 404 alike (the declared route checks membership before the query is read); a
// missing or unknown `format` answers 400 `{ errors: { format } }`.

import { enums, type } from 'superstruct';
import { access, defineRoute, idParams, type DeclaredRoute } from '../../route';
import { buildRegistryExport, loadRegistryExport, REGISTRY_EXPORT_CONTENT_TYPES, REGISTRY_EXPORT_FORMATS, registryExportFileName } from './export';

const ExportQuery = type({ format: enums(REGISTRY_EXPORT_FORMATS) });

export const registryExportRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/registry/:registryId/export',
    access: access.company('company.read'),
    params: idParams('companyId', 'registryId'),
    query: ExportQuery,
    handler: async ({ db, params: { companyId, registryId }, query: { format }, locale, reply }) => {
      const input = await loadRegistryExport(db, companyId, registryId);
      const file = await buildRegistryExport(input, format, locale);
      return reply
        .headers({
          'Content-Type': REGISTRY_EXPORT_CONTENT_TYPES[format],
          'Content-Disposition': `attachment; filename="${registryExportFileName(input.registry.number, format)}"`,
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
          'Content-Language': locale,
        })
        .send(file);
    },
  }),
];
