import { useCallback, useEffect, useId, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { defineMessages, useIntl, type MessageDescriptor } from 'react-intl';
import { Link } from 'wouter';
import { LanguageSwitch } from './language-switch';
import { CloseIcon, MoreIcon, NavIcon, SignOutIcon } from './nav-icons';
import { currentNavItem, type NavItem, type NavItems, type NavKey } from './nav-items';
import './nav-bar.css';

/** The entries' names in full: the tablet's header row and the "More" sheet. */
const FULL = defineMessages<NavKey>({
  dashboard: { id: 'nav.dashboard', defaultMessage: 'Dashboard' },
  review: { id: 'nav.suggestionsToReview', defaultMessage: 'To review' },
  suggestions: { id: 'nav.suggestions', defaultMessage: 'Proposals' },
  submit: { id: 'nav.submitSuggestion', defaultMessage: 'Submit a proposal' },
  'my-suggestions': { id: 'nav.mySuggestions', defaultMessage: 'My proposals' },
  goals: { id: 'nav.goals', defaultMessage: 'Goals' },
  projects: { id: 'nav.projects', defaultMessage: 'Projects' },
  registry: { id: 'nav.registry', defaultMessage: 'Registry' },
  employees: { id: 'nav.employees', defaultMessage: 'Employees' },
  departments: { id: 'nav.departments', defaultMessage: 'Departments' },
  verification: { id: 'nav.verification', defaultMessage: 'Verification' },
  'add-company': { id: 'nav.addCompany', defaultMessage: 'Add company' },
  admin: { id: 'nav.admin', defaultMessage: 'Payments to review' },
  profile: { id: 'nav.profile', defaultMessage: 'Profile' },
});

/**
 * Shorter names under the icons of a phone's bottom bar, where five share 360 px; the others fit as they are.
 * Each is the entry's whole name there (the link is named by what it shows).
 */
const SHORT: Partial<Record<NavKey, MessageDescriptor>> = defineMessages({
  review: { id: 'nav.bar.review', defaultMessage: 'Review' },
  submit: { id: 'nav.bar.submit', defaultMessage: 'Propose' },
  'my-suggestions': { id: 'nav.bar.mySuggestions', defaultMessage: 'Mine' },
  admin: { id: 'nav.bar.admin', defaultMessage: 'Payments' },
});

const TEXTS = defineMessages({
  main: { id: 'nav.main', defaultMessage: 'Main navigation' },
  more: { id: 'nav.more', defaultMessage: 'More' },
  close: { id: 'nav.moreClose', defaultMessage: 'Close' },
  account: { id: 'nav.accountGroup', defaultMessage: 'Account' },
  signOut: { id: 'nav.signOut', defaultMessage: 'Sign out' },
});

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface AppNavProps {
  items: NavItems;
  location: string;
  /** A tablet's or wider screen: full names in the header row; else a phone's bottom bar with icons. */
  isWide: boolean;
  /** The current company's name, heading its pages in the "More" sheet. */
  companyName: string | null;
  /** A phone's sheet also holds the language and sign-out (the tablet's header shows them). */
  onSignOut: () => void;
  isSigningOut: boolean;
}

/**
 * The signed-in navigation: the role's own destinations (navItemsFor) and "More", which opens a modal sheet
 * with the rest. One element at every width: CSS lays it out as a bottom bar on a phone and as the header's
 * row on a tablet, so the header's links are the same links everywhere. The sheet stays in the document
 * while closed (hidden), so whatever it links to is still found in the header.
 */
export function AppNav({ items, location, isWide, companyName, onSignOut, isSigningOut }: AppNavProps) {
  const intl = useIntl();
  const [isOpen, setOpen] = useState(false);
  const moreRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const titleId = useId();

  // Another page (a link, the back button) closes the sheet: it belongs to the page it was opened on.
  const [openedOn, setOpenedOn] = useState(location);
  if (openedOn !== location) {
    setOpenedOn(location);
    setOpen(false);
  }

  // Whether the sheet holds the focus: let go before the focus goes back to "More", in the same tick, so that a
  // dialog opened right after (the sign-out warning) finds "More" as the element to return to.
  const trapRef = useRef(false);
  const close = useCallback(() => {
    trapRef.current = false;
    setOpen(false);
    moreRef.current?.focus();
  }, []);

  useSheetFocus(isOpen, panelRef, trapRef, close);

  const current = currentNavItem(location, [...items.primary, ...items.more]);
  const label = (key: NavKey) => intl.formatMessage((!isWide && SHORT[key]) || FULL[key]);
  const ariaCurrent = (item: NavItem) => (item !== current ? undefined : location === item.href ? 'page' : 'true');
  const isMoreCurrent = current !== null && items.more.includes(current);
  const groups = [
    { key: 'company', heading: companyName, entries: items.more.filter((item) => item.group === 'company') },
    { key: 'account', heading: intl.formatMessage(TEXTS.account), entries: items.more.filter((item) => item.group === 'account') },
  ].filter((group) => group.entries.length > 0);

  const signOut = () => {
    // The warning is a dialog of its own: the sheet gives up the focus first.
    close();
    onSignOut();
  };
  const signOutLabel = intl.formatMessage(TEXTS.signOut);

  return (
    <nav className="app-nav" aria-label={intl.formatMessage(TEXTS.main)} data-layout={isWide ? 'row' : 'bar'}>
      <ul className="app-nav__list">
        {items.primary.map((item) => (
          <li key={item.key} className="app-nav__item">
            <Link
              href={item.href}
              className={`app-nav__link${item === current ? ' app-nav__link--current' : ''}`}
              aria-current={ariaCurrent(item)}
              data-nav={item.key}
            >
              {!isWide && <NavIcon navKey={item.key} />}
              <span className="app-nav__label">{label(item.key)}</span>
            </Link>
          </li>
        ))}
        <li className="app-nav__item app-nav__item--more">
          <button
            ref={moreRef}
            type="button"
            className={`app-nav__link app-nav__more${isMoreCurrent ? ' app-nav__link--current' : ''}`}
            aria-haspopup="dialog"
            aria-expanded={isOpen}
            aria-controls={panelId}
            data-action="nav-more"
            onClick={() => (isOpen ? close() : setOpen(true))}
          >
            {!isWide && <MoreIcon />}
            <span className="app-nav__label">{intl.formatMessage(TEXTS.more)}</span>
          </button>
          <div className="nav-sheet" hidden={!isOpen}>
            <div className="nav-sheet__backdrop" data-action="nav-sheet-backdrop" onClick={close} />
            <div ref={panelRef} id={panelId} className="nav-sheet__panel" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
              <div className="nav-sheet__head">
                <h2 className="nav-sheet__title" id={titleId}>
                  {intl.formatMessage(TEXTS.more)}
                </h2>
                <button type="button" className="nav-sheet__close" aria-label={intl.formatMessage(TEXTS.close)} title={intl.formatMessage(TEXTS.close)} onClick={close}>
                  <CloseIcon />
                </button>
              </div>
              {groups.map((group) => (
                <section key={group.key} className="nav-sheet__group" aria-label={group.heading ?? undefined}>
                  {group.heading && (
                    <h3 className="nav-sheet__group-title" aria-hidden="true">
                      {group.heading}
                    </h3>
                  )}
                  <ul className="nav-sheet__list">
                    {group.entries.map((item) => (
                      <li key={item.key}>
                        <Link
                          href={item.href}
                          className={`nav-sheet__link${item === current ? ' nav-sheet__link--current' : ''}`}
                          aria-current={ariaCurrent(item)}
                          data-nav={item.key}
                          onClick={(event: MouseEvent) => {
                            // A click that opens another tab leaves this one as it was.
                            if (!event.metaKey && !event.ctrlKey && !event.shiftKey) close();
                          }}
                        >
                          <NavIcon navKey={item.key} />
                          <span>{intl.formatMessage(FULL[item.key])}</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                </section>
              ))}
              {!isWide && (
                <div className="nav-sheet__device">
                  <LanguageSwitch />
                  <button
                    type="button"
                    className="nav-sheet__sign-out"
                    data-action="sign-out"
                    disabled={isSigningOut}
                    aria-busy={isSigningOut || undefined}
                    onClick={signOut}
                  >
                    <SignOutIcon />
                    <span>{signOutLabel}</span>
                  </button>
                </div>
              )}
            </div>
          </div>
        </li>
      </ul>
    </nav>
  );
}

/**
 * While the sheet is open: focus moves into it and stays there (Tab wraps, focus that lands outside is brought
 * back), Escape closes it, and the page behind does not scroll. `close` gives the focus back to "More".
 */
function useSheetFocus(isOpen: boolean, panelRef: RefObject<HTMLDivElement | null>, trapRef: RefObject<boolean>, close: () => void) {
  useEffect(() => {
    const panel = panelRef.current;
    if (!isOpen || !panel) return;
    trapRef.current = true;
    // The first entry, not the close button: a tap or a keypress away from where the user is going.
    const first = panel.querySelector<HTMLElement>('.nav-sheet__list [href]') ?? panel.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel).focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (!trapRef.current) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusables = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const head = focusables[0];
      const tail = focusables[focusables.length - 1];
      if (!head || !tail) return;
      const active = document.activeElement;
      if (event.shiftKey && (active === head || !panel.contains(active))) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && (active === tail || !panel.contains(active))) {
        event.preventDefault();
        head.focus();
      }
    };
    const onFocusIn = (event: FocusEvent) => {
      if (trapRef.current && event.target instanceof Node && !panel.contains(event.target)) (panel.querySelector<HTMLElement>(FOCUSABLE) ?? panel).focus();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    document.body.classList.add('nav-sheet-open');
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
      document.body.classList.remove('nav-sheet-open');
    };
  }, [isOpen, panelRef, trapRef, close]);
}
