// The signed-in session of the default layout: the current user and the app config.
// Guarantees: screens under the default layout render only once the user (e-mail verified) and the
// app config have loaded and passed their structs, so `useCurrentUser()` and `useAppConfig()` always
// answer; the session rules of spec section 4 decide every other outcome (see `nextSessionStep`).
// Tokens removed by another tab (sign-out there) send this tab to the login route too. The login route is
// given the page it came from (`?next=`, src/domain/paths.ts), so a deep link opened signed out, or a page
// whose session ended, opens again after sign-in.
// Offline: once ready, the user, enums and units are remembered on the device (src/lib/offline.ts). A page
// never waits on the network for longer than `SESSION_ANSWER_BOUND_MS`: when `GET /user` (or enums/units)
// has not answered by then, or gets no answer at all, the remembered session stands in, so a page opened
// on a dead or hanging network (weak signal, captive portal) still reaches the screens that read the mirror
// and saves to the outbox. Only the session of the tokens' own user ever stands in (the `sub` of the stored
// token must be the remembered user's id). The requests go on in the background with their own deadline
// (`SESSION_REQUEST_DEADLINE_MS`); a later answer is obeyed: 401 / 'Token Expired.' (refresh refused) ->
// login, a user -> the user is updated (and the config fetched again), no answer / a server failure -> the
// remembered session stays, and the check is tried again when the connection seems to come back. An answer
// that comes within the bound is obeyed exactly as the session rules say (5xx -> broken screen).
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { paths, withNextPath } from '../domain/paths';
import { EnumsData, Unit, type AppConfig, type CurrentUser } from '../domain/user';
import { array, type } from 'superstruct';
import { HttpError, TOKEN_EXPIRED_MESSAGE } from './http';
import { useLocale } from './intl';
import { nextSessionStep, type Outcome, type SessionFacts, type SessionStep } from './session';
import type { RememberedSession } from './offline';
import { fetchConfig, fetchUser, takeEarlySessionRequests } from './session-requests';
import { tokenStore } from './token-store';
import { subjectOf } from '../../sw/token-mirror';

const CurrentUserContext = createContext<CurrentUser | null>(null);
const AppConfigContext = createContext<AppConfig | null>(null);
const ReloadCurrentUserContext = createContext<(() => Promise<void>) | null>(null);

export function useCurrentUser(): CurrentUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error('useCurrentUser() is only available inside the default layout');
  return user;
}

export function useAppConfig(): AppConfig {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error('useAppConfig() is only available inside the default layout');
  return config;
}

export function useReloadCurrentUser(): () => Promise<void> {
  const reload = useContext(ReloadCurrentUserContext);
  if (!reload) throw new Error('useReloadCurrentUser() is only available inside the default layout');
  return reload;
}

export function AppStateProvider(props: {
  user: CurrentUser;
  config: AppConfig;
  reloadUser: () => Promise<void>;
  children: ReactNode;
}) {
  return (
    <CurrentUserContext.Provider value={props.user}>
      <AppConfigContext.Provider value={props.config}>
        <ReloadCurrentUserContext.Provider value={props.reloadUser}>{props.children}</ReloadCurrentUserContext.Provider>
      </AppConfigContext.Provider>
    </CurrentUserContext.Provider>
  );
}

/** How long the session waits for the server before the session remembered on this device stands in. */
export const SESSION_ANSWER_BOUND_MS = 1500;

/** The user the stored tokens belong to (their `sub`), or null when unreadable or the two disagree. */
function tokenSubject(): string | null {
  const access = subjectOf(tokenStore.getAccess());
  const refresh = subjectOf(tokenStore.getRefresh());
  if (access !== null && refresh !== null && access !== refresh) return null;
  return access ?? refresh;
}

/** The session remembered on this device, only if it is `userId`'s. Never rejects. */
async function recallRemembered(userId: string | null): Promise<RememberedSession | null> {
  if (userId === null) return null;
  try {
    const remembered = await (await import('./offline')).recallSession();
    // Another person's last session never stands in for the tokens' user (a shared tablet).
    return remembered?.user.id === userId ? remembered : null;
  } catch (error) {
    console.error('Could not read the remembered session', error);
    return null;
  }
}

const rememberedUser = (session: RememberedSession): Outcome => ({ ok: true, body: { data: session.user } });
const rememberedConfig = (session: RememberedSession): NonNullable<SessionFacts['config']> => ({
  enums: { ok: true, body: { data: session.enums } },
  units: { ok: true, body: { data: session.units } },
});

const isNoAnswer = (outcome: Outcome) => !outcome.ok && outcome.status === 0;
const isRefusal = (outcome: Outcome) => !outcome.ok && (outcome.status === 401 || outcome.message === TOKEN_EXPIRED_MESSAGE);
const isConfigAnswered = (config: NonNullable<SessionFacts['config']>) =>
  EnumsAnswer.is(config.enums.ok ? config.enums.body : null) && UnitsAnswer.is(config.units.ok ? config.units.body : null);

