// The one HTTP path of the client (spec sections 7 and 8).
// Guarantees: every request carries the `Language` header and, when an access token exists, a bearer
// header; a promise never settles before the minimum duration (350 ms unless told otherwise); an
// answer resolves to its JSON body or null, a failure rejects with `HttpError` (status 0 when nothing
// answered). Any number of concurrent "Token Expired." answers share ONE refresh call, after which
// each of those requests is retried exactly once. Across tabs the refresh runs under the Web Lock
// `auth-refresh`, and a tab that finds the refresh token already rotated by another tab uses the
// stored tokens instead of spending the old one (which the server would treat as a reuse).
// A refresh refused by the server (401, or a message with 'Token expired') removes both tokens and
// calls `onAuthFailure`. This module takes its token store and fetch as parameters so the same code
// can run in the page and in the service worker.
import { ApiErrorBody, TokenPair } from '../domain/user';
import type { TokenStore } from './token-store';

export const TOKEN_EXPIRED_MESSAGE = 'Token Expired.';
export const REFRESH_LOCK_NAME = 'auth-refresh';
export const DEFAULT_MIN_DURATION = 350;
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

export interface RequestOptions {
  minDuration?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export type QueryParams = Record<string, string | number | boolean | undefined>;

/** A file answered by the API (an invoice, a template): its bytes and the name the server gave it, if any. */
export interface FileAnswer {
  blob: Blob;
  fileName: string | null;
}

export interface HttpClient {
  get<T = unknown>(url: string, params?: QueryParams, options?: RequestOptions): Promise<T | null>;
  post<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<T | null>;
  patch<T = unknown>(url: string, body?: unknown, options?: RequestOptions): Promise<T | null>;
  delete<T = unknown>(url: string, options?: RequestOptions): Promise<T | null>;
  /**
   * GET of a file behind the bearer token, with the same refresh and errors as the JSON calls: a refusal
   * rejects with `HttpError` carrying the server's `{ message }`, no answer with status 0.
   */
  getFile(url: string, params?: QueryParams, options?: RequestOptions): Promise<FileAnswer>;
  /**
   * Joins (or starts) the one shared token refresh, for callers that send outside this client (uploads
   * over XMLHttpRequest, images) and got 'Token Expired.'. Rejects when no fresh token could be had.
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
}

type RefreshOutcome = 'refreshed' | 'refused' | 'unavailable';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

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

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') return null;
  return JSON.parse(text) as unknown;
}

function isBodyInit(body: unknown): body is FormData | Blob | URLSearchParams {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams
  );
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { prefix, tokens, getLocale, onAuthFailure, locks } = options;
  const doFetch = options.fetch;
  let refreshing: Promise<RefreshOutcome> | null = null;
  // The access token each failed request carried: a 403 that arrives after a finished refresh
  // (its token is no longer the stored one) is retried without refreshing again.
  const tokensSeen = new WeakMap<HttpError, string | null>();

  const resolveUrl = (url: string) => (/^https?:\/\//.test(url) || url.startsWith(prefix) ? url : `${prefix}${url}`);

  async function callRefreshEndpoint(refreshToken: string): Promise<RefreshOutcome> {
    let response: Response;
    try {
      response = await doFetch(resolveUrl(REFRESH_PATH), {
        method: 'POST',
        headers: { Authorization: `Bearer ${refreshToken}`, Language: getLocale(), Accept: 'application/json' },
      });
    } catch (error) {
      console.warn('Token refresh got no answer', error);
      return 'unavailable';
    }
    let body: unknown = null;
    try {
      body = await readJson(response);
    } catch (error) {
      console.warn('Token refresh answered something that is not JSON', error);
    }
    if (response.ok && TokenPair.is(body)) {
      tokens.set({ access_token: body.access_token, refresh_token: body.refresh_token });
      return 'refreshed';
    }
    const message = ApiErrorBody.is(body) ? body.message : '';
    if (response.status === 401 || message.includes('Token expired')) return 'refused';
    return 'unavailable';
  }

  async function refreshUnderLock(seenRefresh: string | null): Promise<RefreshOutcome> {
    const current = tokens.getRefresh();
    if (current === null) return 'refused';
    // Another tab rotated the pair while we waited for the lock: its tokens are already stored.
    if (current !== seenRefresh) return 'refreshed';
    return callRefreshEndpoint(current);
  }

  async function runRefresh(): Promise<RefreshOutcome> {
    const seenRefresh = tokens.getRefresh();
    const outcome = locks
      ? await locks.request(REFRESH_LOCK_NAME, () => refreshUnderLock(seenRefresh))
      : await refreshUnderLock(seenRefresh);
    if (outcome === 'refused') {
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

  function needsRefresh(error: HttpError, path: string): boolean {
    if (error.status !== 403) return false;
    return error.body?.message === TOKEN_EXPIRED_MESSAGE || path.split('?')[0] === USER_PATH;
  }

  async function send(method: Method, url: string, body: unknown, requestOptions: RequestOptions | undefined, asFile = false): Promise<unknown> {
    const accessToken = tokens.getAccess();
    const headers: Record<string, string> = { Accept: asFile ? '*/*' : 'application/json', Language: getLocale() };
    if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
    let payload: BodyInit | undefined;
    if (body !== undefined && method !== 'GET') {
      if (isBodyInit(body)) {
        payload = body;
      } else {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(body);
      }
    }
    Object.assign(headers, requestOptions?.headers);

