import { Suspense, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Redirect, Route, useLocation } from 'wouter';
import { AppIntlProvider, RouteMessages, preloadCatalogues } from '../lib/intl';
import { startEarlySessionRequests } from '../lib/session-requests';
import { DialogProvider } from '../ui/dialog';
import { ErrorScreen } from '../ui/error-screen';
import { LoadingBar } from '../ui/loading-bar';
import { AuthLayout } from './auth-layout';
import { ErrorBoundary } from './error-boundary';
import { PageTransition } from './page-transition';
import { lazyComponent } from './lazy-page';
import { PwaUpdatePrompt } from './pwa-update';
import { ROOT_REDIRECT, resolveRoute, type AppRoute } from './routes';

/**
 * The whole client: messages, the dialog host (open to every layout, so the sign-in form can show
 * errors in the shared dialog too), the layout chosen by the route's meta, and the update prompt.
 */
export function App() {
  return (
    <AppIntlProvider fallback={<LoadingBar />}>
      <ErrorBoundary fallback={<ErrorScreen />}>
        <DialogProvider>
          <AppRoutes />
          <PwaUpdatePrompt />
        </DialogProvider>
      </ErrorBoundary>
    </AppIntlProvider>
  );
}

// The signed-in frame (header, company switcher, bell, session gate) loads with the first signed-in page, never
// on the sign-in route (its JavaScript budget, README "Measurements").
const { Component: DefaultLayout, load: loadDefaultLayout } = lazyComponent<{ children: ReactNode }>(() => import('./default-layout').then((module) => ({ default: module.DefaultLayout })));
// The company gate reads the signed-in session (src/lib/app-state.tsx), which the sign-in route never needs: it
// comes with the signed-in frame's chunk, not in the entry.
const { Component: CompanyGuard, load: loadCompanyGuard } = lazyComponent<{ companyId: string | undefined; children: ReactNode }>(() => import('./company-guard').then((module) => ({ default: module.CompanyGuard })));

/**
 * Fetches what the screen at `path` needs side by side, before React renders anything: for a signed-in screen the
 * session first (src/lib/session-requests.ts), then its code (its page, and the signed-in frame and company gate
 * when it has them) and its messages. Resolves when the code and messages have arrived or failed: rendered then,
 * the screen shows without suspending (src/app/lazy-page.ts), instead of each level waiting for the one above it
 * and React revealing each at most every 300 ms. A failure is the components' to meet, as without the preload.
 */
export function preloadScreen(path: string): Promise<void> {
  const screenPath = path === '/' || path === '' ? ROOT_REDIRECT : path;
  const { route, params } = resolveRoute(screenPath);
  // Asked for first, so that it gets a connection of its own before the code's requests take them all.
  if (route.meta.layout === 'default') startEarlySessionRequests();
  // The frame first: the largest file, and every signed-in screen's.
  const loads: Array<Promise<unknown>> = [];
  if (route.meta.layout === 'default') loads.push(loadDefaultLayout());
  if (params.companyId !== undefined) loads.push(loadCompanyGuard());
  loads.push(route.load());
  loads.push(preloadCatalogues(screenPath));
  return Promise.allSettled(loads).then(() => undefined);
}

export function AppRoutes() {
  const [location] = useLocation();
  if (location === '/' || location === '') return <Redirect to={ROOT_REDIRECT} replace />;
  const { route, params } = resolveRoute(location);
  // The layout element keeps its identity while the route changes inside it, so the signed-in
  // session (user and config) loads once, not on every page.
  if (route.meta.layout === 'auth') {
    return (
      <AuthLayout noLogo={route.meta.noLogo ?? false}>
        <RoutePage route={route} location={location} />
      </AuthLayout>
    );
  }
  return (
    <Suspense fallback={<LayoutLoading />}>
      <DefaultLayout>
        <RoutePage route={route} location={location} companyId={params.companyId} />
      </DefaultLayout>
    </Suspense>
  );
}

function LayoutLoading() {
  const intl = useIntl();
  return <LoadingBar label={intl.formatMessage({ id: 'app.loading', defaultMessage: 'Loading the page…' })} />;
}

/**
 * One route's page. `companyId` (the route's `:companyId`, default layout only) puts the page behind the
 * company gate: a company the user does not belong to shows the not-found screen instead.
 */
function RoutePage({ route, location, companyId }: { route: AppRoute; location: string; companyId?: string }) {
  const intl = useIntl();
  const { Page } = route;
  return (
    <PageTransition location={location}>
      <ErrorBoundary key={location} fallback={<ErrorScreen />}>
        <Suspense fallback={<LoadingBar label={intl.formatMessage({ id: 'app.loading', defaultMessage: 'Loading the page…' })} />}>
          {/* The page's feature messages (another feature's pages load theirs here, under this loading bar). */}
          <RouteMessages>
            <div className="route-page" data-route={route.name}>
              {/* <Route> gives the page its params (wouter's useParams). */}
              <Route path={route.path === '*' ? undefined : route.path}>
                {companyId === undefined ? (
                  <Page />
                ) : (
                  <CompanyGuard companyId={companyId}>
                    <Page />
                  </CompanyGuard>
                )}
              </Route>
            </div>
          </RouteMessages>
        </Suspense>
      </ErrorBoundary>
    </PageTransition>
  );
}
