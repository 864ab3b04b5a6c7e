// Uploads one file to the main-service (spec sections 7 and 8) for the UI kit's FileUpload `upload` prop.
// Guarantees: the file goes through the HTTP client's `upload` (src/lib/http.ts: XMLHttpRequest with
// progress, the bearer token, `Language`, the stall deadline, the one shared refresh on 'Token Expired.' and
// one resend); no answer at all (network down, stalled, aborted) resolves to null; an answer resolves to
// `{ status, message, data }` (the body's `status`, or the HTTP status when it has none); a session that
// could not be renewed resolves to status 401 without a message (the client signs out; the field shows its
// own text rather than the server's English).
import type { UploadAnswer, UploadFn } from '../ui/file-upload/types';
import { API_HOST_PREFIX, http } from './api';
import type { HttpClient } from './http';

export const UPLOAD_PATH = '/api/v1/files/upload';

export interface UploaderOptions {
  url: string;
  http: Pick<HttpClient, 'upload'>;
}

function field(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null && key in body ? (body as Record<string, unknown>)[key] : undefined;
}

/** The answer the field sees: the body's own `status` when the call succeeded, the HTTP status otherwise. */
export function toUploadAnswer(httpStatus: number, body: unknown): UploadAnswer {
  const bodyStatus = field(body, 'status');
  const message = field(body, 'message');
  const data = field(body, 'data');
  const ok = httpStatus >= 200 && httpStatus < 300;
  const imageId = field(data, 'imageId');
  const imageLink = field(data, 'imageLink');
  const name = field(data, 'name');
  return {
    status: ok && typeof bodyStatus === 'number' ? bodyStatus : httpStatus,
    message: typeof message === 'string' ? message : null,
    data:
      typeof imageId === 'string' && typeof imageLink === 'string'
        ? { imageId, imageLink, ...(typeof name === 'string' ? { name } : {}) }
        : null,
  };
}

export function createUploader(options: UploaderOptions): UploadFn {
  return async (file, onProgress, signal) => {
    const form = new FormData();
    form.append('file', file, file.name);
    const sent = await options.http.upload(options.url, form, { onProgress, signal });
    if (sent.kind === 'answer') return toUploadAnswer(sent.status, sent.body);
    if (sent.kind === 'auth') return { status: 401, message: null, data: null };
    return null;
  };
}

/** The app's upload, over the app's HTTP client. */
export const uploadFile: UploadFn = createUploader({ url: `${API_HOST_PREFIX}${UPLOAD_PATH}`, http });
