import { Fragment, Suspense, lazy, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { paths } from '../domain/paths';
import { hasPermission, type Permission } from '../domain/permissions';
import { AppStateProvider, useSession } from '../lib/app-state';
import { hasAuthority, type CurrentUser } from '../domain/user';
import { setCurrentCompany, useCurrentCompanyOf, type CompanyMembership } from '../lib/current-company';
import { clearWorkerCaches, signOutWithWarning } from '../lib/session';
import { useDialog } from '../ui/dialog';
import { BrokenScreen } from '../ui/broken-screen';
import { PageSpinner } from '../ui/spinner';
import { LanguageSwitch } from './language-switch';
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
        text={<FormattedMessage id="session.broken.text" defaultMessage="Check your connection and reload the page." />}
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
// Whether the member heads a department is read from the device's mirror, so this link loads with the database.
const SuggestionsNavLink = lazy(() =>
  import('../features/notifications/components/suggestions-nav-link').then((module) => ({ default: module.SuggestionsNavLink })),
);

/**
 * Starts the replayer, the pulls and connectivity for the signed-in user, with the outbox outcomes of every
 * feature (by row kind). Not stopped on unmount: the layout stays while signed in, and sign-out stops them
 * (and leaves the page). Once per user it also deletes what another person's session left readable on this
 * device without a sign-out (their unsent work stays theirs), and then the worker's cached photos.
 */
function OfflineSession({ user }: { user: CurrentUser }) {
  useEffect(() => {
    Promise.all([import('../lib/offline'), import('./outbox-kinds')]).then(
      // Passed as it is, never spread: its lookup answers kinds nobody declared with the generic handler.
      ([offline, kinds]) => offline.startOffline({ user, handlers: kinds.outboxSuccessHandlers, isPushable: kinds.isPushableOutboxRow }),
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

/** The links of the current company, each shown to the roles that may use it (DESIGN.md permissions). */
const COMPANY_LINKS: readonly { key: string; permission: Permission; href: (companyId: string) => string; label: ReactNode }[] = [
  {
    key: 'my-suggestions',
    permission: 'company.read',
    href: paths.company.mySuggestions,
    label: <FormattedMessage id="nav.mySuggestions" defaultMessage="My proposals" />,
  },
  // Every member sees the company's goals and projects (the open registry is open to all); what each may do
  // there is the goal's and the project's own rule (src/domain/goal.ts, project.ts).
  { key: 'goals', permission: 'company.read', href: paths.company.goals, label: <FormattedMessage id="nav.goals" defaultMessage="Goals" /> },
  { key: 'projects', permission: 'company.read', href: paths.company.projects, label: <FormattedMessage id="nav.projects" defaultMessage="Projects" /> },
  { key: 'registry', permission: 'company.read', href: paths.company.registry, label: <FormattedMessage id="nav.registry" defaultMessage="Registry" /> },
  { key: 'employees', permission: 'company.read', href: paths.company.employees, label: <FormattedMessage id="nav.employees" defaultMessage="Employees" /> },
  {
    key: 'departments',
    permission: 'company.read',
    href: paths.company.departments,
    label: <FormattedMessage id="nav.departments" defaultMessage="Departments" />,
  },
  {
    key: 'verification',
    permission: 'company.invoice',
    href: paths.company.verificationPayment,
    label: <FormattedMessage id="nav.verification" defaultMessage="Verification" />,
  },
];

function AppHeader({ user }: { user: CurrentUser | null }) {
  const intl = useIntl();
  const dialog = useDialog();
  const [location, navigate] = useLocation();
  const [isSigningOut, setSigningOut] = useState(false);
  const userId = user?.id ?? null;
  const companies = useMemo(() => user?.companies ?? [], [user]);
  const current = useCurrentCompanyOf(user);
  const isAdmin = user !== null && hasAuthority(user, 'ROLE_ADMIN');
  const isActive = (href: string) => location === href || location.startsWith(`${href}/`);
  const navClass = (href: string) => (isActive(href) ? 'app-header__link app-header__link--active' : 'app-header__link');

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

  // On a phone the links scroll sideways: the current page's link is brought into view, not left behind the edge.
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const nav = navRef.current;
    const active = nav?.querySelector('.app-header__link--active');
    if (!nav || !active) return;
    const link = active.getBoundingClientRect();
    const box = nav.getBoundingClientRect();
    if (link.left < box.left) nav.scrollLeft += link.left - box.left;
    else if (link.right > box.right) nav.scrollLeft += link.right - box.right;
  }, [location, current?.id]);

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

  const link = (href: string, label: ReactNode, key?: string) => (
    <Link key={key} href={href} className={navClass(href)} aria-current={location === href ? 'page' : undefined}>
      {label}
    </Link>
  );

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
        <nav ref={navRef} className="app-header__nav" aria-label={intl.formatMessage({ id: 'nav.main', defaultMessage: 'Main navigation' })}>
          {link(paths.dashboard, <FormattedMessage id="nav.dashboard" defaultMessage="Dashboard" />)}
          {current &&
            COMPANY_LINKS.filter((item) => hasPermission(current.roles, item.permission)).map((item) =>
              // Others' proposals ("To review" for whoever decides) come first: for a head they are the daily work.
              item.key === 'my-suggestions' && userId ? (
                <Fragment key={item.key}>
                  <Suspense fallback={null}>
                    <SuggestionsNavLink userId={userId} companyId={current.id} roles={current.roles} className={navClass} isCurrent={(href) => location === href} />
                  </Suspense>
                  {link(item.href(current.id), item.label)}
                </Fragment>
              ) : (
                link(item.href(current.id), item.label, item.key)
              ),
            )}
          {link(paths.companiesCreate, <FormattedMessage id="nav.addCompany" defaultMessage="Add company" />)}
          {isAdmin && link(paths.profileAdmin, <FormattedMessage id="nav.admin" defaultMessage="Payments to review" />)}
          <Link
            href={paths.profile}
            className={location === paths.profile ? 'app-header__link app-header__link--active' : 'app-header__link'}
            aria-current={location === paths.profile ? 'page' : undefined}
          >
            <FormattedMessage id="nav.profile" defaultMessage="Profile" />
          </Link>
        </nav>
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
          <LanguageSwitch tone="dark" />
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

function SignOutIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />
      <path d="M16 17l5-5-5-5" />
      <path d="M21 12H9" />
    </svg>
  );
}
