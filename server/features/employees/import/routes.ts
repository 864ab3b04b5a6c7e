// The import calls of docs/api.md "Import", declared (server/route.ts): preview (dryRun=1) and import of a
// staff list, the stored report, and the template. What they guarantee:
// - every call checks `people.manage` first: a member without the right is refused before the upload is even
//   read, so nothing is parsed, read or changed (the declared route's access check runs before its handler);
// - multipart bodies are accepted on the upload route only, up to IMPORT_MAX_BYTES (its own scope with the
//   multipart plugin, as the image upload has); every other route of the API stays JSON;
// - the import itself runs in one transaction with its Idempotency-Key, whose request hash covers the file's
//   sha-256, its name and the mapping (not the multipart framing), with the access checked again inside it.

import type { FastifyRequest } from 'fastify';
import { boolean, coerce, optional, string, type } from 'superstruct';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from '../../../../src/domain/company';
import { AppError } from '../../../errors';
import { readUploadedFile, withMultipart, type MultipartLimits } from '../../../multipart';
import { runIdempotent } from '../../../idempotency';
import { requireAccess } from '../../../auth/access';
import { access, defineRoute, idParams, ok, queryEnum, type DeclaredRoute } from '../../../route';
import { cleanFileName } from '../../files/routes';
import { applyMapping, detectTable, missingFields, parseMappingField } from './mapping';
import { parseSpreadsheet } from './parse';
import { importEmployees, previewOf, readImport, toImportReport, type Table } from './service';
import { buildTemplate, TEMPLATE_CONTENT_TYPES, TEMPLATE_FORMATS } from './template';

const IMPORT_MAX_MEGABYTES = IMPORT_MAX_BYTES / (1024 * 1024);
/** The `mapping` field: a JSON array of at most 200 short names fits many times over. */
const MAPPING_MAX_BYTES = 16 * 1024;

interface Upload {
  name: string | undefined;
  bytes: Buffer;
  sha256: string;
  mapping: string | undefined;
}

/** The staff list (field `file`) and the `mapping` field; a malformed body is a 400 (server/multipart.ts). */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  const received = await readUploadedFile(request, {
    field: 'file',
    maxBytes: IMPORT_MAX_BYTES,
    tooLarge: new AppError('importTooLarge', 413, { values: { megabytes: IMPORT_MAX_MEGABYTES } }),
    missingCode: 'importFileMissing',
    fields: ['mapping'],
  });
  return { name: received.name, bytes: received.bytes, sha256: received.sha256, mapping: received.fields.mapping };
}

/** The multipart limits of the import (as readUpload reads them). */
const IMPORT_LIMITS: MultipartLimits = { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 4, fieldSize: MAPPING_MAX_BYTES, parts: 6, headerPairs: 100 };

const companyParams = idParams('companyId');

/** `?dryRun=1` (or `true`) previews; any other value imports, as before the routes were declared. */
const ImportQuery = type({
  dryRun: coerce(optional(boolean()), string(), (value) => value === '1' || value === 'true'),
});

const TemplateQuery = type({ format: queryEnum(TEMPLATE_FORMATS) });

export const employeeImportRoutes: readonly DeclaredRoute[] = [
  withMultipart(
    defineRoute({
      method: 'POST',
      path: '/companies/:companyId/employees/import',
      access: access.company('people.manage'),
      params: companyParams,
      query: ImportQuery,
      // No body struct: the body is a multipart stream, read by the handler. Not the route's own idempotent
      // transaction either: the upload is read before any transaction opens (one held open while a client
      // sends 5 MiB would hold the database's connection, and on PGlite every other request), and the key's
      // hash needs the file's sha-256, known only once it is read. The import opens its keyed transaction below.
      write: false,
      handler: async ({ ctx, request, reply, user, params: { companyId }, query, locale }) => {
        const upload = await readUpload(request);
        const sheet = await parseSpreadsheet(upload.bytes);
        const detected = detectTable(sheet.rows);
        const columns = applyMapping(detected.columns, parseMappingField(upload.mapping, detected.columns.length));
        const table: Table = { columns, rows: sheet.rows.slice(detected.headerIndex + 1) };
        if (table.rows.length > IMPORT_MAX_ROWS) throw new AppError('importTooManyRows', 400, { values: { max: IMPORT_MAX_ROWS } });
        const missing = missingFields(columns);
        const fileName = upload.name?.trim() ? cleanFileName(upload.name, sheet.kind) : `employees.${sheet.kind}`;

        // Nothing is stored, so there is nothing to make idempotent: the preview is simply answered again.
        if (query.dryRun) return ok(previewOf(fileName, table, missing));
        if (missing.length > 0) throw new AppError('importMissingColumns', 400, { valueIds: { missing: missing.map((f) => `import.field.${f}`) } });

        return runIdempotent(
          ctx.db,
          request,
          reply,
          user.id,
          async (tx) => {
            const member = await requireAccess(tx, user, companyId, 'people.manage');
            const stored = await importEmployees(tx, { companyId, userId: user.id, editorRoles: member.roles, fileName, table });
            const data = toImportReport({ id: stored.id, companyId, fileName, createdAt: stored.createdAt }, stored.report, locale);
            return { status: 201, body: { data, message: 'OK' } };
          },
          { sha256: upload.sha256, name: fileName, mapping: upload.mapping ?? null },
        );
      },
    }),
    IMPORT_LIMITS,
  ),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/employees/imports/:importId',
    access: access.company('people.manage'),
    params: idParams('companyId', 'importId'),
    handler: async ({ db, params: { companyId, importId }, locale }) => {
      const found = await readImport(db, companyId, importId);
      if (!found) throw new AppError('notFound', 404);
      return ok(toImportReport(found, found.report, locale));
    },
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/employees/import-template',
    access: access.company('people.manage'),
    params: companyParams,
    query: TemplateQuery,
    handler: async ({ reply, query, locale }) => {
      const format = query.format ?? 'xlsx';
      const bytes = await buildTemplate(format, locale);
      return reply
        .headers({
          'Content-Type': TEMPLATE_CONTENT_TYPES[format],
          'Content-Disposition': `attachment; filename="employees-template-${locale}.${format}"`,
          'Cache-Control': 'private, no-cache',
          'X-Content-Type-Options': 'nosniff',
        })
        .send(bytes);
    },
  }),
];
