// Lazily loaded pages with one recovery: when a page chunk fails to load (most often because a new
// version was deployed and the old hashed file is gone), the page reloads once to fetch the current
// build. A sessionStorage mark stops a reload loop; a successful load clears it, so a later deploy
// gets its own reload.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export const CHUNK_RELOAD_KEY = 'app:chunk-reload';

export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

export interface ReloadEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  reload: () => void;
}

const browserEnvironment = (): ReloadEnvironment => ({ storage: window.sessionStorage, reload: () => window.location.reload() });

/** Reloads the page unless it already did so for a failed chunk; answers whether it reloads. */
export function reloadOnceForChunk(env: ReloadEnvironment = browserEnvironment()): boolean {
  if (env.storage.getItem(CHUNK_RELOAD_KEY) !== null) return false;
  env.storage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
  env.reload();
  return true;
}

/** Wraps a page loader so that a failed load reloads the page once, then reports the error. */
export function withReloadOnFailure(load: PageLoader, env?: ReloadEnvironment): PageLoader {
  return async () => {
    const environment = env ?? browserEnvironment();
    try {
      const module = await load();
      environment.storage.removeItem(CHUNK_RELOAD_KEY);
      return module;
    } catch (error) {
      console.error('A page failed to load', error);
      if (reloadOnceForChunk(environment)) {
        // The page is going away; never settle, so nothing renders an error in the meantime.
        return new Promise<PageModule>(() => undefined);
      }
      throw error;
    }
  };
}

export function lazyPage(load: PageLoader): LazyExoticComponent<ComponentType> {
  return lazy(withReloadOnFailure(load));
}
