import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATALOGUE_AREAS, type CatalogueArea } from './catalogue-areas';
import { CatalogueStore, type AreaLoaders, type Messages } from './catalogue-store';
import type { AppLocale } from './locale-store';

interface Pending {
  resolve: (messages: Messages) => void;
  reject: (error: unknown) => void;
}

/** Loaders that answer only when the test says so, counting the downloads of each language and area. */
function controlledLoaders() {
  const pending = new Map<string, Pending>();
  const calls: string[] = [];
  const loader = (locale: AppLocale, area: CatalogueArea) => () => {
    calls.push(`${locale}:${area}`);
    return new Promise<{ default: Messages }>((resolve, reject) => {
      pending.set(`${locale}:${area}`, { resolve: (messages) => resolve({ default: messages }), reject });
    });
  };
  const loadersOf = (locale: AppLocale) => Object.fromEntries(CATALOGUE_AREAS.map((area) => [area, loader(locale, area)])) as AreaLoaders[AppLocale];
  const loaders: AreaLoaders = { ru: loadersOf('ru'), en: loadersOf('en') };
  const answer = async (key: string, messages: Messages) => {
    const entry = pending.get(key);
    if (!entry) throw new Error(`${key} was not requested`);
    pending.delete(key);
    entry.resolve(messages);
    await flush();
  };
  const fail = async (key: string) => {
    const entry = pending.get(key);
    if (!entry) throw new Error(`${key} was not requested`);
    pending.delete(key);
    entry.reject(new Error('offline'));
    await flush();
  };
  return { loaders, calls, answer, fail, isPending: (key: string) => pending.has(key) };
}

async function flush() {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the catalogue store', () => {
  it('shows nothing until the first areas load, then exactly those areas', async () => {
    const { loaders, answer } = controlledLoaders();
    const store = new CatalogueStore(loaders, 'ru');
    let done = false;
    void store.require(['auth']).then(() => (done = true));
    expect(store.getSnapshot().shown).toBeNull();
    await answer('ru:auth', { 'auth.title': 'Вход' });
    expect(done).toBe(true);
    expect(store.getSnapshot().shown).toEqual({ locale: 'ru', areas: new Set(['auth']), messages: { 'auth.title': 'Вход' } });
  });

  it('resolves a requirement only when its area is shown, together with the areas already there', async () => {
    const { loaders, answer, calls } = controlledLoaders();
    const store = new CatalogueStore(loaders, 'ru');
    void store.require(['auth']);
    await answer('ru:auth', { a: 'А' });
    let done = false;
    const waiting = store.require(['auth', 'app']);
    void waiting.then(() => (done = true));
    // The same load answers every render that waits meanwhile (React's use() needs one promise).
    expect(store.require(['app'])).toBe(waiting);
    await flush();
    expect(done).toBe(false);
    expect(store.getSnapshot().shown?.areas).toEqual(new Set(['auth']));
    await answer('ru:app', { b: 'Б' });
    expect(done).toBe(true);
    expect(store.getSnapshot().shown?.messages).toEqual({ a: 'А', b: 'Б' });
    // Each area of each language is downloaded once.
    expect(calls).toEqual(['ru:auth', 'ru:app']);
    await expect(store.require(['auth', 'app'])).resolves.toBeUndefined();
    expect(calls).toEqual(['ru:auth', 'ru:app']);
  });

  it('keeps the old language shown until every area in use has loaded in the new one', async () => {
    const { loaders, answer } = controlledLoaders();
    const store = new CatalogueStore(loaders, 'ru');
    void store.require(['auth', 'app']);
    await answer('ru:auth', { a: 'А' });
    await answer('ru:app', { b: 'Б' });

    void store.setLocale('en');
    expect(store.getSnapshot().target).toBe('en');
    await answer('en:auth', { a: 'A' });
    expect(store.getSnapshot().shown).toMatchObject({ locale: 'ru', messages: { a: 'А', b: 'Б' } });
    await answer('en:app', { b: 'B' });
    expect(store.getSnapshot().shown).toMatchObject({ locale: 'en', messages: { a: 'A', b: 'B' } });
  });

  it('ends on the last language chosen when the user switches twice while loading', async () => {
    const { loaders, answer } = controlledLoaders();
    const store = new CatalogueStore(loaders, 'ru');
    void store.require(['auth']);
    await answer('ru:auth', { a: 'А' });
    const first = store.setLocale('en');
    const second = store.setLocale('ru');
    expect(second).toBe(first);
    await answer('en:auth', { a: 'A' });
    await first;
    expect(store.getSnapshot().shown).toMatchObject({ locale: 'ru', messages: { a: 'А' } });
  });

  it('counts a failed download as an empty area (English defaults) and tries it again later', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { loaders, answer, fail, calls } = controlledLoaders();
    const store = new CatalogueStore(loaders, 'ru');
    void store.require(['auth']);
    await answer('ru:auth', { a: 'А' });
    const waiting = store.require(['app']);
    await fail('ru:app');
    await waiting;
    expect(store.getSnapshot().shown).toMatchObject({ locale: 'ru', areas: new Set(['auth', 'app']), messages: { a: 'А' } });
    expect(console.error).toHaveBeenCalledOnce();

    void store.setLocale('en');
    await answer('en:auth', { a: 'A' });
    await answer('en:app', { b: 'B' });
    void store.setLocale('ru');
    await answer('ru:app', { b: 'Б' });
    expect(store.getSnapshot().shown).toMatchObject({ locale: 'ru', messages: { a: 'А', b: 'Б' } });
    expect(calls.filter((c) => c === 'ru:app')).toHaveLength(2);
  });

  it('tells subscribers about each change it publishes', async () => {
    const { loaders, answer } = controlledLoaders();
    const store = new CatalogueStore(loaders, 'ru');
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    void store.require(['auth']);
    await answer('ru:auth', {});
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    void store.setLocale('en');
    await answer('en:auth', {});
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
