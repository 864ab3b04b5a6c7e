// The network and storage side of the employee import (docs/api.md, "Import"). The import is online-only:
// nothing here goes through the outbox.
// Guarantees:
// - the file goes up over XMLHttpRequest (upload progress, then "processing" once the last byte is sent),
//   with the token store's bearer token and the app's `Language`, so the server's refusals come back in the
//   user's language; a 403 'Token Expired.' joins the HTTP client's one shared refresh and is sent once more;
// - answers are checked with their structs (ImportPreview, ImportReport); a refusal becomes an
//   `ImportRequestError` with the HTTP status (0: no answer at all) and the server's message;
// - the template comes through the HTTP client's `getFile` (bearer token, shared refresh, `Language` picks its
//   language); the page saves it with src/lib/download.ts;
// - the last report is kept in this tab's sessionStorage (per user and company), checked with its struct on
//   read, so the report page still shows it after a reload without a network;
// - after an import the company's mirror is pulled, which brings the new and changed employees into Dexie
//   (the report names the rows, it does not carry them).
import { ImportPreview, ImportReport } from '../../../domain/company';
import { API_PREFIX } from '../../../domain/paths';
import { http } from '../../../lib/api';
import { getAppDatabase } from '../../../lib/db/database';
import { HttpError, TOKEN_EXPIRED_MESSAGE } from '../../../lib/http';
import { readStoredLocale } from '../../../lib/locale-store';
import { pullCompany } from '../../../lib/sync/pull';
import { tokenStore, type TokenStore } from '../../../lib/token-store';
import { mappingFieldValue, type ColumnMapping } from './mapping';

export type TemplateFormat = 'xlsx' | 'csv';

/** A refusal of an import call: `status` 0 when nothing answered; `message` the server's, in the user's language. */
export class ImportRequestError extends Error {
  readonly status: number;
  readonly serverMessage: string | null;

  constructor(status: number, serverMessage: string | null, options?: { cause?: unknown }) {
    super(serverMessage ?? (status === 0 ? 'No answer from the server' : `HTTP ${status}`), options);
    this.name = 'ImportRequestError';
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/** Where an upload is: bytes going up (fraction 0..1), or the server working on the whole file. */
export type UploadProgress = { stage: 'uploading'; fraction: number } | { stage: 'processing' };

export interface ImportUpload {
  file: File;
  /** The user's mapping (one entry per column); sent as the `mapping` field. */
  mapping?: ColumnMapping;
  /** The same key for a retry of the same import, so a lost answer does not import twice. */
  idempotencyKey?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

export interface ImportApi {
  /** `POST .../employees/import?dryRun=1`: how the file's columns were read, and its first rows. */
  preview(companyId: string, upload: ImportUpload): Promise<ImportPreview>;
  /** `POST .../employees/import`: imports the file and answers its report. */
  run(companyId: string, upload: ImportUpload): Promise<ImportReport>;
  /** `GET .../employees/imports/{importId}`. */
  report(companyId: string, importId: string): Promise<ImportReport>;
  /** `GET .../employees/import-template?format=`: the file and the name the server gave it. */
  template(companyId: string, format: TemplateFormat): Promise<{ blob: Blob; fileName: string }>;
}

export interface ImportApiOptions {
  tokens: Pick<TokenStore, 'getAccess'>;
  getLocale: () => string;
  createRequest: () => XMLHttpRequest;
  http: Pick<typeof http, 'get' | 'getFile'>;
  /** Brings a fresh access token into the token store (the HTTP client's shared refresh). */
  refreshSession: () => Promise<void>;
}

const companyPath = (companyId: string) => `/companies/${encodeURIComponent(companyId)}/employees`;

type Outcome = { kind: 'answer'; status: number; body: unknown } | { kind: 'none'; cause: unknown };

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // A proxy's HTML error page, say: the status still tells what happened.
    console.warn('An import answer is not JSON', error);
    return null;
  }
}

function messageOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('message' in body)) return null;
  const { message } = body;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

function dataOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined;
}

const isTokenExpired = (outcome: Outcome) => outcome.kind === 'answer' && outcome.status === 403 && messageOf(outcome.body) === TOKEN_EXPIRED_MESSAGE;

