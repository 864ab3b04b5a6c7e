// Lazily loaded pages with one recovery: when a page chunk fails to load (most often because a new
// version was deployed and the old hashed file is gone), the page reloads once to fetch the current
// build. A sessionStorage mark stops a reload loop; a successful load clears it, so a later deploy
// gets its own reload.
import { createElement, lazy, useState, type ComponentType } from 'react';
import { lazyModule } from '../ui/lazy-module';

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

export interface LazyComponent<P extends object> {
  Component: ComponentType<P>;
  /** Loads the module once (every caller shares the load; a failed one is tried again by the next call). */
  load: () => Promise<{ default: ComponentType<P> }>;
}

/**
 * A lazily loaded component that renders at once when its module is already there. React.lazy suspends on its
 * first render whatever the state of its promise, and React reveals a suspended screen at most every 300 ms
 * after a loading indicator showed: on the way to the first screen (frame, company gate, page) that added up
 * to most of a second. The first screen's modules are loaded before React renders (src/main.tsx), so its
 * components render directly; any other goes through React.lazy as before. Which of the two a mounted
 * component uses is decided once, when it mounts, so it never remounts when its module arrives.
 */
export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyComponent<P> {
  const module = lazyModule(load);
  const loadOnce = () => module.load();
  const Lazy = lazy(loadOnce);
  function Component(props: P) {
    const [Direct] = useState(() => module.current?.default ?? null);
    return createElement((Direct ?? Lazy) as ComponentType<P>, props);
  }
  return { Component, load: loadOnce };
}

/** A route's page: `lazyComponent`, with one reload of the app when its chunk fails to load. */
export function lazyPage(load: PageLoader): LazyComponent<Record<string, never>> {
  return lazyComponent(withReloadOnFailure(load));
}
