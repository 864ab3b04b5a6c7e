// The one transport of the client to the main-service (spec sections 7 and 8): every request of the page and
// of the service worker goes through here, whatever its body or its caller's way of reading the answer.
// Guarantees:
// - every request carries the `Language` header and, when an access token exists, a bearer header built from
//   the token store at the moment it leaves; `idempotencyKey` becomes the `Idempotency-Key` header, the same on
//   a resend after a refresh;
// - every request has a deadline: `timeoutMs` of the call, else `defaultTimeoutMs` (15 s; a FormData or Blob
//   body adds time for its size at a slow uplink's pace). It covers the whole call: the answer's headers and
//   body, and waiting for a refresh and the one resend. Progress bodies (`upload`) have a stall deadline
//   instead: no byte up or down for `stallTimeoutMs` (30 s). A deadline that passes settles the call as "no
//   answer" (`HttpError` status 0, or an exchange of kind 'network') marked as a timeout (`isTimeout`), even
//   when the injected fetch ignores its signal;
// - any number of concurrent 403 'Token Expired.' answers share ONE refresh call, after which each of those
//   requests is sent exactly once more (a 403 that arrives after another caller's refresh is resent without
//   refreshing again). Across tabs and the worker the refresh runs under the Web Lock `auth-refresh`; a caller
//   that finds the refresh token already rotated by someone else uses the stored pair instead of spending the
//   old one (which the server would treat as a reuse). The refresh call has its own deadline, so a hanging
//   one cannot hold the lock for ever; a refresh that got no answer (or a 5xx) keeps the tokens, one refused by
//   the server (401, or a message with 'Token expired') removes both and calls `onAuthFailure`;
// - three ways to read an answer, over the same path: the JSON calls (`get`, `post`, `put`, `patch`, `delete`)
//   resolve to the body or null and reject with `HttpError`, never before the minimum duration (350 ms unless
//   told otherwise); `getFile` answers bytes; `exchange` and `upload` never throw and hand every status to the
//   caller (for senders that decide per status themselves: the outbox, uploads, the import).
// The transport is this one module, not a layer under it, because the JSON calls, files, exchanges and XHR
// uploads share private state (the one refresh in flight, the token each attempt carried, the deadline of a
// call): split, that state would become an API others could call around. It takes its token store, fetch and
// XMLHttpRequest factory as parameters, so the same code runs in the page, in the service worker (no
// XMLHttpRequest there: `upload` goes over fetch) and in tests.
import { ApiErrorBody, TokenPair } from '../domain/user';
import type { TokenStore } from './token-store';

export const TOKEN_EXPIRED_MESSAGE = 'Token Expired.';
export const REFRESH_LOCK_NAME = 'auth-refresh';
export const DEFAULT_MIN_DURATION = 350;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_STALL_TIMEOUT_MS = 30_000;
/**
 * The uplink pace a body's default deadline allows for: 32 KB/s (a poor cell signal), so a 10 MB photo gets
 * about five minutes more than a JSON call instead of failing for ever on a slow but working connection.
 */
export const SLOWEST_BYTES_PER_SECOND = 32 * 1024;
const REFRESH_PATH = '/api/v1/auth/refresh-token';
const USER_PATH = '/api/v1/user';

export class HttpError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody | null;

  constructor(status: number, body: ApiErrorBody | null, options?: { cause?: unknown }) {
    super(body?.message ?? (status === 0 ? 'No answer from the server' : `HTTP ${status}`), options);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
  }
}

/** The cause of a call that got no answer before its deadline. */
export class RequestTimeoutError extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Whether a failure is a deadline that passed (a hanging network: a weak signal, a captive portal), as opposed
 * to a refused connection, an abort by the caller or an answer.
 */
export function isTimeout(error: unknown): boolean {
  if (error instanceof RequestTimeoutError) return true;
  return error instanceof HttpError && error.status === 0 && error.cause instanceof RequestTimeoutError;
}

