// The invitation link's page: what it reads and does (docs/api.md, "Invitations").
// Guarantees: the preview is asked once per token (React may run an effect twice); accepting as a new person
// stores both tokens (`signIn`, as the login does) before leaving; either way the invitation's company becomes
// the user's current company (src/lib/current-company.ts) and the app starts afresh on the dashboard with a
// full navigation, so the new membership, its pulls and its roles are loaded from the server. Every refusal
// reaches the page as a `FormError` (field errors beside the fields, the rest in the error dialog), except
// an invalid link, which the page shows as its own state. Accepting keeps one Idempotency-Key per submission
// until it succeeds (src/lib/submission-key.ts), so a signed-in person's retry after no answer replays the first
// acceptance instead of being refused as a used link.
import { useCallback, useEffect, useState } from 'react';
import { type } from 'superstruct';
import { InvitationPreview } from '../../domain/company';
import { paths } from '../../domain/paths';
import { CurrentUser, TokenPair } from '../../domain/user';
import { http } from '../../lib/api';
import { setCurrentCompany } from '../../lib/current-company';
import { HttpError, type HttpClient } from '../../lib/http';
import { signIn } from '../../lib/session';
import { idempotencyHeaders, submitOnce, type SubmissionKeys } from '../../lib/submission-key';
import { FormError } from '../../ui/form';
import { isSignedIn, toFormError } from './hooks';

/**
 * sessionStorage key of an invitation waiting for its invited person to sign in: the dashboard brings them back
 * to the link once signed in (the same key is read by src/features/dashboard/hooks.ts).
 */
export const PENDING_INVITATION_KEY = 'pendingInvitationToken';

export type InvitationPreviewState =
  | { status: 'loading' }
  | { status: 'invalid' }
  | { status: 'offline' }
  | { status: 'failed'; message: string | null }
  | { status: 'ready'; preview: InvitationPreview };

const PreviewAnswer = type({ data: InvitationPreview });
const UserAnswer = type({ data: CurrentUser });

const invitationPath = (token: string) => `/api/v1/invitations/${encodeURIComponent(token)}`;

// One request per token at a time: a second render asks the same promise.
const previews = new Map<string, Promise<InvitationPreviewState>>();

function loadPreview(token: string): Promise<InvitationPreviewState> {
  let loading = previews.get(token);
  if (!loading) {
    loading = http.get(invitationPath(token), undefined, { minDuration: 0 }).then(
      (answer): InvitationPreviewState => (PreviewAnswer.is(answer) ? { status: 'ready', preview: answer.data } : { status: 'failed', message: null }),
      (error: unknown): InvitationPreviewState => {
        if (error instanceof HttpError && error.status === 404) return { status: 'invalid' };
        if (error instanceof HttpError && error.status === 0) return { status: 'offline' };
        console.warn('Could not load the invitation', error);
        return { status: 'failed', message: error instanceof HttpError ? (error.body?.message ?? null) : null };
      },
    );
    previews.set(token, loading);
    // A failed look-up may be asked again (retry); a good one stays.
    void loading.then((state) => {
      if (state.status !== 'ready') previews.delete(token);
    });
  }
  return loading;
}

/** The invitation behind `token`, and a way to ask again after a failure. */
export function useInvitationPreview(token: string | null): { state: InvitationPreviewState; reload: () => void } {
  const [state, setState] = useState<InvitationPreviewState>(token ? { status: 'loading' } : { status: 'invalid' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!token) return;
    let isCurrent = true;
    setState({ status: 'loading' });
    void loadPreview(token).then((next) => {
      if (isCurrent) setState(next);
    });
    return () => {
      isCurrent = false;
    };
  }, [token, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { state, reload };
}

/** The signed-in account's e-mail (to compare with the invited one); null when signed out or unknown. */
export function useSignedInEmail(): string | null {
  const [email, setEmail] = useState<string | null>(null);
  useEffect(() => {
    if (!isSignedIn()) return;
    let isCurrent = true;
    http.get('/api/v1/user', undefined, { minDuration: 0 }).then(
      (answer) => {
        if (isCurrent && UserAnswer.is(answer)) setEmail(answer.data.email);
      },
      (error: unknown) => console.warn('Could not load the signed-in user', error),
    );
    return () => {
      isCurrent = false;
    };
  }, []);
  return email;
}

/** Makes the company current for the now signed-in user, then starts the app on the dashboard. */
async function enterCompany(companyId: string | null): Promise<void> {
  if (companyId) {
    try {
      const answer = await http.get('/api/v1/user', undefined, { minDuration: 0 });
      if (UserAnswer.is(answer)) setCurrentCompany(answer.data.id, companyId);
    } catch (error) {
      // The membership exists; the dashboard then opens on the first of the user's companies.
      console.warn('Could not load the user to make the company current', error);
    }
  }
  window.location.assign(paths.dashboard);
}

export type AcceptOutcome = 'joined' | 'link-invalid';

/** `POST /invitations/{token}/accept`: `{ password }` for a new person, `{}` for the signed-in invited account. */
export function sendInvitationAccept(client: Pick<HttpClient, 'post'>, token: string, password: string | null, keys?: SubmissionKeys): Promise<unknown> {
  const path = `${invitationPath(token)}/accept`;
  const body = password === null ? {} : { password };
  return submitOnce({ method: 'POST', path, body }, (key) => client.post(path, body, idempotencyHeaders(key)), keys);
}

/**
 * Accepts the invitation: with a password for a new person (the account is created and signed in), without
 * one for the signed-in invited account. Resolves 'link-invalid' when the link stopped working meanwhile.
 */
export function useAcceptInvitation(token: string): (password: string | null) => Promise<AcceptOutcome> {
  return useCallback(
    async (password: string | null) => {
      let answer: unknown;
      try {
        answer = await sendInvitationAccept(http, token, password);
      } catch (error) {
        if (error instanceof HttpError && error.status === 404) return 'link-invalid';
        throw toFormError(error);
      }
      const companyId = companyIdOf(answer);
      if (password !== null) {
        if (!TokenPair.is(answer)) throw new FormError();
        await signIn({ access_token: answer.access_token, refresh_token: answer.refresh_token });
      }
      clearPendingInvitation();
      await enterCompany(companyId);
      return 'joined';
    },
    [token],
  );
}

function companyIdOf(answer: unknown): string | null {
  if (typeof answer !== 'object' || answer === null || !('data' in answer)) return null;
  const data = answer.data;
  return typeof data === 'object' && data !== null && 'companyId' in data && typeof data.companyId === 'string' ? data.companyId : null;
}

/** Remembers the link for after the sign-in (this tab only). */
export function rememberPendingInvitation(token: string): void {
  try {
    sessionStorage.setItem(PENDING_INVITATION_KEY, token);
  } catch (error) {
    // Without storage the person opens the link from the letter again after signing in.
    console.warn('sessionStorage is not available', error);
  }
}

function clearPendingInvitation(): void {
  try {
    sessionStorage.removeItem(PENDING_INVITATION_KEY);
  } catch (error) {
    console.warn('sessionStorage is not available', error);
  }
}
