import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLEAR_USER_CACHES_MESSAGE, LOGOUT_TIMEOUT_MS, UPLOADS_CACHE_NAME, clearWorkerCaches, signOut, signOutWithWarning, type SignOutDependencies } from './session';

afterEach(() => vi.restoreAllMocks());

describe('sign-out with unsent changes', () => {
  it('signs out without asking when nothing is unsent', async () => {
    const confirm = vi.fn(() => Promise.resolve(true));
    const signOut = vi.fn(() => Promise.resolve());
    expect(await signOutWithWarning({ countUnsent: () => Promise.resolve(0), confirm, signOut })).toBe(true);
    expect(confirm).not.toHaveBeenCalled();
    expect(signOut).toHaveBeenCalledOnce();
  });

  it('asks first and stays signed in when the user keeps the session', async () => {
    const confirm = vi.fn(() => Promise.resolve(false));
    const signOut = vi.fn(() => Promise.resolve());
    expect(await signOutWithWarning({ countUnsent: () => Promise.resolve(2), confirm, signOut })).toBe(false);
    expect(confirm).toHaveBeenCalledWith(2);
    expect(signOut).not.toHaveBeenCalled();
  });

  it('signs out when the user confirms the warning', async () => {
    const signOut = vi.fn(() => Promise.resolve());
    expect(await signOutWithWarning({ countUnsent: () => Promise.resolve(1), confirm: () => Promise.resolve(true), signOut })).toBe(true);
    expect(signOut).toHaveBeenCalledOnce();
  });

  it('asks when the unsent changes cannot be counted', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const confirm = vi.fn(() => Promise.resolve(false));
    const signOut = vi.fn(() => Promise.resolve());
    expect(await signOutWithWarning({ countUnsent: () => Promise.reject(new Error('closed')), confirm, signOut })).toBe(false);
    expect(confirm).toHaveBeenCalledWith(-1);
    expect(signOut).not.toHaveBeenCalled();
  });
});

/** A token whose payload names `sub` (the signature is never checked on the device). */
const tokenOf = (sub: string) => `header.${btoa(JSON.stringify({ sub })).replace(/=+$/, '')}.signature`;

function recordingSignOut(overrides: Partial<SignOutDependencies> = {}) {
  const events: string[] = [];
  let access: string | null = tokenOf('userA');
  let refresh: string | null = tokenOf('userA');
  let mirrored = Promise.resolve();
  const dependencies: SignOutDependencies = {
    tokens: {
      getAccess: () => access,
      getRefresh: () => refresh,
      clear: () => {
        access = null;
        refresh = null;
        events.push('tokens cleared');
        // The token store's own mirror write finishes a little later.
        mirrored = Promise.resolve().then(() => void events.push('token store mirrored'));
      },
      whenMirrored: () => mirrored,
    },
    logout: (token) => {
      events.push(`logout ${token === tokenOf('userA') ? 'with the refresh token' : 'without it'}`);
      return Promise.resolve();
    },
    stopOffline: () => {
      events.push('offline stopped');
      return Promise.resolve('userA');
    },
    clearTokenMirror: () => {
      events.push(`token mirror cleared${access === null ? '' : ' while tokens remain'}`);
      return Promise.resolve();
    },
    clearWorkerCaches: () => {
      events.push('worker caches cleared');
      return Promise.resolve();
    },
    clearUserData: (userId) => {
      events.push(`data of ${userId} cleared`);
      return Promise.resolve();
    },
    forgetCurrentCompany: (userId) => {
      events.push(`current company of ${userId} forgotten`);
      return Promise.resolve();
    },
    navigate: (path) => void events.push(`navigate ${path}`),
    ...overrides,
  };
  return { events, dependencies };
}

describe('sign-out on a shared device', () => {
  it('stops the offline sync, removes both token copies, the caches and the data, and only then leaves', async () => {
    const { events, dependencies } = recordingSignOut();
    await signOut(dependencies);
    expect(events).toEqual([
      'logout with the refresh token',
      'offline stopped',
      'tokens cleared',
      'token store mirrored',
      'token mirror cleared',
      'worker caches cleared',
      'data of userA cleared',
      'current company of userA forgotten',
      'navigate /auth/login',
    ]);
  });

  it('still leaves, with everything cleared, when the server and a local step never answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { events, dependencies } = recordingSignOut({
        logout: (_token, signal) =>
          new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
        clearWorkerCaches: () => new Promise(() => undefined),
        stepTimeoutMs: 1000,
      });
      const signingOut = signOut(dependencies);
      await vi.advanceTimersByTimeAsync(LOGOUT_TIMEOUT_MS);
      await vi.advanceTimersByTimeAsync(1000);
      await signingOut;
      expect(events).toEqual([
        'offline stopped',
        'tokens cleared',
        'token store mirrored',
        'token mirror cleared',
        'data of userA cleared',
        'current company of userA forgotten',
        'navigate /auth/login',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("clears the data of the tokens' user even when the offline sync was not running", async () => {
    const { events, dependencies } = recordingSignOut({ stopOffline: () => Promise.resolve(null) });
    await signOut(dependencies);
    expect(events).toContain('data of userA cleared');
    expect(events.at(-1)).toBe('navigate /auth/login');
  });
});

describe("the service worker's user caches", () => {
  it('deletes the uploads cache from the page and tells the active worker to clear its caches', async () => {
    const deleted: string[] = [];
    const posted: unknown[] = [];
    vi.stubGlobal('caches', { delete: (name: string) => Promise.resolve(deleted.push(name) > 0) });
    const serviceWorker = { controller: null, getRegistration: () => Promise.resolve({ active: { postMessage: (message: unknown) => posted.push(message) } }) };
    Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
    try {
      await clearWorkerCaches();
      expect(deleted).toEqual([UPLOADS_CACHE_NAME]);
      expect(posted).toEqual([CLEAR_USER_CACHES_MESSAGE]);
    } finally {
      vi.unstubAllGlobals();
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });

  it('names the cache and the message as the worker does', () => {
    const worker = readFileSync(resolve(process.cwd(), 'sw/sw.ts'), 'utf8');
    expect(worker).toContain(`UPLOADS_CACHE = '${UPLOADS_CACHE_NAME}'`);
    expect(worker).toContain(`'${CLEAR_USER_CACHES_MESSAGE.type}'`);
  });
});
