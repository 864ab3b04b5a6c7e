import { afterEach, describe, expect, it, vi } from 'vitest';
import { createImageLoader } from './authorized-image';
import { createHttpClient, HttpError, isTimeout } from './http';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const REFRESH_URL = '/main-service/api/v1/auth/refresh-token';

/** The loader over the real HTTP client; `answer` plays the server for each call after the refresh endpoint. */
function setup(answer: (url: string, authorization: string | undefined) => Response | Promise<Response>) {
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
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = { ...(init?.headers as Record<string, string>) };
    calls.push({ url, headers });
    if (url === REFRESH_URL) return Promise.resolve(new Response(JSON.stringify({ access_token: 'new-token', refresh_token: 'r2' }), { status: 200 }));
    return Promise.resolve(answer(url, headers.Authorization));
  });
  const http = createHttpClient({ prefix: '/main-service', tokens: store, fetch, getLocale: () => 'ru', onAuthFailure: vi.fn() });
  const createObjectUrl = vi.fn((blob: Blob) => `blob:test/${blob.size}`);
  const load = createImageLoader({ http, createObjectUrl });
  return { load, calls, createObjectUrl };
}

const image = () => new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'Content-Type': 'image/png' } });
const jsonAnswer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('loadAuthorizedImage', () => {
  it('fetches the image with the bearer token and the language, and gives an object URL', async () => {
    const { load, calls, createObjectUrl } = setup(() => image());
    expect(await load('/main-service/api/v1/uploads/a.png')).toBe('blob:test/3');
    expect(calls[0]?.url).toBe('/main-service/api/v1/uploads/a.png');
    expect(calls[0]?.headers).toMatchObject({ Authorization: 'Bearer old-token', Language: 'ru' });
    expect(createObjectUrl).toHaveBeenCalledTimes(1);
  });

  it("refreshes on 403 'Token Expired.' and fetches once more with the new token", async () => {
    const { load, calls } = setup((_url, authorization) => (authorization === 'Bearer new-token' ? image() : jsonAnswer(403, { message: 'Token Expired.' })));
    expect(await load('/main-service/api/v1/uploads/x.png')).toBe('blob:test/3');
    expect(calls.map((call) => call.url)).toEqual(['/main-service/api/v1/uploads/x.png', REFRESH_URL, '/main-service/api/v1/uploads/x.png']);
    expect(calls[2]?.headers.Authorization).toBe('Bearer new-token');
  });

  it('only logs a failure (no user message) and rejects, so the caller keeps its placeholder', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const missing = setup(() => jsonAnswer(404, { message: 'Not found.' }));
    await expect(missing.load('/main-service/api/v1/uploads/gone.png')).rejects.toMatchObject({ status: 404 });
    const offline = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(offline.load('/main-service/api/v1/uploads/far.png')).rejects.toMatchObject({ status: 0 });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(missing.calls.some((call) => call.url === REFRESH_URL)).toBe(false);
  });

  it('gives up on an image that does not come within a minute', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { load } = setup(() => new Promise<Response>(() => undefined));
    let failure: unknown = null;
    const loading = load('/main-service/api/v1/uploads/slow.png').catch((error: unknown) => (failure = error));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(failure).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await loading;
    expect(failure).toBeInstanceOf(HttpError);
    expect(isTimeout(failure)).toBe(true);
  });
});
