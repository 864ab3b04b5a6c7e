// The errors of @fastify/multipart, said in a route's own localized terms: every upload route maps the
// plugin's codes the same way and names only what differs (what "too large" and "no file" mean for it).

import { AppError } from './errors';

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

export interface UploadErrorTerms {
  /** The refusal of a file over the route's limit (413). */
  tooLarge: AppError;
  /** The code of "no file in the field `file`" (400), e.g. `fileMissing`. */
  missingCode: string;
}

/** The AppError for a multipart failure, or the error itself when it is not one of the plugin's. */
export function toUploadError(error: unknown, terms: UploadErrorTerms): unknown {
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
      return error;
  }
}
