// Uploads one file to the main-service (spec sections 7 and 8) for the UI kit's FileUpload `upload` prop.
// Guarantees: XMLHttpRequest, so upload progress is reported; the bearer token of the token store and the
// `Language` header of the stored locale; a 403 'Token Expired.' triggers the HTTP client's one shared
// refresh and the upload is sent once more; no answer at all (network down, aborted) resolves to null,
// any answer to `{ status, message, data }` (the body's `status`, or the HTTP status when it has none).
import type { UploadAnswer, UploadFn } from '../ui/file-upload/types';
import { API_HOST_PREFIX, http } from './api';
import { TOKEN_EXPIRED_MESSAGE } from './http';
import { readStoredLocale } from './locale-store';
import { tokenStore, type TokenStore } from './token-store';

export const UPLOAD_PATH = '/api/v1/files/upload';

export interface UploaderOptions {
  url: string;
  tokens: Pick<TokenStore, 'getAccess'>;
  getLocale: () => string;
  createRequest: () => XMLHttpRequest;
  /** Brings a fresh access token into the token store (the HTTP client's shared refresh). */
  refreshSession: () => Promise<void>;
}

type Outcome = { kind: 'answer'; status: number; body: unknown } | { kind: 'none' };

function parseBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // A proxy's HTML error page, say: the status still tells what happened.
    console.warn('The upload answer is not JSON', error);
    return null;
  }
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
  const sendOnce = (file: File, onProgress: (fraction: number) => void, signal: AbortSignal | undefined) =>
    new Promise<Outcome>((resolve) => {
      if (signal?.aborted) {
        resolve({ kind: 'none' });
        return;
      }
      const request = options.createRequest();
      request.open('POST', options.url);
      request.setRequestHeader('Accept', 'application/json');
      request.setRequestHeader('Language', options.getLocale());
      const token = options.tokens.getAccess();
      if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
      request.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      const none = () => resolve({ kind: 'none' });
      request.onerror = none;
      request.ontimeout = none;
      request.onabort = none;
      request.onload = () => {
        signal?.removeEventListener('abort', abort);
        // Status 0 means the browser got nothing it may show (a refused connection, CORS).
        if (request.status === 0) none();
        else resolve({ kind: 'answer', status: request.status, body: parseBody(request.responseText) });
      };
      const abort = () => request.abort();
      signal?.addEventListener('abort', abort, { once: true });
      const form = new FormData();
      form.append('file', file, file.name);
      request.send(form);
    });

  return async (file, onProgress, signal) => {
    let outcome = await sendOnce(file, onProgress, signal);
    if (outcome.kind === 'answer' && outcome.status === 403 && field(outcome.body, 'message') === TOKEN_EXPIRED_MESSAGE) {
      try {
        await options.refreshSession();
      } catch (error) {
        // The refresh failed (the client reloads the page when it was refused): report the first answer.
        console.warn('Could not refresh the session before retrying the upload', error);
        return toUploadAnswer(outcome.status, outcome.body);
      }
      onProgress(0);
      outcome = await sendOnce(file, onProgress, signal);
    }
    return outcome.kind === 'answer' ? toUploadAnswer(outcome.status, outcome.body) : null;
  };
}

/** The app's upload: an expired token is renewed by the HTTP client's one shared refresh. */
export const uploadFile: UploadFn = createUploader({
  url: `${API_HOST_PREFIX}${UPLOAD_PATH}`,
  tokens: tokenStore,
  getLocale: () => readStoredLocale(),
  createRequest: () => new XMLHttpRequest(),
  refreshSession: () => http.refreshSession(),
});
