import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readTokenMirror, writeTokensFromPage, writeTokensFromWorkerIfCurrent, type MirrorSnapshot } from '../../sw/token-mirror';
import { createTokenStore, type MirroredTokens } from './token-store';

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
    const mirrored: MirrorSnapshot[] = [];
    let done: () => void = () => undefined;
    const mirror = vi.fn(async ({ accessToken, refreshToken }: MirroredTokens) => {
      await writeTokensFromPage(accessToken, refreshToken);
      mirrored.push(await readTokenMirror());
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
      { accessToken: 'a1', refreshToken: 'r1', writtenByWorker: false },
      { accessToken: null, refreshToken: null, writtenByWorker: false },
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

describe('the token mirror (sw/token-mirror.ts): the worker writes only over the pair it refreshed from', () => {
  afterEach(async () => {
    await writeTokensFromPage(null, null);
  });

  it('writes the refreshed pair, marked as the worker’s, while the mirror still holds the spent refresh token', async () => {
    await writeTokensFromPage('a1', 'r1');
    expect(await writeTokensFromWorkerIfCurrent('r1', 'a2', 'r2')).toBe(true);
    expect(await readTokenMirror()).toEqual({ accessToken: 'a2', refreshToken: 'r2', writtenByWorker: true });
  });

  it('writes nothing when the user signed out meanwhile, so the old session does not come back', async () => {
    await writeTokensFromPage('a1', 'r1');
    // The page signs out while the worker's refresh is on the way.
    await writeTokensFromPage(null, null);
    expect(await writeTokensFromWorkerIfCurrent('r1', 'a2', 'r2')).toBe(false);
    expect(await readTokenMirror()).toEqual({ accessToken: null, refreshToken: null, writtenByWorker: false });
  });

  it('writes nothing over a pair rotated meanwhile (the next user signed in, or another refresh)', async () => {
    await writeTokensFromPage('a1', 'r1');
    await writeTokensFromPage('b1', 'rb1');
    expect(await writeTokensFromWorkerIfCurrent('r1', 'a2', 'r2')).toBe(false);
    expect(await readTokenMirror()).toEqual({ accessToken: 'b1', refreshToken: 'rb1', writtenByWorker: false });
  });

  it('lets exactly one of two refreshes from the same token write', async () => {
    await writeTokensFromPage('a1', 'r1');
    const results = await Promise.all([writeTokensFromWorkerIfCurrent('r1', 'a2', 'r2'), writeTokensFromWorkerIfCurrent('r1', 'a3', 'r3')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const { refreshToken } = await readTokenMirror();
    expect(refreshToken).toBe(results[0] ? 'r2' : 'r3');
  });
});
