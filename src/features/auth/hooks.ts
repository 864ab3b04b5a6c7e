// The auth screens' only way to the network and to storage: sign-in, registration, e-mail
// confirmation and password recovery (docs/api.md, "Auth").
// Guarantees: a sign-in stores both tokens before leaving for the page the login route's `?next=` names
// (only a safe path of this app, `safeNextPath`; else the dashboard), and the auth pages hand that `next` on
// in their links and steps (registration, password recovery and back); the address a user has
// just registered is kept in sessionStorage (`pendingEmail`) for this tab only, so the confirmation
// screen can show it and resend the letter; every server failure reaches the form as a `FormError`
// (field errors beside the fields, the rest in the error dialog).

import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { EmailInput, HrRegistrationInput, LoginInput, RegistrationInput } from '../../domain/auth';
import { NEXT_PARAM, paths, safeNextPath, withNextPath } from '../../domain/paths';
import { CurrentUser, TokenPair } from '../../domain/user';
import { type } from 'superstruct';
import { http } from '../../lib/api';
import { HttpError } from '../../lib/http';
import { signIn, signOut } from '../../lib/session';
import { tokenStore } from '../../lib/token-store';
import { FormError } from '../../ui/form';
import { toFormError } from '../../lib/request-errors';

export const PENDING_EMAIL_KEY = 'pendingEmail';


function readPendingEmail(): string | null {
  try {
    return sessionStorage.getItem(PENDING_EMAIL_KEY);
  } catch (error) {
    // Storage can be disabled (privacy mode); the screen then asks for the address instead.
    console.warn('sessionStorage is not available', error);
    return null;
  }
}

function storePendingEmail(email: string): void {
  try {
    sessionStorage.setItem(PENDING_EMAIL_KEY, email);
  } catch (error) {
    console.warn('sessionStorage is not available', error);
  }
}

export function isSignedIn(): boolean {
  return tokenStore.getAccess() !== null;
}

/* Where to go after sign-in ------------------------------------------------------------------------- */

/** The page to open after sign-in, from this page's `?next=`: a safe app path, or null (the dashboard). */
export function useNextPath(): string | null {
  const search = useSearch();
  return safeNextPath(new URLSearchParams(search).get(NEXT_PARAM));
}

/** Links between the auth pages: `path` carrying this page's `next` on, so it survives the detour. */
export function useWithNext(): (path: string) => string {
  const next = useNextPath();
  return useCallback((path: string) => withNextPath(path, next), [next]);
}

/* Sign-in ------------------------------------------------------------------------------------- */

/** A refusal the login form shows above its fields (wrong credentials, too many attempts). */
export type LoginRefusal = { message: string };

export function useLogin(): (input: LoginInput) => Promise<LoginRefusal | null> {
  const next = useNextPath();
  return useCallback(async (input: LoginInput) => {
    let answer: unknown;
    try {
      answer = await http.post('/api/v1/auth/login', input);
    } catch (error) {
      if (error instanceof HttpError && (error.status === 401 || error.status === 429) && error.body) {
        return { message: error.body.message };
      }
      throw toFormError(error);
    }
    if (!TokenPair.is(answer)) throw new FormError();
    await signIn({ access_token: answer.access_token, refresh_token: answer.refresh_token });
    // A full navigation starts the signed-in app from a clean state (user, config, caches). An invitation
    // waiting for this sign-in has no `next`: the dashboard takes the person back to it (invitation-hooks.ts).
    window.location.assign(next ?? paths.dashboard);
    return null;
  }, [next]);
}

/* Registration ----------------------------------------------------------------------------------- */

export type RegistrationRequest = { kind: 'owner'; input: RegistrationInput } | { kind: 'hr'; input: HrRegistrationInput };

export function useRegister(): (request: RegistrationRequest) => Promise<void> {
  const [, navigate] = useLocation();
  const withNext = useWithNext();
  return useCallback(
    async (request: RegistrationRequest) => {
      const url = request.kind === 'hr' ? '/api/v1/auth/register/hr' : '/api/v1/auth/register';
      try {
        await http.post(url, request.input);
      } catch (error) {
        throw toFormError(error);
      }
      storePendingEmail(request.input.email);
      navigate(withNext(request.kind === 'hr' ? paths.auth.registerHrSuccess : paths.auth.registerConfirmEmail));
    },
    [navigate, withNext],
  );
}

/* E-mail confirmation ------------------------------------------------------------------------------- */

const UserAnswer = type({ data: CurrentUser });

