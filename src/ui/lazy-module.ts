// A module fetched the first time something needs it, not with the page: the imask engine, the month grid, the
// list virtualizer, the parts of a page most visits never show. One fetch serves every user of the module; a
// failed fetch is forgotten, so the next use tries again. The service worker precaches every chunk, so offline
// the module comes from the device like the page; a failure means the chunk itself could not be read.
//
// In development and in the tests (the Vite dev server, Vitest) the module that declares one also awaits it at
// its top level (`if (!import.meta.env.PROD) await lazy.load();`), so components have it from their first render
// there; the build's lazy path is covered by the Chromium tests.
import { useEffect, useState } from 'react';

export interface LazyModule<T> {
  /** The module once fetched, or null. */
  readonly current: T | null;
  /** Fetches the module once; answers the same promise to every caller until it settles. */
  load(): Promise<T>;
}

export function lazyModule<T>(importModule: () => Promise<T>): LazyModule<T> {
  let current: T | null = null;
  let loading: Promise<T> | null = null;
  return {
    get current() {
      return current;
    },
    load() {
      loading ??= importModule().then(
        (module) => (current = module),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
      return loading;
    },
  };
}

export type LazyState<T> = T | 'failed' | null;

/**
 * The module for a component: fetched while `wanted`, null until it is there, 'failed' when the fetch failed
 * (`retry` asks again). `what` names it in the console when it fails.
 */
export function useLazyModule<T>(lazy: LazyModule<T>, wanted: boolean, what: string): { value: LazyState<T>; retry: () => void } {
  // The state says only whether the fetch has settled: the module itself may be a function (a component), which
  // React would take for an initializer or an updater.
  const [state, setState] = useState<'idle' | 'loaded' | 'failed'>('idle');
  const value: LazyState<T> = state === 'failed' ? state : lazy.current;
  useEffect(() => {
    if (!wanted || value !== null) return;
    let isCurrent = true;
    lazy.load().then(
      () => {
        if (isCurrent) setState('loaded');
      },
      (error: unknown) => {
        console.error(`${what} could not be loaded`, error);
        if (isCurrent) setState('failed');
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [lazy, wanted, value, what]);
  return { value, retry: () => setState('idle') };
}
