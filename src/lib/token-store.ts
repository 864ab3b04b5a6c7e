// Token storage of the page.
// Guarantees: the access and refresh tokens live in localStorage under the spec's names
// (`accessToken`, `refreshToken`) and are always written or removed together; every change is
// mirrored into IndexedDB through sw/token-mirror.ts (`writeTokensFromPage`, the one writer of that copy)
// because the service worker has no localStorage; a change made by another tab is reported to subscribers
// through the `storage` event. Reads always go to localStorage, so a token rotated by another tab is used
// at once.
import { writeTokensFromPage } from '../../sw/token-mirror';
import type { TokenPair } from '../domain/user';

export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';

export interface TokenStore {
  getAccess(): string | null;
  getRefresh(): string | null;
  set(pair: TokenPair): void;
  clear(): void;
}

export interface ObservableTokenStore extends TokenStore {
  /** Runs `listener` whenever the tokens change, here or in another tab. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Resolves once the IndexedDB mirror holds the latest tokens (before a navigation, say). */
  whenMirrored(): Promise<void>;
}

export interface MirroredTokens {
  accessToken: string | null;
  refreshToken: string | null;
}

/** Writes the tokens into IndexedDB (or removes them there). */
export type TokenMirror = (tokens: MirroredTokens) => Promise<void>;

export interface TokenStoreOptions {
  storage: Storage;
  mirror?: TokenMirror;
  /** Where `storage` events of other tabs arrive; omitted where there is no window. */
  events?: Pick<Window, 'addEventListener'>;
}

export function createTokenStore({ storage, mirror, events }: TokenStoreOptions): ObservableTokenStore {
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  let lastMirror: Promise<void> = Promise.resolve();
  const syncMirror = () => {
    if (!mirror) return;
    const tokens = { accessToken: storage.getItem(ACCESS_TOKEN_KEY), refreshToken: storage.getItem(REFRESH_TOKEN_KEY) };
    // The page keeps working without the mirror; only the service worker loses its copy, so log it.
    lastMirror = mirror(tokens).catch((error: unknown) => console.error('Could not mirror the tokens into IndexedDB', error));
  };

  events?.addEventListener('storage', (event: StorageEvent) => {
    // `key === null` means another tab cleared the whole storage.
    if (event.key === null || event.key === ACCESS_TOKEN_KEY || event.key === REFRESH_TOKEN_KEY) notify();
  });

  return {
    getAccess: () => storage.getItem(ACCESS_TOKEN_KEY),
    getRefresh: () => storage.getItem(REFRESH_TOKEN_KEY),
    set(pair) {
      storage.setItem(ACCESS_TOKEN_KEY, pair.access_token);
      storage.setItem(REFRESH_TOKEN_KEY, pair.refresh_token);
      syncMirror();
      notify();
    },
    clear() {
      storage.removeItem(ACCESS_TOKEN_KEY);
      storage.removeItem(REFRESH_TOKEN_KEY);
      syncMirror();
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    whenMirrored: () => lastMirror,
  };
}

/** The app's token store: localStorage, mirrored into IndexedDB for the service worker. */
export const tokenStore: ObservableTokenStore = createTokenStore({
  storage: window.localStorage,
  mirror: ({ accessToken, refreshToken }) => writeTokensFromPage(accessToken, refreshToken),
  events: window,
});