export interface RequestOptions {
  minDuration?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The deadline of this call in ms (default: the client's `defaultTimeoutMs`). */
  timeoutMs?: number;
  /** Sent as `Idempotency-Key`: one key per user submission, kept by the caller until it succeeds. */
  idempotencyKey?: string;
}

export type QueryParams = Record<string, string | number | boolean | undefined>;

/** A file answered by the API (an invoice, a template): its bytes and the name the server gave it, if any. */
export interface FileAnswer {
  blob: Blob;
  fileName: string | null;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request whose every answer the caller wants to see (see `HttpClient.exchange`). */
export interface ExchangeRequest {
  method: Method;
  /** A path under the prefix ('/api/v1/...'), or a url that already starts with it. */
  url: string;
  /** JSON (sent as application/json), or FormData / Blob sent as they are. Ignored for GET. */
  body?: unknown;
  idempotencyKey?: string;
  /** Default: `defaultTimeoutMs`, plus the time a FormData or Blob body needs at `SLOWEST_BYTES_PER_SECOND`. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * What became of an exchange. 'answer': the server answered (any status; `body` is the parsed JSON or null,
 * `retryAfter` the raw `Retry-After` header). 'network': no answer (refused, cut, aborted, or the deadline
 * passed: `timedOut`), or the session refresh it needed got none. 'auth': the session could not be renewed
 * (the refresh was refused, or the resend was told 'Token Expired.' again).
 */
export type Exchange =
  | { kind: 'answer'; status: number; body: unknown; retryAfter: string | null }
  | { kind: 'network'; message: string; timedOut: boolean }
  | { kind: 'auth'; message: string };

export interface UploadOptions {
  /** 0..1 as the bytes leave; 0 again when the body is sent once more after a refresh. */
  onProgress?: (fraction: number) => void;
  /** The last byte has left: the server is working on the body now. */
  onSent?: () => void;
  signal?: AbortSignal;
  idempotencyKey?: string;
  /** No byte up or down for this long counts as no answer (default 30 s). */
  stallTimeoutMs?: number;
}

export interface HttpClient {
  get<T = unknown>(url: string, params?: QueryParams, options?: RequestOptions): Promise<T | null>;
  post<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<T | null>;
  put<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<T | null>;
  patch<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<T | null>;
  delete<T = unknown>(url: string, options?: RequestOptions): Promise<T | null>;
  /**
   * GET of a file behind the bearer token, with the same refresh and errors as the JSON calls: a refusal
   * rejects with `HttpError` carrying the server's `{ message }`, no answer with status 0. No minimum duration.
   */
  getFile(url: string, params?: QueryParams, options?: RequestOptions): Promise<FileAnswer>;
  /**
   * One request that never throws: every status comes back as an answer. The one shared refresh on 403
   * 'Token Expired.' and one resend are done here. No minimum duration.
   */
  exchange(request: ExchangeRequest): Promise<Exchange>;
  /**
   * POST of a multipart body with progress (XMLHttpRequest; over fetch without progress where there is
   * none, as in the service worker). Same headers, refresh and resend as `exchange`; never throws.
   */
  upload(url: string, body: FormData, options?: UploadOptions): Promise<Exchange>;
  /**
   * Joins (or starts) the one shared token refresh. Rejects with `HttpError` 401 when it was refused, 0 when
   * it got no usable answer (`isTimeout` tells a hanging one).
   */
  refreshSession(): Promise<void>;
}

/** The part of `navigator.locks` this client needs. */
export interface LockRunner {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface HttpClientOptions {
  /** Put before every url, e.g. '/main-service'. */
  prefix: string;
  tokens: TokenStore;
  fetch: typeof fetch;
  getLocale: () => string;
  /** Runs after a refused refresh has removed both tokens (the app reloads the page). */
  onAuthFailure: () => void;
  locks?: LockRunner;
  /** The deadline of a call without its own `timeoutMs`, and of the refresh call (default 15 s). */
  defaultTimeoutMs?: number;
  /** Makes the XMLHttpRequest of `upload`; default the global one, and fetch where there is none. */
  createRequest?: () => XMLHttpRequest;
}

type RefreshOutcome = { kind: 'refreshed' } | { kind: 'refused' } | { kind: 'unavailable' } | { kind: 'unanswered'; cause: unknown };

/** One request sent once: what came back, and the access token it carried. */
type Attempt =
  | {
      kind: 'answer';
      status: number;
      /** Parsed JSON, or null (empty, not JSON, or a file). */
      body: unknown;
      /** Why the body could not be parsed, when it could not. */
      bodyError: unknown;
      file: FileAnswer | null;
      retryAfter: string | null;
      usedToken: string | null;
    }
  | { kind: 'network'; cause: unknown; timedOut: boolean };

type AnswerAttempt = Extract<Attempt, { kind: 'answer' }>;

/** How a call ended after the session handling: its last attempt, or a refresh that did not give a token. */
type Settled =
  | { kind: 'done'; attempt: Attempt; resent: boolean }
  | { kind: 'refresh-failed'; refused: boolean; first: AnswerAttempt }
  | { kind: 'refresh-unanswered'; cause: unknown };

/**
 * The file name of a `Content-Disposition` header (RFC 6266: `filename*` first), without any path, or null.
 */
export function fileNameOfDisposition(header: string | null): string | null {
  if (!header) return null;
  const clean = (name: string) => {
    const base = name.trim().replace(/^"|"$/g, '').split(/[/\\]/).pop() ?? '';
    return base === '' || base === '.' || base === '..' ? null : base;
  };
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      const name = clean(decodeURIComponent(extended[2]));
      if (name) return name;
    } catch (error) {
      console.warn('A malformed filename* in Content-Disposition', error);
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  return plain ? clean(plain[2] ?? plain[1] ?? '') : null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) query.append(key, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

function isBodyInit(body: unknown): body is FormData | Blob | URLSearchParams {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams
  );
}

/** The bytes a raw body sends (0 for JSON, which is small). */
function sizeOf(body: unknown): number {
  if (typeof Blob !== 'undefined' && body instanceof Blob) return body.size;
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    let size = 0;
    for (const [, value] of body.entries()) size += typeof value === 'string' ? value.length : value.size;
    return size;
  }
  return 0;
}

function parseJson(text: string): { body: unknown; bodyError: unknown } {
  if (text.trim() === '') return { body: null, bodyError: null };
  try {
    return { body: JSON.parse(text) as unknown, bodyError: null };
  } catch (error) {
    // A proxy's HTML error page, say: the status still tells what happened.
    return { body: null, bodyError: error };
  }
}

function messageOf(body: unknown): string | null {
  return ApiErrorBody.is(body) ? body.message : null;
}

const isTokenExpired = (attempt: AnswerAttempt) => attempt.status === 403 && messageOf(attempt.body) === TOKEN_EXPIRED_MESSAGE;

/** A signal aborted when any of `signals` is; `dispose` lets go of the sources where it had to listen itself. */
function anySignal(signals: AbortSignal[]): { signal: AbortSignal; dispose: () => void } {
  if ('any' in AbortSignal && typeof AbortSignal.any === 'function') return { signal: AbortSignal.any(signals), dispose: () => undefined };
  // Older Safari and Firefox ESR before 124.
  const controller = new AbortController();
  const cleanups: Array<() => void> = [];
  const dispose = () => cleanups.splice(0).forEach((cleanup) => cleanup());
  for (const source of signals) {
    if (source.aborted) {
      controller.abort(source.reason);
      break;
    }
    const onAbort = () => {
      controller.abort(source.reason);
      dispose();
    };
    source.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => source.removeEventListener('abort', onAbort));
  }
  if (controller.signal.aborted) dispose();
  return { signal: controller.signal, dispose };
}

/** A countdown that aborts `signal` (with a `RequestTimeoutError`) when it runs out or when `outer` aborts. */
interface Deadline {
  readonly signal: AbortSignal;
  /** The timeout, once the countdown has run out (null while it runs, or when `outer` aborted first). */
  timeout(): RequestTimeoutError | null;
  /** Starts the countdown again (progress was seen). */
  extend(): void;
  dispose(): void;
}

function startDeadline(ms: number, outer: AbortSignal | undefined): Deadline {
  const own = new AbortController();
  let expired: RequestTimeoutError | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      expired = new RequestTimeoutError(ms);
      own.abort(expired);
    }, ms);
  };
  arm();
  const combined = outer ? anySignal([outer, own.signal]) : { signal: own.signal, dispose: () => undefined };
  return {
    signal: combined.signal,
    timeout: () => (combined.signal.reason === expired ? expired : null),
    extend: () => {
      if (!combined.signal.aborted) arm();
    },
    dispose: () => {
      clearTimeout(timer);
      combined.dispose();
    },
  };
}

