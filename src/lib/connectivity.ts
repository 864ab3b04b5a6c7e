// Connectivity: whether the main-service can be reached, decided by a no-cache probe of
// `GET /main-service/api/v1/health`, not by `navigator.onLine` (which says "online" behind a captive portal
// or with a dead uplink). Guarantees: 'online' only when the probe answered JSON `{ data: { status: 'ok' } }`
// (a captive portal's HTML page or the service worker's own offline answer count as offline); re-probed on
// `online`/`offline` events, on focus and on a timer; subscribers hear every change.
import { useSyncExternalStore } from 'react';
import { Health } from '../domain/user';

export const HEALTH_URL = '/main-service/api/v1/health';
export const PROBE_INTERVAL_MS = 30_000;
export const PROBE_TIMEOUT_MS = 10_000;

export type ConnectivityState = 'online' | 'offline' | 'unknown';

export interface ConnectivityOptions {
  fetch: typeof fetch;
  url?: string;
  /** Where `online`, `offline` and `focus` arrive (window); omitted in tests that probe by hand. */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  intervalMs?: number;
  timeoutMs?: number;
  setInterval?: (callback: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

export interface Connectivity {
  get(): ConnectivityState;
  subscribe(listener: (state: ConnectivityState) => void): () => void;
  /** Probes now (probes asked for while one runs share it). */
  probe(): Promise<ConnectivityState>;
  start(): void;
  stop(): void;
}

export function createConnectivity(options: ConnectivityOptions): Connectivity {
  const url = options.url ?? HEALTH_URL;
  const listeners = new Set<(state: ConnectivityState) => void>();
  let state: ConnectivityState = 'unknown';
  let running: Promise<ConnectivityState> | null = null;
  let timer: unknown = null;

  const set = (next: ConnectivityState) => {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener(state);
  };

  async function probeOnce(): Promise<ConnectivityState> {
    try {
      const response = await options.fetch(url, {
        method: 'GET',
        cache: 'no-store',
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? PROBE_TIMEOUT_MS),
      });
      if (!response.ok) return 'offline';
      const body: unknown = JSON.parse(await response.text());
      return Health.is(body) && body.data.status === 'ok' ? 'online' : 'offline';
    } catch {
      // No answer, a timeout, or something that is not JSON (a captive portal): all mean offline.
      return 'offline';
    }
  }

  const probe = () => {
    running ??= probeOnce()
      .then((next) => {
        set(next);
        return next;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  const onEvent = () => {
    void probe();
  };

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    probe,
    start() {
      if (timer !== null) return;
      for (const name of ['online', 'offline', 'focus'] as const) options.events?.addEventListener(name, onEvent);
      timer = (options.setInterval ?? ((cb, ms) => setInterval(cb, ms)))(onEvent, options.intervalMs ?? PROBE_INTERVAL_MS);
      void probe();
    },
    stop() {
      if (timer === null) return;
      for (const name of ['online', 'offline', 'focus'] as const) options.events?.removeEventListener(name, onEvent);
      (options.clearInterval ?? ((handle) => clearInterval(handle as ReturnType<typeof setInterval>)))(timer);
      timer = null;
    },
  };
}

let appConnectivity: Connectivity | undefined;

/** The app's connectivity, probing from the first call on. */
export function getConnectivity(): Connectivity {
  if (!appConnectivity) {
    appConnectivity = createConnectivity({ fetch: (input, init) => globalThis.fetch(input, init), events: window });
    appConnectivity.start();
  }
  return appConnectivity;
}

/** The current connectivity, re-rendering on every change. */
export function useConnectivity(connectivity: Connectivity = getConnectivity()): ConnectivityState {
  return useSyncExternalStore(
    (onChange) => connectivity.subscribe(onChange),
    () => connectivity.get(),
  );
}
