import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenStore, mirrorTokensToIdb, readMirroredTokens, type MirroredTokens } from './token-store';

afterEach(() => {
  window.localStorage.clear();
});

describe('token store', () => {
  it('keeps both tokens in localStorage under the spec names', () => {
    const store = createTokenStore({ storage: window.localStorage });
    store.set({ access_token: 'a1', refresh_token: 'r1' });
    expect(window.localStorage.getItem('accessToken')).toBe('a1');
    expect(window.localStorage.getItem('refreshToken')).toBe('r1');
    expect([store.getAccess(), store.getRefresh()]).toEqual(['a1', 'r1']);
  });

  it('removes both tokens together', () => {
    const store = createTokenStore({ storage: window.localStorage });
    store.set({ access_token: 'a1', refresh_token: 'r1' });
    store.clear();
    expect(window.localStorage.getItem('accessToken')).toBeNull();
    expect(window.localStorage.getItem('refreshToken')).toBeNull();
  });

  it('mirrors every change into IndexedDB for the service worker', async () => {
    const mirrored: MirroredTokens[] = [];
    let done: () => void = () => undefined;
    const mirror = vi.fn(async (tokens: MirroredTokens) => {
      await mirrorTokensToIdb(tokens);
      mirrored.push(await readMirroredTokens());
      done();
    });
    const store = createTokenStore({ storage: window.localStorage, mirror });

    await new Promise<void>((resolve) => {
      done = resolve;
      store.set({ access_token: 'a1', refresh_token: 'r1' });
    });
    await new Promise<void>((resolve) => {
      done = resolve;
      store.clear();
    });

    expect(mirrored).toEqual([
      { accessToken: 'a1', refreshToken: 'r1' },
      { accessToken: null, refreshToken: null },
    ]);
  });

  it('tells subscribers about changes made here and in another tab', () => {
    const events = new EventTarget();
    const store = createTokenStore({ storage: window.localStorage, events });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);

    store.set({ access_token: 'a1', refresh_token: 'r1' });
    expect(listener).toHaveBeenCalledTimes(1);

    // Another tab signs out: the browser fires `storage` here.
    window.localStorage.removeItem('accessToken');
    events.dispatchEvent(new StorageEvent('storage', { key: 'accessToken', oldValue: 'a1', newValue: null }));
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.getAccess()).toBeNull();

    // Keys that are not tokens do not matter.
    events.dispatchEvent(new StorageEvent('storage', { key: 'appLocale', newValue: 'en' }));
    expect(listener).toHaveBeenCalledTimes(2);

    unsubscribe();
    store.clear();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('logs a failed mirror instead of failing the sign-in', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createTokenStore({ storage: window.localStorage, mirror: () => Promise.reject(new Error('quota')) });
    store.set({ access_token: 'a1', refresh_token: 'r1' });
    expect(store.getAccess()).toBe('a1');
    await vi.waitFor(() => expect(error).toHaveBeenCalled());
    error.mockRestore();
  });
});
