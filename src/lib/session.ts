// Sign-in and sign-out, and the session rules of spec section 4 as a pure function.
// Guarantees: signing in stores both tokens together; signing out always ends with both tokens removed,
// the login route loaded and the page reloaded, whether or not the server heard the logout call.
import type { LogoutInput } from '../domain/auth';
import { paths } from '../domain/paths';
import { CurrentUser, EnumsData, Unit, buildAppConfig, type AppConfig, type TokenPair } from '../domain/user';
import { array, type } from 'superstruct';
import { http } from './api';
import { TOKEN_EXPIRED_MESSAGE } from './http';
import { tokenStore } from './token-store';

/** How long sign-out waits for the server before leaving anyway. */
export const LOGOUT_TIMEOUT_MS = 3000;

/** Stores both tokens; resolves once the service worker's IndexedDB copy has them too, so a
 * navigation right after sign-in cannot cut that write off. */
export async function signIn(pair: TokenPair): Promise<void> {
  tokenStore.set(pair);
  await tokenStore.whenMirrored();
}

export async function signOut(): Promise<void> {
  const refreshToken = tokenStore.getRefresh();
  if (refreshToken) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), LOGOUT_TIMEOUT_MS);
    try {
      const body: LogoutInput = { refresh_token: refreshToken };
      await http.post('/api/v1/auth/logout', body, { minDuration: 0, signal: controller.signal });
    } catch (error) {
      // Best effort: the tokens go away below in any case; the server revokes the family on its own later.
      console.warn('The server did not confirm the sign-out', error);
    } finally {
      clearTimeout(timer);
    }
  }
  // Loaded only once signed in; on the sign-in pages there is nothing to stop.
  try {
    const { forgetSession, stopOffline } = await import('./offline');
    stopOffline();
    forgetSession();
  } catch (error) {
    console.warn('Could not stop the offline sync before leaving', error);
  }
  tokenStore.clear();
  window.location.replace(paths.auth.login);
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
  | { kind: 'broken'; reason: BrokenReason }
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
    return { kind: 'broken', reason: 'user' };
  }
  if (!UserAnswer.is(userOutcome.body)) return { kind: 'broken', reason: 'user' };
  const user = userOutcome.body.data;
  if (!user.emailVerified) return { kind: 'go-confirm-email', user };
  const { config } = facts;
  if (!config) return { kind: 'load-config', user };
  const { enums, units } = config;
  if (!enums.ok || !units.ok || !EnumsAnswer.is(enums.body) || !UnitsAnswer.is(units.body)) {
    return { kind: 'broken', reason: 'config' };
  }
  return { kind: 'ready', user, config: buildAppConfig(enums.body.data, units.body.data) };
}
