import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUploader, toUploadAnswer, type UploaderOptions } from './upload';

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

function setup(overrides: Partial<UploaderOptions> = {}) {
  FakeRequest.made = [];
  const tokens = { access: 'old-token' as string | null, getAccess: () => tokens.access };
  const refreshSession = vi.fn(() => {
    tokens.access = 'new-token';
    return Promise.resolve();
  });
  const upload = createUploader({
    url: '/main-service/api/v1/files/upload',
    tokens,
    getLocale: () => 'en',
    createRequest: () => new FakeRequest() as unknown as XMLHttpRequest,
    refreshSession,
    ...overrides,
  });
  const last = () => FakeRequest.made.at(-1)!;
  return { upload, refreshSession, tokens, last };
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

  it('retries only once: a second expiry is the answer', async () => {
    const { upload, last, refreshSession } = setup();
    const done = upload(photo, () => undefined);
    last().answer(403, { message: 'Token Expired.' });
    await tick();
    last().answer(403, { message: 'Token Expired.' });
    expect(await done).toMatchObject({ status: 403 });
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

  it('answers the 403 when the refresh fails, without sending again', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { upload, last } = setup({ refreshSession: () => Promise.reject(new Error('refused')) });
    const done = upload(photo, () => undefined);
    last().answer(403, { message: 'Token Expired.' });
    expect(await done).toMatchObject({ status: 403, message: 'Token Expired.' });
    expect(FakeRequest.made).toHaveLength(1);
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
