// Sign-in and sign-out, and the session rules of spec section 4 as a pure function.
// Guarantees: signing in stores both tokens together. Signing out always ends on the login route with the
// page reloaded, whether or not the server heard the logout call, and (a shared tablet) leaves nothing of the
// signed-out user's company data readable by the next person, in this order: the offline machinery stops
// (nothing sends or pulls for that user any more) and the remembered session is forgotten; both tokens are
// removed from localStorage AND from the IndexedDB mirror the service worker reads, so the worker can no
// longer send or refresh as that user; the worker's uploads cache (photos served without a token check) is
// deleted from the page and the worker is told to clear its user caches; the user's mirrored rows are
// deleted except their unsent work (src/lib/sign-out-data.ts: kept on the device, owned by them, sent only
// when they sign in again); their current company is forgotten. Only then the page navigates. Every step is
// bounded in time and a failing step does not stop the others, so sign-out never hangs.
import type { LogoutInput } from '../domain/auth';
import { paths } from '../domain/paths';
import { CurrentUser, EnumsData, Unit, buildAppConfig, type AppConfig, type TokenPair } from '../domain/user';
import { array, type } from 'superstruct';
import { http } from './api';
import { TOKEN_EXPIRED_MESSAGE } from './http';
import { tokenStore, type ObservableTokenStore } from './token-store';
import { subjectOf, writeTokensFromPage } from '../../sw/token-mirror';

/** How long sign-out waits for the server before leaving anyway. */
export const LOGOUT_TIMEOUT_MS = 3000;
/** How long sign-out gives each local step (stores, caches) before going on without it. */
export const SIGN_OUT_STEP_TIMEOUT_MS = 5000;
/** The service worker's cache of uploaded images (`UPLOADS_CACHE` in sw/sw.ts). */
export const UPLOADS_CACHE_NAME = 'uploads-v1';
/** The message that makes the service worker drop the caches that hold a user's data (sw/sw.ts). */
export const CLEAR_USER_CACHES_MESSAGE = { type: 'CLEAR_USER_CACHES' } as const;

/** Stores both tokens; resolves once the service worker's IndexedDB copy has them too, so a
 * navigation right after sign-in cannot cut that write off. */
export async function signIn(pair: TokenPair): Promise<void> {
  tokenStore.set(pair);
  await tokenStore.whenMirrored();
}

/** What sign-out does, step by step; each has the browser's own default (tests give theirs). */
export interface SignOutDependencies {
  tokens: Pick<ObservableTokenStore, 'getAccess' | 'getRefresh' | 'clear' | 'whenMirrored'>;
  /** The server's logout call (best effort). */
  logout: (refreshToken: string, signal: AbortSignal) => Promise<unknown>;
  /** Stops the replayer and the pulls, forgets the remembered session; answers the user they ran for. */
  stopOffline: () => Promise<string | null>;
  /** Removes the tokens from the worker's IndexedDB mirror (again, in case the token store's write was lost). */
  clearTokenMirror: () => Promise<void>;
  /** Deletes the uploads cache and tells the worker to clear its user caches. */
  clearWorkerCaches: () => Promise<void>;
  /** Deletes the user's device data except their unsent work. */
  clearUserData: (userId: string) => Promise<void>;
  forgetCurrentCompany: (userId: string) => Promise<void>;
  /** Leaves for the login route with a page load. */
  navigate: (path: string) => void;
  /** The bound of each local step (ms). */
  stepTimeoutMs?: number;
}

async function stopOfflineOfPage(): Promise<string | null> {
  // Loaded only once signed in; on the sign-in pages there is nothing to stop.
  const { forgetSession, offlineUserId, stopOffline } = await import('./offline');
  const userId = offlineUserId();
  stopOffline();
  forgetSession();
  return userId;
}

/** Deletes the uploads cache from the page and asks the active service worker to clear its user caches. */
export async function clearWorkerCaches(): Promise<void> {
  const deleting = typeof caches === 'undefined' ? Promise.resolve(false) : caches.delete(UPLOADS_CACHE_NAME);
  if (typeof navigator !== 'undefined' && 'serviceWorker' in navigator) {
    // The worker clears what it may hold besides; a worker that is still installing has served nothing yet.
    const registration = await navigator.serviceWorker.getRegistration();
    const worker = registration?.active ?? navigator.serviceWorker.controller;
    worker?.postMessage(CLEAR_USER_CACHES_MESSAGE);
  }
  await deleting;
}

async function clearUserDataOfPage(userId: string): Promise<void> {
  const [{ clearSignedOutUserData }, { getAppDatabase }] = await Promise.all([import('./sign-out-data'), import('./db/database')]);
  await clearSignedOutUserData(getAppDatabase(), userId);
}

const pageDependencies = (): SignOutDependencies => ({
  tokens: tokenStore,
  logout: (refreshToken, signal) => {
    const body: LogoutInput = { refresh_token: refreshToken };
    return http.post('/api/v1/auth/logout', body, { minDuration: 0, signal });
  },
  stopOffline: stopOfflineOfPage,
  clearTokenMirror: () => writeTokensFromPage(null, null),
  clearWorkerCaches,
  clearUserData: clearUserDataOfPage,
  forgetCurrentCompany: async (userId) => (await import('./current-company')).forgetCurrentCompany(userId),
  navigate: (path) => window.location.replace(path),
});

/** Runs one step within `ms`; a failure or a timeout is logged and sign-out goes on. */
async function step(label: string, ms: number, run: () => Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const outcome = await Promise.race([run().then(() => 'done' as const), timeout]);
    if (outcome === 'timeout') console.error(`Sign-out: ${label} did not finish in ${ms} ms; going on`);
  } catch (error) {
    console.error(`Sign-out: ${label} failed`, error);
  } finally {
    clearTimeout(timer);
  }
}

