import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from './http';
import { createUploader, toUploadAnswer } from './upload';

/** A stand-in for XMLHttpRequest: records what was sent; the test plays the network. */
class FakeRequest {
  static made: FakeRequest[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
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
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
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

/** The uploader over the real HTTP client: the fake XMLHttpRequest plays the server, `refresh` its refresh endpoint. */
function setup(refresh: () => Response = () => new Response(JSON.stringify({ access_token: 'new-token', refresh_token: 'r2' }), { status: 200 })) {
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
  const refreshCalls = vi.fn(() => Promise.resolve(refresh()));
  const http = createHttpClient({
    prefix: '/main-service',
    tokens: store,
    fetch: refreshCalls,
    getLocale: () => 'en',
    onAuthFailure: vi.fn(),
    createRequest: () => new FakeRequest() as unknown as XMLHttpRequest,
  });
  const upload = createUploader({ url: '/main-service/api/v1/files/upload', http });
  const last = () => FakeRequest.made.at(-1)!;
  return { upload, refreshSession: refreshCalls, tokens, last };
}

const photo = new File([new Uint8Array([0x89, 0x50])], 'photo.png', { type: 'image/png' });
const okBody = { status: 200, message: 'OK', data: { imageId: 'id-1', imageLink: '/main-service/api/v1/uploads/id-1.png', name: 'photo.png' } };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('uploadFile', () => {
  it('posts the file as the multipart field "file", with the bearer token and the language', async () => {
    const { upload, last } = setup();
    const done = upload(photo, () => undefined);
    expect(last().method).toBe('POST');
    expect(last().url).toBe('/main-service/api/v1/files/upload');
    expect(last().headers).toMatchObject({ Authorization: 'Bearer old-token', Language: 'en', Accept: 'application/json' });
    expect(last().body?.get('file')).toBeInstanceOf(File);
    expect((last().body?.get('file') as File).name).toBe('photo.png');
    last().answer(200, okBody);
    expect(await done).toEqual({ status: 200, message: 'OK', data: okBody.data });
  });

  it('reports upload progress as a fraction', async () => {
    const { upload, last } = setup();
    const onProgress = vi.fn();
    const done = upload(photo, onProgress);
    last().progress(25, 100);
    last().progress(100, 100);
    expect(onProgress.mock.calls).toEqual([[0.25], [1]]);
    last().answer(200, okBody);
    await done;
  });

  it('resolves null when nothing answered (network down)', async () => {
    const { upload, last } = setup();
    const done = upload(photo, () => undefined);
    last().fail();
    expect(await done).toBeNull();
  });

  it('aborts the request when the signal fires, and resolves null', async () => {
    const { upload, last } = setup();
    const controller = new AbortController();
    const done = upload(photo, () => undefined, controller.signal);
    controller.abort();
    expect(last().aborted).toBe(true);
    expect(await done).toBeNull();
  });

  it("gives a refusal's HTTP status and the server's message", async () => {
    const { upload, last } = setup();
    const done = upload(photo, () => undefined);
    last().answer(413, { message: 'The file is too large: at most 10 MB.' });
    expect(await done).toEqual({ status: 413, message: 'The file is too large: at most 10 MB.', data: null });
  });

  it("on 403 'Token Expired.' refreshes through the shared refresh and sends once more with the new token", async () => {
    const { upload, last, refreshSession } = setup();
    const onProgress = vi.fn();
    const done = upload(photo, onProgress);
    last().answer(403, { message: 'Token Expired.' });
    await tick();
    expect(refreshSession).toHaveBeenCalledTimes(1);
    expect(FakeRequest.made).toHaveLength(2);
    expect(last().headers.Authorization).toBe('Bearer new-token');
    expect(onProgress).toHaveBeenLastCalledWith(0);
    last().answer(200, okBody);
    expect((await done)?.status).toBe(200);
  });

  it('retries only once: a second expiry answers 401, a session that could not be renewed', async () => {
    const { upload, last, refreshSession } = setup();
    const done = upload(photo, () => undefined);
    last().answer(403, { message: 'Token Expired.' });
    await tick();
    last().answer(403, { message: 'Token Expired.' });
    expect(await done).toEqual({ status: 401, message: null, data: null });
    expect(refreshSession).toHaveBeenCalledTimes(1);
    expect(FakeRequest.made).toHaveLength(2);
  });

  it('does not refresh for another 403', async () => {
    const { upload, last, refreshSession } = setup();
    const done = upload(photo, () => undefined);
    last().answer(403, { message: 'Forbidden' });
    expect(await done).toMatchObject({ status: 403, message: 'Forbidden' });
    expect(refreshSession).not.toHaveBeenCalled();
  });

  it('answers 401 without a message when the refresh is refused, without sending again', async () => {
    const { upload, last, tokens } = setup(() => new Response(JSON.stringify({ message: 'Invalid refresh token' }), { status: 401 }));
    const done = upload(photo, () => undefined);
    last().answer(403, { message: 'Token Expired.' });
    expect(await done).toEqual({ status: 401, message: null, data: null });
    expect(FakeRequest.made).toHaveLength(1);
    expect(tokens.access).toBeNull();
  });

  it('resolves null when the refresh got no answer (nothing is known of the session)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { upload, last } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const done = upload(photo, () => undefined);
    last().answer(403, { message: 'Token Expired.' });
    expect(await done).toBeNull();
    expect(FakeRequest.made).toHaveLength(1);
  });

  it('resolves null when the upload stalls (no byte moved for 30 s)', async () => {
    vi.useFakeTimers();
    try {
      const { upload, last } = setup();
      let answer: unknown = 'pending';
      void upload(photo, () => undefined).then((value) => (answer = value));
      await vi.advanceTimersByTimeAsync(30_000);
      expect(answer).toBeNull();
      expect(last().aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads answers defensively', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(toUploadAnswer(200, { message: 'OK', data: okBody.data })).toMatchObject({ status: 200, data: okBody.data });
    expect(toUploadAnswer(200, { status: 500, message: 'Broken' })).toEqual({ status: 500, message: 'Broken', data: null });
    expect(toUploadAnswer(502, { status: 200 })).toMatchObject({ status: 502 });
    expect(toUploadAnswer(502, null)).toEqual({ status: 502, message: null, data: null });
    expect(toUploadAnswer(200, { status: 200, data: { imageId: 1 } })).toMatchObject({ data: null });
  });

  it('treats an HTML error page as an answer without a message', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { upload, last } = setup();
    const done = upload(photo, () => undefined);
    last().answer(502, '<html>Bad gateway</html>');
    expect(await done).toEqual({ status: 502, message: null, data: null });
  });
});