const ABORTED = Symbol('aborted');

/** `promise`, or ABORTED as soon as `signal` aborts (a fetch that ignores its signal cannot outlive it). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
    if (signal.aborted) resolve(ABORTED);
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

function causeText(cause: unknown): string {
  return cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : 'No answer from the server';
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { prefix, tokens, getLocale, onAuthFailure, locks } = options;
  const doFetch = options.fetch;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const createRequest = options.createRequest ?? (typeof XMLHttpRequest === 'undefined' ? null : () => new XMLHttpRequest());
  let refreshing: Promise<RefreshOutcome> | null = null;

  const resolveUrl = (url: string) => (/^https?:\/\//.test(url) || url.startsWith(prefix) ? url : `${prefix}${url}`);
  const deadlineOf = (body: unknown, timeoutMs: number | undefined) =>
    timeoutMs ?? defaultTimeoutMs + Math.ceil((sizeOf(body) / SLOWEST_BYTES_PER_SECOND) * 1000);

  // ------------------------------------------------------------------------------------------------
  // The one shared refresh

  async function callRefreshEndpoint(refreshToken: string): Promise<RefreshOutcome> {
    const deadline = startDeadline(defaultTimeoutMs, undefined);
    try {
      const answered = await unlessAborted(
        doFetch(resolveUrl(REFRESH_PATH), {
          method: 'POST',
          headers: { Authorization: `Bearer ${refreshToken}`, Language: getLocale(), Accept: 'application/json' },
          signal: deadline.signal,
        }),
        deadline.signal,
      );
      if (answered === ABORTED) return { kind: 'unanswered', cause: deadline.timeout() };
      const text = await unlessAborted(answered.text(), deadline.signal);
      if (text === ABORTED) return { kind: 'unanswered', cause: deadline.timeout() };
      const { body, bodyError } = parseJson(text);
      if (bodyError) console.warn('Token refresh answered something that is not JSON', bodyError);
      if (answered.ok && TokenPair.is(body)) {
        tokens.set({ access_token: body.access_token, refresh_token: body.refresh_token });
        return { kind: 'refreshed' };
      }
      if (answered.status === 401 || (messageOf(body) ?? '').includes('Token expired')) return { kind: 'refused' };
      return { kind: 'unavailable' };
    } catch (error) {
      console.warn('Token refresh got no answer', error);
      return { kind: 'unanswered', cause: error };
    } finally {
      deadline.dispose();
    }
  }

  async function refreshUnderLock(seenRefresh: string | null): Promise<RefreshOutcome> {
    const current = tokens.getRefresh();
    if (current === null) return { kind: 'refused' };
    // Another tab (or the worker) rotated the pair while we waited for the lock: its tokens are stored.
    if (current !== seenRefresh) return { kind: 'refreshed' };
    return callRefreshEndpoint(current);
  }

  async function runRefresh(): Promise<RefreshOutcome> {
    const seenRefresh = tokens.getRefresh();
    const outcome = locks
      ? await locks.request(REFRESH_LOCK_NAME, () => refreshUnderLock(seenRefresh))
      : await refreshUnderLock(seenRefresh);
    if (outcome.kind === 'refused') {
      tokens.clear();
      onAuthFailure();
    }
    return outcome;
  }

  /** Starts the refresh, or joins the one already running. */
  function sharedRefresh(): Promise<RefreshOutcome> {
    refreshing ??= runRefresh().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  // ------------------------------------------------------------------------------------------------
  // One attempt over fetch, one over XMLHttpRequest

  interface Wire {
    method: Method;
    url: string;
    body: unknown;
    headers?: Record<string, string> | undefined;
    idempotencyKey?: string | undefined;
    asFile?: boolean;
  }

  async function fetchOnce(wire: Wire, deadline: Deadline): Promise<Attempt> {
    const usedToken = tokens.getAccess();
    const headers: Record<string, string> = { Accept: wire.asFile ? '*/*' : 'application/json', Language: getLocale() };
    if (usedToken) headers.Authorization = `Bearer ${usedToken}`;
    if (wire.idempotencyKey) headers['Idempotency-Key'] = wire.idempotencyKey;
    let payload: BodyInit | undefined;
    if (wire.body !== undefined && wire.method !== 'GET') {
      if (isBodyInit(wire.body)) {
        payload = wire.body;
      } else {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(wire.body);
      }
    }
    Object.assign(headers, wire.headers);
    const unanswered = (cause: unknown): Attempt => {
      const timeout = deadline.timeout();
      return { kind: 'network', cause: timeout ?? cause, timedOut: timeout !== null };
    };

    try {
      const response = await unlessAborted(
        doFetch(resolveUrl(wire.url), { method: wire.method, headers, body: payload, signal: deadline.signal }),
        deadline.signal,
      );
      if (response === ABORTED) return unanswered(deadline.signal.reason);
      const retryAfter = response.headers.get('Retry-After');
      const answer = { kind: 'answer', status: response.status, retryAfter, usedToken } as const;
      if (wire.asFile && response.ok) {
        const blob = await unlessAborted(response.blob(), deadline.signal);
        if (blob === ABORTED) return unanswered(deadline.signal.reason);
        const file = { blob, fileName: fileNameOfDisposition(response.headers.get('Content-Disposition')) };
        return { ...answer, body: null, bodyError: null, file };
      }
      const text = await unlessAborted(response.text(), deadline.signal);
      if (text === ABORTED) return unanswered(deadline.signal.reason);
      return { ...answer, ...parseJson(text), file: null };
    } catch (error) {
      // Refused, cut, or the connection broke while the bytes were arriving.
      return unanswered(error);
    }
  }

  function xhrOnce(url: string, body: FormData, upload: UploadOptions, makeRequest: () => XMLHttpRequest): Promise<Attempt> {
    return new Promise((resolve) => {
      const usedToken = tokens.getAccess();
      if (upload.signal?.aborted) {
        resolve({ kind: 'network', cause: upload.signal.reason, timedOut: false });
        return;
      }
      const deadline = startDeadline(upload.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS, upload.signal);
      const request = makeRequest();
      const onAbort = () => request.abort();
      const settle = (attempt: Attempt) => {
        deadline.signal.removeEventListener('abort', onAbort);
        deadline.dispose();
        resolve(attempt);
      };
      const unanswered = (cause: string) => () => {
        const timeout = deadline.timeout();
        settle({ kind: 'network', cause: timeout ?? (deadline.signal.aborted ? deadline.signal.reason : cause), timedOut: timeout !== null });
      };
      request.open('POST', resolveUrl(url));
      request.setRequestHeader('Accept', 'application/json');
      request.setRequestHeader('Language', getLocale());
      if (usedToken) request.setRequestHeader('Authorization', `Bearer ${usedToken}`);
      if (upload.idempotencyKey) request.setRequestHeader('Idempotency-Key', upload.idempotencyKey);
      request.upload.onprogress = (event) => {
        deadline.extend();
        if (event.lengthComputable && event.total > 0) upload.onProgress?.(Math.min(1, event.loaded / event.total));
      };
      request.upload.onload = () => {
        deadline.extend();
        upload.onSent?.();
      };
      request.onprogress = () => deadline.extend();
      request.onerror = unanswered('The upload got no answer');
      request.ontimeout = unanswered('The upload timed out');
      request.onabort = unanswered('The upload was aborted');
      request.onload = () => {
        // Status 0 means the browser got nothing it may show (a refused connection, CORS).
        if (request.status === 0) {
          unanswered('No answer from the server')();
          return;
        }
        const retryAfter = request.getResponseHeader('Retry-After');
        settle({ kind: 'answer', status: request.status, ...parseJson(request.responseText), file: null, retryAfter, usedToken });
      };
      deadline.signal.addEventListener('abort', onAbort, { once: true });
      request.send(body);
    });
  }

  // ------------------------------------------------------------------------------------------------
  // The session round: send, on 'Token Expired.' join the refresh, send once more

  async function withSession(
    send: () => Promise<Attempt>,
    needsRefresh: (attempt: AnswerAttempt) => boolean,
    /** Waiting for the refresh ends when this aborts (the call's own deadline). */
    waitSignal: AbortSignal | undefined,
    beforeResend?: () => void,
  ): Promise<Settled> {
    const first = await send();
    if (first.kind !== 'answer' || !needsRefresh(first)) return { kind: 'done', attempt: first, resent: false };
    const current = tokens.getAccess();
    // A token other than the one this request carried is a refresh that finished meanwhile: just resend.
    if (current === null || current === first.usedToken) {
      const refresh = sharedRefresh();
      const outcome = waitSignal ? await unlessAborted(refresh, waitSignal) : await refresh;
      if (outcome === ABORTED) return { kind: 'refresh-unanswered', cause: waitSignal?.reason };
      if (outcome.kind === 'refused' || outcome.kind === 'unavailable') return { kind: 'refresh-failed', refused: outcome.kind === 'refused', first };
      if (outcome.kind === 'unanswered') return { kind: 'refresh-unanswered', cause: outcome.cause };
    }
    beforeResend?.();
    return { kind: 'done', attempt: await send(), resent: true };
  }

  function toExchange(settled: Settled): Exchange {
    if (settled.kind === 'refresh-failed') {
      return settled.refused
        ? { kind: 'auth', message: 'The session could not be refreshed' }
        : { kind: 'network', message: 'The session refresh failed', timedOut: false };
    }
    if (settled.kind === 'refresh-unanswered') {
      return { kind: 'network', message: 'The session refresh got no answer', timedOut: settled.cause instanceof RequestTimeoutError };
    }
    const { attempt, resent } = settled;
    if (attempt.kind === 'network') return { kind: 'network', message: causeText(attempt.cause), timedOut: attempt.timedOut };
    if (resent && isTokenExpired(attempt)) return { kind: 'auth', message: TOKEN_EXPIRED_MESSAGE };
    if (attempt.bodyError) console.warn(`An answer (HTTP ${attempt.status}) that is not JSON`, attempt.bodyError);
    return { kind: 'answer', status: attempt.status, body: attempt.body, retryAfter: attempt.retryAfter };
  }

  // ------------------------------------------------------------------------------------------------
  // The JSON and file calls

  async function call(wire: Wire, requestOptions: RequestOptions | undefined): Promise<unknown> {
    const deadline = startDeadline(deadlineOf(wire.body, requestOptions?.timeoutMs), requestOptions?.signal);
    const path = wire.url.split('?')[0];
    try {
      const settled = await withSession(
        () => fetchOnce(wire, deadline),
        // The session check refreshes on any 403: an expired token must never look like a forbidden user.
        (attempt) => attempt.status === 403 && (messageOf(attempt.body) === TOKEN_EXPIRED_MESSAGE || path === USER_PATH),
        deadline.signal,
      );
      if (settled.kind === 'refresh-failed') {
        throw new HttpError(settled.first.status, ApiErrorBody.is(settled.first.body) ? settled.first.body : null);
      }
      // No answer to the refresh is no answer to the call (offline), not a session that ended.
      if (settled.kind === 'refresh-unanswered') throw new HttpError(0, null, { cause: settled.cause });
      const { attempt } = settled;
      if (attempt.kind === 'network') throw new HttpError(0, null, { cause: attempt.cause });
      const ok = attempt.status >= 200 && attempt.status < 300;
      if (!ok) throw new HttpError(attempt.status, ApiErrorBody.is(attempt.body) ? attempt.body : null);
      if (attempt.file) return attempt.file;
      if (attempt.bodyError) throw new HttpError(attempt.status, null, { cause: attempt.bodyError });
      return attempt.body;
    } finally {
      deadline.dispose();
    }
  }

  async function request<T>(method: Method, url: string, body: unknown, requestOptions: RequestOptions | undefined): Promise<T | null> {
    const startedAt = Date.now();
    const minDuration = requestOptions?.minDuration ?? DEFAULT_MIN_DURATION;
    const waitRest = async () => {
      const rest = minDuration - (Date.now() - startedAt);
      if (rest > 0) await sleep(rest);
    };
    const wire: Wire = { method, url, body, headers: requestOptions?.headers, idempotencyKey: requestOptions?.idempotencyKey };
    try {
      const result = await call(wire, requestOptions);
      await waitRest();
      return (result ?? null) as T | null;
    } catch (error) {
      await waitRest();
      throw error;
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Exchanges

  async function exchange(exchangeRequest: ExchangeRequest): Promise<Exchange> {
    const { method, url, body, idempotencyKey, timeoutMs, signal } = exchangeRequest;
    const deadline = startDeadline(deadlineOf(body, timeoutMs), signal);
    try {
      return toExchange(await withSession(() => fetchOnce({ method, url, body, idempotencyKey }, deadline), isTokenExpired, deadline.signal));
    } finally {
      deadline.dispose();
    }
  }

  async function upload(url: string, body: FormData, uploadOptions: UploadOptions = {}): Promise<Exchange> {
    if (!createRequest) {
      // No XMLHttpRequest (the service worker): the same request over fetch, without progress.
      const sent = await exchange({ method: 'POST', url, body, idempotencyKey: uploadOptions.idempotencyKey, signal: uploadOptions.signal });
      if (sent.kind === 'answer') uploadOptions.onSent?.();
      return sent;
    }
    const settled = await withSession(
      () => xhrOnce(url, body, uploadOptions, createRequest),
      isTokenExpired,
      uploadOptions.signal,
      () => uploadOptions.onProgress?.(0),
    );
    return toExchange(settled);
  }

  return {
    get: (url, params, requestOptions) => request('GET', `${url}${buildQuery(params)}`, undefined, requestOptions),
    post: (url, body, requestOptions) => request('POST', url, body, requestOptions),
    put: (url, body, requestOptions) => request('PUT', url, body, requestOptions),
    patch: (url, body, requestOptions) => request('PATCH', url, body, requestOptions),
    delete: (url, requestOptions) => request('DELETE', url, undefined, requestOptions),
    getFile: async (url, params, requestOptions) => {
      const wire: Wire = { method: 'GET', url: `${url}${buildQuery(params)}`, body: undefined, headers: requestOptions?.headers, asFile: true };
      return (await call(wire, requestOptions)) as FileAnswer;
    },
    exchange,
    upload,
    refreshSession: async () => {
      const outcome = await sharedRefresh();
      if (outcome.kind === 'refreshed') return;
      if (outcome.kind === 'refused') throw new HttpError(401, null);
      throw new HttpError(0, null, outcome.kind === 'unanswered' ? { cause: outcome.cause } : undefined);
    },
  };
}
