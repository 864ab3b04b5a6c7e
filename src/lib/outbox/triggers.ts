// When the outbox drains: on start, on `online` (and on reconnect by the health probe), on a timer (at the
// earliest time a waiting row may be retried, at least every minute), and on an explicit `drainOutbox()`
// (the service worker calls it from Background Sync). Failures are reported to `onError`, never swallowed.
import type { DrainResult, Replayer } from './replayer';

export const DRAIN_INTERVAL_MS = 60_000;
const MIN_DELAY_MS = 1_000;

export interface OutboxTriggerOptions {
  replayer: Replayer;
  now: () => number;
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  onReconnect?: (listener: () => void) => () => void;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  onError?: (error: unknown) => void;
}

export interface OutboxTriggers {
  drainOutbox(): Promise<DrainResult | null>;
  stop(): void;
}

let active: OutboxTriggers | null = null;

export function startOutboxTriggers(options: OutboxTriggerOptions): OutboxTriggers {
  const schedule = options.setTimeout ?? ((cb, ms) => setTimeout(cb, ms));
  const cancel = options.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const onError = options.onError ?? ((error) => console.error('Outbox drain failed', error));
  let timer: unknown = null;
  let stopped = false;

  const plan = (result: DrainResult | null) => {
    if (stopped) return;
    if (timer !== null) cancel(timer);
    const next = result?.nextAttemptAt ?? null;
    const delay = next === null ? DRAIN_INTERVAL_MS : Math.min(DRAIN_INTERVAL_MS, Math.max(MIN_DELAY_MS, next - options.now()));
    timer = schedule(trigger, delay);
  };

  async function drainOutbox(): Promise<DrainResult | null> {
    try {
      const result = await options.replayer.drain();
      plan(result);
      return result;
    } catch (error) {
      onError(error);
      plan(null);
      return null;
    }
  }

  function trigger() {
    void drainOutbox();
  }

  options.events?.addEventListener('online', trigger);
  const unsubscribe = options.onReconnect?.(trigger);
  trigger();

  const triggers: OutboxTriggers = {
    drainOutbox,
    stop() {
      stopped = true;
      if (timer !== null) cancel(timer);
      options.events?.removeEventListener('online', trigger);
      unsubscribe?.();
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
