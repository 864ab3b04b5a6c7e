// The signed-in session's three requests (`GET /user`, enums and units) as outcomes the session rules read, and
// their early start: a signed-in page asks for them as the app starts (src/app/app.tsx, `preloadScreen`), beside
// its code, rather than once the signed-in frame has loaded and rendered (on a phone's connection, a round trip
// and the frame's startup later). The session check of that first page takes them (`takeEarlySessionRequests`);
// every later check, and anything after the first take, asks the server anew.
// Lives in the entry's reach (it needs only the HTTP client); the session rules stay in app-state.tsx.
import type { SessionFacts, Outcome } from './session';
import { http } from './api';
import { HttpError } from './http';
import { tokenStore } from './token-store';

/** Turns a request into what the session rules read. */
export async function toOutcome(request: Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, body: await request };
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, status: error.status, message: error.body?.message ?? null };
    console.error('Session request failed', error);
    return { ok: false, status: 0, message: null };
  }
}

/** The session requests' own deadline: after the bound they go on in the background this long at most. */
export const SESSION_REQUEST_DEADLINE_MS = 30_000;

function requestDeadline(): AbortSignal | undefined {
  return typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(SESSION_REQUEST_DEADLINE_MS) : undefined;
}

export type ConfigOutcomes = NonNullable<SessionFacts['config']>;

export const fetchUser = (): Promise<Outcome> => toOutcome(http.get('/api/v1/user', undefined, { minDuration: 0, signal: requestDeadline() }));

export const fetchConfig = async (): Promise<ConfigOutcomes> => {
  const [enums, units] = await Promise.all([
    toOutcome(http.get('/api/v1/enums', undefined, { minDuration: 0, signal: requestDeadline() })),
    toOutcome(http.get('/api/v1/units', undefined, { minDuration: 0, signal: requestDeadline() })),
  ]);
  return { enums, units };
};

export interface SessionRequests {
  user: Promise<Outcome>;
  config: Promise<ConfigOutcomes>;
}

let early: SessionRequests | null = null;

/** Starts the session's requests now, when this device holds a token (without one the page goes to sign-in). */
export function startEarlySessionRequests(): void {
  if (early !== null || tokenStore.getAccess() === null) return;
  early = { user: fetchUser(), config: fetchConfig() };
}

/** The early requests, once: the first session check takes them, every later one asks anew (null). */
export function takeEarlySessionRequests(): SessionRequests | null {
  const taken = early;
  early = null;
  return taken;
}
