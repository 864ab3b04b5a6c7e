// The profile's data and actions: the signed-in user (loaded by the default layout), titles from the
// app config, the interface language (stored by the intl provider, which also tells the server), the user's
// own data and password (`PATCH /user`, `POST /user/password`), how notifications are mailed (`PATCH /user`
// `{ notificationMail }`: each at once or one daily digest), sign-out (spec section 4: both tokens cleared,
// login route, reload; unsent work is warned about first) and, for the platform admin, the verification
// payments to review (`GET /admin/companies`, `POST /admin/companies/{id}/verification`).
// Guarantees: these calls are online-only: they are always tried (the connectivity probe only informs the
// banners) and, when nothing answers, say "offline" in the user's language instead of a bare failure; a failed
// call reaches a form as `FormError` (field errors beside the fields); answers are checked with their structs;
// each submission keeps one Idempotency-Key until it succeeds (src/lib/submission-key.ts), so a retry after no
// answer is the same request to the server.
// A password change ends every other session; the new token pair the server answers keeps this one.

import { useCallback, useEffect, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { array, type } from 'superstruct';
import type { PasswordChangeInput, ProfilePatch } from '../../domain/auth';
import { NotificationMailMode } from '../../domain/notification';
import { AdminCompany, type VerificationDecision, type VerificationStatus } from '../../domain/company';
import { hasAuthority, TokenPair, type CurrentUser, type EnumOption } from '../../domain/user';
import { http } from '../../lib/api';
import { useAppConfig, useCurrentUser, useReloadCurrentUser } from '../../lib/app-state';
import { useConnectivity } from '../../lib/connectivity';
import { HttpError, type HttpClient } from '../../lib/http';
import { useLocale } from '../../lib/intl';
import { signIn, signOutWithWarning } from '../../lib/session';
import { idempotencyHeaders, submitOnce, type SubmissionKeys } from '../../lib/submission-key';
import { useDialog } from '../../ui/dialog';
import { FormError } from '../../ui/form';

function titleOf(options: readonly EnumOption[] | undefined, id: string | null): string | null {
  if (id === null || id === '') return null;
  return options?.find((option) => option.id === id)?.title ?? id;
}

/** Something shown for a department: its name when the server sends one. */
function describe(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'object' && value !== null) {
    if ('name' in value && typeof value.name === 'string') return value.name;
    if ('title' in value && typeof value.title === 'string') return value.title;
  }
  return null;
}

export interface Profile {
  user: CurrentUser;
  roleTitle: string | null;
  /** The chosen position's title, or the position the user typed for "other position". */
  positionTitle: string | null;
  mainGoalTitle: string | null;
  departmentName: string | null;
  isAdmin: boolean;
  /** The user's companies with the titles of their roles there. */
  memberships: { id: string; name: string; roleTitles: string[] }[];
}

export function useProfile(): Profile {
  const user = useCurrentUser();
  const { enums } = useAppConfig();
  const otherPosition = user.otherPosition;
  return {
    user,
    roleTitle: titleOf(enums.ROLE, user.role),
    positionTitle: user.position === 'OTHER' && otherPosition ? otherPosition : titleOf(enums.POSITION, user.position),
    mainGoalTitle: titleOf(enums.IMPLEMENTATION_GOAL, user.mainGoal),
    departmentName: describe(user.department),
    isAdmin: hasAuthority(user, 'ROLE_ADMIN'),
    memberships: (user.companies ?? []).map((company) => ({
      id: company.id,
      name: company.name,
      roleTitles: company.roles.map((role) => titleOf(enums.ROLE, role) ?? role),
    })),
  };
}

export function useLanguage() {
  return useLocale();
}

export function useIsOffline(): boolean {
  return useConnectivity() === 'offline';
}

/** A failed request as a form shows it: field errors beside the fields, the server's message, or "offline". */
function toFormError(error: unknown, intl: IntlShape): Error {
  if (!(error instanceof HttpError)) return error instanceof Error ? error : new Error(String(error));
  if (error.status === 0) {
    return new FormError({
      message: intl.formatMessage({ id: 'profile.offline', defaultMessage: 'You are offline. Changing your account needs a connection: try again when you are back online.' }),
    });
  }
  return new FormError({ message: error.body?.message, fieldErrors: error.body?.errors ?? {} });
}

