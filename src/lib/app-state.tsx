// The signed-in session of the default layout: the current user and the app config.
// Guarantees: screens under the default layout render only once the user (e-mail verified) and the
// app config have loaded and passed their structs, so `useCurrentUser()` and `useAppConfig()` always
// answer; the session rules of spec section 4 decide every other outcome (see `nextSessionStep`).
// Tokens removed by another tab (sign-out there) send this tab to the login route too.
// Offline (issue 4): once ready, the user, enums and units are remembered on the device (src/lib/offline.ts);
// when `GET /user` gets no answer at all, the remembered session stands in, so a page opened without a
// network still reaches the screens that read the mirror. Any answer from the server (401, 'Token
// Expired.', 5xx) is obeyed as before.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { paths } from '../domain/paths';
import { EnumsData, Unit, type AppConfig, type CurrentUser } from '../domain/user';
import { array, type } from 'superstruct';
import { http } from './api';
import { HttpError } from './http';
import { useLocale } from './intl';
import { nextSessionStep, type Outcome, type SessionFacts, type SessionStep } from './session';
import { tokenStore } from './token-store';

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

const fetchUser = () => toOutcome(http.get('/api/v1/user', undefined, { minDuration: 0 }));

/** With no answer at all, the session remembered on this device (user and config), if any. */
async function recallOffline(user: Outcome): Promise<Pick<Required<SessionFacts>, 'user' | 'config'> | null> {
  if (user.ok || user.status !== 0) return null;
  try {
    const remembered = await (await import('./offline')).recallSession();
    if (!remembered) return null;
    return {
      user: { ok: true, body: { data: remembered.user } },
      config: { enums: { ok: true, body: { data: remembered.enums } }, units: { ok: true, body: { data: remembered.units } } },
    };
  } catch (error) {
    console.error('Could not read the remembered session', error);
    return null;
  }
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

const fetchConfig = async (): Promise<NonNullable<SessionFacts['config']>> => {
  const [enums, units] = await Promise.all([
    toOutcome(http.get('/api/v1/enums', undefined, { minDuration: 0 })),
    toOutcome(http.get('/api/v1/units', undefined, { minDuration: 0 })),
  ]);
  return { enums, units };
};

/**
 * Runs the session rules: loads the user, then the app config, and redirects when the rules say so.
 * The default layout renders from the returned step.
 */
export function useSession(): { step: SessionStep; reloadUser: () => Promise<void> } {
  const [, navigate] = useLocation();
  const [facts, setFacts] = useState<SessionFacts>(() => ({ accessToken: tokenStore.getAccess() }));
  const step = useMemo(() => nextSessionStep(facts), [facts]);

  useEffect(
    () =>
      tokenStore.subscribe(() => {
        const accessToken = tokenStore.getAccess();
        // A rotated token keeps the session; only a removed one ends it.
        if (accessToken === null) setFacts({ accessToken: null });
        else setFacts((current) => (current.accessToken === accessToken ? current : { ...current, accessToken }));
      }),
    [],
  );

  useEffect(() => {
    let isCurrent = true;
    switch (step.kind) {
      case 'go-login':
        navigate(paths.auth.login, { replace: true });
        break;
      case 'go-confirm-email':
        navigate(paths.auth.registerConfirmEmail, { replace: true });
        break;
      case 'load-user':
        void fetchUser().then(async (user) => {
          const remembered = await recallOffline(user);
          if (isCurrent) setFacts((current) => ({ ...current, ...(remembered ?? { user }) }));
        });
        break;
      case 'load-config':
        void fetchConfig().then((config) => {
          if (isCurrent) setFacts((current) => ({ ...current, config }));
        });
        break;
      case 'broken':
      case 'ready':
        break;
    }
    return () => {
      isCurrent = false;
    };
  }, [step.kind, navigate]);

  const readyUser = step.kind === 'ready' ? step.user : null;
  useEffect(() => {
    if (readyUser) rememberOffline(readyUser, facts.config);
  }, [readyUser, facts.config]);

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
        setFacts((current) => (nextSessionStep({ ...current, config }).kind === 'ready' ? { ...current, config } : current));
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
    setFacts((current) => ({ ...current, user }));
  }, []);

  return { step, reloadUser };
}