export function createImportApi(options: ImportApiOptions): ImportApi {
  const sendOnce = (url: string, upload: ImportUpload) =>
    new Promise<Outcome>((resolve) => {
      const { signal, onProgress } = upload;
      if (signal?.aborted) {
        resolve({ kind: 'none', cause: signal.reason });
        return;
      }
      const request = options.createRequest();
      request.open('POST', url);
      request.setRequestHeader('Accept', 'application/json');
      request.setRequestHeader('Language', options.getLocale());
      const token = options.tokens.getAccess();
      if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
      if (upload.idempotencyKey) request.setRequestHeader('Idempotency-Key', upload.idempotencyKey);
      request.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress?.({ stage: 'uploading', fraction: Math.min(1, event.loaded / event.total) });
      };
      request.upload.onload = () => onProgress?.({ stage: 'processing' });
      const abort = () => request.abort();
      const none = (cause: unknown) => () => {
        signal?.removeEventListener('abort', abort);
        resolve({ kind: 'none', cause });
      };
      request.onerror = none('network error');
      request.ontimeout = none('timeout');
      request.onabort = none('aborted');
      request.onload = () => {
        signal?.removeEventListener('abort', abort);
        // Status 0 means the browser got nothing it may show (a refused connection).
        if (request.status === 0) resolve({ kind: 'none', cause: 'status 0' });
        else resolve({ kind: 'answer', status: request.status, body: parseJson(request.responseText) });
      };
      signal?.addEventListener('abort', abort, { once: true });
      const form = new FormData();
      // Fields before the file, so a streaming parser has the mapping when the file arrives.
      if (upload.mapping) form.append('mapping', mappingFieldValue(upload.mapping));
      form.append('file', upload.file, upload.file.name);
      onProgress?.({ stage: 'uploading', fraction: 0 });
      request.send(form);
    });

  async function send(url: string, upload: ImportUpload): Promise<unknown> {
    let outcome = await sendOnce(url, upload);
    if (isTokenExpired(outcome)) {
      try {
        await options.refreshSession();
      } catch (error) {
        // The refresh was refused (the client reloads the page then): report the first answer.
        console.warn('Could not refresh the session before sending the import again', error);
        throw new ImportRequestError(403, messageOf(outcome.kind === 'answer' ? outcome.body : null), { cause: error });
      }
      outcome = await sendOnce(url, upload);
    }
    if (outcome.kind === 'none') throw new ImportRequestError(0, null, { cause: outcome.cause });
    if (outcome.status < 200 || outcome.status >= 300) throw new ImportRequestError(outcome.status, messageOf(outcome.body));
    return dataOf(outcome.body);
  }

  return {
    async preview(companyId, upload) {
      const data = await send(`${API_PREFIX}${companyPath(companyId)}/import?dryRun=1`, { ...upload, mapping: undefined, idempotencyKey: undefined });
      if (!ImportPreview.is(data)) throw new ImportRequestError(200, null, { cause: 'The preview does not match its struct' });
      return data;
    },

    async run(companyId, upload) {
      const data = await send(`${API_PREFIX}${companyPath(companyId)}/import`, upload);
      if (!ImportReport.is(data)) throw new ImportRequestError(201, null, { cause: 'The report does not match its struct' });
      return data;
    },

    async report(companyId, importId) {
      let body: unknown;
      try {
        body = await options.http.get(`/api/v1${companyPath(companyId)}/imports/${encodeURIComponent(importId)}`, undefined, { minDuration: 0 });
      } catch (error) {
        if (error instanceof HttpError) throw new ImportRequestError(error.status, error.body?.message ?? null, { cause: error });
        throw error;
      }
      const data = dataOf(body);
      if (!ImportReport.is(data)) throw new ImportRequestError(200, null, { cause: 'The report does not match its struct' });
      return data;
    },

    async template(companyId, format) {
      try {
        const { blob, fileName } = await options.http.getFile(`/api/v1${companyPath(companyId)}/import-template`, { format });
        return { blob, fileName: fileName ?? `employees-template.${format}` };
      } catch (error) {
        if (error instanceof HttpError) throw new ImportRequestError(error.status, error.body?.message ?? null, { cause: error });
        throw error;
      }
    },
  };
}

/** The app's import calls: the page's token store, the stored locale, the one shared refresh. */
export const importApi: ImportApi = createImportApi({
  tokens: tokenStore,
  getLocale: () => readStoredLocale(),
  createRequest: () => new XMLHttpRequest(),
  http,
  refreshSession: () => http.refreshSession(),
});

// ---------------------------------------------------------------------------------------------------
// The last report, kept for this tab

/** What is kept of the last import: its report and, when this tab previewed the file, the file's headers. */
export interface RememberedReport {
  report: ImportReport;
  headers: string[] | null;
}

const REPORT_KEY_PREFIX = 'employeeImportReport';
const reportKey = (userId: string, companyId: string) => `${REPORT_KEY_PREFIX}:${userId}:${companyId}`;

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function rememberReport(storage: Storage, userId: string, remembered: RememberedReport): void {
  try {
    storage.setItem(reportKey(userId, remembered.report.companyId), JSON.stringify(remembered));
  } catch (error) {
    // A full sessionStorage: the report still shows now, only a reload offline will not find it.
    console.warn('Could not keep the import report for this tab', error);
  }
}

/** The kept report of that import, or null (none kept, another import, or something unreadable). */
export function recallReport(storage: Storage, userId: string, companyId: string, importId: string): RememberedReport | null {
  const text = storage.getItem(reportKey(userId, companyId));
  if (text === null) return null;
  const stored = parseJson(text);
  if (typeof stored !== 'object' || stored === null) return null;
  const { report, headers } = stored as { report?: unknown; headers?: unknown };
  if (!ImportReport.is(report) || report.id !== importId || report.companyId !== companyId) return null;
  return { report, headers: isStringArray(headers) ? headers : null };
}

/** Brings the imported employees into the device's mirror (the pull of that company). */
export async function pullAfterImport(ownerUserId: string, companyId: string): Promise<void> {
  await pullCompany({ db: getAppDatabase(), http, ownerUserId, companyId });
}