export interface PendingEmail {
  /** The address the letter went to, when known. */
  email: string | null;
  /** Signed in with an unverified address (the session rules send such users here). */
  isSignedIn: boolean;
  isLoading: boolean;
}

/**
 * The address waiting for confirmation: the signed-in user's (from `GET /user`) or the one just
 * registered in this tab.
 */
export function usePendingEmail(): PendingEmail {
  const [state, setState] = useState<PendingEmail>(() => ({
    email: readPendingEmail(),
    isSignedIn: isSignedIn(),
    isLoading: isSignedIn(),
  }));

  useEffect(() => {
    if (!isSignedIn()) return;
    let isCurrent = true;
    http.get('/api/v1/user', undefined, { minDuration: 0 }).then(
      (answer) => {
        if (!isCurrent) return;
        setState((current) => ({ ...current, email: UserAnswer.is(answer) ? answer.data.email : current.email, isLoading: false }));
      },
      (error: unknown) => {
        // Without the user the screen still works: it asks for the address to resend to.
        console.warn('Could not load the signed-in user', error);
        if (isCurrent) setState((current) => ({ ...current, isLoading: false }));
      },
    );
    return () => {
      isCurrent = false;
    };
  }, []);

  return state;
}

export function useResendVerification(): (input: EmailInput) => Promise<void> {
  return useCallback(async (input: EmailInput) => {
    try {
      await http.post('/api/v1/auth/resend-verification', input);
    } catch (error) {
      throw toFormError(error);
    }
    storePendingEmail(input.email);
  }, []);
}

export type Verification = { status: 'pending' } | { status: 'verified'; email: string | null } | { status: 'failed' };

// One request per token: React may run an effect twice in development, and a confirmation token is
// single-use, so a second POST would report a valid link as expired.
const verifications = new Map<string, Promise<Verification>>();

function verifyEmail(token: string): Promise<Verification> {
  let verification = verifications.get(token);
  if (!verification) {
    verification = http.post('/api/v1/auth/verify-email', { token }).then(
      (answer): Verification => {
        const data = typeof answer === 'object' && answer !== null && 'data' in answer ? answer.data : null;
        const email = typeof data === 'object' && data !== null && 'email' in data && typeof data.email === 'string' ? data.email : null;
        return { status: 'verified', email };
      },
      (error: unknown): Verification => {
        console.warn('E-mail confirmation failed', error);
        return { status: 'failed' };
      },
    );
    verifications.set(token, verification);
  }
  return verification;
}

/** Confirms the address of the mailed link's token (none or a malformed one fails at once). */
export function useVerifyEmail(token: string | null): Verification {
  const isUsable = token !== null && token.length >= 16 && token.length <= 256;
  const [verification, setVerification] = useState<Verification>(isUsable ? { status: 'pending' } : { status: 'failed' });

  useEffect(() => {
    if (!isUsable || token === null) return;
    let isCurrent = true;
    void verifyEmail(token).then((result) => {
      if (isCurrent) setVerification(result);
    });
    return () => {
      isCurrent = false;
    };
  }, [isUsable, token]);

  return verification;
}

/* Password recovery ------------------------------------------------------------------------------- */

export function useRequestRecovery(): (input: EmailInput) => Promise<void> {
  const [, navigate] = useLocation();
  const withNext = useWithNext();
  return useCallback(
    async (input: EmailInput) => {
      try {
        await http.post('/api/v1/auth/recovery-password', input);
      } catch (error) {
        throw toFormError(error);
      }
      navigate(withNext(paths.auth.recoveryPasswordConfirm));
    },
    [navigate, withNext],
  );
}

export type RecoveryOutcome = 'changed' | 'link-invalid';

/** Sets the new password; a 400 about anything but the password means the link is unknown, used or expired. */
export function useConfirmRecovery(): (input: { token: string; password: string }) => Promise<RecoveryOutcome> {
  const [, navigate] = useLocation();
  return useCallback(
    async (input: { token: string; password: string }) => {
      try {
        await http.post('/api/v1/auth/recovery-password/confirm', input);
      } catch (error) {
        if (error instanceof HttpError && error.status === 400 && error.body?.errors?.password === undefined) return 'link-invalid';
        throw toFormError(error);
      }
      navigate(paths.auth.recoveryPasswordSuccess, { replace: true });
      return 'changed';
    },
    [navigate],
  );
}

/* Session ------------------------------------------------------------------------------------------ */

export function useSignOut(): () => Promise<void> {
  return signOut;
}

export { toFormError };