/** `PATCH /user` with the user's own data. */
export function sendProfilePatch(client: Pick<HttpClient, 'patch'>, patch: ProfilePatch, keys?: SubmissionKeys): Promise<unknown> {
  const path = '/api/v1/user';
  return submitOnce({ method: 'PATCH', path, body: patch }, (key) => client.patch(path, patch, idempotencyHeaders(key)), keys);
}

/** The user's choice of notification mail; an answer without it (an older server) means the default, each at once. */
export function notificationMailOf(user: Pick<CurrentUser, 'notificationMail'>): NotificationMailMode {
  return NotificationMailMode.is(user.notificationMail) ? user.notificationMail : 'instant';
}

/** Saves how notifications are mailed (`PATCH /user` `{ notificationMail }`) and loads the user again. */
export function useUpdateNotificationMail(): (mode: NotificationMailMode) => Promise<void> {
  const reloadUser = useReloadCurrentUser();
  const intl = useIntl();
  return useCallback(
    async (mode) => {
      try {
        await sendProfilePatch(http, { notificationMail: mode });
      } catch (error) {
        throw toFormError(error, intl);
      }
      await reloadUser();
    },
    [intl, reloadUser],
  );
}

/** `POST /user/password`; resolves to the server's answer (the new token pair for this session). */
export function sendPasswordChange(client: Pick<HttpClient, 'post'>, input: PasswordChangeInput, keys?: SubmissionKeys): Promise<unknown> {
  const path = '/api/v1/user/password';
  return submitOnce({ method: 'POST', path, body: input }, (key) => client.post(path, input, idempotencyHeaders(key)), keys);
}

/** `POST /admin/companies/{id}/verification` with the admin's decision. */
export function sendVerificationDecision(
  client: Pick<HttpClient, 'post'>,
  companyId: string,
  decision: VerificationDecision,
  keys?: SubmissionKeys,
): Promise<unknown> {
  const path = `/api/v1/admin/companies/${encodeURIComponent(companyId)}/verification`;
  return submitOnce({ method: 'POST', path, body: decision }, (key) => client.post(path, decision, idempotencyHeaders(key)), keys);
}

/** Saves the user's own data (`PATCH /user`) and loads the user again so every screen shows it. */
export function useUpdateProfile(): (patch: ProfilePatch) => Promise<void> {
  const reloadUser = useReloadCurrentUser();
  const intl = useIntl();
  return useCallback(
    async (patch) => {
      try {
        await sendProfilePatch(http, patch);
      } catch (error) {
        throw toFormError(error, intl);
      }
      await reloadUser();
    },
    [intl, reloadUser],
  );
}

/** Changes the password; a wrong current password comes back as `passwordWrong` beside that field. */
export function useChangePassword(): (input: PasswordChangeInput) => Promise<void> {
  const intl = useIntl();
  return useCallback(
    async (input) => {
      let answer: unknown;
      try {
        answer = await sendPasswordChange(http, input);
      } catch (error) {
        throw toFormError(error, intl);
      }
      // The server ended every session and answered a new pair for this one.
      if (TokenPair.is(answer)) await signIn({ access_token: answer.access_token, refresh_token: answer.refresh_token });
    },
    [intl],
  );
}

/** Sign-out as in the header: unsent changes on this device are warned about first (they stay for this user). */
export function useSignOut(): () => Promise<boolean> {
  const intl = useIntl();
  const dialog = useDialog();
  return useCallback(
    () =>
      signOutWithWarning({
        confirm: (count) =>
          dialog.confirm({
            title: intl.formatMessage({ id: 'offline.signOut.title', defaultMessage: 'Sign out with unsent changes?' }),
            content:
              count > 0
                ? intl.formatMessage(
                    {
                      id: 'offline.signOut.text',
                      defaultMessage:
                        '{count, plural, one {# change has} other {# changes have}} not been sent yet. They stay on this device and are sent when you sign in here again; until then nobody else sees them.',
                    },
                    { count },
                  )
                : intl.formatMessage({
                    id: 'offline.signOut.unknown',
                    defaultMessage: 'Some changes may not have been sent yet. They stay on this device until you sign in here again.',
                  }),
            confirmText: intl.formatMessage({ id: 'offline.signOut.confirm', defaultMessage: 'Sign out' }),
            closeText: intl.formatMessage({ id: 'offline.signOut.stay', defaultMessage: 'Stay' }),
          }),
      }),
    [dialog, intl],
  );
}

