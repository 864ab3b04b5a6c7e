import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { useIntl } from 'react-intl';
import { Router, useLocation } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATALOGUE_AREAS, type CatalogueArea } from './catalogue-areas';
import type { AreaLoaders, Messages } from './catalogue-store';
import { AppIntlProvider, RouteMessages, useLocale } from './intl';
import type { AppLocale } from './locale-store';

/** Every area of the app, the ones a test does not name empty. */
const everyArea = (given: Partial<Record<CatalogueArea, Messages>>): Record<CatalogueArea, Messages> =>
  Object.fromEntries(CATALOGUE_AREAS.map((area) => [area, given[area] ?? {}])) as Record<CatalogueArea, Messages>;

const CATALOGUES: Record<AppLocale, Record<CatalogueArea, Messages>> = {
  ru: everyArea({ auth: { 'auth.title': 'Вход', 'common.switch': 'English' }, app: { 'app.title': 'Главная' }, goals: { 'goals.title': 'Цели' }, projects: { 'projects.title': 'Проекты' } }),
  en: everyArea({ auth: { 'auth.title': 'Sign in', 'common.switch': 'English' }, app: { 'app.title': 'Home' }, goals: { 'goals.title': 'Goals' }, projects: { 'projects.title': 'Projects' } }),
};

/** Loaders answered by the test, so it sees the screen before and after each catalogue arrives. */
function controlledLoaders() {
  const pending = new Map<string, () => void>();
  const make = (locale: AppLocale, area: CatalogueArea) => () =>
    new Promise<{ default: Messages }>((resolve) => {
      pending.set(`${locale}:${area}`, () => resolve({ default: CATALOGUES[locale][area] }));
    });
  const loadersOf = (locale: AppLocale) => Object.fromEntries(CATALOGUE_AREAS.map((area) => [area, make(locale, area)])) as AreaLoaders[AppLocale];
  const loaders: AreaLoaders = { ru: loadersOf('ru'), en: loadersOf('en') };
  const answer = async (key: string) => {
    const resolve = pending.get(key);
    if (!resolve) throw new Error(`${key} was not requested (pending: ${[...pending.keys()].join(', ')})`);
    pending.delete(key);
    await act(async () => {
      resolve();
      // Let the chain of promise callbacks behind it (download, publish, React's retry) run out.
      await new Promise((settled) => setTimeout(settled, 0));
    });
  };
  return { loaders, answer, requested: () => [...pending.keys()] };
}

const AREAS: Record<string, readonly CatalogueArea[]> = {
  auth: ['auth'],
  app: ['auth', 'app'],
  goals: ['auth', 'app', 'goals'],
  projects: ['auth', 'app', 'projects'],
};
const areasFor = (path: string): readonly CatalogueArea[] =>
  path.startsWith('/auth/') ? AREAS.auth! : path.startsWith('/goals') ? AREAS.goals! : path.startsWith('/projects') ? AREAS.projects! : AREAS.app!;

/** Every text the screen rendered, in order: a flash of an English default would be caught here. */
let rendered: string[] = [];

function Screen() {
  const intl = useIntl();
  const [location] = useLocation();
  const [clicks, setClicks] = useState(0);
  const { setLocale } = useLocale();
  const title = location.startsWith('/auth/')
    ? intl.formatMessage({ id: 'auth.title', defaultMessage: 'Sign in (default)' })
    : intl.formatMessage({ id: 'app.title', defaultMessage: 'Home (default)' });
  rendered.push(title);
  return (
    <main>
      <h1>{title}</h1>
      <button type="button" onClick={() => setClicks((n) => n + 1)}>
        {`clicked ${clicks}`}
      </button>
      <button type="button" onClick={() => setLocale('en')}>
        {intl.formatMessage({ id: 'common.switch', defaultMessage: 'English' })}
      </button>
    </main>
  );
}

/** A feature's page under RouteMessages, as app.tsx renders pages. */
function FeaturePage() {
  const intl = useIntl();
  const [location] = useLocation();
  const text = location.startsWith('/goals')
    ? intl.formatMessage({ id: 'goals.title', defaultMessage: 'Goals (default)' })
    : location.startsWith('/projects')
      ? intl.formatMessage({ id: 'projects.title', defaultMessage: 'Projects (default)' })
      : '';
  rendered.push(text);
  return <p data-testid="page">{text}</p>;
}

function renderAt(path: string) {
  const memory = memoryLocation({ path, record: true });
  const control = controlledLoaders();
  render(
    <Router hook={memory.hook}>
      <AppIntlProvider areasFor={areasFor} loaders={control.loaders} fallback={<p>Loading</p>}>
        <Screen />
        <Suspense fallback={<p>Loading the page</p>}>
          <RouteMessages>
            <FeaturePage />
          </RouteMessages>
        </Suspense>
      </AppIntlProvider>
    </Router>,
  );
    // An awaited act: React waits on a suspended use() only there.
  return {
    ...control,
    navigate: (to: string) =>
      act(async () => {
        memory.navigate(to);
        await Promise.resolve();
      }),
  };
}

