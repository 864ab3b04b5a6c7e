// Uploaded images (spec section 7, DESIGN.md "files"): POST /files/upload takes one multipart field `file`,
// decides its type from its bytes (PNG or JPEG, whatever its name or declared type says), keeps it through
// the file storage and answers `{ status: 200, message, data: { imageId, imageLink, name } }`.
// GET /uploads/{fileName} gives the bytes back to whoever may see them, cacheable for good (a file never
// changes under its id).

import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../../../src/domain/paths';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { toUploadError } from '../../multipart';
import { detectImageType, EXTENSION_OF } from './detect';
import { runIdempotent } from '../../idempotency';
import { requireEntityAccess } from '../../auth/access';
import { createDatabaseFileStorage, type FileStorage, type StoredFile } from './storage';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const MAX_UPLOAD_MEGABYTES = MAX_UPLOAD_BYTES / (1024 * 1024);
const MAX_NAME_LENGTH = 200;

export const UPLOADS_PATH = '/uploads';

export function imageLinkOf(file: Pick<StoredFile, 'id' | 'contentType'>): string {
  return `${API_PREFIX}${UPLOADS_PATH}/${file.id}.${EXTENSION_OF[file.contentType]}`;
}

/** `<uuid>` or `<uuid>.<ext>`: the id, or null for anything else (answered 404 like a missing file). */
export function fileIdOf(fileName: string): string | null {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.(?:png|jpe?g))?$/i.exec(fileName);
  return match?.[1]?.toLowerCase() ?? null;
}

/** The name the user gave the file, without any path, control characters or excess length. */
export function cleanFileName(raw: string | undefined, fallbackExtension: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const base = (raw ?? '').split(/[\\/]/).pop()?.replace(/[\u0000-\u001f\u007f]/g, '').trim() ?? '';
  const name = base.length > MAX_NAME_LENGTH ? base.slice(base.length - MAX_NAME_LENGTH) : base;
  return name || `image.${fallbackExtension}`;
}

/** Reads the one file of the request (field `file`); other fields are read and ignored. */
async function readUploadedFile(request: FastifyRequest): Promise<{ name: string | undefined; bytes: Buffer }> {
  let found: { name: string | undefined; bytes: Buffer } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      // With `files: 1` a second file ends the iteration with FST_FILES_LIMIT; a file under another
      // field name is the only file there can be, so the `file` field is missing.
      const bytes = await part.toBuffer();
      if (part.fieldname === 'file') found = { name: part.filename, bytes };
    }
  } catch (error) {
    throw toUploadError(error, { tooLarge: new AppError('fileTooLarge', 413, { values: { megabytes: MAX_UPLOAD_MEGABYTES } }), missingCode: 'fileMissing' });
  }
  if (!found) throw new AppError('fileMissing', 400);
  return found;
}

export function registerFileRoutes(api: FastifyInstance, ctx: AppContext, storage: FileStorage = createDatabaseFileStorage(ctx.db)): void {
  // Its own scope: multipart bodies are accepted on these routes only; everywhere else stays JSON.
  void api.register(async (files) => {
    await files.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 },
    });

    files.post('/files/upload', async (request, reply) => {
      const user = await ctx.requireUser(request);
      const upload = await readUploadedFile(request);
      const contentType = detectImageType(upload.bytes);
      if (!contentType) throw new AppError('fileType', 415);
      const name = cleanFileName(upload.name, EXTENSION_OF[contentType]);
      // The key's request hash covers the file's sha-256 and name, not the multipart framing.
      const fileHash = createHash('sha256').update(upload.bytes).digest('hex');
      return runIdempotent(
        ctx.db,
        request,
        reply,
        user.id,
        async (tx) => {
          const stored = await storage.save({ ownerId: user.id, companyId: null, contentType, name, bytes: upload.bytes }, tx);
          return { status: 200, body: { status: 200, message: 'OK', data: { imageId: stored.id, imageLink: imageLinkOf(stored), name: stored.name } } };
        },
        { sha256: fileHash, name },
      );
    });

    files.get<{ Params: { fileName: string } }>(`${UPLOADS_PATH}/:fileName`, async (request, reply) => {
      const user = await ctx.requireUser(request);
      const id = fileIdOf(request.params.fileName);
      // Its uploader while it is not attached; once attached, whoever may read its proposal (auth/access.ts).
      // Anyone else's file answers exactly like a missing one, so ids cannot be probed.
      if (!id) throw new AppError('notFound', 404);
      await requireEntityAccess(ctx.db, user, 'file.read', [id]);
      const found = await storage.read(id);
      if (!found) throw new AppError('notFound', 404);
      return reply
        .headers({
          'Content-Type': found.file.contentType,
          'Content-Length': String(found.bytes.byteLength),
          'Cache-Control': 'private, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
          'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(found.file.name)}`,
        })
        .send(found.bytes);
    });
  });
}
