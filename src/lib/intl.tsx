// The react-intl provider and the language switch.
// Guarantees: only the active language's messages are downloaded, and of those only the catalogue areas
// the current route needs (src/lib/catalogue-areas.ts: the sign-in pages load 'auth' and 'signin', signed-in screens
// 'auth', 'app' and their feature's area); nothing under the provider renders until the messages of its
// route's frame areas ('auth', 'app') are there, so moving from the sign-in pages into the app never shows
// English defaults (the fallback shows meanwhile, with the screen kept mounted behind it); a page under
// `RouteMessages` waits for its feature's area there, behind the page's own loading bar, while the header
// stays (the first screen waits for every area of its route at once); a language switch keeps the old texts until every
// area in use has loaded in the new language. The choice is kept in localStorage as `appLocale`
// (default ru), mirrored on `<html lang>`, and told to the server when signed in (so its mails use it);
// a failure to tell the server is logged, not shown.
import { Suspense, createContext, use, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { useLocation } from 'wouter';
import type { UserSettingsInput } from '../domain/auth';
import { http } from './api';
import { CATALOGUE_AREAS, type CatalogueArea } from './catalogue-areas';
import { CatalogueStore, covers, type AreaLoaders } from './catalogue-store';
import { readStoredLocale, storeLocale, type AppLocale } from './locale-store';
import { tokenStore } from './token-store';

export type { AppLocale } from './locale-store';
export type { CatalogueArea } from './catalogue-areas';
export type { Messages } from './catalogue-store';

// One chunk per language and area, cut from locales/<lang>.json at build time (scripts/vite-catalogue-areas.ts).
const catalogueLoaders: AreaLoaders = {
  ru: {
    auth: () => import('./catalogues/messages-ru-auth'),
    signin: () => import('./catalogues/messages-ru-signin'),
    app: () => import('./catalogues/messages-ru-app'),
    dashboard: () => import('./catalogues/messages-ru-dashboard'),
    projects: () => import('./catalogues/messages-ru-projects'),
    goals: () => import('./catalogues/messages-ru-goals'),
    suggestions: () => import('./catalogues/messages-ru-suggestions'),
    employees: () => import('./catalogues/messages-ru-employees'),
    companies: () => import('./catalogues/messages-ru-companies'),
    registry: () => import('./catalogues/messages-ru-registry'),
    profile: () => import('./catalogues/messages-ru-profile'),
    departments: () => import('./catalogues/messages-ru-departments'),
    notifications: () => import('./catalogues/messages-ru-notifications'),
    projectform: () => import('./catalogues/messages-ru-projectform'),
    projectview: () => import('./catalogues/messages-ru-projectview'),
  },
  en: {
    auth: () => import('./catalogues/messages-en-auth'),
    signin: () => import('./catalogues/messages-en-signin'),
    app: () => import('./catalogues/messages-en-app'),
    dashboard: () => import('./catalogues/messages-en-dashboard'),
    projects: () => import('./catalogues/messages-en-projects'),
    goals: () => import('./catalogues/messages-en-goals'),
    suggestions: () => import('./catalogues/messages-en-suggestions'),
    employees: () => import('./catalogues/messages-en-employees'),
    companies: () => import('./catalogues/messages-en-companies'),
    registry: () => import('./catalogues/messages-en-registry'),
    profile: () => import('./catalogues/messages-en-profile'),
    departments: () => import('./catalogues/messages-en-departments'),
    notifications: () => import('./catalogues/messages-en-notifications'),
    projectform: () => import('./catalogues/messages-en-projectform'),
    projectview: () => import('./catalogues/messages-en-projectview'),
  },
};

/** Which areas a path needs. Until the app says (main.tsx), every area: never too few messages. */
export type AreasForPath = (path: string) => readonly CatalogueArea[];
let configuredAreasFor: AreasForPath = () => CATALOGUE_AREAS;

/** Called once by the composition root (src/main.tsx) with the routes table's answer. */
export function setCatalogueAreasFor(areasFor: AreasForPath): void {
  configuredAreasFor = areasFor;
}

/** The app's catalogue store when the composition root loaded the first screen's messages before rendering. */
let preloadedStore: CatalogueStore | null = null;

/**
 * Loads the stored language's messages for `path` before React renders anything (src/app/app.tsx), beside the
 * screen's code rather than after a first render asks for them; the app's provider then starts with them shown
 * (no loading fallback, no suspension). Resolves when they are shown (a failed area counts as empty, as ever).
 */
export function preloadCatalogues(path: string): Promise<void> {
  preloadedStore ??= new CatalogueStore(catalogueLoaders, readStoredLocale());
  return preloadedStore.require(configuredAreasFor(path));
}

interface LocaleContextValue {
  locale: AppLocale;
  setLocale: (locale: AppLocale) => void;
}

const LocaleContext = createContext<LocaleContextValue | null>(null);

/** What `RouteMessages` reads: the provider's store and how it maps a path to areas. */
const CatalogueContext = createContext<{ store: CatalogueStore; areasFor: AreasForPath } | null>(null);

/** The areas every screen of a layout shares; the others belong to a feature's pages. */
const isFrameArea = (area: CatalogueArea): boolean => area === 'auth' || area === 'app';

export function useLocale(): LocaleContextValue {
  const value = useContext(LocaleContext);
  if (!value) throw new Error('useLocale() is only available inside <AppIntlProvider>');
  return value;
}

async function tellServer(locale: AppLocale): Promise<void> {
  if (!tokenStore.getAccess()) return;
  try {
    const body: UserSettingsInput = { locale };
    await http.patch('/api/v1/user', body, { minDuration: 0 });
  } catch (error) {
    console.warn('Could not store the language on the server', error);
  }
}

/**
 * Provides messages of the stored language for the areas of the current path. Until they have loaded it
 * renders `fallback`; when the language changes, the old texts stay until the new ones are there.
 */
export function AppIntlProvider({
  children,
  fallback = null,
  areasFor,
  loaders = catalogueLoaders,
}: {
  children: ReactNode;
  fallback?: ReactNode;
  /** Defaults to what src/main.tsx configured (every area if nothing was). */
  areasFor?: AreasForPath;
  /** Tests only: where the catalogues come from. */
  loaders?: AreaLoaders;
}) {
  const [store] = useState(() => (loaders === catalogueLoaders && preloadedStore) || new CatalogueStore(loaders, readStoredLocale()));
  const { target, shown } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [location] = useLocation();
  const areasOf = areasFor ?? configuredAreasFor;
  const areas = areasOf(location);
  const frame = useMemo(() => areas.filter(isFrameArea), [areas]);
  const catalogue = useMemo(() => ({ store, areasFor: areasOf }), [store, areasOf]);

  const shownLocale = shown?.locale;
  useEffect(() => {
    if (shownLocale) document.documentElement.lang = shownLocale;
  }, [shownLocale]);

  const setLocale = useCallback(
    (next: AppLocale) => {
      storeLocale(next);
      void store.setLocale(next);
      void tellServer(next);
    },
    [store],
  );

  const value = useMemo(() => ({ locale: target, setLocale }), [target, setLocale]);

  return (
    <LocaleContext.Provider value={value}>
      <CatalogueContext.Provider value={catalogue}>
        <Suspense fallback={fallback}>
          <CatalogueGate store={store} first={areas} areas={frame} fallback={fallback}>
            {children}
          </CatalogueGate>
        </Suspense>
      </CatalogueContext.Provider>
    </LocaleContext.Provider>
  );
}

/**
 * Renders `fallback` until the first messages (`first`: every area of the first route) have loaded; later, when
 * the path moves into a frame area not loaded yet (`areas`), suspends (the screens stay mounted, hidden behind
 * the Suspense fallback, and keep their state) until its messages are there.
 */
function CatalogueGate({
  store,
  first,
  areas,
  fallback,
  children,
}: {
  store: CatalogueStore;
  first: readonly CatalogueArea[];
  areas: readonly CatalogueArea[];
  fallback: ReactNode;
  children: ReactNode;
}) {
  const { shown } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const isReady = covers(shown, areas);
  const isFirstLoad = shown === null;
  useEffect(() => {
    // The first load: nothing is on screen yet to keep, so a plain fallback serves (no suspension).
    if (isFirstLoad) void store.require(first);
  }, [isFirstLoad, store, first]);
  if (shown === null) return <>{fallback}</>;
  // require() resolves only after publishing messages that cover `areas`, so a render past use() has them.
  if (!isReady) use(store.require(areas));
  return (
    <IntlProvider locale={shown.locale} messages={shown.messages} defaultLocale="en">
      {children}
    </IntlProvider>
  );
}

/**
 * Renders a page once the messages of every area its route shows are there: a move into another feature's pages
 * suspends here (the nearest Suspense: the page's loading bar), never the header above. The page reads them from
 * its own provider, so it never renders before them.
 */
export function RouteMessages({ children }: { children: ReactNode }) {
  const catalogue = useContext(CatalogueContext);
  if (!catalogue) throw new Error('<RouteMessages> is only available inside <AppIntlProvider>');
  const { store, areasFor } = catalogue;
  const [location] = useLocation();
  const areas = areasFor(location);
  const { shown } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  if (!covers(shown, areas)) use(store.require(areas));
  if (shown === null) return null;
  return (
    <IntlProvider locale={shown.locale} messages={shown.messages} defaultLocale="en">
      {children}
    </IntlProvider>
  );
}