beforeEach(() => {
  rendered = [];
  window.localStorage.clear();
});

afterEach(cleanup);

describe('AppIntlProvider with catalogue areas', () => {
  it('loads only the sign-in area on a sign-in page, and shows nothing but the fallback before', async () => {
    const { answer, requested } = renderAt('/auth/login');
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(requested()).toEqual(['ru:auth']);
    await answer('ru:auth');
    expect(screen.getByRole('heading').textContent).toBe('Вход');
    expect(document.documentElement.lang).toBe('ru');
    expect(requested()).toEqual([]);
  });

  it('moving into the app renders the app only once its messages are there, keeping the state behind the fallback', async () => {
    const user = userEvent.setup();
    const { answer, navigate, requested } = renderAt('/auth/login');
    await answer('ru:auth');
    await user.click(screen.getByRole('button', { name: 'clicked 0' }));

    await navigate('/dashboard');
    expect(requested()).toEqual(['ru:app']);
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(screen.queryByText('Home (default)')).toBeNull();

    await answer('ru:app');
    expect(screen.getByRole('heading').textContent).toBe('Главная');
    // The tree stayed mounted behind the fallback: its state is still there.
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeTruthy();
    expect(rendered.filter((text) => text.includes('(default)'))).toEqual([]);
  });

  it('starts in the app with both areas loading at once', async () => {
    const { answer, requested } = renderAt('/dashboard');
    expect(requested().sort()).toEqual(['ru:app', 'ru:auth']);
    await answer('ru:app');
    expect(screen.getByText('Loading')).toBeTruthy();
    await answer('ru:auth');
    expect(screen.getByRole('heading').textContent).toBe('Главная');
    expect(rendered.filter((text) => text.includes('(default)'))).toEqual([]);
  });

  it("moving into another feature's pages waits for its area under the page's fallback, the frame staying on screen", async () => {
    const user = userEvent.setup();
    const { answer, navigate, requested } = renderAt('/goals');
    // The first screen: every area of its route at once, then both the frame and the page.
    expect(requested().sort()).toEqual(['ru:app', 'ru:auth', 'ru:goals']);
    await answer('ru:auth');
    await answer('ru:app');
    expect(screen.getByText('Loading')).toBeTruthy();
    await answer('ru:goals');
    expect(screen.getByRole('heading').textContent).toBe('Главная');
    expect(screen.getByTestId('page').textContent).toBe('Цели');
    await user.click(screen.getByRole('button', { name: 'clicked 0' }));

    await navigate('/projects');
    expect(requested()).toEqual(['ru:projects']);
    // The frame stays, with its state; only the page waits.
    expect(screen.queryByText('Loading')).toBeNull();
    expect(screen.getByRole('heading').textContent).toBe('Главная');
    expect(screen.getByRole('button', { name: 'clicked 1' })).toBeTruthy();
    expect(screen.getByText('Loading the page')).toBeTruthy();

    await answer('ru:projects');
    expect(screen.getByTestId('page').textContent).toBe('Проекты');
    expect(rendered.filter((text) => text.includes('(default)'))).toEqual([]);

    // Back to a feature already loaded: nothing more to download.
    await navigate('/goals');
    expect(requested()).toEqual([]);
    expect(screen.getByTestId('page').textContent).toBe('Цели');
  });

  it('switches language once every area in use has loaded in it, keeping the old texts meanwhile', async () => {
    const user = userEvent.setup();
    const { answer, requested } = renderAt('/dashboard');
    await answer('ru:auth');
    await answer('ru:app');

    await user.click(screen.getByRole('button', { name: 'English' }));
    expect(requested().sort()).toEqual(['en:app', 'en:auth']);
    expect(window.localStorage.getItem('appLocale')).toBe('en');
    await answer('en:auth');
    expect(screen.getByRole('heading').textContent).toBe('Главная');
    await answer('en:app');
    expect(screen.getByRole('heading').textContent).toBe('Home');
    expect(document.documentElement.lang).toBe('en');
  });

  it('on a sign-in page switches only the sign-in area, and loads the app area in the new language later', async () => {
    const user = userEvent.setup();
    const { answer, requested, navigate } = renderAt('/auth/login');
    await answer('ru:auth');
    await user.click(screen.getByRole('button', { name: 'English' }));
    expect(requested()).toEqual(['en:auth']);
    await answer('en:auth');
    expect(screen.getByRole('heading').textContent).toBe('Sign in');

    await navigate('/dashboard');
    expect(requested()).toEqual(['en:app']);
    await answer('en:app');
    expect(screen.getByRole('heading').textContent).toBe('Home');
    expect(rendered.filter((text) => text.includes('(default)'))).toEqual([]);
  });
});
