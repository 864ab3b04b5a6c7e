// The import calls of docs/api.md "Import": preview (dryRun=1) and import of a staff list, the stored
// report, and the template. Every call checks `people.manage` first (before the upload is even read, so
// a member without the right is refused with nothing parsed, read or changed). Multipart bodies are
// accepted in this scope only, up to IMPORT_MAX_BYTES; the import itself runs in one transaction with its
// Idempotency-Key, whose request hash covers the file's sha-256, its name and the mapping.

import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from '../../../../src/domain/company';
import type { AppContext } from '../../../context';
import { AppError } from '../../../errors';
import { toUploadError } from '../../../multipart';
import { localeOf } from '../../../http';
import { runIdempotent } from '../../../idempotency';
import { requireAccess } from '../../../auth/access';
import { cleanFileName } from '../../files/routes';
import { applyMapping, detectTable, missingFields, parseMappingField } from './mapping';
import { parseSpreadsheet } from './parse';
import { importEmployees, previewOf, readImport, toImportReport, type Table } from './service';
import { buildTemplate, TEMPLATE_CONTENT_TYPES, TEMPLATE_FORMATS, type TemplateFormat } from './template';

const IMPORT_MAX_MEGABYTES = IMPORT_MAX_BYTES / (1024 * 1024);
/** The `mapping` field: a JSON array of at most 200 short names fits many times over. */
const MAPPING_MAX_BYTES = 16 * 1024;

interface Upload {
  name: string | undefined;
  bytes: Buffer;
  mapping: string | undefined;
}

async function readUpload(request: FastifyRequest): Promise<Upload> {
  let file: { name: string | undefined; bytes: Buffer } | null = null;
  let mapping: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') file = { name: part.filename, bytes };
      } else if (part.fieldname === 'mapping') {
        if (part.valueTruncated || typeof part.value !== 'string') throw new AppError('validation', 400, { fieldErrors: { mapping: 'invalid' } });
        mapping = part.value;
      }
    }
  } catch (error) {
    throw toUploadError(error, { tooLarge: new AppError('importTooLarge', 413, { values: { megabytes: IMPORT_MAX_MEGABYTES } }), missingCode: 'importFileMissing' });
  }
  if (!file) throw new AppError('importFileMissing', 400);
  return { ...file, mapping };
}

export function registerEmployeeImportRoutes(api: FastifyInstance, ctx: AppContext): void {
  // Its own scope: multipart bodies are accepted on these routes only; everywhere else stays JSON.
  void api.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 4, fieldSize: MAPPING_MAX_BYTES, parts: 6, headerPairs: 100 },
    });

    scope.post<{ Params: { companyId: string }; Querystring: { dryRun?: string } }>('/companies/:companyId/employees/import', async (request, reply) => {
      const user = await ctx.requireUser(request);
      const { companyId } = request.params;
      await requireAccess(ctx.db, user, companyId, 'people.manage');
      const dryRun = request.query.dryRun === '1' || request.query.dryRun === 'true';

      const upload = await readUpload(request);
      const sheet = await parseSpreadsheet(upload.bytes);
      const detected = detectTable(sheet.rows);
      const columns = applyMapping(detected.columns, parseMappingField(upload.mapping, detected.columns.length));
      const table: Table = { columns, rows: sheet.rows.slice(detected.headerIndex + 1) };
      if (table.rows.length > IMPORT_MAX_ROWS) throw new AppError('importTooManyRows', 400, { values: { max: IMPORT_MAX_ROWS } });
      const missing = missingFields(columns);
      const fileName = upload.name?.trim() ? cleanFileName(upload.name, sheet.kind) : `employees.${sheet.kind}`;

      if (dryRun) {
        // Nothing is stored, so there is nothing to make idempotent: the preview is simply answered again.
        return reply.code(200).send({ data: previewOf(fileName, table, missing), message: 'OK' });
      }
      if (missing.length > 0) throw new AppError('importMissingColumns', 400, { valueIds: { missing: missing.map((f) => `import.field.${f}`) } });

      const locale = localeOf(request);
      // As for uploads: the hash covers the file's sha-256, its name and the mapping, not the multipart framing.
      const fileHash = createHash('sha256').update(upload.bytes).digest('hex');
      return runIdempotent(
        ctx.db,
        request,
        reply,
        user.id,
        async (tx) => {
          await requireAccess(tx, user, companyId, 'people.manage');
          const stored = await importEmployees(tx, { companyId, userId: user.id, fileName, table });
          const data = toImportReport({ id: stored.id, companyId, fileName, createdAt: stored.createdAt }, stored.report, locale);
          return { status: 201, body: { data, message: 'OK' } };
        },
        { sha256: fileHash, name: fileName, mapping: upload.mapping ?? null },
      );
    });

    scope.get<{ Params: { companyId: string; importId: string } }>('/companies/:companyId/employees/imports/:importId', async (request) => {
      const user = await ctx.requireUser(request);
      await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
      const found = await readImport(ctx.db, request.params.companyId, request.params.importId);
      if (!found) throw new AppError('notFound', 404);
      return { data: toImportReport(found, found.report, localeOf(request)), message: 'OK' };
    });

    scope.get<{ Params: { companyId: string }; Querystring: { format?: string } }>('/companies/:companyId/employees/import-template', async (request, reply) => {
      const user = await ctx.requireUser(request);
      await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
      const format = request.query.format ?? 'xlsx';
      if (!(TEMPLATE_FORMATS as readonly string[]).includes(format)) throw new AppError('validation', 400, { fieldErrors: { format: 'invalid' } });
      const locale = localeOf(request);
      const bytes = await buildTemplate(format as TemplateFormat, locale);
      return reply
        .headers({
          'Content-Type': TEMPLATE_CONTENT_TYPES[format as TemplateFormat],
          'Content-Disposition': `attachment; filename="employees-template-${locale}.${format}"`,
          'Cache-Control': 'private, no-cache',
          'X-Content-Type-Options': 'nosniff',
        })
        .send(bytes);
    });
  });
}
