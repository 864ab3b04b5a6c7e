import { Suspense, lazy, useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { paths } from '../domain/paths';
import { AppStateProvider, useSession } from '../lib/app-state';
import { hasAuthority, type CurrentUser } from '../domain/user';
import { setCurrentCompany, useCurrentCompanyOf, type CompanyMembership } from '../lib/current-company';
import { clearWorkerCaches, signOutWithWarning } from '../lib/session';
import { useDialog } from '../ui/dialog';
import { BrokenScreen } from '../ui/broken-screen';
import { PageSpinner } from '../ui/spinner';
import { LanguageSwitch } from './language-switch';
import { AppNav } from './nav-bar';
import { SignOutIcon } from './nav-icons';
import { navItemsFor, type SuggestionAccess } from './nav-items';
import { useWideLayout } from './nav-media';
import './default-layout.css';

/**
 * Signed-in screens: the header, then the page once the session rules (spec section 4) have loaded
 * the user and the app config; a full-height spinner until then; the broken screen if either fails.
 */
export function DefaultLayout({ children }: { children: ReactNode }) {
  const { step, reloadUser } = useSession();
  let body: ReactNode;
  if (step.kind === 'ready') {
    body = (
      <AppStateProvider user={step.user} config={step.config} reloadUser={reloadUser}>
        <OfflineSession user={step.user} />
        <Suspense fallback={null}>
          <DeviceNotices />
        </Suspense>
        {children}
      </AppStateProvider>
    );
  } else if (step.kind === 'broken') {
    body = (
      <BrokenScreen
        title={
          step.reason === 'user' ? (
            <FormattedMessage id="session.broken.userTitle" defaultMessage="Could not load your account" />
          ) : (
            <FormattedMessage id="session.broken.configTitle" defaultMessage="Could not load the app settings" />
          )
        }
        // The words follow the failure: no answer (check the connection) or the server's fault (try again later).
        error={{ status: step.status }}
      />
    );
  } else {
    body = <PageSpinner />;
  }
  return (
    <div className="default-layout" data-layout="default">
      <AppHeader user={step.kind === 'ready' ? step.user : null} />
      <main className="default-layout__main" id="main" aria-busy={step.kind !== 'ready' && step.kind !== 'broken'}>
        {body}
      </main>
    </div>
  );
}

// The device database and the replayer load with the first signed-in screen, not with the sign-in page.
const UnsentBadge = lazy(() => import('../features/outbox/components/unsent-badge').then((module) => ({ default: module.UnsentBadge })));
const DeviceNotices = lazy(() => import('./device-notices').then((module) => ({ default: module.DeviceNotices })));
const NotificationBell = lazy(() => import('../features/notifications/components/bell').then((module) => ({ default: module.NotificationBell })));
// Whether the member heads a department is read from the device's mirror, so this loads with the database.
const ReviewAccessProbe = lazy(() => import('./nav-review-access').then((module) => ({ default: module.ReviewAccessProbe })));

/**
 * Starts the replayer, the pulls and connectivity for the signed-in user, with the outbox outcomes of every
 * feature (by row kind). Not stopped on unmount: the layout stays while signed in, and sign-out stops them
 * (and leaves the page). Once per user it also deletes what another person's session left readable on this
 * device without a sign-out (their unsent work stays theirs), and then the worker's cached photos.
 */
function OfflineSession({ user }: { user: CurrentUser }) {
  useEffect(() => {
    Promise.all([import('../lib/offline'), import('./outbox-kinds')]).then(
      // The loader answers kinds nobody declared with the generic handler.
      ([offline, kinds]) => offline.startOffline({ user, handlers: kinds.loadOutboxSuccessHandler, isPushable: kinds.isPushableOutboxRow }),
      (error: unknown) => console.error('Could not start the offline sync', error),
    );
  }, [user]);
  const userId = user.id;
  useEffect(() => {
    void clearOtherUsers(userId);
  }, [userId]);
  return null;
}

async function clearOtherUsers(userId: string): Promise<void> {
  try {
    const [{ clearOtherUsersData }, { getAppDatabase }] = await Promise.all([import('../lib/sign-out-data'), import('../lib/db/database')]);
    const { deleted } = await clearOtherUsersData(getAppDatabase(), userId);
    if (deleted > 0) await clearWorkerCaches();
  } catch (error) {
    console.error("Could not clear another user's data from this device", error);
  }
}

/** The company pages that exist for every company: switching companies on one of them stays on it. */
const COMPANY_SECTIONS = ['departaments', 'verification-payment', 'verification-payment-check', 'employees', 'goals', 'projects', 'my-suggestions', 'registry'];
const COMPANY_PAGE = /^\/companies\/([^/]+)\/([^/?#]+)/;

/** The company of a company page's path (`/companies/{companyId}/...`), and the page's section. */
function companyPageOf(location: string): { companyId: string; section: string } | null {
  const match = COMPANY_PAGE.exec(location);
  return match?.[1] && match[2] ? { companyId: decodeURIComponent(match[1]), section: match[2] } : null;
}

function AppHeader({ user }: { user: CurrentUser | null }) {
  const intl = useIntl();
  const dialog = useDialog();
  const [location, navigate] = useLocation();
  const [isSigningOut, setSigningOut] = useState(false);
  const isWide = useWideLayout();
  const userId = user?.id ?? null;
  const companies = useMemo(() => user?.companies ?? [], [user]);
  const current = useCurrentCompanyOf(user);
  const isAdmin = user !== null && hasAuthority(user, 'ROLE_ADMIN');

  // What the device tells about the member's proposals to review, kept with the member and company it is about.
  const accessKey = userId && current ? `${userId}\n${current.id}\n${current.roles.join(',')}` : null;
  const [readAccess, setReadAccess] = useState<{ key: string; access: SuggestionAccess } | null>(null);
  const onAccess = useCallback((access: SuggestionAccess) => {
    if (accessKey !== null) setReadAccess((previous) => (previous?.key === accessKey && previous.access === access ? previous : { key: accessKey, access }));
  }, [accessKey]);
  const navItems = useMemo(
    () =>
      navItemsFor(current?.roles ?? null, {
        companyId: current?.id ?? null,
        suggestionAccess: readAccess !== null && readAccess.key === accessKey ? readAccess.access : undefined,
        isAdmin,
      }),
    [accessKey, current, isAdmin, readAccess],
  );

  // A page of another of the user's companies (a link, a mail) makes that company the current one.
  const pageCompanyId = companyPageOf(location)?.companyId ?? null;
  useEffect(() => {
    if (userId === null || pageCompanyId === null || pageCompanyId === current?.id) return;
    if (companies.some((company) => company.id === pageCompanyId)) setCurrentCompany(userId, pageCompanyId);
  }, [companies, current?.id, pageCompanyId, userId]);

  const switchCompany = (companyId: string) => {
    if (userId === null || companyId === current?.id) return;
    const page = companyPageOf(location);
    setCurrentCompany(userId, companyId);
    // On a company page, the same page of the other company; on a page of one entity, that company's dashboard.
    if (page) navigate(COMPANY_SECTIONS.includes(page.section) ? `/companies/${encodeURIComponent(companyId)}/${page.section}` : paths.dashboard);
  };
  const signOutLabel = intl.formatMessage({ id: 'nav.signOut', defaultMessage: 'Sign out' });

  const handleSignOut = () => {
    setSigningOut(true);
    // A sign-out always ends in a page load; only a "stay" in the warning comes back here.
    void signOutWithWarning({
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
              : intl.formatMessage({ id: 'offline.signOut.unknown', defaultMessage: 'Some changes may not have been sent yet. They stay on this device until you sign in here again.' }),
          confirmText: intl.formatMessage({ id: 'offline.signOut.confirm', defaultMessage: 'Sign out' }),
          closeText: intl.formatMessage({ id: 'offline.signOut.stay', defaultMessage: 'Stay' }),
        }),
    }).then((isSignedOut) => {
      if (!isSignedOut) setSigningOut(false);
    });
  };

  return (
    <header className={`app-header${current ? ' app-header--with-company' : ''}`}>
      <div className="app-header__inner">
        <Link href={paths.dashboard} className="app-header__brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span className="app-header__product">
            <FormattedMessage id="nav.productName" defaultMessage="Improvement platform" />
          </span>
        </Link>
        {current && <CompanySwitcher companies={companies} current={current} onSwitch={switchCompany} />}
        {userId && current && (
          <Suspense fallback={null}>
            <ReviewAccessProbe userId={userId} companyId={current.id} roles={current.roles} onAccess={onAccess} />
          </Suspense>
        )}
        <AppNav items={navItems} location={location} isWide={isWide} companyName={current?.name ?? null} onSignOut={handleSignOut} isSigningOut={isSigningOut} />
        <div className="app-header__tools">
          {userId && current && (
            <Suspense fallback={null}>
              <NotificationBell userId={userId} companyId={current.id} />
            </Suspense>
          )}
          {userId && (
            <Suspense fallback={null}>
              <UnsentBadge userId={userId} />
            </Suspense>
          )}
          {/* On a phone these two are in the "More" sheet, so the company and the unsent count keep their room. */}
          {isWide && <LanguageSwitch tone="dark" />}
          {isWide && (
            <button
              type="button"
              className="app-header__sign-out"
              data-action="sign-out"
              aria-label={signOutLabel}
              title={signOutLabel}
              disabled={isSigningOut}
              aria-busy={isSigningOut || undefined}
              onClick={handleSignOut}
            >
              <SignOutIcon />
              <span className="app-header__sign-out-text">{signOutLabel}</span>
            </button>
          )}
        </div>
      </div>
    </header>
  );
}

/**
 * The current company's name; with several companies, a choice between them. A native select: one tap on a
 * phone opens the system's own list, and it fits a 360 px header.
 */
function CompanySwitcher({
  companies,
  current,
  onSwitch,
}: {
  companies: readonly CompanyMembership[];
  current: CompanyMembership;
  onSwitch: (companyId: string) => void;
}) {
  const intl = useIntl();
  const id = useId();
  const label = intl.formatMessage({ id: 'nav.currentCompany', defaultMessage: 'Current company' });
  if (companies.length < 2) {
    return (
      <p className="company-switcher company-switcher--single" data-company-id={current.id} title={current.name}>
        <span className="visually-hidden">
          {intl.formatMessage({ id: 'nav.currentCompanyIs', defaultMessage: 'Current company: {name}' }, { name: current.name })}
        </span>
        <span className="company-switcher__name" aria-hidden="true">
          {current.name}
        </span>
      </p>
    );
  }
  return (
    <div className="company-switcher" data-company-id={current.id}>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="company-switcher__select" name="currentCompany" value={current.id} title={current.name} onChange={(event) => onSwitch(event.currentTarget.value)}>
        {companies.map((company) => (
          <option key={company.id} value={company.id}>
            {company.name}
          </option>
        ))}
      </select>
    </div>
  );
}
