import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { paths } from '../domain/paths';
import { AppStateProvider, useSession } from '../lib/app-state';
import type { CurrentUser } from '../domain/user';
import { signOutWithWarning } from '../lib/session';
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
      <AppHeader userId={step.kind === 'ready' ? step.user.id : null} />
      <main className="default-layout__main" id="main" aria-busy={step.kind !== 'ready' && step.kind !== 'broken'}>
        {body}
      </main>
    </div>
  );
}

// The device database and the replayer load with the first signed-in screen, not with the sign-in page.
const UnsentBadge = lazy(() => import('../features/outbox/components/unsent-badge').then((module) => ({ default: module.UnsentBadge })));

/**
 * Starts the replayer, the pulls and connectivity for the signed-in user, with the outbox outcomes of every
 * feature (by row kind). Not stopped on unmount: the layout stays while signed in, and sign-out stops them
 * (and leaves the page).
 */
function OfflineSession({ user }: { user: CurrentUser }) {
  useEffect(() => {
    Promise.all([import('../lib/offline'), import('../features/suggestions/store')]).then(
      ([offline, suggestions]) => offline.startOffline({ user, handlers: { ...suggestions.suggestionOutboxHandlers } }),
      (error: unknown) => console.error('Could not start the offline sync', error),
    );
  }, [user]);
  return null;
}

function AppHeader({ userId }: { userId: string | null }) {
  const intl = useIntl();
  const dialog = useDialog();
  const [location] = useLocation();
  const [isSigningOut, setSigningOut] = useState(false);
  const navClass = (href: string) =>
    location === href || location.startsWith(`${href}/`) ? 'app-header__link app-header__link--active' : 'app-header__link';
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
    <header className="app-header">
      <div className="app-header__inner">
        <Link href={paths.dashboard} className="app-header__brand">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span className="app-header__product">
            <FormattedMessage id="nav.productName" defaultMessage="Improvement platform" />
          </span>
        </Link>
        <nav className="app-header__nav" aria-label={intl.formatMessage({ id: 'nav.main', defaultMessage: 'Main navigation' })}>
          <Link href={paths.dashboard} className={navClass(paths.dashboard)} aria-current={location === paths.dashboard ? 'page' : undefined}>
            <FormattedMessage id="nav.dashboard" defaultMessage="Dashboard" />
          </Link>
          <Link href={paths.profile} className={navClass(paths.profile)} aria-current={location === paths.profile ? 'page' : undefined}>
            <FormattedMessage id="nav.profile" defaultMessage="Profile" />
          </Link>
        </nav>
        <div className="app-header__tools">
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

function SignOutIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />
      <path d="M16 17l5-5-5-5" />
      <path d="M21 12H9" />
    </svg>
  );
}
