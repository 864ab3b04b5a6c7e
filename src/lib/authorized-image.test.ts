import { afterEach, describe, expect, it, vi } from 'vitest';
import { createImageLoader, type ImageLoaderOptions } from './authorized-image';

afterEach(() => {
  vi.restoreAllMocks();
});

function setup(answers: Array<Response | Error>, overrides: Partial<ImageLoaderOptions> = {}) {
  const tokens = { access: 'old-token' as string | null, getAccess: () => tokens.access };
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, headers: { ...(init?.headers as Record<string, string>) } });
    const next = answers.shift();
    return next instanceof Error || next === undefined ? Promise.reject(next ?? new Error('no answer')) : Promise.resolve(next);
  });
  const refreshSession = vi.fn(() => {
    tokens.access = 'new-token';
    return Promise.resolve();
  });
  const createObjectUrl = vi.fn((blob: Blob) => `blob:test/${blob.size}`);
  const load = createImageLoader({ tokens, getLocale: () => 'ru', fetch, createObjectUrl, refreshSession, ...overrides });
  return { load, calls, refreshSession, createObjectUrl };
}

const image = () => new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'Content-Type': 'image/png' } });
const jsonAnswer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('loadAuthorizedImage', () => {
  it('fetches the image with the bearer token and the language, and gives an object URL', async () => {
    const { load, calls, createObjectUrl } = setup([image()]);
    expect(await load('/main-service/api/v1/uploads/a.png')).toBe('blob:test/3');
    expect(calls[0]).toEqual({ url: '/main-service/api/v1/uploads/a.png', headers: { Authorization: 'Bearer old-token', Language: 'ru' } });
    expect(createObjectUrl).toHaveBeenCalledTimes(1);
  });

  it("refreshes on 403 'Token Expired.' and fetches once more with the new token", async () => {
    const { load, calls, refreshSession } = setup([jsonAnswer(403, { message: 'Token Expired.' }), image()]);
    expect(await load('/x.png')).toBe('blob:test/3');
    expect(refreshSession).toHaveBeenCalledTimes(1);
    expect(calls[1]?.headers.Authorization).toBe('Bearer new-token');
  });

  it('only logs a failure (no user message) and rejects, so the caller keeps its placeholder', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const missing = setup([jsonAnswer(404, { message: 'Not found.' })]);
    await expect(missing.load('/gone.png')).rejects.toThrow('HTTP 404');
    const offline = setup([new TypeError('Failed to fetch')]);
    await expect(offline.load('/far.png')).rejects.toThrow('Failed to fetch');
    expect(warn).toHaveBeenCalledTimes(2);
    expect(missing.refreshSession).not.toHaveBeenCalled();
  });
});