export async function signOut(overrides: Partial<SignOutDependencies> = {}): Promise<void> {
  const deps = { ...pageDependencies(), ...overrides };
  const ms = deps.stepTimeoutMs ?? SIGN_OUT_STEP_TIMEOUT_MS;
  const { tokens } = deps;
  const refreshToken = tokens.getRefresh();
  // Whose data to clear: the user the machinery ran for and the tokens' own user (the same person, normally).
  const userIds = new Set<string>();
  for (const id of [subjectOf(tokens.getAccess()), subjectOf(refreshToken)]) if (id !== null) userIds.add(id);

  if (refreshToken) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), LOGOUT_TIMEOUT_MS);
    try {
      await deps.logout(refreshToken, controller.signal);
    } catch (error) {
      // Best effort: the tokens go away below in any case; the server revokes the family on its own later.
      console.warn('The server did not confirm the sign-out', error);
    } finally {
      clearTimeout(timer);
    }
  }
  await step('stopping the offline sync', ms, async () => {
    const userId = await deps.stopOffline();
    if (userId !== null) userIds.add(userId);
  });
  // The worker reads its tokens from IndexedDB: both copies go before anything else, so it stops acting as this user.
  tokens.clear();
  await step('removing the token mirror', ms, async () => {
    await tokens.whenMirrored();
    await deps.clearTokenMirror();
  });
  await step('clearing the worker caches', ms, deps.clearWorkerCaches);
  for (const userId of userIds) {
    await step('deleting the device data', ms, () => deps.clearUserData(userId));
    await step('forgetting the current company', ms, () => deps.forgetCurrentCompany(userId));
  }
  deps.navigate(paths.auth.login);
}

export interface SignOutWarning {
  /** How many writes of this user are still unsent. */
  countUnsent?: () => Promise<number>;
  /** Asks whether to sign out anyway; true signs out. */
  confirm: (unsentCount: number) => Promise<boolean>;
  signOut?: () => Promise<void>;
}

/**
 * Sign-out that first warns when unsent writes exist (they stay on this device, tagged with this user, and
 * are sent when the same user signs in here again; another user never sees them). Resolves to whether it
 * signed out. A failure to count is treated as "maybe unsent", so the warning errs on the side of asking.
 */
export async function signOutWithWarning(options: SignOutWarning): Promise<boolean> {
  let count: number;
  try {
    count = await (options.countUnsent ?? (async () => (await import('./offline')).countUnsentNow()))();
  } catch (error) {
    console.error('Could not count the unsent changes before sign-out', error);
    count = -1;
  }
  if (count !== 0 && !(await options.confirm(count))) return false;
  await (options.signOut ?? signOut)();
  return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Session rules (spec section 4)                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/** What became of a request: the answer body, or the failure (status 0 when nothing answered). */
export type Outcome = { ok: true; body: unknown } | { ok: false; status: number; message: string | null };

export interface SessionFacts {
  accessToken: string | null;
  /** The answer to `GET /user`, once it came. */
  user?: Outcome;
  /** The answers to `GET /enums` and `GET /units`, once both came. */
  config?: { enums: Outcome; units: Outcome };
}

export type BrokenReason = 'user' | 'config';

export type SessionStep =
  | { kind: 'go-login' }
  | { kind: 'load-user' }
  /** `status`: the failed answer's HTTP status, 0 when none came, 200 when it came without the expected data. */
  | { kind: 'broken'; reason: BrokenReason; status: number }
  | { kind: 'go-confirm-email'; user: CurrentUser }
  | { kind: 'load-config'; user: CurrentUser }
  | { kind: 'ready'; user: CurrentUser; config: AppConfig };

const UserAnswer = type({ data: CurrentUser });
const EnumsAnswer = type({ data: EnumsData });
const UnitsAnswer = type({ data: array(Unit) });

/**
 * The next thing the default layout does, from what it knows so far:
 * no access token -> login; a user answer without data -> broken; 'Token Expired.' -> login (the HTTP
 * client has already tried its refresh); e-mail not verified -> the confirmation route; verified ->
 * load the app config; config failed -> broken. A 401 (the token is not valid at all) also goes to
 * login, since reloading could never fix it.
 */
export function nextSessionStep(facts: SessionFacts): SessionStep {
  if (!facts.accessToken) return { kind: 'go-login' };
  const { user: userOutcome } = facts;
  if (!userOutcome) return { kind: 'load-user' };
  if (!userOutcome.ok) {
    if (userOutcome.message === TOKEN_EXPIRED_MESSAGE || userOutcome.status === 401) return { kind: 'go-login' };
    return { kind: 'broken', reason: 'user', status: userOutcome.status };
  }
  if (!UserAnswer.is(userOutcome.body)) return { kind: 'broken', reason: 'user', status: 200 };
  const user = userOutcome.body.data;
  if (!user.emailVerified) return { kind: 'go-confirm-email', user };
  const { config } = facts;
  if (!config) return { kind: 'load-config', user };
  const { enums, units } = config;
  if (!enums.ok || !units.ok || !EnumsAnswer.is(enums.body) || !UnitsAnswer.is(units.body)) {
    const failed = [enums, units].find((outcome) => !outcome.ok);
    return { kind: 'broken', reason: 'config', status: failed && !failed.ok ? failed.status : 200 };
  }
  return { kind: 'ready', user, config: buildAppConfig(enums.body.data, units.body.data) };
}
