// When the outbox drains, and what a drain's end asks for next.
// Guarantees:
// - a drain runs on start, on an explicit `drainOutbox()` (after a local write, the Unsent screen's retry),
//   on a timer (at the earliest time a waiting row may be retried, at least every minute) and on every sign
//   that connectivity is back: the `online` event, window focus, the document becoming visible, and the
//   health probe answering (`reconnect()`, also given to `onReconnect`). A reconnect first makes the rows
//   that met only a dead network due at once (`Replayer.wake`), then drains;
// - a drain that stopped 'offline' asks the connectivity probe for its urgent mode (`setUrgentProbe(true)`:
//   probes every few seconds, and each 'online' answer is a reconnect), so queued rows go out within seconds
//   of the server answering again with nobody touching the device; any drain that ends otherwise ('busy'
//   aside: another sender is at work, nothing is known) gives the urgent mode up. Without a probe to ask,
//   the timer itself retries after OFFLINE_RETRY_MS;
// - `afterDrain` hears every finished drain (offline.ts registers Background Sync again when rows wait and
//   asks the pulls to catch up after a drain that sent or parked);
// - failures are reported to `onError`, never swallowed.
// The decision functions below (`shouldRegisterSync`, `shouldRetrySync`) are shared by the page and the
// service worker, so both read a drain's end the same way.
import type { DrainResult, Replayer } from './replayer';
import { hasRowsLeftWaiting } from './replayer';

export const DRAIN_INTERVAL_MS = 60_000;
/** After an 'offline' stop with no probe to ask: the timer's own short retry. */
export const OFFLINE_RETRY_MS = 8_000;
const MIN_DELAY_MS = 1_000;

/** Where events arrive (window, document), typed without the DOM library: the worker imports this module. */
export interface EventSourceLike {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** The document as far as visibility goes. */
export interface VisibilityEvents extends EventSourceLike {
  readonly visibilityState: string;
}

export interface OutboxTriggerOptions {
  replayer: Replayer;
  now: () => number;
  /** Where `online` and `focus` arrive (window). */
  events?: EventSourceLike;
  /** Where `visibilitychange` arrives (document). */
  visibility?: VisibilityEvents;
  /** Reconnect by the health probe: called with a listener, returns the unsubscribe. */
  onReconnect?: (listener: () => void) => () => void;
  /** Turns the connectivity probe's urgent mode on or off (see the header). */
  setUrgentProbe?: (urgent: boolean) => void;
  /** Hears every finished drain. */
  afterDrain?: (result: DrainResult) => void;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  onError?: (error: unknown) => void;
}

export interface OutboxTriggers {
  drainOutbox(): Promise<DrainResult | null>;
  /** Connectivity is back: rows that met a dead network are due at once, then a drain. */
  reconnect(): Promise<DrainResult | null>;
  stop(): void;
}

/**
 * The page, after its own drain: whether to register the worker's Background Sync again, so rows still
 * waiting are sent by the worker even if the tab is closed now. Not after 'busy' (the other sender decides),
 * 'signed-out', or 'auth' (the worker holds the same refused session).
 */
export function shouldRegisterSync(result: DrainResult): boolean {
  if (result.skipped !== null || result.stopped === 'auth') return false;
  return hasRowsLeftWaiting(result);
}

/**
 * The worker, after the drain of a `sync` event: whether to fail the event so the browser fires it again
 * later. A drain skipped as 'busy' (a page holds the lock) did not send anything: retried while rows still
 * wait (`rowsWaiting`, read from the outbox after the drain). Otherwise retried while the drain left rows
 * the replayer will try again (stopped early, or rows on a backoff).
 */
export function shouldRetrySync(result: DrainResult, rowsWaiting: boolean): boolean {
  if (result.skipped === 'signed-out') return false;
  if (result.skipped === 'busy') return rowsWaiting;
  return hasRowsLeftWaiting(result);
}

let active: OutboxTriggers | null = null;

export function startOutboxTriggers(options: OutboxTriggerOptions): OutboxTriggers {
  const schedule = options.setTimeout ?? ((cb, ms) => setTimeout(cb, ms));
  const cancel = options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const onError = options.onError ?? ((error) => console.error('Outbox drain failed', error));
  let timer: unknown = null;
  let stopped = false;
  // Told after every drain, not only on a change: the probe's urgent mode may also be turned on by others
  // (offline.ts, when the probe says offline while rows are due).
  const setUrgent = (urgent: boolean) => options.setUrgentProbe?.(urgent);

  const plan = (result: DrainResult | null) => {
    if (stopped) return;
    if (timer !== null) cancel(timer);
    let delay: number;
    if (result?.stopped === 'offline') {
      setUrgent(true);
      // The probe retries within seconds; the timer is only the fallback.
      delay = options.setUrgentProbe ? DRAIN_INTERVAL_MS : OFFLINE_RETRY_MS;
    } else {
      if (result !== null && result.skipped !== 'busy') setUrgent(false);
      const next = result?.nextAttemptAt ?? null;
      delay = next === null ? DRAIN_INTERVAL_MS : Math.min(DRAIN_INTERVAL_MS, Math.max(MIN_DELAY_MS, next - options.now()));
    }
    timer = schedule(trigger, delay);
  };

  async function drainOutbox(): Promise<DrainResult | null> {
    try {
      const result = await options.replayer.drain();
      plan(result);
      options.afterDrain?.(result);
      return result;
    } catch (error) {
      onError(error);
      plan(null);
      return null;
    }
  }

  async function reconnect(): Promise<DrainResult | null> {
    if (stopped) return null;
    try {
      await options.replayer.wake();
    } catch (error) {
      // The drain still runs: rows already due go out.
      onError(error);
    }
    return drainOutbox();
  }

  function trigger() {
    void drainOutbox();
  }

  function onReconnectSignal() {
    void reconnect();
  }

  function onVisibility() {
    if (options.visibility?.visibilityState === 'visible') onReconnectSignal();
  }

  options.events?.addEventListener('online', onReconnectSignal);
  options.events?.addEventListener('focus', onReconnectSignal);
  options.visibility?.addEventListener('visibilitychange', onVisibility);
  const unsubscribe = options.onReconnect?.(onReconnectSignal);
  trigger();

  const triggers: OutboxTriggers = {
    drainOutbox,
    reconnect,
    stop() {
      stopped = true;
      if (timer !== null) cancel(timer);
      options.events?.removeEventListener('online', onReconnectSignal);
      options.events?.removeEventListener('focus', onReconnectSignal);
      options.visibility?.removeEventListener('visibilitychange', onVisibility);
      unsubscribe?.();
      setUrgent(false);
      if (active === triggers) active = null;
    },
  };
  active = triggers;
  return triggers;
}

/** Drains the outbox of the started triggers now (null when none are started). */
export function drainOutbox(): Promise<DrainResult | null> {
  return active ? active.drainOutbox() : Promise.resolve(null);
}
