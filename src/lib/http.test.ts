import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient, fileNameOfDisposition, HttpError, isTimeout, type Exchange, type HttpClientOptions, type LockRunner } from './http';
import type { TokenStore } from './token-store';

function memoryTokens(access: string | null, refresh: string | null): TokenStore & { access: string | null; refresh: string | null } {
  return {
    access,
    refresh,
    getAccess() {
      return this.access;
    },
    getRefresh() {
      return this.refresh;
    },
    set(pair) {
      this.access = pair.access_token;
      this.refresh = pair.refresh_token;
    },
    clear() {
      this.access = null;
      this.refresh = null;
    },
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fake main-service: `handle` answers each call; every call is recorded. */
function fakeServer(handle: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: init?.body,
    };
    calls.push(call);
    // Answer asynchronously, as a network would.
    await Promise.resolve();
    return handle(call);
  });
  return { calls, fetch: fetch as unknown as typeof globalThis.fetch };
}

function client(overrides: Partial<HttpClientOptions> & Pick<HttpClientOptions, 'fetch' | 'tokens'>) {
  return createHttpClient({
    prefix: '/main-service',
    getLocale: () => 'en',
    onAuthFailure: vi.fn(),
    ...overrides,
  });
}

const REFRESH_URL = '/main-service/api/v1/auth/refresh-token';
const noWait = { minDuration: 0 };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('HTTP client: requests and answers (spec section 7)', () => {
  it('puts the prefix before the url and sends GET params as a query, dropping undefined ones', async () => {
    const server = fakeServer(() => json(200, { data: [] }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a1', 'r1') });
    await http.get('/api/v1/companies', { status: 'NEW', limit: 20, mine: true, cursor: undefined }, noWait);
    expect(server.calls[0]?.url).toBe('/main-service/api/v1/companies?status=NEW&limit=20&mine=true');
    expect(server.calls[0]?.method).toBe('GET');
    expect(server.calls[0]?.body).toBeUndefined();
  });

  it('sends the bearer token and the Language header when a token exists', async () => {
    const server = fakeServer(() => json(200, { data: 1 }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1'), getLocale: () => 'ru' });
    await http.get('/api/v1/user', undefined, noWait);
    expect(server.calls[0]?.headers).toMatchObject({ Authorization: 'Bearer access-1', Language: 'ru' });
  });

  it('sends no Authorization header without a token, but still the Language', async () => {
    const server = fakeServer(() => json(200, { data: null }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens(null, null) });
    await http.post('/api/v1/auth/login', { email: 'a@b.cd', password: 'x' }, noWait);
    expect(server.calls[0]?.headers.Authorization).toBeUndefined();
    expect(server.calls[0]?.headers.Language).toBe('en');
  });

  it('sends POST, PUT and PATCH bodies as JSON', async () => {
    const server = fakeServer(() => json(200, { data: null }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    await http.post('/api/v1/auth/login', { email: 'owner@demo.local' }, noWait);
    await http.put('/api/v1/companies/c1/ebitda', { month: '2026-01' }, noWait);
    await http.patch('/api/v1/user', { locale: 'en' }, noWait);
    expect(server.calls.map((c) => [c.method, c.headers['Content-Type'], c.body])).toEqual([
      ['POST', 'application/json', '{"email":"owner@demo.local"}'],
      ['PUT', 'application/json', '{"month":"2026-01"}'],
      ['PATCH', 'application/json', '{"locale":"en"}'],
    ]);
  });

  it('resolves to the answer body', async () => {
    const server = fakeServer(() => json(200, { data: { id: 7 }, message: 'ok' }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    await expect(http.get('/api/v1/thing', undefined, noWait)).resolves.toEqual({ data: { id: 7 }, message: 'ok' });
  });

  it('resolves to null for an empty answer (204)', async () => {
    const server = fakeServer(() => new Response(null, { status: 204 }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    await expect(http.delete('/api/v1/thing/1', noWait)).resolves.toBeNull();
  });

  it('rejects with the status and the error body on failure', async () => {
    const server = fakeServer(() => json(400, { message: 'Проверьте поля', errors: { email: 'Введите адрес' } }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    const error = await http.post('/api/v1/auth/register', {}, noWait).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, body: { message: 'Проверьте поля', errors: { email: 'Введите адрес' } } });
  });

  it('rejects with status 0 and no body when nothing answers', async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof globalThis.fetch;
    const http = client({ fetch, tokens: memoryTokens('a', 'r') });
    await expect(http.get('/api/v1/health', undefined, noWait)).rejects.toMatchObject({ status: 0, body: null });
  });

  it('keeps a failure without a JSON body as status with a null body', async () => {
    const server = fakeServer(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    await expect(http.get('/api/v1/user', undefined, noWait)).rejects.toMatchObject({ status: 502, body: null });
  });
});

describe('HTTP client: minimum request duration', () => {
  it('never settles before 350 ms by default, however fast the answer', async () => {
    vi.useFakeTimers();
    const server = fakeServer(() => json(200, { data: 1 }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    let settled = false;
    const request = http.get('/api/v1/goals').then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(349);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    await request;
  });

  it('holds failures for the minimum duration too', async () => {
    vi.useFakeTimers();
    const server = fakeServer(() => json(500, { message: 'boom' }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    let settled = false;
    const request = http.get('/api/v1/goals').catch(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(349);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    await request;
  });

  it('settles as soon as the answer is there with minDuration 0 (user, enums, units)', async () => {
    vi.useFakeTimers();
    const server = fakeServer(() => json(200, { data: 1 }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    let settled = false;
    const request = http.get('/api/v1/user', undefined, { minDuration: 0 }).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
    await request;
  });
});

describe('HTTP client: one shared token refresh (spec section 8)', () => {
  /** Accepts only `validAccess`; the refresh endpoint answers with `refreshAnswer`. */
  function expiringServer(refreshAnswer: () => Response, validAccess = 'access-2') {
    let refreshCalls = 0;
    const server = fakeServer(async (call) => {
      if (call.url === REFRESH_URL) {
        refreshCalls++;
        // Slow enough that every concurrent request has its 403 before the refresh ends.
        await new Promise((resolve) => setTimeout(resolve, 5));
        return refreshAnswer();
      }
      if (call.headers.Authorization !== `Bearer ${validAccess}`) return json(403, { message: 'Token Expired.' });
      return json(200, { data: call.url });
    });
    return { ...server, refreshCalls: () => refreshCalls };
  }

  it('makes exactly one refresh call for 20 concurrent "Token Expired." answers and retries each request once', async () => {
    const server = expiringServer(() => json(200, { access_token: 'access-2', refresh_token: 'refresh-2' }));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const onAuthFailure = vi.fn();
    const http = client({ fetch: server.fetch, tokens, onAuthFailure });

    const urls = Array.from({ length: 20 }, (_, i) => `/api/v1/items/${i}`);
    const answers = await Promise.all(urls.map((url) => http.get(url, undefined, noWait)));

    expect(server.refreshCalls()).toBe(1);
    for (const url of urls) {
      expect(server.calls.filter((c) => c.url === `/main-service${url}`)).toHaveLength(2);
    }
    expect(answers).toEqual(urls.map((url) => ({ data: `/main-service${url}` })));
    expect(tokens.access).toBe('access-2');
    expect(tokens.refresh).toBe('refresh-2');
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it('lets an upload that got "Token Expired." join the same one refresh as concurrent requests', async () => {
    const server = expiringServer(() => json(200, { access_token: 'access-2', refresh_token: 'refresh-2' }));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const http = client({ fetch: server.fetch, tokens });
    await Promise.all([http.get('/api/v1/goals', undefined, noWait), http.refreshSession(), http.refreshSession()]);
    expect(server.refreshCalls()).toBe(1);
    expect(tokens.access).toBe('access-2');
  });

  it('rejects refreshSession and clears the tokens when the refresh is refused', async () => {
    const server = expiringServer(() => json(401, { message: 'Token expired' }));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const onAuthFailure = vi.fn();
    const http = client({ fetch: server.fetch, tokens, onAuthFailure });
    await expect(http.refreshSession()).rejects.toMatchObject({ status: 401 });
    expect(tokens.access).toBeNull();
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
  });

  it('calls the refresh endpoint with the refresh token as bearer and an empty body', async () => {
    const server = expiringServer(() => json(200, { access_token: 'access-2', refresh_token: 'refresh-2' }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    await http.get('/api/v1/goals', undefined, noWait);
    const refresh = server.calls.find((c) => c.url === REFRESH_URL);
    expect(refresh?.method).toBe('POST');
    expect(refresh?.headers.Authorization).toBe('Bearer refresh-1');
    expect(refresh?.body).toBeUndefined();
  });

  it('retries without refreshing again when a late 403 arrives after the refresh has finished', async () => {
    // The request goes out with the old token; by the time its 403 arrives, a refresh has stored new ones.
    const tokens = memoryTokens('access-1', 'refresh-1');
    const lateServer = fakeServer((call) => {
      if (call.url === REFRESH_URL) return json(500, { message: 'should not be called' });
      if (call.headers.Authorization === 'Bearer access-1') {
        tokens.set({ access_token: 'access-2', refresh_token: 'refresh-2' });
        return json(403, { message: 'Token Expired.' });
      }
      return json(200, { data: 'ok' });
    });
    const late = client({ fetch: lateServer.fetch, tokens });
    await expect(late.get('/api/v1/second', undefined, noWait)).resolves.toEqual({ data: 'ok' });
    expect(lateServer.calls.some((c) => c.url === REFRESH_URL)).toBe(false);
  });

  it('refreshes on a 403 to the user request even without the message', async () => {
    let refreshed = false;
    const server = fakeServer((call) => {
      if (call.url === REFRESH_URL) {
        refreshed = true;
        return json(200, { access_token: 'access-2', refresh_token: 'refresh-2' });
      }
      return call.headers.Authorization === 'Bearer access-2' ? json(200, { data: 'me' }) : json(403, { message: 'Forbidden' });
    });
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    await expect(http.get('/api/v1/user', undefined, noWait)).resolves.toEqual({ data: 'me' });
    expect(refreshed).toBe(true);
  });

  it('does not refresh on an ordinary 403 (a forbidden action)', async () => {
    const server = fakeServer(() => json(403, { message: 'Forbidden' }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    await expect(http.post('/api/v1/companies', {}, noWait)).rejects.toMatchObject({ status: 403 });
    expect(server.calls).toHaveLength(1);
  });

  it('retries each request only once, even if the retry is refused again', async () => {
    const server = fakeServer((call) =>
      call.url === REFRESH_URL ? json(200, { access_token: 'access-2', refresh_token: 'refresh-2' }) : json(403, { message: 'Token Expired.' }),
    );
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    await expect(http.get('/api/v1/goals', undefined, noWait)).rejects.toMatchObject({ status: 403 });
    expect(server.calls.filter((c) => c.url !== REFRESH_URL)).toHaveLength(2);
  });

  it('removes both tokens and calls onAuthFailure once when the refresh answers 401', async () => {
    const server = expiringServer(() => json(401, { message: 'Invalid refresh token' }));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const onAuthFailure = vi.fn();
    const http = client({ fetch: server.fetch, tokens, onAuthFailure });

    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => http.get(`/api/v1/items/${i}`, undefined, noWait)));

    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(server.refreshCalls()).toBe(1);
    expect(tokens.access).toBeNull();
    expect(tokens.refresh).toBeNull();
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
  });

  it("removes both tokens and calls onAuthFailure when the refresh says 'Token expired'", async () => {
    const server = expiringServer(() => json(400, { message: 'Token expired at 2025-01-01' }));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const onAuthFailure = vi.fn();
    const http = client({ fetch: server.fetch, tokens, onAuthFailure });
    await expect(http.get('/api/v1/goals', undefined, noWait)).rejects.toBeInstanceOf(HttpError);
    expect(tokens.access).toBeNull();
    expect(tokens.refresh).toBeNull();
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
  });

  it('keeps the tokens when the refresh fails for another reason (server down)', async () => {
    const server = expiringServer(() => json(503, { message: 'Service unavailable' }));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const onAuthFailure = vi.fn();
    const http = client({ fetch: server.fetch, tokens, onAuthFailure });
    await expect(http.get('/api/v1/goals', undefined, noWait)).rejects.toMatchObject({ status: 403, body: { message: 'Token Expired.' } });
    expect(tokens.refresh).toBe('refresh-1');
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it('runs the refresh under the "auth-refresh" Web Lock', async () => {
    const server = expiringServer(() => json(200, { access_token: 'access-2', refresh_token: 'refresh-2' }));
    const names: string[] = [];
    const locks: LockRunner = {
      request: (name, callback) => {
        names.push(name);
        return callback();
      },
    };
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1'), locks });
    await http.get('/api/v1/goals', undefined, noWait);
    expect(names).toEqual(['auth-refresh']);
  });

  it('uses the tokens another tab stored while it waited for the lock, without calling refresh', async () => {
    const server = expiringServer(() => json(401, { message: 'reused refresh token' }));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const locks: LockRunner = {
      // The other tab held the lock and rotated the pair before granting it to us.
      request: (_name, callback) => {
        tokens.set({ access_token: 'access-2', refresh_token: 'refresh-2' });
        return callback();
      },
    };
    const onAuthFailure = vi.fn();
    const http = client({ fetch: server.fetch, tokens, locks, onAuthFailure });
    await expect(http.get('/api/v1/goals', undefined, noWait)).resolves.toEqual({ data: '/main-service/api/v1/goals' });
    expect(server.refreshCalls()).toBe(0);
    expect(onAuthFailure).not.toHaveBeenCalled();
  });
});

describe('HTTP client: files behind the bearer token (invoice, import template)', () => {
  const file = (text: string, disposition?: string) =>
    new Response(text, { status: 200, headers: disposition ? { 'Content-Disposition': disposition } : {} });

  it('sends the bearer token and the language, and answers the bytes with the name the server gave', async () => {
    const server = fakeServer(() => file('%PDF-1.7', `attachment; filename="invoice.pdf"; filename*=UTF-8''%D1%81%D1%87%D1%91%D1%82.pdf`));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a1', 'r1'), getLocale: () => 'ru' });
    const answer = await http.getFile('/api/v1/companies/c1/employees/import-template', { format: 'xlsx' });
    expect(await answer.blob.text()).toBe('%PDF-1.7');
    expect(answer.fileName).toBe('счёт.pdf');
    expect(server.calls[0]).toMatchObject({ url: '/main-service/api/v1/companies/c1/employees/import-template?format=xlsx', method: 'GET' });
    expect(server.calls[0]?.headers).toMatchObject({ Authorization: 'Bearer a1', Language: 'ru' });
  });

  it("joins the one shared refresh on 'Token Expired.' and fetches again with the new token", async () => {
    const server = fakeServer((call) => {
      if (call.url === REFRESH_URL) return json(200, { access_token: 'a2', refresh_token: 'r2' });
      return call.headers.Authorization === 'Bearer a2' ? file('bytes') : json(403, { message: 'Token Expired.' });
    });
    const tokens = memoryTokens('a1', 'r1');
    const http = client({ fetch: server.fetch, tokens });
    const answer = await http.getFile('/api/v1/companies/c1/invoice');
    expect(await answer.blob.text()).toBe('bytes');
    expect(answer.fileName).toBeNull();
    expect(server.calls.map((c) => c.url)).toEqual(['/main-service/api/v1/companies/c1/invoice', REFRESH_URL, '/main-service/api/v1/companies/c1/invoice']);
    expect(tokens.access).toBe('a2');
  });

  it("rejects with the server's status and message, or status 0 when nothing answered", async () => {
    const refused = client({ fetch: fakeServer(() => json(403, { message: 'Недостаточно прав.' })).fetch, tokens: memoryTokens('a1', 'r1') });
    await expect(refused.getFile('/api/v1/companies/c1/invoice')).rejects.toMatchObject({ status: 403, body: { message: 'Недостаточно прав.' } });
    const offline = client({ fetch: vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))), tokens: memoryTokens('a1', 'r1') });
    const failure: unknown = await offline.getFile('/api/v1/companies/c1/invoice').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ status: 0 });
  });
});

describe('file names of Content-Disposition', () => {
  it('reads the extended name first, then the plain one, and never a path', () => {
    expect(fileNameOfDisposition('attachment; filename="a b.csv"')).toBe('a b.csv');
    expect(fileNameOfDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameOfDisposition("attachment; filename*=UTF-8''%D1%88.csv")).toBe('ш.csv');
    expect(fileNameOfDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameOfDisposition("attachment; filename*=UTF-8''..%2F..%2Fevil.pdf")).toBe('evil.pdf');
    expect(fileNameOfDisposition('attachment; filename=".."')).toBeNull();
    expect(fileNameOfDisposition(null)).toBeNull();
  });
});

const urlOf = (input: RequestInfo | URL) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** A network that accepts the connection and never answers; it lets go when the request's signal aborts. */
function hangingFetch() {
  const signals: AbortSignal[] = [];
  const fetch = vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
    const signal = init?.signal;
    if (signal) signals.push(signal);
    return new Promise<Response>((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, signals };
}

/** Settles `promise` into a box the test can look at while fake time runs. */
function watch<T>(promise: Promise<T>) {
  const box: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(box, { settled: true, value }),
    (error: unknown) => Object.assign(box, { settled: true, error }),
  );
  return box;
}

describe('HTTP client: every request has a deadline', () => {
  it('gives up on a hanging request after the default 15 s, as no answer marked as a timeout', async () => {
    vi.useFakeTimers();
    const network = hangingFetch();
    const http = client({ fetch: network.fetch, tokens: memoryTokens('a', 'r') });
    const call = watch(http.get('/api/v1/user', undefined, noWait));
    await vi.advanceTimersByTimeAsync(14_999);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.error).toBeInstanceOf(HttpError);
    expect(call.error).toMatchObject({ status: 0, body: null });
    expect(isTimeout(call.error)).toBe(true);
    expect(network.signals[0]?.aborted).toBe(true);
  });

  it("takes the call's timeoutMs, then the client's defaultTimeoutMs", async () => {
    vi.useFakeTimers();
    const http = client({ fetch: hangingFetch().fetch, tokens: memoryTokens('a', 'r'), defaultTimeoutMs: 3_000 });
    const short = watch(http.get('/api/v1/user', undefined, { minDuration: 0, timeoutMs: 1_000 }));
    const usual = watch(http.get('/api/v1/enums', undefined, noWait));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(isTimeout(short.error)).toBe(true);
    expect(usual.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(isTimeout(usual.error)).toBe(true);
  });

  it('settles at its deadline even when the fetch it was given ignores the signal', async () => {
    vi.useFakeTimers();
    const deaf = vi.fn(() => new Promise<Response>(() => undefined)) as unknown as typeof globalThis.fetch;
    const http = client({ fetch: deaf, tokens: memoryTokens('a', 'r') });
    const call = watch(http.post('/api/v1/companies', { name: 'x' }, { minDuration: 0, timeoutMs: 2_000 }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(isTimeout(call.error)).toBe(true);
  });

  it('times out an answer whose body never arrives', async () => {
    vi.useFakeTimers();
    const endless = vi.fn(() => Promise.resolve(new Response(new ReadableStream<Uint8Array>({ start: () => undefined }), { status: 200 })));
    const http = client({ fetch: endless, tokens: memoryTokens('a', 'r') });
    const call = watch(http.get('/api/v1/goals', undefined, { minDuration: 0, timeoutMs: 1_000 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(call.error).toMatchObject({ status: 0 });
    expect(isTimeout(call.error)).toBe(true);
  });

  it('tells a refused connection and an abort by the caller from a timeout', async () => {
    const refused = client({ fetch: vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))), tokens: memoryTokens('a', 'r') });
    const refusal: unknown = await refused.get('/api/v1/user', undefined, noWait).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 0 });
    expect(isTimeout(refusal)).toBe(false);

    const network = hangingFetch();
    const hanging = client({ fetch: network.fetch, tokens: memoryTokens('a', 'r') });
    const controller = new AbortController();
    const call = hanging.get('/api/v1/user', undefined, { minDuration: 0, signal: controller.signal }).catch((error: unknown) => error);
    controller.abort(new Error('left the page'));
    const aborted = await call;
    expect(aborted).toMatchObject({ status: 0 });
    expect(isTimeout(aborted)).toBe(false);
    expect(network.signals[0]?.aborted).toBe(true);
  });

  it("combines the caller's signal with the deadline where AbortSignal.any is missing", async () => {
    vi.useFakeTimers();
    // An engine without AbortSignal.any.
    const original = Object.getOwnPropertyDescriptor(AbortSignal, 'any');
    Reflect.deleteProperty(AbortSignal, 'any');
    try {
      const http = client({ fetch: hangingFetch().fetch, tokens: memoryTokens('a', 'r') });
      const controller = new AbortController();
      const aborted = watch(http.get('/api/v1/user', undefined, { minDuration: 0, signal: controller.signal }));
      const timed = watch(http.get('/api/v1/enums', undefined, { minDuration: 0, signal: new AbortController().signal, timeoutMs: 500 }));
      controller.abort();
      await vi.advanceTimersByTimeAsync(500);
      expect(aborted.error).toMatchObject({ status: 0 });
      expect(isTimeout(aborted.error)).toBe(false);
      expect(isTimeout(timed.error)).toBe(true);
    } finally {
      if (original) Object.defineProperty(AbortSignal, 'any', original);
    }
  });

  it('gives up on a hanging refresh at its deadline: tokens kept, no sign-out, and the lock let go', async () => {
    vi.useFakeTimers();
    let refreshCalls = 0;
    const network = hangingFetch();
    const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      if (urlOf(input) === REFRESH_URL) refreshCalls++;
      return network.fetch(input, init);
    }) as unknown as typeof globalThis.fetch;
    let held = false;
    const locks: LockRunner = {
      async request(_name, callback) {
        held = true;
        try {
          return await callback();
        } finally {
          held = false;
        }
      },
    };
    const tokens = memoryTokens('access-1', 'refresh-1');
    const onAuthFailure = vi.fn();
    const http = client({ fetch, tokens, locks, onAuthFailure });

    const first = watch(http.refreshSession());
    await vi.advanceTimersByTimeAsync(0);
    expect(held).toBe(true);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(first.error).toMatchObject({ status: 0 });
    expect(isTimeout(first.error)).toBe(true);
    expect(held).toBe(false);
    expect([tokens.access, tokens.refresh]).toEqual(['access-1', 'refresh-1']);
    expect(onAuthFailure).not.toHaveBeenCalled();

    // The next refresh is a new call, not a wait behind the one that hung.
    const second = watch(http.refreshSession());
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshCalls).toBe(2);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(second.settled).toBe(true);
  });

  it('ends a call waiting on a hanging refresh at its own deadline, as no answer rather than an expired session', async () => {
    vi.useFakeTimers();
    const network = hangingFetch();
    const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
      urlOf(input) === REFRESH_URL ? network.fetch(input, init) : Promise.resolve(json(403, { message: 'Token Expired.' })),
    ) as unknown as typeof globalThis.fetch;
    const tokens = memoryTokens('access-1', 'refresh-1');
    const http = client({ fetch, tokens });
    const call = watch(http.get('/api/v1/user', undefined, { minDuration: 0, timeoutMs: 3_000 }));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(call.error).toMatchObject({ status: 0, body: null });
    expect(isTimeout(call.error)).toBe(true);
    expect(tokens.refresh).toBe('refresh-1');
  });

  it('answers a call whose refresh got no answer as no answer (status 0), not as the 403', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetch = vi.fn((input: RequestInfo | URL) =>
      urlOf(input) === REFRESH_URL ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve(json(403, { message: 'Token Expired.' })),
    ) as unknown as typeof globalThis.fetch;
    const tokens = memoryTokens('access-1', 'refresh-1');
    const http = client({ fetch, tokens });
    const failure: unknown = await http.get('/api/v1/user', undefined, noWait).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 0, body: null });
    expect(isTimeout(failure)).toBe(false);
    expect(tokens.refresh).toBe('refresh-1');
  });
});

describe('HTTP client: Idempotency-Key', () => {
  it('sends idempotencyKey as the Idempotency-Key header, the same on the resend after a refresh', async () => {
    const server = fakeServer((call) => {
      if (call.url === REFRESH_URL) return json(200, { access_token: 'access-2', refresh_token: 'refresh-2' });
      return call.headers.Authorization === 'Bearer access-2' ? json(201, { data: 'made' }) : json(403, { message: 'Token Expired.' });
    });
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    await expect(http.post('/api/v1/companies', { name: 'A' }, { minDuration: 0, idempotencyKey: 'key-1' })).resolves.toEqual({ data: 'made' });
    const sent = server.calls.filter((c) => c.url !== REFRESH_URL);
    expect(sent.map((c) => c.headers['Idempotency-Key'])).toEqual(['key-1', 'key-1']);
    expect(server.calls.find((c) => c.url === REFRESH_URL)?.headers['Idempotency-Key']).toBeUndefined();
  });

  it('sends none when not asked to', async () => {
    const server = fakeServer(() => json(200, { data: 1 }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    await http.post('/api/v1/thing', {}, noWait);
    expect(server.calls[0]?.headers['Idempotency-Key']).toBeUndefined();
  });
});

describe('HTTP client: exchange (every status, no exceptions)', () => {
  it('answers any status with the parsed body and Retry-After, at once (no minimum duration)', async () => {
    vi.useFakeTimers();
    const server = fakeServer(() => new Response(JSON.stringify({ message: 'Busy' }), { status: 503, headers: { 'Retry-After': '7' } }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a1', 'r1'), getLocale: () => 'ru' });
    const sent = watch(http.exchange({ method: 'POST', url: '/api/v1/companies/c1/suggestions', body: { title: 'T' }, idempotencyKey: 'row-1' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.value).toEqual({ kind: 'answer', status: 503, body: { message: 'Busy' }, retryAfter: '7' } satisfies Exchange);
    expect(server.calls[0]).toMatchObject({
      url: '/main-service/api/v1/companies/c1/suggestions',
      method: 'POST',
      body: '{"title":"T"}',
      headers: { Authorization: 'Bearer a1', Language: 'ru', 'Content-Type': 'application/json', 'Idempotency-Key': 'row-1' },
    });
  });

  it('sends FormData and Blob bodies as they are, and no body with GET', async () => {
    const server = fakeServer(() => json(200, { data: null }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a1', 'r1') });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.png');
    const blob = new Blob(['bytes']);
    await http.exchange({ method: 'POST', url: '/api/v1/files/upload', body: form });
    await http.exchange({ method: 'PATCH', url: '/api/v1/raw', body: blob });
    await http.exchange({ method: 'GET', url: '/api/v1/thing', body: { ignored: true } });
    expect(server.calls[0]?.body).toBe(form);
    expect(server.calls[0]?.headers['Content-Type']).toBeUndefined();
    expect(server.calls[1]?.body).toBe(blob);
    expect(server.calls[2]?.body).toBeUndefined();
  });

  it('answers an empty or non-JSON body as null', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const answers = [new Response(null, { status: 204 }), new Response('<html>Bad gateway</html>', { status: 502 })];
    const http = client({ fetch: vi.fn(() => Promise.resolve(answers.shift()!)), tokens: memoryTokens('a1', 'r1') });
    await expect(http.exchange({ method: 'DELETE', url: '/api/v1/x' })).resolves.toEqual({ kind: 'answer', status: 204, body: null, retryAfter: null });
    await expect(http.exchange({ method: 'GET', url: '/api/v1/x' })).resolves.toEqual({ kind: 'answer', status: 502, body: null, retryAfter: null });
  });

  it('answers no answer as network, telling a timeout from a refusal', async () => {
    const refused = client({ fetch: vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))), tokens: memoryTokens('a1', 'r1') });
    await expect(refused.exchange({ method: 'GET', url: '/api/v1/x' })).resolves.toEqual({ kind: 'network', message: 'Failed to fetch', timedOut: false });

    vi.useFakeTimers();
    const hanging = client({ fetch: hangingFetch().fetch, tokens: memoryTokens('a1', 'r1') });
    const sent = watch(hanging.exchange({ method: 'POST', url: '/api/v1/x', body: {}, timeoutMs: 4_000 }));
    await vi.advanceTimersByTimeAsync(3_999);
    expect(sent.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.value).toMatchObject({ kind: 'network', timedOut: true });
  });

  it('gives a large body more time by default, at the pace of a slow uplink', async () => {
    vi.useFakeTimers();
    const http = client({ fetch: hangingFetch().fetch, tokens: memoryTokens('a1', 'r1') });
    // 64 KiB at 32 KiB/s: two seconds more than the 15 s of a JSON call.
    const sent = watch(http.exchange({ method: 'POST', url: '/api/v1/files/upload', body: new Blob([new Uint8Array(64 * 1024)]) }));
    await vi.advanceTimersByTimeAsync(16_999);
    expect(sent.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.value).toMatchObject({ kind: 'network', timedOut: true });
  });

  it("on 'Token Expired.' joins the one shared refresh with the other calls and sends once more", async () => {
    let refreshCalls = 0;
    const server = fakeServer(async (call) => {
      if (call.url === REFRESH_URL) {
        refreshCalls++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return json(200, { access_token: 'access-2', refresh_token: 'refresh-2' });
      }
      return call.headers.Authorization === 'Bearer access-2' ? json(201, { data: call.url }) : json(403, { message: 'Token Expired.' });
    });
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    const [a, b] = await Promise.all([
      http.exchange({ method: 'POST', url: '/api/v1/a', body: {}, idempotencyKey: 'k-a' }),
      http.exchange({ method: 'POST', url: '/api/v1/b', body: {} }),
      http.get('/api/v1/c', undefined, noWait),
    ]);
    expect(refreshCalls).toBe(1);
    expect(a).toEqual({ kind: 'answer', status: 201, body: { data: '/main-service/api/v1/a' }, retryAfter: null });
    expect(b).toMatchObject({ kind: 'answer', status: 201 });
    expect(server.calls.filter((c) => c.url.endsWith('/api/v1/a')).map((c) => c.headers['Idempotency-Key'])).toEqual(['k-a', 'k-a']);
  });

  it('answers network when the refresh got no answer, and keeps the tokens', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fetch = vi.fn((input: RequestInfo | URL) =>
      urlOf(input) === REFRESH_URL ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve(json(403, { message: 'Token Expired.' })),
    ) as unknown as typeof globalThis.fetch;
    const tokens = memoryTokens('access-1', 'refresh-1');
    const http = client({ fetch, tokens });
    await expect(http.exchange({ method: 'POST', url: '/api/v1/x', body: {} })).resolves.toMatchObject({ kind: 'network', timedOut: false });
    expect(tokens.refresh).toBe('refresh-1');
  });

  it('answers network, timed out, when the refresh hangs past the deadline', async () => {
    vi.useFakeTimers();
    const network = hangingFetch();
    const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
      urlOf(input) === REFRESH_URL ? network.fetch(input, init) : Promise.resolve(json(403, { message: 'Token Expired.' })),
    ) as unknown as typeof globalThis.fetch;
    const http = client({ fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    const sent = watch(http.exchange({ method: 'POST', url: '/api/v1/x', body: {} }));
    await vi.advanceTimersByTimeAsync(15_000);
    expect(sent.value).toMatchObject({ kind: 'network', timedOut: true });
  });

  it('answers auth when the refresh is refused (tokens removed, onAuthFailure) or the resend expires again', async () => {
    const refusing = fakeServer((call) => (call.url === REFRESH_URL ? json(401, { message: 'Invalid refresh token' }) : json(403, { message: 'Token Expired.' })));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const onAuthFailure = vi.fn();
    const refused = client({ fetch: refusing.fetch, tokens, onAuthFailure });
    await expect(refused.exchange({ method: 'POST', url: '/api/v1/x', body: {} })).resolves.toMatchObject({ kind: 'auth' });
    expect(tokens.access).toBeNull();
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
    expect(refusing.calls.filter((c) => c.url !== REFRESH_URL)).toHaveLength(1);

    const expiring = fakeServer((call) =>
      call.url === REFRESH_URL ? json(200, { access_token: 'access-2', refresh_token: 'refresh-2' }) : json(403, { message: 'Token Expired.' }),
    );
    const again = client({ fetch: expiring.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    await expect(again.exchange({ method: 'POST', url: '/api/v1/x', body: {} })).resolves.toEqual({ kind: 'auth', message: 'Token Expired.' });
    expect(expiring.calls.filter((c) => c.url !== REFRESH_URL)).toHaveLength(2);
  });

  it('does not refresh on another 403, nor on a 403 to the user request without the message', async () => {
    const server = fakeServer(() => json(403, { message: 'Forbidden' }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    await expect(http.exchange({ method: 'GET', url: '/api/v1/user' })).resolves.toMatchObject({ kind: 'answer', status: 403 });
    expect(server.calls).toHaveLength(1);
  });
});

/** A stand-in for XMLHttpRequest: records what was sent; the test plays the network. */
class FakeRequest {
  static made: FakeRequest[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  responseHeaders: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  aborted = false;
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
  getResponseHeader(name: string) {
    return this.responseHeaders[name] ?? null;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseHeaders = headers;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

describe('HTTP client: upload over XMLHttpRequest (progress)', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  function uploading(overrides: Partial<HttpClientOptions> = {}) {
    FakeRequest.made = [];
    const server = fakeServer((call) => (call.url === REFRESH_URL ? json(200, { access_token: 'access-2', refresh_token: 'refresh-2' }) : json(500, {})));
    const tokens = memoryTokens('access-1', 'refresh-1');
    const http = client({ fetch: server.fetch, tokens, createRequest: () => new FakeRequest() as unknown as XMLHttpRequest, getLocale: () => 'ru', ...overrides });
    const last = () => FakeRequest.made.at(-1)!;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'a.png');
    return { http, server, tokens, last, form };
  }

  it('posts the body with the bearer token, the language and the key, reports progress and the last byte, and answers', async () => {
    const { http, last, form } = uploading();
    const onProgress = vi.fn();
    const onSent = vi.fn();
    const sent = http.upload('/api/v1/files/upload', form, { onProgress, onSent, idempotencyKey: 'file-1' });
    expect(last()).toMatchObject({ method: 'POST', url: '/main-service/api/v1/files/upload', body: form });
    expect(last().headers).toEqual({ Accept: 'application/json', Language: 'ru', Authorization: 'Bearer access-1', 'Idempotency-Key': 'file-1' });
    last().progress(1, 4);
    last().progress(4, 4);
    last().upload.onload?.();
    last().answer(429, { message: 'Slow down' }, { 'Retry-After': '3' });
    expect(await sent).toEqual({ kind: 'answer', status: 429, body: { message: 'Slow down' }, retryAfter: '3' });
    expect(onProgress.mock.calls).toEqual([[0.25], [1]]);
    expect(onSent).toHaveBeenCalledTimes(1);
  });

  it('gives up when no byte moved for the stall timeout, and any progress restarts the wait', async () => {
    vi.useFakeTimers();
    const { http, last, form } = uploading();
    const sent = watch(http.upload('/api/v1/files/upload', form));
    await vi.advanceTimersByTimeAsync(20_000);
    last().progress(1, 2);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(sent.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.value).toMatchObject({ kind: 'network', timedOut: true });
    expect(last().aborted).toBe(true);
  });

  it('takes its own stall timeout (the server works on a whole import before it answers)', async () => {
    vi.useFakeTimers();
    const { http, last, form } = uploading();
    const sent = watch(http.upload('/api/v1/import', form, { stallTimeoutMs: 120_000 }));
    last().upload.onload?.();
    await vi.advanceTimersByTimeAsync(119_999);
    expect(sent.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.value).toMatchObject({ kind: 'network', timedOut: true });
  });

  it("on 'Token Expired.' joins the shared refresh and sends once more with the new token and the same key", async () => {
    const { http, last, server, form } = uploading();
    const onProgress = vi.fn();
    const sent = http.upload('/api/v1/files/upload', form, { onProgress, idempotencyKey: 'file-2' });
    last().answer(403, { message: 'Token Expired.' });
    await vi.waitFor(() => expect(FakeRequest.made).toHaveLength(2));
    expect(server.calls.map((c) => c.url)).toEqual([REFRESH_URL]);
    expect(last().headers).toMatchObject({ Authorization: 'Bearer access-2', 'Idempotency-Key': 'file-2' });
    expect(onProgress).toHaveBeenLastCalledWith(0);
    last().answer(200, { data: { imageId: 'i1' } });
    expect(await sent).toMatchObject({ kind: 'answer', status: 200, body: { data: { imageId: 'i1' } } });
  });

  it('answers auth when the resend is told the token expired again', async () => {
    const { http, last, form } = uploading();
    const sent = http.upload('/api/v1/files/upload', form);
    last().answer(403, { message: 'Token Expired.' });
    await vi.waitFor(() => expect(FakeRequest.made).toHaveLength(2));
    last().answer(403, { message: 'Token Expired.' });
    expect(await sent).toEqual({ kind: 'auth', message: 'Token Expired.' });
  });

  it("answers network, not a timeout, on a refused connection or the caller's abort", async () => {
    const { http, last, form } = uploading();
    const refused = http.upload('/api/v1/files/upload', form);
    last().onerror?.();
    expect(await refused).toMatchObject({ kind: 'network', timedOut: false });

    const controller = new AbortController();
    const aborted = http.upload('/api/v1/files/upload', form, { signal: controller.signal });
    controller.abort();
    expect(last().aborted).toBe(true);
    expect(await aborted).toMatchObject({ kind: 'network', timedOut: false });

    await tick();
    const count = FakeRequest.made.length;
    await expect(http.upload('/api/v1/files/upload', form, { signal: controller.signal })).resolves.toMatchObject({ kind: 'network' });
    expect(FakeRequest.made).toHaveLength(count);
  });

  it('goes over fetch, without progress, where there is no XMLHttpRequest (the service worker)', async () => {
    vi.stubGlobal('XMLHttpRequest', undefined);
    const server = fakeServer(() => json(200, { data: { imageId: 'i1' } }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('access-1', 'refresh-1') });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.png');
    const onSent = vi.fn();
    await expect(http.upload('/api/v1/files/upload', form, { idempotencyKey: 'file-3', onSent })).resolves.toMatchObject({ kind: 'answer', status: 200 });
    expect(server.calls[0]).toMatchObject({ method: 'POST', body: form, headers: { Authorization: 'Bearer access-1', 'Idempotency-Key': 'file-3' } });
    expect(onSent).toHaveBeenCalledTimes(1);
  });
});
