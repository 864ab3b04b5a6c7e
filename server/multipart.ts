// Reading the one file of a multipart upload, for every upload route (images, staff lists). What it guarantees:
// - a malformed body never answers 500: a body cut short, without its closing boundary, with a broken part
//   header or without a boundary at all answers 400 `uploadMalformed`; the plugin's own limits keep their
//   answers (a second file 400 `fileTooMany`, too many parts or fields 400 `badRequest`, not multipart 400
//   with the route's "no file" code), all localized by the error handler;
// - the file is read as a stream: its size is counted as it arrives and the read stops at the route's limit
//   with the route's 413, without waiting for the rest of the body; a route may look at the first bytes and
//   refuse the file there (the image route's 415), before the rest is read. The rest of a refused body is
//   read and dropped (up to one more limit's worth, then the connection is closed), so its connection never
//   hangs unread;
// - the bytes are kept in one buffer per upload, filled as they arrive (sized from Content-Length when the
//   request has one, otherwise grown by doubling), never as a list of chunks joined at the end: one copy,
//   not two. The sha-256 is computed on the way, for the Idempotency-Key's request hash;
// - nothing is returned before the whole body was parsed, so a body cut short after its file part is still
//   refused, never stored.

import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';
import type { DeclaredRoute } from './route';

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

export interface UploadErrorTerms {
  /** The refusal of a file over the route's limit (413). */
  tooLarge: AppError;
  /** The code of "no file in the field `file`" (400), e.g. `fileMissing`. */
  missingCode: string;
}

/**
 * The AppError for a failure while a multipart body was read. Only the body's parsing runs in that time, so
 * whatever is not one of the plugin's limits is a body that is not valid multipart (busboy's "Unexpected end
 * of form", "Malformed part header", "Boundary not found", a connection closed mid-body): 400, not 500.
 */
export function toUploadError(error: unknown, terms: UploadErrorTerms): AppError {
  if (error instanceof AppError) return error;
  switch (codeOf(error)) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return terms.tooLarge;
    case 'FST_FILES_LIMIT':
      return new AppError('fileTooMany', 400);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(terms.missingCode, 400);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return new AppError('badRequest', 400);
    default:
      return new AppError('uploadMalformed', 400);
  }
}

export interface ReadFileOptions extends UploadErrorTerms {
  /** The field that carries the file; files under other names are read past and dropped. */
  field: string;
  /** The most bytes the file may have; the plugin's `limits.fileSize` must be this same number. */
  maxBytes: number;
  /** Text fields kept (others are ignored); a value over the plugin's `fieldSize` is a 400 on that field. */
  fields?: readonly string[];
  /** Looks at the file's first bytes (at least `bytes` of them, or the whole file when shorter) and throws to refuse it. */
  head?: { bytes: number; check(head: Uint8Array): void };
}

export interface ReceivedFile {
  /** The name the client gave, as sent. */
  name: string | undefined;
  /** The file's bytes: a view of the one buffer they were received into. */
  bytes: Buffer;
  /** Hex sha-256 of `bytes`. */
  sha256: string;
  /** The values of `options.fields` that were sent. */
  fields: Record<string, string>;
}

const GROWN_START_BYTES = 256 * 1024;

/** Reads one file stream into one buffer, enforcing the limit as it arrives. */
async function receive(file: Readable & { truncated?: boolean }, options: ReadFileOptions, expectedBytes: number | null) {
  const hash = createHash('sha256');
  let buffer: Buffer | null = null;
  let length = 0;
  let headChecked = !options.head;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    // The plugin stops the stream at maxBytes and marks it truncated: refuse now, not at the end of the body.
    if (file.truncated || length + chunk.length > options.maxBytes) throw options.tooLarge;
    if (!buffer || length + chunk.length > buffer.length) {
      const wanted = expectedBytes !== null && !buffer ? expectedBytes : Math.max(GROWN_START_BYTES, (buffer?.length ?? 0) * 2);
      const grown = Buffer.allocUnsafe(Math.min(options.maxBytes, Math.max(wanted, length + chunk.length)));
      if (buffer) buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    chunk.copy(buffer, length);
    length += chunk.length;
    hash.update(chunk);
    if (!headChecked && options.head && length >= options.head.bytes) {
      options.head.check(buffer.subarray(0, length));
      headChecked = true;
    }
  }
  if (file.truncated) throw options.tooLarge;
  const bytes = buffer ? buffer.subarray(0, length) : Buffer.alloc(0);
  if (!headChecked && options.head) options.head.check(bytes);
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * After a refusal in mid-body: the parser is detached from the request, so Node would never read from its
 * connection again (not even to see the client leave), and the connection would stay open for good. The rest
 * of the body is read and dropped instead, so the connection ends or serves its next request as usual; a body
 * that goes on for more than `limit` further bytes has its connection closed.
 */
function discardRest(request: FastifyRequest, limit: number): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed) return;
  let left = limit;
  raw.unpipe();
  raw.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) raw.destroy();
  });
  raw.resume();
}

/** The request's declared body size, when it has one: the file is at most that long. */
function declaredLength(request: FastifyRequest): number | null {
  const raw = request.headers['content-length'];
  const value = typeof raw === 'string' ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/**
 * Reads the one file of a multipart request (field `options.field`) and the text fields asked for. Throws
 * AppError only: the route's 413 / 400 "missing", a head check's refusal, or 400 for a malformed body.
 */
export async function readUploadedFile(request: FastifyRequest, options: ReadFileOptions): Promise<ReceivedFile> {
  let found: Omit<ReceivedFile, 'fields'> | null = null;
  const fields: Record<string, string> = {};
  const wanted = new Set(options.fields ?? []);
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== options.field || found) {
          // With `files: 1` a second file ends the iteration with FST_FILES_LIMIT; this one is drained.
          for await (const chunk of part.file as AsyncIterable<Buffer>) void chunk;
          continue;
        }
        const received = await receive(part.file, options, declaredLength(request));
        found = { name: part.filename, ...received };
      } else if (wanted.has(part.fieldname)) {
        if (part.valueTruncated || typeof part.value !== 'string') throw new AppError('validation', 400, { fieldErrors: { [part.fieldname]: 'invalid' } });
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    discardRest(request, options.maxBytes);
    throw toUploadError(error, options);
  }
  if (!found) throw new AppError(options.missingCode, 400);
  return { ...found, fields };
}

/** The multipart plugin's limits of one upload route (its file size, and the parts and fields it reads). */
export interface MultipartLimits {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize: number;
  parts: number;
  headerPairs: number;
}

/** The route in a scope of its own that accepts multipart bodies within `limits`: everywhere else the API stays JSON. */
export function withMultipart(route: DeclaredRoute, limits: MultipartLimits): DeclaredRoute {
  return {
    ...route,
    register(app, ctx) {
      void app.register(async (scope) => {
        await scope.register(multipart, { limits });
        route.register(scope, ctx);
      });
    },
  };
}
