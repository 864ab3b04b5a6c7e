// Connectivity: whether the main-service can be reached, decided by a no-cache probe of
// `GET /main-service/api/v1/health`, not by `navigator.onLine` (which says "online" behind a captive portal
// or with a dead uplink, and in Firefox and WebKit stays true when the network goes away behind the device).
// Guarantees:
// - 'online' only when the probe answered JSON `{ data: { status: 'ok' } }` (a captive portal's HTML page or
//   the service worker's own offline answer count as offline); a probe has a short deadline (5 s), so a
//   hanging network (connection accepted, never answered) reads as offline, not as "still probing";
// - ONE probe loop: probes asked for while one runs share it, and a single timer plans the next one; re-probed
//   on `online`/`offline` events, on focus, when the document becomes visible and on that timer: every 30 s,
//   or in the urgent mode (asked for while outbox rows wait on a dead network, see outbox/triggers.ts) on a
//   short backoff of its own, 2 s, 4 s, then every 8 s counted from the start of the previous probe, started
//   afresh each time the urgent mode is turned on;
// - subscribers hear every change of state; `onProbe` listeners hear every probe's answer, also unchanged
//   ones (the outbox treats each 'online' answer in the urgent mode as a reconnect).
// Timers, clock and the probe's deadline are injected, so tests run without waiting.
import { useSyncExternalStore } from 'react';
import { Health } from '../domain/user';

export const HEALTH_URL = '/main-service/api/v1/health';
export const PROBE_INTERVAL_MS = 30_000;
export const PROBE_TIMEOUT_MS = 5_000;
/** The urgent mode's delays between probes; the last one repeats. */
export const URGENT_PROBE_DELAYS_MS: readonly number[] = [2_000, 4_000, 8_000];

export type ConnectivityState = 'online' | 'offline' | 'unknown';

export interface ConnectivityOptions {
  fetch: typeof fetch;
  url?: string;
  /** Where `online`, `offline` and `focus` arrive (window); omitted in tests that probe by hand. */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** Where `visibilitychange` arrives (the document), and whether it is visible. */
  visibility?: {
    addEventListener(type: string, listener: () => void): void;
    removeEventListener(type: string, listener: () => void): void;
    readonly visibilityState: string;
  };
  intervalMs?: number;
  timeoutMs?: number;
  urgentDelaysMs?: readonly number[];
  now?: () => number;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /** Makes the abort signal of the probe's deadline (default `AbortSignal.timeout`). */
  deadline?: (ms: number) => AbortSignal;
}

/** What screens read (and what a test double of them provides). */
export interface Connectivity {
  get(): ConnectivityState;
  subscribe(listener: (state: ConnectivityState) => void): () => void;
  /** Probes now (probes asked for while one runs share it). */
  probe(): Promise<ConnectivityState>;
  start(): void;
  stop(): void;
}

/** The probe loop as the outbox drives it (offline.ts). */
export interface ProbingConnectivity extends Connectivity {
  /** Hears the answer of every finished probe, also when the state did not change. */
  onProbe(listener: (state: ConnectivityState) => void): () => void;
  /** Turns the urgent mode on (probe often, with its own backoff) or off (back to every 30 s). */
  setUrgent(urgent: boolean): void;
  isUrgent(): boolean;
}

export function createConnectivity(options: ConnectivityOptions): ProbingConnectivity {
  const url = options.url ?? HEALTH_URL;
  const now = options.now ?? (() => Date.now());
  const schedule = options.setTimeout ?? ((cb, ms) => setTimeout(cb, ms));
  const cancel = options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const deadline = options.deadline ?? ((ms: number) => AbortSignal.timeout(ms));
  const urgentDelays = options.urgentDelaysMs ?? URGENT_PROBE_DELAYS_MS;
  const listeners = new Set<(state: ConnectivityState) => void>();
  const probeListeners = new Set<(state: ConnectivityState) => void>();
  let state: ConnectivityState = 'unknown';
  let running: Promise<ConnectivityState> | null = null;
  let started = false;
  let timer: unknown = null;
  let urgent = false;
  /** How many probes the current urgent episode has made (picks the delay). */
  let urgentStep = 0;
  let lastProbeAt: number | null = null;

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
        signal: deadline(options.timeoutMs ?? PROBE_TIMEOUT_MS),
      });
      if (!response.ok) return 'offline';
      const body: unknown = JSON.parse(await response.text());
      return Health.is(body) && body.data.status === 'ok' ? 'online' : 'offline';
    } catch {
      // No answer, a timeout, or something that is not JSON (a captive portal): all mean offline.
      return 'offline';
    }
  }

  const nextDelay = () => (urgent ? (urgentDelays[Math.min(urgentStep, urgentDelays.length - 1)] ?? PROBE_INTERVAL_MS) : (options.intervalMs ?? PROBE_INTERVAL_MS));

  /** Plans the next probe, counted from the start of the last one; nothing while a probe runs (it plans). */
  function arm() {
    if (!started || running) return;
    if (timer !== null) cancel(timer);
    const since = lastProbeAt === null ? 0 : now() - lastProbeAt;
    timer = schedule(onTimer, Math.max(0, nextDelay() - since));
  }

  function onTimer() {
    timer = null;
    void probe();
  }

  function probe(): Promise<ConnectivityState> {
    if (running) return running;
    if (timer !== null) {
      cancel(timer);
      timer = null;
    }
    lastProbeAt = now();
    running = probeOnce()
      .then((next) => {
        if (urgent) urgentStep += 1;
        set(next);
        for (const listener of probeListeners) listener(next);
        return next;
      })
      .finally(() => {
        running = null;
        arm();
      });
    return running;
  }

  const onEvent = () => {
    void probe();
  };
  const onVisibility = () => {
    if (options.visibility?.visibilityState === 'visible') onEvent();
  };

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onProbe(listener) {
      probeListeners.add(listener);
      return () => probeListeners.delete(listener);
    },
    probe,
    setUrgent(next) {
      if (next === urgent) return;
      urgent = next;
      urgentStep = 0;
      if (!started || running) return;
      if (timer !== null) cancel(timer);
      // Urgent: the first probe comes after the first short delay from now (the drain that asked has just
      // met the dead network); back to normal: 30 s after the last probe.
      timer = urgent ? schedule(onTimer, urgentDelays[0] ?? 0) : null;
      if (!urgent) arm();
    },
    isUrgent: () => urgent,
    start() {
      if (started) return;
      started = true;
      for (const name of ['online', 'offline', 'focus'] as const) options.events?.addEventListener(name, onEvent);
      options.visibility?.addEventListener('visibilitychange', onVisibility);
      void probe();
    },
    stop() {
      if (!started) return;
      started = false;
      for (const name of ['online', 'offline', 'focus'] as const) options.events?.removeEventListener(name, onEvent);
      options.visibility?.removeEventListener('visibilitychange', onVisibility);
      if (timer !== null) cancel(timer);
      timer = null;
    },
  };
}

let appConnectivity: ProbingConnectivity | undefined;

/** The app's connectivity, probing from the first call on. */
export function getConnectivity(): ProbingConnectivity {
  if (!appConnectivity) {
    appConnectivity = createConnectivity({ fetch: (input, init) => globalThis.fetch(input, init), events: window, visibility: document });
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
