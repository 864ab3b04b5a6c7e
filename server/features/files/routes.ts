// Uploaded images (spec section 7, DESIGN.md "files"): POST /files/upload takes one multipart field `file`,
// decides its type from its bytes (PNG or JPEG, whatever its name or declared type says), keeps it through
// the file storage and answers `{ status: 200, message, data: { imageId, imageLink, name } }`.
// GET /uploads/{fileName} gives the bytes back to whoever may see them, cacheable for good (a file never
// changes under its id), under a name whose extension is the detected type's (never a stored `.html`).
//
// An upload is refused before its body is read when its user is over the upload rate or the quota of
// unattached files (unattached.ts); its body is then streamed into one buffer, refused at the first bytes
// when it is not an image and at the size limit when too large (server/multipart.ts); storing it waits for
// one of a few slots (store-queue.ts), so parallel uploads do not multiply the copies storing makes.
//
// Both are declared routes (server/route.ts); the upload is the one route in a scope of its own that accepts
// multipart bodies.

import { coerce, object, string } from 'superstruct';
import { API_PREFIX } from '../../../src/domain/paths';
import { Uuid } from '../../../src/domain/suggestion';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { readUploadedFile, withMultipart, type MultipartLimits } from '../../multipart';
import { detectImageType, EXTENSION_OF, type ImageType } from './detect';
import { idempotencyKeyOf, isKnownIdempotencyKey, runIdempotent } from '../../idempotency';
import { requireEntityAccess } from '../../auth/access';
import { access, defineRoute, type DeclaredRoute } from '../../route';
import { createDatabaseFileStorage, type StoredFile } from './storage';
import { createStoreQueue, type StoreQueue } from './store-queue';
import { admitUpload, refuseUploadEarly } from './unattached';

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

/**
 * The name an image is kept and served under: the cleaned name with the extension of its detected type
 * (`page.html` holding a PNG is `page.png`), so no download is ever named as markup or a program.
 */
export function imageFileName(raw: string | undefined, type: ImageType): string {
  const extension = EXTENSION_OF[type];
  const name = cleanFileName(raw, extension);
  const matching = type === 'image/jpeg' ? /\.(?:jpe?g)$/i : /\.png$/i;
  if (matching.test(name)) return name;
  const base = name.replace(/\.[^.]{0,16}$/, '');
  return `${base.slice(0, MAX_NAME_LENGTH - extension.length - 1) || 'image'}.${extension}`;
}

const tooLarge = () => new AppError('fileTooLarge', 413, { values: { megabytes: MAX_UPLOAD_MEGABYTES } });

/** The first bytes decide the type: anything but PNG or JPEG is refused there, before the rest is read. */
const IMAGE_HEAD = {
  bytes: 8,
  check(head: Uint8Array) {
    if (!detectImageType(head)) throw new AppError('fileType', 415);
  },
};

/** The upload's multipart limits: one file of at most MAX_UPLOAD_BYTES, and a few small fields at most. */
const UPLOAD_LIMITS: MultipartLimits = { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 };

/** One store queue per app, so the bound holds per server process. */
const storeQueues = new WeakMap<AppContext, StoreQueue>();

function storeQueueOf(ctx: AppContext): StoreQueue {
  let queue = storeQueues.get(ctx);
  if (!queue) storeQueues.set(ctx, (queue = createStoreQueue()));
  return queue;
}

/** `:fileName` (`<uuid>` or `<uuid>.<ext>`) read as the file's id; anything else names no file (404). */
const FileNameParams = object({ fileName: coerce(Uuid, string(), (name) => fileIdOf(name) ?? name) });

export const fileRoutes: readonly DeclaredRoute[] = [
  withMultipart(
    defineRoute({
      method: 'POST',
      path: '/files/upload',
      access: access.user,
      // No body struct: the body is a multipart stream, read by the handler. Not the route's own idempotent
      // transaction either, whose handler runs inside it: the upload's work goes around its transaction. The
      // limits are checked (unless the key was seen) before the body is read; the body is streamed in before
      // the transaction opens (inside one, a client sending 10 MiB slowly would hold a pooled connection, and
      // on PGlite every other request, for as long as it liked); the transaction waits for a store slot
      // without holding a connection; and the key's hash needs the file's sha-256, known once it is read.
      write: false,
      handler: async ({ ctx, request, reply, user }) => {
        const key = idempotencyKeyOf(request);
        // A retried upload whose first answer was lost is answered from its key even when the user is at a
        // limit now (that first upload may be what filled it), so only new uploads are refused early.
        const known = key !== null && (await isKnownIdempotencyKey(ctx.db, user.id, key));
        if (!known) await refuseUploadEarly(ctx.db, user.id, ctx.clock.now());
        const upload = await readUploadedFile(request, { field: 'file', maxBytes: MAX_UPLOAD_BYTES, tooLarge: tooLarge(), missingCode: 'fileMissing', head: IMAGE_HEAD });
        const contentType = detectImageType(upload.bytes);
        if (!contentType) throw new AppError('fileType', 415);
        // The key's request hash covers the file's sha-256 and its cleaned name, not the multipart framing.
        const hashedName = cleanFileName(upload.name, EXTENSION_OF[contentType]);
        const name = imageFileName(upload.name, contentType);
        const storage = createDatabaseFileStorage(ctx.db);
        return storeQueueOf(ctx).run(() =>
          runIdempotent(
            ctx.db,
            request,
            reply,
            user.id,
            async (tx) => {
              await admitUpload(tx, user.id, upload.bytes.byteLength, ctx.clock.now());
              const stored = await storage.save({ ownerId: user.id, companyId: null, contentType, name, bytes: upload.bytes }, tx);
              return { status: 200, body: { status: 200, message: 'OK', data: { imageId: stored.id, imageLink: imageLinkOf(stored), name: stored.name } } };
            },
            { sha256: upload.sha256, name: hashedName },
          ),
        );
      },
    }),
    UPLOAD_LIMITS,
  ),

  defineRoute({
    method: 'GET',
    path: `${UPLOADS_PATH}/:fileName`,
    access: access.user,
    params: FileNameParams,
    handler: async ({ ctx, reply, user, params }) => {
      const id = params.fileName;
      // Its uploader while it is not attached; once attached, whoever may read its proposal (auth/access.ts).
      // Anyone else's file answers exactly like a missing one, so ids cannot be probed.
      await requireEntityAccess(ctx.db, user, 'file.read', [id]);
      const found = await createDatabaseFileStorage(ctx.db).read(id);
      if (!found) throw new AppError('notFound', 404);
      return reply
        .headers({
          'Content-Type': found.file.contentType,
          'Content-Length': String(found.bytes.byteLength),
          'Cache-Control': 'private, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
          'Content-Disposition': `inline; filename*=UTF-8''${encodeURIComponent(imageFileName(found.file.name, found.file.contentType))}`,
        })
        .send(found.bytes);
    },
  }),
];
