import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import { CHUNK_RELOAD_KEY, withReloadOnFailure, type PageModule, type ReloadEnvironment } from './lazy-page';

function environment(): ReloadEnvironment & { store: Map<string, string>; reload: Mock<() => void> } {
  const store = new Map<string, string>();
  return {
    store,
    storage: {
      getItem: (key) => store.get(key) ?? null,
      setItem: (key, value) => void store.set(key, value),
      removeItem: (key) => void store.delete(key),
    },
    reload: vi.fn<() => void>(),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const page: PageModule = { default: () => null };
const failing = () => Promise.reject(new Error('Failed to fetch dynamically imported module'));

describe('lazy page loading', () => {
  it('loads the page when the chunk is there', async () => {
    const env = environment();
    await expect(withReloadOnFailure(() => Promise.resolve(page), env)()).resolves.toBe(page);
    expect(env.reload).not.toHaveBeenCalled();
  });

  it('reloads the page once when a chunk fails to load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const env = environment();
    void withReloadOnFailure(failing, env)();
    await vi.waitFor(() => expect(env.reload).toHaveBeenCalledTimes(1));
    expect(env.store.has(CHUNK_RELOAD_KEY)).toBe(true);
  });

  it('does not reload again after a reload that did not help: the error reaches the error screen', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const env = environment();
    env.store.set(CHUNK_RELOAD_KEY, '1');
    await expect(withReloadOnFailure(failing, env)()).rejects.toThrow('Failed to fetch');
    expect(env.reload).not.toHaveBeenCalled();
  });

  it('forgets the reload mark once a page loads, so a later deploy may reload again', async () => {
    const env = environment();
    env.store.set(CHUNK_RELOAD_KEY, '1');
    await withReloadOnFailure(() => Promise.resolve(page), env)();
    expect(env.store.has(CHUNK_RELOAD_KEY)).toBe(false);
  });
});
