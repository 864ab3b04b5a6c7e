import { describe, expect, it } from 'vitest';
import { brokenReasonOf, isRetryable, type BrokenReason } from './broken-reason';

// The shapes the app's HTTP client hands over (src/lib/http.ts; src/app/error-boundary.test.tsx checks the real
// classes), built here by hand because the UI kit does not import the data layer.
class HttpErrorLike extends Error {
  constructor(
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(status === 0 ? 'No answer from the server' : `HTTP ${status}`, options);
    this.name = 'HttpError';
  }
}

describe('brokenReasonOf', () => {
  it('tells no answer (status 0, a deadline, a refused fetch) from everything else', () => {
    expect(brokenReasonOf(new HttpErrorLike(0))).toBe('no-answer');
    const deadline = Object.assign(new Error('No answer within 15000 ms'), { name: 'TimeoutError' });
    expect(brokenReasonOf(new HttpErrorLike(0, { cause: deadline }))).toBe('no-answer');
    expect(brokenReasonOf(deadline)).toBe('no-answer');
    expect(brokenReasonOf(new DOMException('signal timed out', 'TimeoutError'))).toBe('no-answer');
    expect(brokenReasonOf({ ok: false, status: 0, message: null })).toBe('no-answer');
    expect(brokenReasonOf({ kind: 'network', message: 'refused', timedOut: false })).toBe('no-answer');
    expect(brokenReasonOf(new HttpErrorLike(408))).toBe('no-answer');
  });

  it('reads what browsers throw when a request or a chunk of the app gets no answer', () => {
    expect(brokenReasonOf(new TypeError('Failed to fetch'))).toBe('no-answer');
    expect(brokenReasonOf(new TypeError('NetworkError when attempting to fetch resource.'))).toBe('no-answer');
    expect(brokenReasonOf(new TypeError('Load failed'))).toBe('no-answer');
    expect(brokenReasonOf(new TypeError('Failed to fetch dynamically imported module: /assets/page-1a2b.js'))).toBe('no-answer');
    expect(brokenReasonOf(new TypeError('error loading dynamically imported module: /assets/page.js'))).toBe('no-answer');
    expect(brokenReasonOf(new TypeError('Importing a module script failed.'))).toBe('no-answer');
    // A TypeError of the code itself is a bug, not the network.
    expect(brokenReasonOf(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe('unknown');
  });

  it('puts a server failure (5xx) on our side', () => {
    for (const status of [500, 502, 503, 504]) expect(brokenReasonOf(new HttpErrorLike(status)), String(status)).toBe('server');
    expect(brokenReasonOf({ ok: false, status: 500, message: 'Internal Server Error' })).toBe('server');
    expect(brokenReasonOf({ kind: 'answer', status: 503, body: null, retryAfter: '60' })).toBe('server');
    // A "failure" with a success status: the server answered something the app could not use.
    expect(brokenReasonOf(new HttpErrorLike(200))).toBe('server');
  });

  it('gives refusals their own reasons', () => {
    expect(brokenReasonOf(new HttpErrorLike(403))).toBe('forbidden');
    expect(brokenReasonOf(new HttpErrorLike(404))).toBe('not-found');
    expect(brokenReasonOf(new HttpErrorLike(410))).toBe('not-found');
    expect(brokenReasonOf(new HttpErrorLike(429))).toBe('busy');
    expect(brokenReasonOf(new HttpErrorLike(400))).toBe('refused');
    expect(brokenReasonOf(new HttpErrorLike(401))).toBe('refused');
    expect(brokenReasonOf(new HttpErrorLike(422))).toBe('refused');
  });

  it('knows nothing of other errors and values', () => {
    expect(brokenReasonOf(new Error('render failed'))).toBe('unknown');
    expect(brokenReasonOf(undefined)).toBe('unknown');
    expect(brokenReasonOf(null)).toBe('unknown');
    expect(brokenReasonOf('Failed to fetch')).toBe('unknown');
    expect(brokenReasonOf({ status: 'failed' })).toBe('unknown');
    expect(brokenReasonOf({ status: -1 })).toBe('unknown');
  });

  it('offers a retry only where trying again later can help', () => {
    const retryable: BrokenReason[] = ['no-answer', 'server', 'busy'];
    const final: BrokenReason[] = ['forbidden', 'not-found', 'refused', 'unknown'];
    expect(retryable.filter(isRetryable)).toEqual(retryable);
    expect(final.filter(isRetryable)).toEqual([]);
  });
});
