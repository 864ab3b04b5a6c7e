import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient, fileNameOfDisposition, HttpError, type HttpClientOptions, type LockRunner } from './http';
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

  it('sends POST and PATCH bodies as JSON', async () => {
    const server = fakeServer(() => json(200, { data: null }));
    const http = client({ fetch: server.fetch, tokens: memoryTokens('a', 'r') });
    await http.post('/api/v1/auth/login', { email: 'owner@demo.local' }, noWait);
    await http.patch('/api/v1/user', { locale: 'en' }, noWait);
    expect(server.calls.map((c) => [c.method, c.headers['Content-Type'], c.body])).toEqual([
      ['POST', 'application/json', '{"email":"owner@demo.local"}'],
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