/** The facts the hook keeps: what the rules read, and whether the user and config are the remembered ones. */
interface SessionState extends SessionFacts {
  isUserRemembered?: boolean;
  isConfigRemembered?: boolean;
}

interface SessionCheck {
  /** The config for `user` (the 'load-config' step); started once per check. */
  loadConfig(user: CurrentUser): void;
  /** Nothing of this check applies any more. */
  cancel(): void;
}

/**
 * One session check: `GET /user` and then enums/units, each standing in with the remembered session once
 * `SESSION_ANSWER_BOUND_MS` have passed since the check started (or at once when nothing answers), and
 * obeying later answers as the module header says. Only this check writes the user and config it loads.
 */
function startSessionCheck(setState: (change: (current: SessionState) => SessionState) => void): SessionCheck {
  let isActive = true;
  const startedAt = Date.now();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const stopListening = new Set<() => void>();
  const remembered = recallRemembered(tokenSubject());
  // The first page's requests started with the app (src/lib/session-requests.ts), or started here.
  const early = takeEarlySessionRequests();
  // Enums and units are asked for beside `GET /user`, not after it: they do not depend on its answer, and the
  // first screen waits on both (one round trip less on a slow network). The answer is taken once the user is in.
  let earlyConfig: ReturnType<typeof fetchConfig> | null = early?.config ?? fetchConfig();
  earlyConfig.catch(() => undefined);
  let user: 'waiting' | 'remembered' | 'answered' = 'waiting';
  let config: 'idle' | 'waiting' | 'remembered' | 'answered' = 'idle';

  const update = (change: (current: SessionState) => SessionState) => {
    if (isActive) setState(change);
  };
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (isActive) run();
    }, ms);
    timers.add(timer);
  };

  const standIn = (session: RememberedSession) => {
    user = 'remembered';
    if (config === 'idle') config = 'remembered';
    update((current) => ({
      ...current,
      user: rememberedUser(session),
      isUserRemembered: true,
      config: current.config ?? rememberedConfig(session),
      isConfigRemembered: current.config ? current.isConfigRemembered : true,
    }));
  };

  /** Enums and units again, behind a remembered config: taken only when both answer well. */
  const refreshConfig = () => {
    void fetchConfig().then((answer) => {
      if (!isActive || config !== 'remembered' || !isConfigAnswered(answer)) return;
      config = 'answered';
      update((current) => ({ ...current, config: answer, isConfigRemembered: false }));
    });
  };

  /** While the remembered session stands in after no answer: ask again when the connection seems back. */
  const checkAgainOnReconnect = () => {
    if (stopListening.size > 0 || typeof window === 'undefined') return;
    const again = () => {
      if (document.visibilityState === 'hidden') return;
      for (const stop of stopListening) stop();
      stopListening.clear();
      if (isActive) void fetchUser().then(onUserAnswer);
    };
    for (const [target, name] of [
      [window, 'online'],
      [window, 'focus'],
      [document, 'visibilitychange'],
    ] as const) {
      target.addEventListener(name, again);
      stopListening.add(() => target.removeEventListener(name, again));
    }
  };

  const onUserAnswer = async (answer: Outcome): Promise<void> => {
    if (!isActive) return;
    if (user === 'waiting') {
      if (isNoAnswer(answer)) {
        // Nothing answered (a dead network, or the deadline): as before, the remembered session stands in.
        const session = await remembered;
        if (!isActive || user !== 'waiting') return;
        if (session) {
          standIn(session);
          checkAgainOnReconnect();
          return;
        }
      }
      user = 'answered';
      update((current) => ({ ...current, user: answer, isUserRemembered: false }));
      return;
    }
    if (user !== 'remembered') return;
    const isUser = answer.ok && nextSessionStep({ accessToken: 'present', user: answer }).kind !== 'broken';
    if (isRefusal(answer) || isUser) {
      user = 'answered';
      update((current) => ({ ...current, user: answer, isUserRemembered: false }));
      if (isUser && config === 'remembered') refreshConfig();
      return;
    }
    // No answer, a server failure or nonsense: the remembered session stays (the screens read the mirror).
    console.warn('The session check got no usable answer; the session remembered on this device stays', answer);
    checkAgainOnReconnect();
  };

  later(SESSION_ANSWER_BOUND_MS, () => {
    void remembered.then((session) => {
      if (isActive && session && user === 'waiting') standIn(session);
    });
  });
  void (early?.user ?? fetchUser()).then(onUserAnswer);

  return {
    loadConfig(loaded) {
      if (config !== 'idle') return;
      config = 'waiting';
      const useRemembered = async (): Promise<boolean> => {
        const session = await remembered;
        if (!isActive || config !== 'waiting' || session?.user.id !== loaded.id) return false;
        config = 'remembered';
        update((current) => ({ ...current, config: rememberedConfig(session), isConfigRemembered: true }));
        return true;
      };
      later(Math.max(0, startedAt + SESSION_ANSWER_BOUND_MS - Date.now()), () => void useRemembered());
      const configAnswer = earlyConfig ?? fetchConfig();
      earlyConfig = null;
      void configAnswer.then(async (answer) => {
        if (!isActive) return;
        if (config === 'remembered') {
          if (isConfigAnswered(answer)) {
            config = 'answered';
            update((current) => ({ ...current, config: answer, isConfigRemembered: false }));
          }
          return;
        }
        if (config !== 'waiting') return;
        if ((isNoAnswer(answer.enums) || isNoAnswer(answer.units)) && (await useRemembered())) return;
        if (!isActive || config !== 'waiting') return;
        config = 'answered';
        update((current) => ({ ...current, config: answer, isConfigRemembered: false }));
      });
    },
    cancel() {
      isActive = false;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const stop of stopListening) stop();
      stopListening.clear();
    },
  };
}

