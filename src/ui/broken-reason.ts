// Why a screen could not go on, told from the error it got, so the broken and error screens say what helps:
// checking the connection does nothing for a server that failed, and waiting does nothing for a refusal.
// The UI kit has no data access, so the app's HTTP errors are read by their shape, never imported:
// `HttpError` of src/lib/http.ts (status 0 = no answer, with a `RequestTimeoutError` cause when its deadline
// passed), the session's failed outcome `{ ok: false, status }`, an exchange `{ kind: 'network' }`, and what a
// browser throws when a request or a lazily loaded chunk of the app gets no answer.

/**
 * - 'no-answer': nothing answered (offline, refused, cut, timed out) -> check the connection, try again;
 * - 'server': the server failed (5xx) or answered something unusable -> our side, try again in a minute;
 * - 'busy': too many requests (429) -> wait a minute;
 * - 'forbidden' (403), 'not-found' (404): their own words, nothing to retry;
 * - 'refused': any other 4xx, the request itself was not accepted;
 * - 'unknown': not a request failure at all (a screen that threw while rendering).
 */
export type BrokenReason = 'no-answer' | 'server' | 'busy' | 'forbidden' | 'not-found' | 'refused' | 'unknown';

/** Whether trying the same thing again later can help: the screen offers "Try again" for these. */
export function isRetryable(reason: BrokenReason): boolean {
  return reason === 'no-answer' || reason === 'server' || reason === 'busy';
}

// What Chromium, Firefox and Safari throw for a fetch or a dynamic import that got no answer.
const NO_ANSWER_MESSAGES = [
  /failed to fetch/i,
  /networkerror/i,
  /load failed/i,
  /network request failed/i,
  /error loading dynamically imported module/i,
  /importing a module script failed/i,
  /unable to preload css/i,
];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function reasonOfStatus(status: number): BrokenReason {
  // 0: the browser got nothing; 408: the server gave up waiting for the request (a slow link).
  if (status === 0 || status === 408) return 'no-answer';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not-found';
  if (status === 429) return 'busy';
  if (status >= 400 && status < 500) return 'refused';
  // 5xx, or a "failure" carrying a success status: an answer the app could not use.
  return 'server';
}

/** The reason of `error`: see `BrokenReason`. Pure; anything it does not recognise is 'unknown'. */
export function brokenReasonOf(error: unknown): BrokenReason {
  if (!isRecord(error)) return 'unknown';
  if (typeof error.status === 'number' && Number.isInteger(error.status) && error.status >= 0) return reasonOfStatus(error.status);
  if (error.kind === 'network') return 'no-answer';
  // AbortSignal.timeout() and the HTTP client's own deadline (`RequestTimeoutError`) name themselves so.
  if (error.name === 'TimeoutError') return 'no-answer';
  if (error instanceof TypeError && NO_ANSWER_MESSAGES.some((pattern) => pattern.test(error.message))) return 'no-answer';
  // Vite's "a lazily loaded chunk failed" error says it in its message, whatever its class.
  if (error instanceof Error && /dynamically imported module/i.test(error.message)) return 'no-answer';
  return 'unknown';
}
