import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Company } from '../../domain/company';
import { AppDatabase } from '../../lib/db/database';
import { createHttpClient, HttpError, type HttpClient, type RequestOptions } from '../../lib/http';
import { createSubmissionKeys } from '../../lib/submission-key';
import { createCompany, fetchInvoice, reportPayment, storeCompany } from './store';

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`companies-${Math.random()}`);
  opened.push(db);
  return db;
}

const COMPANY: Company = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Acme Works LLC',
  inn: '7707083893',
  kpp: '770701001',
  legalForm: 'LEGAL_ENTITY',
  website: null,
  employeeCount: 250,
  logoImageId: null,
  timeZone: 'Asia/Vladivostok',
  verificationStatus: 'UNVERIFIED',
  invoiceNumber: 'V-000042',
  paymentReportedAt: null,
  verificationDecidedAt: null,
  verificationComment: null,
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:00:00.000Z',
  roles: ['OWNER'],
  missingForStart: ['MANAGER', 'FINANCIAL_DIRECTOR'],
};

/** An HTTP client whose POST answers `answer` and records what was sent. */
function fakeHttp(answer: unknown): Pick<HttpClient, 'post'> & { calls: { path: string; body: unknown; options: RequestOptions | undefined }[] } {
  const calls: { path: string; body: unknown; options: RequestOptions | undefined }[] = [];
  return {
    calls,
    post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T | null> {
      calls.push({ path, body, options });
      return Promise.resolve(answer as T);
    },
  };
}

