import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { paths } from '../domain/paths';
import { AppStateProvider, useSession } from '../lib/app-state';
import { signOut } from '../lib/session';
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
      <AppHeader />
      <main className="default-layout__main" id="main" aria-busy={step.kind !== 'ready' && step.kind !== 'broken'}>
        {body}
      </main>
    </div>
  );
}

function AppHeader() {
  const intl = useIntl();
  const [location] = useLocation();
  const [isSigningOut, setSigningOut] = useState(false);
  const navClass = (href: string) =>
    location === href || location.startsWith(`${href}/`) ? 'app-header__link app-header__link--active' : 'app-header__link';
  const signOutLabel = intl.formatMessage({ id: 'nav.signOut', defaultMessage: 'Sign out' });

  const handleSignOut = () => {
    setSigningOut(true);
    // signOut() always ends in a page load; nothing to undo here.
    void signOut();
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
