import { describe, expect, it, vi } from 'vitest';
import { createHttpClient, HttpError } from '../../../lib/http';
import { ImportRequestError, createImportApi, recallReport, rememberReport, type ImportApiOptions, type UploadProgress } from './import-store';
import { samplePreview, sampleReport } from './test-samples';

/** A stand-in for XMLHttpRequest: records what was sent; the test plays the network. */
class FakeRequest {
  static made: FakeRequest[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null; onload: (() => void) | null } = { onprogress: null, onload: null };
  onprogress: (() => void) | null = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  constructor() {
    FakeRequest.made.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader() {
    return null;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  uploaded() {
    this.upload.onload?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

type ImportHttp = ImportApiOptions['http'];

/**
 * The import API over the real HTTP client: the fake XMLHttpRequest plays the server for uploads, `fetch`
 * for everything else (by default only the refresh endpoint, which hands out 'new-token').
 */
function setup(options: { fetch?: typeof globalThis.fetch; http?: Partial<ImportHttp> } = {}) {
  FakeRequest.made = [];
  const tokens = { access: 'old-token' as string | null, refresh: 'r1' as string | null };
  const store = {
    getAccess: () => tokens.access,
    getRefresh: () => tokens.refresh,
    set: (pair: { access_token: string; refresh_token: string }) => {
      tokens.access = pair.access_token;
      tokens.refresh = pair.refresh_token;
    },
    clear: () => {
      tokens.access = null;
      tokens.refresh = null;
    },
  };
  const refreshCalls = vi.fn((_url: string | URL | Request, _init?: RequestInit) =>
    Promise.resolve(new Response(JSON.stringify({ access_token: 'new-token', refresh_token: 'r2' }), { status: 200 })),
  );
  const http = createHttpClient({
    prefix: '/main-service',
    tokens: store,
    fetch: options.fetch ?? refreshCalls,
    getLocale: () => 'en',
    onAuthFailure: vi.fn(),
    createRequest: () => new FakeRequest() as unknown as XMLHttpRequest,
  });
  const api = createImportApi({ http: { ...http, ...options.http } });
  const last = () => FakeRequest.made.at(-1)!;
  return { api, refreshCalls, tokens, last };
}

const file = new File(['Фамилия;Имя\nИванов;Иван\n'], 'staff.csv', { type: 'text/csv' });

describe('the preview call', () => {
  it('posts the file as a dry run with the bearer token and the language, and answers the preview', async () => {
    const { api, last } = setup();
    const answer = api.preview('c1', { file });
    await tick();
    expect(last().method).toBe('POST');
    expect(last().url).toBe('/main-service/api/v1/companies/c1/employees/import?dryRun=1');
    expect(last().headers).toMatchObject({ Authorization: 'Bearer old-token', Language: 'en', Accept: 'application/json' });
    expect(last().headers['Idempotency-Key']).toBeUndefined();
    expect((last().body?.get('file') as File).name).toBe('staff.csv');
    expect(last().body?.has('mapping')).toBe(false);
    last().answer(200, { data: samplePreview, message: 'OK' });
    await expect(answer).resolves.toEqual(samplePreview);
  });

  it('refuses with the server’s message and status', async () => {
    const { api, last } = setup();
    const answer = api.preview('c1', { file });
    await tick();
    last().answer(415, { message: 'Выберите файл CSV или XLSX.' });
    await expect(answer).rejects.toMatchObject({ name: 'ImportRequestError', status: 415, serverMessage: 'Выберите файл CSV или XLSX.' });
  });

  it('refuses with status 0 when nothing answers', async () => {
    const { api, last } = setup();
    const answer = api.preview('c1', { file });
    await tick();
    last().fail();
    await expect(answer).rejects.toMatchObject({ status: 0, serverMessage: null });
  });

  it('does not take an answer that is not a preview', async () => {
    const { api, last } = setup();
    const answer = api.preview('c1', { file });
    await tick();
    last().answer(200, { data: { fileName: 'x' } });
    await expect(answer).rejects.toBeInstanceOf(ImportRequestError);
  });
});

describe('the import call', () => {
  it('sends the mapping and the Idempotency-Key, reports upload progress and then processing', async () => {
    const { api, last } = setup();
    const seen: UploadProgress[] = [];
    const answer = api.run('c1', { file, mapping: ['lastName', null], idempotencyKey: 'key-1', onProgress: (progress) => seen.push(progress) });
    await tick();
    expect(last().url).toBe('/main-service/api/v1/companies/c1/employees/import');
    expect(last().headers['Idempotency-Key']).toBe('key-1');
    expect(JSON.parse(last().body?.get('mapping') as string)).toEqual(['lastName', null]);
    last().progress(50, 100);
    last().uploaded();
    last().answer(201, { data: sampleReport, message: 'Imported' });
    await expect(answer).resolves.toEqual(sampleReport);
    expect(seen).toEqual([{ stage: 'uploading', fraction: 0 }, { stage: 'uploading', fraction: 0.5 }, { stage: 'processing' }]);
  });

  it('renews an expired token through the shared refresh and sends the file once more', async () => {
    const { api, last, refreshCalls } = setup();
    const answer = api.run('c1', { file, mapping: ['lastName', 'firstName'], idempotencyKey: 'key-2' });
    await tick();
    last().answer(403, { message: 'Token Expired.' });
    await tick();
    expect(refreshCalls).toHaveBeenCalledTimes(1);
    expect(FakeRequest.made).toHaveLength(2);
    expect(last().headers).toMatchObject({ Authorization: 'Bearer new-token', 'Idempotency-Key': 'key-2' });
    last().answer(201, { data: sampleReport });
    await expect(answer).resolves.toEqual(sampleReport);
  });

  it('refuses with 401 when the session cannot be renewed, without sending again', async () => {
    const refused = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ message: 'Invalid refresh token' }), { status: 401 })));
    const { api, last } = setup({ fetch: refused });
    const answer = api.run('c1', { file, idempotencyKey: 'key-3' });
    last().answer(403, { message: 'Token Expired.' });
    await expect(answer).rejects.toMatchObject({ name: 'ImportRequestError', status: 401, serverMessage: null });
    expect(FakeRequest.made).toHaveLength(1);
  });

