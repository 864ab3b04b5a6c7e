import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router, useLocation } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppIntlProvider } from '../lib/intl';
import { AppNav } from './nav-bar';
import { navItemsFor } from './nav-items';
import { useWideLayout } from './nav-media';

const C = 'c1';

/** A screen of `width` px as matchMedia answers it (jsdom has none: without it the layout is the wide one). */
function screenOf(width: number) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: query === '(min-width: 768px)' ? width >= 768 : false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }),
  });
}

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'matchMedia');
  window.localStorage.clear();
  document.body.classList.remove('nav-sheet-open');
});

function Nav({ roles, onSignOut }: { roles: string[]; onSignOut: () => void }) {
  const [location] = useLocation();
  const isWide = useWideLayout();
  const items = navItemsFor(roles, { companyId: C, isAdmin: false });
  return <AppNav items={items} location={location} isWide={isWide} companyName="Demo Plant" onSignOut={onSignOut} isSigningOut={false} />;
}

/** How long polling waits for the catalogue: a loaded machine is slow, never wrong. */
const PATIENCE = { timeout: 10_000, interval: 20 };

async function renderNav({ roles = ['OWNER'], path = '/dashboard', locale = 'en' }: { roles?: string[]; path?: string; locale?: 'en' | 'ru' } = {}) {
  window.localStorage.setItem('appLocale', locale);
  const location = memoryLocation({ path, record: true });
  const onSignOut = vi.fn();
  // The catalogue suspends the first render until it has loaded: React retries it inside an awaited act.
  await act(() => {
    render(
      <AppIntlProvider>
        <Router hook={location.hook}>
          <button type="button">before</button>
          <Nav roles={roles} onSignOut={onSignOut} />
          <button type="button">after</button>
        </Router>
      </AppIntlProvider>,
    );
    return Promise.resolve();
  });
  const name = locale === 'en' ? 'Main navigation' : 'Основная навигация';
  const nav = within(await screen.findByRole('navigation', { name }, PATIENCE));
  return { location, onSignOut, nav };
}

const more = () => screen.getByRole('button', { name: 'More' });
const sheet = () => screen.getByRole('dialog', { name: 'More' });

describe('the navigation on a tablet', () => {
  it("shows the owner's own work in full names, the current page marked, and the rest behind a closed \"More\"", async () => {
    const { nav } = await renderNav({ path: '/dashboard' });
    const links = nav.getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Goals', 'Registry', 'Dashboard', 'To review']);
    expect(nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'Goals' }).getAttribute('aria-current')).toBeNull();
    expect(more().getAttribute('aria-haspopup')).toBe('dialog');
    expect(more().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('dialog')).toBeNull();
    // No icons in the header's row: the names say it.
    expect(nav.getByRole('link', { name: 'Goals' }).querySelector('svg')).toBeNull();
  });

  it('opens "More" as a modal dialog with the other pages, focus inside it and kept there', async () => {
    const user = userEvent.setup();
    await renderNav();
    await user.click(more());
    const dialog = sheet();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(more().getAttribute('aria-expanded')).toBe('true');
    expect(more().getAttribute('aria-controls')).toBe(dialog.id);
    const names = within(dialog).getAllByRole('link').map((link) => link.textContent);
    expect(names).toEqual(['Submit a proposal', 'My proposals', 'Projects', 'Employees', 'Departments', 'Verification', 'Add company', 'Profile']);
    expect(within(dialog).getByRole('region', { name: 'Demo Plant' })).toBeTruthy();
    expect(within(dialog).getByRole('region', { name: 'Account' })).toBeTruthy();
    // On a tablet the language and sign-out stay in the header, not here.
    expect(dialog.querySelector('[data-action="sign-out"]')).toBeNull();
    expect(document.activeElement).toBe(within(dialog).getByRole('link', { name: 'Submit a proposal' }));

    // Tab past the last control comes back to the first (the close button); Shift+Tab from it goes to the last.
    within(dialog).getByRole('link', { name: 'Profile' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(within(dialog).getByRole('link', { name: 'Profile' }));
    // Focus that lands outside (a script, a screen reader) is brought back.
    act(() => screen.getByRole('button', { name: 'after' }).focus());
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on Escape, on the close button and on a click beside it, giving the focus back to "More"', async () => {
    const user = userEvent.setup();
    await renderNav();
    await user.click(more());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(more());
    expect(more().getAttribute('aria-expanded')).toBe('false');

    await user.click(more());
    await user.click(within(sheet()).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(more());

    await user.click(more());
    const backdrop = document.querySelector<HTMLElement>('[data-action="nav-sheet-backdrop"]');
    if (!backdrop) throw new Error('no backdrop');
    await user.click(backdrop);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(more());
    // Once closed it holds nothing any more: Tab leaves the navigation as usual.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'after' }));
  });

  it('goes to the page of an entry and closes, marking the page there and "More" as holding it', async () => {
    const user = userEvent.setup();
    const { location } = await renderNav();
    await user.click(more());
    await user.click(within(sheet()).getByRole('link', { name: 'Employees' }));
    expect(location.history.at(-1)).toBe(`/companies/${C}/employees`);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(more().className).toContain('app-nav__link--current');
    await user.click(more());
    expect(within(sheet()).getByRole('link', { name: 'Employees' }).getAttribute('aria-current')).toBe('page');
  });

  it('closes when another page opens while it is open (the back button)', async () => {
    const user = userEvent.setup();
    const { location } = await renderNav();
    await user.click(more());
    expect(document.body.classList.contains('nav-sheet-open')).toBe(true);
    act(() => location.navigate(`/companies/${C}/goals`));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.classList.contains('nav-sheet-open')).toBe(false);
  });
});

describe('the navigation on a 360 px phone', () => {
  it('is a bar of icons and short names, in Russian too', async () => {
    screenOf(360);
    const { nav } = await renderNav({ roles: ['EMPLOYEE'], path: `/companies/${C}/my-suggestions`, locale: 'ru' });
    const links = nav.getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Предложить', 'Мои', 'Дашборд']);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([`/companies/${C}/suggestions/create`, `/companies/${C}/my-suggestions`, '/dashboard']);
    for (const link of links) expect(link.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    expect(nav.getByRole('link', { name: 'Мои' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('button', { name: 'Ещё' }).querySelector('svg')).not.toBeNull();
    expect(screen.getByRole('navigation').getAttribute('data-layout')).toBe('bar');
  });

  it('has the language and sign-out in the sheet; sign-out closes the sheet first', async () => {
    screenOf(360);
    const user = userEvent.setup();
    const { onSignOut } = await renderNav({ roles: ['OWNER'] });
    await user.click(more());
    const dialog = sheet();
    expect(dialog.querySelector('[data-locale="ru"]')).not.toBeNull();
    expect(dialog.querySelector('[data-locale="en"]')).not.toBeNull();
    const signOut = within(dialog).getByRole('button', { name: 'Sign out' });
    expect(signOut.getAttribute('data-action')).toBe('sign-out');
    await user.click(signOut);
    expect(onSignOut).toHaveBeenCalledTimes(1);
    // The warning that may follow returns the focus to "More", which is on screen, not to a closed sheet.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(more());
  });
});