    let response: Response;
    try {
      response = await doFetch(resolveUrl(url), { method, headers, body: payload, signal: requestOptions?.signal });
    } catch (error) {
      throw new HttpError(0, null, { cause: error });
    }
    if (asFile && response.ok) {
      try {
        return { blob: await response.blob(), fileName: fileNameOfDisposition(response.headers.get('Content-Disposition')) } satisfies FileAnswer;
      } catch (error) {
        // The connection broke while the bytes were arriving.
        throw new HttpError(0, null, { cause: error });
      }
    }
    let parsed: unknown;
    try {
      parsed = await readJson(response);
    } catch (error) {
      if (response.ok) throw new HttpError(response.status, null, { cause: error });
      parsed = null;
    }
    if (response.ok) return parsed;
    const failure = new HttpError(response.status, ApiErrorBody.is(parsed) ? parsed : null);
    tokensSeen.set(failure, accessToken);
    throw failure;
  }

  async function sendWithRefresh(method: Method, url: string, body: unknown, requestOptions: RequestOptions | undefined, asFile = false): Promise<unknown> {
    try {
      return await send(method, url, body, requestOptions, asFile);
    } catch (error) {
      if (!(error instanceof HttpError) || !needsRefresh(error, url)) throw error;
      const usedToken = tokensSeen.get(error) ?? null;
      const current = tokens.getAccess();
      if (current === null || current === usedToken) {
        const outcome = await sharedRefresh();
        if (outcome !== 'refreshed') throw error;
      }
      return send(method, url, body, requestOptions, asFile);
    }
  }

  async function request<T>(method: Method, url: string, body: unknown, requestOptions: RequestOptions | undefined): Promise<T | null> {
    const startedAt = Date.now();
    const minDuration = requestOptions?.minDuration ?? DEFAULT_MIN_DURATION;
    const waitRest = async () => {
      const rest = minDuration - (Date.now() - startedAt);
      if (rest > 0) await sleep(rest);
    };
    try {
      const result = await sendWithRefresh(method, url, body, requestOptions);
      await waitRest();
      return (result ?? null) as T | null;
    } catch (error) {
      await waitRest();
      throw error;
    }
  }

  return {
    get: (url, params, requestOptions) => request('GET', `${url}${buildQuery(params)}`, undefined, requestOptions),
    post: (url, body, requestOptions) => request('POST', url, body, requestOptions),
    patch: (url, body, requestOptions) => request('PATCH', url, body, requestOptions),
    delete: (url, requestOptions) => request('DELETE', url, undefined, requestOptions),
    getFile: async (url, params, requestOptions) => (await sendWithRefresh('GET', `${url}${buildQuery(params)}`, undefined, requestOptions, true)) as FileAnswer,
    refreshSession: async () => {
      const outcome = await sharedRefresh();
      if (outcome !== 'refreshed') throw new HttpError(outcome === 'refused' ? 401 : 0, null);
    },
  };
}
