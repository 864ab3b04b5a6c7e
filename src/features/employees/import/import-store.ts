// The network and storage side of the employee import (docs/api.md, "Import"). The import is online-only:
// nothing here goes through the outbox.
// Guarantees:
// - the file goes up through the HTTP client's `upload` (src/lib/http.ts: XMLHttpRequest with progress, the
//   bearer token and the app's `Language`, so the server's refusals come back in the user's language; the one
//   shared refresh on 'Token Expired.' and one resend), then "processing" once the last byte is sent; it gives
//   up when nothing moves for two minutes (the server reads the whole file before it answers);
// - an import carries its caller's Idempotency-Key (one per import, kept for a retry after no answer), the
//   same on the resend after a refresh; a preview carries none (it changes nothing);
// - answers are checked with their structs (ImportPreview, ImportReport); a refusal becomes an
//   `ImportRequestError` with the HTTP status (0: no answer at all, 401: the session could not be renewed)
//   and the server's message;
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
import { HttpError, type HttpClient } from '../../../lib/http';
import { pullCompany } from '../../../lib/sync/pull';
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
  http: Pick<HttpClient, 'get' | 'getFile' | 'upload'>;
}

/** No byte up or down for this long ends an upload: the server parses and imports the whole file first. */
export const IMPORT_STALL_TIMEOUT_MS = 120_000;

const companyPath = (companyId: string) => `/companies/${encodeURIComponent(companyId)}/employees`;

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    console.warn('Stored import data is not JSON', error);
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

export function createImportApi(options: ImportApiOptions): ImportApi {
  async function send(url: string, upload: ImportUpload): Promise<unknown> {
    const { onProgress } = upload;
    const form = new FormData();
    // Fields before the file, so a streaming parser has the mapping when the file arrives.
    if (upload.mapping) form.append('mapping', mappingFieldValue(upload.mapping));
    form.append('file', upload.file, upload.file.name);
    onProgress?.({ stage: 'uploading', fraction: 0 });
    const sent = await options.http.upload(url, form, {
      onProgress: (fraction) => onProgress?.({ stage: 'uploading', fraction }),
      onSent: () => onProgress?.({ stage: 'processing' }),
      signal: upload.signal,
      idempotencyKey: upload.idempotencyKey,
      stallTimeoutMs: IMPORT_STALL_TIMEOUT_MS,
    });
    if (sent.kind === 'network') throw new ImportRequestError(0, null, { cause: sent.message });
    if (sent.kind === 'auth') throw new ImportRequestError(401, null, { cause: sent.message });
    if (sent.status < 200 || sent.status >= 300) throw new ImportRequestError(sent.status, messageOf(sent.body));
    return dataOf(sent.body);
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

/** The app's import calls, over the app's HTTP client. */
export const importApi: ImportApi = createImportApi({ http });

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