/* ---------------------------------------------------------------------------------------------- */
/* The platform admin: verification payments                                                       */
/* ---------------------------------------------------------------------------------------------- */

export type AdminStatusFilter = VerificationStatus | 'all';

const AdminCompaniesAnswer = type({ data: array(AdminCompany) });
const AdminCompanyAnswer = type({ data: AdminCompany });

export type AdminCompaniesState =
  | { kind: 'loading' }
  | { kind: 'offline' }
  | { kind: 'failed'; message: string | null }
  | { kind: 'ready'; companies: AdminCompany[] };

/**
 * The companies of one verification status for the platform admin, fetched from the server (this list is not
 * mirrored on the device): loading, offline (with no request made), failed (the server's message), or ready.
 * `replace` puts a decided company in place; `reload` asks again.
 */
export function useAdminCompanies(status: AdminStatusFilter): {
  state: AdminCompaniesState;
  reload: () => void;
  replace: (company: AdminCompany) => void;
} {
  // Asked again whenever the probe says the server is back; the request itself decides "offline".
  const isOnline = useConnectivity() === 'online';
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<AdminCompaniesState>({ kind: 'loading' });

  useEffect(() => {
    let isCurrent = true;
    setState({ kind: 'loading' });
    http.get('/api/v1/admin/companies', { status }).then(
      (answer) => {
        if (!isCurrent) return;
        if (AdminCompaniesAnswer.is(answer)) setState({ kind: 'ready', companies: answer.data });
        else {
          console.error('The admin company list does not match its struct', answer);
          setState({ kind: 'failed', message: null });
        }
      },
      (error: unknown) => {
        if (!isCurrent) return;
        if (error instanceof HttpError && error.status === 0) setState({ kind: 'offline' });
        else {
          console.error('Could not load the companies to review', error);
          setState({ kind: 'failed', message: error instanceof HttpError ? (error.body?.message ?? null) : null });
        }
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [isOnline, status, attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);
  const replace = useCallback((company: AdminCompany) => {
    setState((current) =>
      current.kind === 'ready' ? { kind: 'ready', companies: current.companies.map((item) => (item.id === company.id ? company : item)) } : current,
    );
  }, []);
  return { state, reload, replace };
}

export type DecisionOutcome =
  | { ok: true; company: AdminCompany }
  /** `message` is for the error dialog (undefined: the default text); `isStale`: decided elsewhere meanwhile. */
  | { ok: false; message: string | undefined; isStale: boolean };

/** Records the admin's decision on a reported payment (online only). */
export function useDecideVerification(): (companyId: string, decision: VerificationDecision) => Promise<DecisionOutcome> {
  const intl = useIntl();
  return useCallback(
    async (companyId, decision) => {
      try {
        const answer = await sendVerificationDecision(http, companyId, decision);
        if (AdminCompanyAnswer.is(answer)) return { ok: true, company: answer.data };
        console.error('The verification answer does not match its struct', answer);
        return { ok: false, message: undefined, isStale: true };
      } catch (error) {
        if (!(error instanceof HttpError)) {
          console.error('Could not record the verification decision', error);
          return { ok: false, message: undefined, isStale: false };
        }
        if (error.status === 0) {
          const message = intl.formatMessage({
            id: 'profile.admin.decideOffline',
            defaultMessage: 'The server cannot be reached: the decision was not saved. Try again when you are back online.',
          });
          return { ok: false, message, isStale: false };
        }
        return { ok: false, message: error.body?.message, isStale: error.status === 409 || error.status === 404 };
      }
    },
    [intl],
  );
}