  it('gives up as no answer when nothing moves for two minutes while the server works', async () => {
    vi.useFakeTimers();
    try {
      const { api, last } = setup();
      let failure: unknown = null;
      const answer = api.run('c1', { file, idempotencyKey: 'key-4' }).catch((error: unknown) => (failure = error));
      last().uploaded();
      await vi.advanceTimersByTimeAsync(119_999);
      expect(failure).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      await answer;
      expect(failure).toMatchObject({ name: 'ImportRequestError', status: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops sending when the page aborts it', async () => {
    const { api } = setup();
    const controller = new AbortController();
    const answer = api.run('c1', { file, signal: controller.signal });
    await tick();
    controller.abort();
    await expect(answer).rejects.toMatchObject({ status: 0 });
  });
});

describe('the report call', () => {
  it('reads one import’s report and refuses a missing one with the server’s status', async () => {
    const get = vi.fn((url: string) =>
      url.endsWith('/imports/imp-1') ? Promise.resolve({ data: sampleReport }) : Promise.reject(new HttpError(404, { message: 'Not found' })),
    );
    const { api } = setup({ http: { get: get as ImportHttp['get'] } });
    await expect(api.report('c1', 'imp-1')).resolves.toEqual(sampleReport);
    expect(get).toHaveBeenCalledWith('/api/v1/companies/c1/employees/imports/imp-1', undefined, { minDuration: 0 });
    await expect(api.report('c1', 'imp-9')).rejects.toMatchObject({ name: 'ImportRequestError', status: 404, serverMessage: 'Not found' });
  });
});

describe('the template download', () => {
  /** The import API over the real HTTP client, with `fetch` playing the server. */
  const withServer = (fetch: typeof globalThis.fetch) => setup({ fetch }).api;

  it('fetches the template with the bearer token and the language and names it as the server does', async () => {
    const fetch = vi.fn((_url: string | URL | Request, _init?: RequestInit) =>
      Promise.resolve(
        new Response('xlsx-bytes', {
          status: 200,
          headers: { 'Content-Disposition': `attachment; filename="employees.xlsx"; filename*=UTF-8''%D1%81%D0%BE%D1%82%D1%80%D1%83%D0%B4%D0%BD%D0%B8%D0%BA%D0%B8.xlsx` },
        }),
      ),
    );
    const { blob, fileName } = await withServer(fetch).template('c1', 'xlsx');
    expect(fetch.mock.calls[0]?.[0]).toBe('/main-service/api/v1/companies/c1/employees/import-template?format=xlsx');
    expect(fetch.mock.calls[0]?.[1]?.headers).toMatchObject({ Language: 'en', Authorization: 'Bearer old-token' });
    expect(fileName).toBe('сотрудники.xlsx');
    expect(await blob.text()).toBe('xlsx-bytes');
  });

  it('renews an expired token once and fetches again, naming the file itself when the server did not', async () => {
    const fetch = vi.fn((url: string | URL | Request, init?: RequestInit) => {
      if (typeof url === 'string' && url.endsWith('/auth/refresh-token')) return Promise.resolve(new Response(JSON.stringify({ access_token: 'new-token', refresh_token: 'r2' }), { status: 200 }));
      const auth = (init?.headers as Record<string, string>).Authorization;
      return Promise.resolve(auth === 'Bearer new-token' ? new Response('csv', { status: 200 }) : new Response(JSON.stringify({ message: 'Token Expired.' }), { status: 403 }));
    });
    const { fileName } = await withServer(fetch).template('c1', 'csv');
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(fileName).toBe('employees-template.csv');
  });

  it('refuses with the server’s message, or status 0 without a network', async () => {
    const refused = withServer(vi.fn(() => Promise.resolve(new Response(JSON.stringify({ message: 'Недостаточно прав' }), { status: 403 }))));
    await expect(refused.template('c1', 'csv')).rejects.toMatchObject({ status: 403, serverMessage: 'Недостаточно прав' });
    const offline = withServer(vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(offline.template('c1', 'csv')).rejects.toMatchObject({ status: 0 });
  });
});

describe('the last report of this tab', () => {
  it('is found again by its import, for the same user and company only', () => {
    rememberReport(sessionStorage, 'u1', { report: sampleReport, headers: ['Фамилия', 'Имя'] });
    expect(recallReport(sessionStorage, 'u1', 'c1', 'imp-1')).toEqual({ report: sampleReport, headers: ['Фамилия', 'Имя'] });
    expect(recallReport(sessionStorage, 'u1', 'c1', 'imp-2')).toBeNull();
    expect(recallReport(sessionStorage, 'u2', 'c1', 'imp-1')).toBeNull();
    expect(recallReport(sessionStorage, 'u1', 'c2', 'imp-1')).toBeNull();
  });

  it('is not trusted when what is stored is not a report', () => {
    sessionStorage.setItem('employeeImportReport:u3:c1', JSON.stringify({ report: { id: 'imp-1', companyId: 'c1' } }));
    expect(recallReport(sessionStorage, 'u3', 'c1', 'imp-1')).toBeNull();
    sessionStorage.setItem('employeeImportReport:u3:c1', 'not json');
    expect(recallReport(sessionStorage, 'u3', 'c1', 'imp-1')).toBeNull();
  });
});