describe('company writes and the mirror', () => {
  it('stores the created company in the mirror under the user, without the caller-specific fields, sent under a fresh Idempotency-Key', async () => {
    const db = openDb();
    const http = fakeHttp({ data: COMPANY, message: 'OK' });
    const input = { legalForm: 'LEGAL_ENTITY' as const, name: 'Acme Works LLC', inn: '7707083893', kpp: '770701001' };
    const created = await createCompany(http, db, 'u1', input);
    expect(created.id).toBe(COMPANY.id);
    expect(http.calls).toHaveLength(1);
    expect(http.calls[0]?.path).toBe('/api/v1/companies');
    expect(http.calls[0]?.body).toEqual(input);
    expect(http.calls[0]?.options?.headers?.['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await db.companies.get(['u1', COMPANY.id]);
    expect(stored).toMatchObject({ ownerUserId: 'u1', name: 'Acme Works LLC', invoiceNumber: 'V-000042', verificationStatus: 'UNVERIFIED', timeZone: 'Asia/Vladivostok' });
    expect(stored && 'roles' in stored).toBe(false);
    expect(await db.companies.get(['u2', COMPANY.id])).toBeUndefined();
  });

  it('stores nothing when the answer does not match its struct', async () => {
    const db = openDb();
    await expect(createCompany(fakeHttp({ data: { id: COMPANY.id } }), db, 'u1', { legalForm: 'LEGAL_ENTITY', name: 'A', inn: '7707083893' })).rejects.toThrow(
      /does not match/,
    );
    expect(await db.companies.count()).toBe(0);
  });

  it('puts the company under review into the mirror after "I paid"', async () => {
    const db = openDb();
    await storeCompany(db, 'u1', COMPANY);
    const reported = { ...COMPANY, verificationStatus: 'PAYMENT_REPORTED', paymentReportedAt: '2025-03-02T09:00:00.000Z', updatedAt: '2025-03-02T09:00:00.000Z' };
    const http = fakeHttp({ data: reported });
    await reportPayment(http, db, 'u1', COMPANY.id);
    expect(http.calls[0]?.path).toBe(`/api/v1/companies/${COMPANY.id}/payment-reported`);
    expect(await db.companies.get(['u1', COMPANY.id])).toMatchObject({ verificationStatus: 'PAYMENT_REPORTED', paymentReportedAt: '2025-03-02T09:00:00.000Z' });
  });

  it('never puts an older answer over a newer row the pull already brought', async () => {
    const db = openDb();
    const verified = { ...COMPANY, verificationStatus: 'VERIFIED', updatedAt: '2025-03-05T09:00:00.000Z' };
    await storeCompany(db, 'u1', verified);
    await storeCompany(db, 'u1', { ...COMPANY, verificationStatus: 'PAYMENT_REPORTED', updatedAt: '2025-03-02T09:00:00.000Z' });
    expect(await db.companies.get(['u1', COMPANY.id])).toMatchObject({ verificationStatus: 'VERIFIED' });
  });
});

/** An HTTP client whose POSTs answer `outcomes` in turn (an Error is thrown) and that records the keys sent. */
function scriptedHttp(outcomes: unknown[]): Pick<HttpClient, 'post'> & { keys: (string | undefined)[] } {
  const keys: (string | undefined)[] = [];
  return {
    keys,
    post<T>(_path: string, _body?: unknown, options?: RequestOptions): Promise<T | null> {
      keys.push(options?.headers?.['Idempotency-Key']);
      const outcome = outcomes.shift();
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome as T);
    },
  };
}

describe('one Idempotency-Key per company submission', () => {
  const input = { legalForm: 'LEGAL_ENTITY' as const, name: 'Acme Works LLC', inn: '7707083893', kpp: '770701001' };

  it('sends a retry after no answer under the same key, and the next company under a new one', async () => {
    const db = openDb();
    const keys = createSubmissionKeys();
    const http = scriptedHttp([new HttpError(0, null), { data: COMPANY, message: 'OK' }, { data: { ...COMPANY, id: '22222222-2222-4222-8222-222222222222' }, message: 'OK' }]);
    await expect(createCompany(http, db, 'u1', input, keys)).rejects.toMatchObject({ status: 0 });
    await createCompany(http, db, 'u1', input, keys);
    await createCompany(http, db, 'u1', input, keys);
    expect(http.keys[1]).toBe(http.keys[0]);
    expect(http.keys[2]).not.toBe(http.keys[0]);
  });

  it('sends an edited company after a refusal under a new key', async () => {
    const db = openDb();
    const keys = createSubmissionKeys();
    const http = scriptedHttp([new HttpError(400, { message: 'Validation failed', errors: { inn: 'innInvalid' } }), { data: COMPANY, message: 'OK' }]);
    await expect(createCompany(http, db, 'u1', { ...input, inn: '7707083890' }, keys)).rejects.toMatchObject({ status: 400 });
    await createCompany(http, db, 'u1', input, keys);
    expect(http.keys[1]).not.toBe(http.keys[0]);
  });

  it('keeps the key of "I paid" after no answer', async () => {
    const db = openDb();
    const keys = createSubmissionKeys();
    const http = scriptedHttp([new HttpError(0, null), { data: COMPANY, message: 'OK' }]);
    await expect(reportPayment(http, db, 'u1', COMPANY.id, keys)).rejects.toMatchObject({ status: 0 });
    await reportPayment(http, db, 'u1', COMPANY.id, keys);
    expect(http.keys[1]).toBe(http.keys[0]);
  });
});

describe('the invoice download', () => {
  const pdf = (disposition?: string) => new Response('%PDF-1.7 test', { status: 200, headers: { 'Content-Type': 'application/pdf', ...(disposition ? { 'Content-Disposition': disposition } : {}) } });

  /** The real HTTP client, with `fetch` playing the server. */
  const httpOver = (fetch: typeof globalThis.fetch) =>
    createHttpClient({
      prefix: '/main-service',
      tokens: { getAccess: () => 'a1', getRefresh: () => 'r1', set: vi.fn(), clear: vi.fn() },
      fetch,
      getLocale: () => 'ru',
      onAuthFailure: vi.fn(),
    });

  it('fetches the PDF with the bearer token and the language, and names it after the invoice', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.resolve(pdf('attachment; filename="invoice-V-000042.pdf"')));
    const invoice = await fetchInvoice(httpOver(fetch), COMPANY.id, 'V-000042');
    expect(invoice.fileName).toBe('invoice-V-000042.pdf');
    expect(await invoice.blob.text()).toMatch(/^%PDF/);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe(`/main-service/api/v1/companies/${COMPANY.id}/invoice`);
    expect(init?.headers).toMatchObject({ Authorization: 'Bearer a1', Language: 'ru' });
  });

  it('names the file after the invoice number when the answer names none', async () => {
    const invoice = await fetchInvoice(httpOver(vi.fn<typeof globalThis.fetch>(() => Promise.resolve(pdf()))), COMPANY.id, 'V-7');
    expect(invoice.fileName).toBe('invoice-V-7.pdf');
  });

  it("rejects with the server's status and message", async () => {
    const refused = vi.fn<typeof globalThis.fetch>(() => Promise.resolve(new Response(JSON.stringify({ message: 'You do not have the right to do this.' }), { status: 403 })));
    await expect(fetchInvoice(httpOver(refused), COMPANY.id, null)).rejects.toMatchObject({ status: 403, body: { message: 'You do not have the right to do this.' } });
  });


});
