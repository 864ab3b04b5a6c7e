// The company screens' way to the main-service and to the device's mirror (docs/api.md, "Companies").
// What it stores and why: the server's answer to a company write (creating a company, "I paid") is put into
// the mirrored `companies` table under the signed-in user, so the screens that read the mirror show it at
// once; the pull brings everything else (and later changes, such as the admin's decision).
// Guarantees: these writes are online-only (management calls are not on the outbox list): each carries a
// fresh Idempotency-Key, so a retry of a lost answer cannot create a second company; an answer is checked
// with its struct before anything is stored, and only the mirrored fields of the row are kept. The invoice is
// fetched with the bearer token of the token store and the HTTP client's one shared refresh on
// 'Token Expired.', like the images behind the token (src/lib/authorized-image.ts).
import { type } from 'superstruct';
import type { CompanyInput } from '../../domain/company';
import { CompanyRow } from '../../domain/suggestion';
import { ApiErrorBody } from '../../domain/user';
import { API_HOST_PREFIX } from '../../lib/api';
import type { AppDatabase } from '../../lib/db/database';
import { HttpError, TOKEN_EXPIRED_MESSAGE, type HttpClient } from '../../lib/http';
import type { TokenStore } from '../../lib/token-store';

const CompanyAnswer = type({ data: CompanyRow });

export function companyPath(companyId: string): string {
  return `/api/v1/companies/${encodeURIComponent(companyId)}`;
}

function idempotent(): { headers: Record<string, string> } {
  return { headers: { 'Idempotency-Key': crypto.randomUUID() } };
}

/** The mirrored part of a company answer (the caller's roles and the start rule are not mirrored). */
export function companyRowOf(company: CompanyRow): CompanyRow {
  return {
    id: company.id,
    name: company.name,
    inn: company.inn,
    kpp: company.kpp,
    legalForm: company.legalForm,
    website: company.website,
    employeeCount: company.employeeCount,
    logoImageId: company.logoImageId,
    verificationStatus: company.verificationStatus,
    invoiceNumber: company.invoiceNumber ?? null,
    paymentReportedAt: company.paymentReportedAt ?? null,
    verificationDecidedAt: company.verificationDecidedAt ?? null,
    verificationComment: company.verificationComment ?? null,
    createdAt: company.createdAt,
    updatedAt: company.updatedAt,
  };
}

/** Puts a company the server answered into the user's mirror, unless the mirror already holds a newer one. */
export async function storeCompany(db: AppDatabase, ownerUserId: string, company: CompanyRow): Promise<void> {
  const row = companyRowOf(company);
  await db.transaction('rw', db.companies, async () => {
    const stored = await db.companies.get([ownerUserId, row.id]);
    if (stored && CompanyRow.is(stored) && Date.parse(stored.updatedAt) > Date.parse(row.updatedAt)) return;
    await db.companies.put({ ...row, ownerUserId });
  });
}

function companyOf(answer: unknown): CompanyRow {
  if (!CompanyAnswer.is(answer)) throw new Error('The company answer does not match its struct');
  return answer.data;
}

/** `POST /companies`: the new company (the caller becomes its OWNER), stored in the mirror. */
export async function createCompany(http: Pick<HttpClient, 'post'>, db: AppDatabase, ownerUserId: string, input: CompanyInput): Promise<CompanyRow> {
  const company = companyOf(await http.post('/api/v1/companies', input, idempotent()));
  await storeCompany(db, ownerUserId, company);
  return company;
}

/** `POST /companies/{id}/payment-reported` ("I paid"): the company under review, stored in the mirror. */
export async function reportPayment(http: Pick<HttpClient, 'post'>, db: AppDatabase, ownerUserId: string, companyId: string): Promise<CompanyRow> {
  const company = companyOf(await http.post(`${companyPath(companyId)}/payment-reported`, {}, idempotent()));
  await storeCompany(db, ownerUserId, company);
  return company;
}

/* ---------------------------------------------------------------------------------------------- */
/* The invoice (a PDF behind the bearer token)                                                     */
/* ---------------------------------------------------------------------------------------------- */

export interface InvoiceFetchOptions {
  tokens: Pick<TokenStore, 'getAccess'>;
  getLocale: () => string;
  fetch: typeof fetch;
  /** Brings a fresh access token into the token store (the HTTP client's shared refresh). */
  refreshSession: () => Promise<void>;
}

export interface Invoice {
  blob: Blob;
  fileName: string;
}

/** `invoice-<number>.pdf` from the answer's Content-Disposition, else from the invoice number we know. */
export function invoiceFileName(contentDisposition: string | null, invoiceNumber: string | null | undefined): string {
  const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(contentDisposition ?? '')?.[1];
  if (named) {
    const decoded = decodeURIComponent(named).replace(/[/\\]/g, '');
    if (decoded !== '') return decoded;
  }
  return `invoice-${invoiceNumber ?? 'verification'}.pdf`;
}

async function errorOf(response: Response): Promise<HttpError> {
  let body: unknown = null;
  try {
    body = (await response.json()) as unknown;
  } catch (error) {
    console.warn('The invoice refusal has no JSON body', error);
  }
  return new HttpError(response.status, ApiErrorBody.is(body) ? body : null);
}

async function isTokenExpired(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  try {
    const body = (await response.clone().json()) as unknown;
    return ApiErrorBody.is(body) && body.message === TOKEN_EXPIRED_MESSAGE;
  } catch (error) {
    console.warn('A 403 for the invoice without a JSON body', error);
    return false;
  }
}

/**
 * `GET /companies/{id}/invoice` as a Blob. Rejects with `HttpError` (status 0 when nothing answered, else the
 * server's status and localized message), so the screen can say what went wrong.
 */
export async function fetchInvoice(options: InvoiceFetchOptions, companyId: string, invoiceNumber: string | null | undefined): Promise<Invoice> {
  const url = `${API_HOST_PREFIX}${companyPath(companyId)}/invoice`;
  const get = async () => {
    const headers: Record<string, string> = { Accept: 'application/pdf', Language: options.getLocale() };
    const token = options.tokens.getAccess();
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      return await options.fetch(url, { headers });
    } catch (error) {
      throw new HttpError(0, null, { cause: error });
    }
  };
  let response = await get();
  if (await isTokenExpired(response)) {
    await options.refreshSession();
    response = await get();
  }
  if (!response.ok) throw await errorOf(response);
  return { blob: await response.blob(), fileName: invoiceFileName(response.headers.get('Content-Disposition'), invoiceNumber) };
}

/** Hands a file to the browser's downloads: an `<a download>` with an object URL, revoked once the click ran. */
export function saveFile(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  doc.body.append(link);
  link.click();
  link.remove();
  // The download has taken the data by the time the next task runs; a minute leaves room for slow devices.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