const EnumsAnswer = type({ data: EnumsData });
const UnitsAnswer = type({ data: array(Unit) });

/** Remembers a ready session for the next start without a network. */
function rememberOffline(user: CurrentUser, config: SessionFacts['config']): void {
  const enums = config?.enums.ok ? config.enums.body : null;
  const units = config?.units.ok ? config.units.body : null;
  if (!EnumsAnswer.is(enums) || !UnitsAnswer.is(units)) return;
  import('./offline')
    .then(({ rememberSession }) => rememberSession({ user, enums: enums.data, units: units.data }))
    .catch((error: unknown) => console.error('Could not remember the session for offline use', error));
}

/**
 * Runs the session rules: loads the user, then the app config, and redirects when the rules say so.
 * The default layout renders from the returned step.
 */
export function useSession(): { step: SessionStep; reloadUser: () => Promise<void> } {
  const [location, navigate] = useLocation();
  const search = useSearch();
  // Read by the redirect to the login route only: following every route change there would restart the check.
  const here = useRef(location);
  useEffect(() => {
    here.current = search === '' ? location : `${location}?${search}`;
  }, [location, search]);
  const [facts, setFacts] = useState<SessionState>(() => ({ accessToken: tokenStore.getAccess() }));
  const step = useMemo(() => nextSessionStep(facts), [facts]);
  const check = useRef<SessionCheck | null>(null);

  useEffect(
    () =>
      tokenStore.subscribe(() => {
        const accessToken = tokenStore.getAccess();
        // A rotated token keeps the session; only a removed one ends it (and whatever its check still brings).
        if (accessToken === null) {
          check.current?.cancel();
          check.current = null;
          setFacts({ accessToken: null });
        } else {
          setFacts((current) => (current.accessToken === accessToken ? current : { ...current, accessToken }));
        }
      }),
    [],
  );

  useEffect(
    () => () => {
      check.current?.cancel();
      check.current = null;
    },
    [],
  );

  const loadingUser = step.kind === 'load-config' ? step.user : null;
  useEffect(() => {
    switch (step.kind) {
      case 'go-login':
        navigate(withNextPath(paths.auth.login, here.current), { replace: true });
        break;
      case 'go-confirm-email':
        navigate(paths.auth.registerConfirmEmail, { replace: true });
        break;
      case 'load-user':
        // The check outlives this step: a late answer still applies once the remembered session is ready.
        check.current?.cancel();
        check.current = startSessionCheck(setFacts);
        break;
      case 'load-config':
        if (loadingUser) check.current?.loadConfig(loadingUser);
        break;
      case 'broken':
      case 'ready':
        break;
    }
  }, [step.kind, loadingUser, navigate]);

  const readyUser = step.kind === 'ready' ? step.user : null;
  const isRemembered = facts.isUserRemembered === true || facts.isConfigRemembered === true;
  useEffect(() => {
    // What stands in from the device is not written back over itself.
    if (readyUser && !isRemembered) rememberOffline(readyUser, facts.config);
  }, [readyUser, isRemembered, facts.config]);

  // Enum and unit titles come in the request's language: a language switch fetches them again. The
  // screen keeps the old titles until the new ones are there, and keeps them if the fetch fails.
  const { locale } = useLocale();
  const [configLocale, setConfigLocale] = useState(locale);
  const isReady = step.kind === 'ready';
  useEffect(() => {
    if (!isReady || locale === configLocale) return;
    let isCurrent = true;
    void fetchConfig().then((config) => {
      if (!isCurrent) return;
      setConfigLocale(locale);
      if (config.enums.ok && config.units.ok) {
        setFacts((current) => (nextSessionStep({ ...current, config }).kind === 'ready' ? { ...current, config, isConfigRemembered: false } : current));
      } else {
        console.warn('Could not reload the app config in the new language');
      }
    });
    return () => {
      isCurrent = false;
    };
  }, [isReady, locale, configLocale]);

  const reloadUser = useCallback(async () => {
    const user = await fetchUser();
    if (!user.ok) throw new HttpError(user.status, user.message === null ? null : { message: user.message });
    // Keep the user on screen rather than breaking the layout over one bad answer.
    if (nextSessionStep({ accessToken: 'present', user }).kind === 'broken') throw new Error('GET /user answered without a valid user');
    setFacts((current) => ({ ...current, user, isUserRemembered: false }));
  }, []);

  return { step, reloadUser };
}
