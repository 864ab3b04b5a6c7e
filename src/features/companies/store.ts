// The company screens' way to the main-service and to the device's mirror (docs/api.md, "Companies").
// What it stores and why: the server's answer to a company write (creating a company, "I paid") is put into
// the mirrored `companies` table under the signed-in user, so the screens that read the mirror show it at
// once; the pull brings everything else (and later changes, such as the admin's decision).
// Guarantees: these writes are online-only (management calls are not on the outbox list): each user
// submission keeps one Idempotency-Key until it succeeds (src/lib/submission-key.ts), so a retry after a lost
// answer cannot create a second company; an answer is checked
// with its struct before anything is stored, and only the mirrored fields of the row are kept. The invoice
// comes through the HTTP client's `getFile` (bearer token, the one shared refresh on 'Token Expired.').
import { type } from 'superstruct';
import type { CompanyInput } from '../../domain/company';
import { CompanyRow } from '../../domain/suggestion';
import type { AppDatabase } from '../../lib/db/database';
import type { HttpClient } from '../../lib/http';
import { idempotencyHeaders, submitOnce, type SubmissionKeys } from '../../lib/submission-key';

const CompanyAnswer = type({ data: CompanyRow });

export function companyPath(companyId: string): string {
  return `/api/v1/companies/${encodeURIComponent(companyId)}`;
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
    // Left out when the answer has none (an older server): readers take such a row as Europe/Moscow.
    ...(company.timeZone !== undefined ? { timeZone: company.timeZone } : {}),
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
export function createCompany(
  http: Pick<HttpClient, 'post'>,
  db: AppDatabase,
  ownerUserId: string,
  input: CompanyInput,
  keys?: SubmissionKeys,
): Promise<CompanyRow> {
  const path = '/api/v1/companies';
  return submitOnce(
    { method: 'POST', path, body: input },
    async (key) => {
      const company = companyOf(await http.post(path, input, idempotencyHeaders(key)));
      await storeCompany(db, ownerUserId, company);
      return company;
    },
    keys,
  );
}

/** `POST /companies/{id}/payment-reported` ("I paid"): the company under review, stored in the mirror. */
export function reportPayment(
  http: Pick<HttpClient, 'post'>,
  db: AppDatabase,
  ownerUserId: string,
  companyId: string,
  keys?: SubmissionKeys,
): Promise<CompanyRow> {
  const path = `${companyPath(companyId)}/payment-reported`;
  return submitOnce(
    { method: 'POST', path, body: {} },
    async (key) => {
      const company = companyOf(await http.post(path, {}, idempotencyHeaders(key)));
      await storeCompany(db, ownerUserId, company);
      return company;
    },
    keys,
  );
}

/* ---------------------------------------------------------------------------------------------- */
/* The invoice (a PDF behind the bearer token)                                                     */
/* ---------------------------------------------------------------------------------------------- */

export interface Invoice {
  blob: Blob;
  fileName: string;
}

/** `invoice-<number>.pdf` when the answer names no file. */
export function invoiceFileName(fromAnswer: string | null, invoiceNumber: string | null | undefined): string {
  return fromAnswer ?? `invoice-${invoiceNumber ?? 'verification'}.pdf`;
}

/**
 * `GET /companies/{id}/invoice` as a Blob, through the HTTP client (bearer token, the one shared refresh,
 * `Language` picks the invoice's language). Rejects with `HttpError` (status 0 when nothing answered, else the
 * server's status and localized message), so the screen can say what went wrong.
 */
export async function fetchInvoice(http: Pick<HttpClient, 'getFile'>, companyId: string, invoiceNumber: string | null | undefined): Promise<Invoice> {
  const { blob, fileName } = await http.getFile(`${companyPath(companyId)}/invoice`);
  return { blob, fileName: invoiceFileName(fileName, invoiceNumber) };
}
