import { describe, expect, it, vi } from 'vitest';
import type { DrainResult, Replayer } from './replayer';
import { DRAIN_INTERVAL_MS, OFFLINE_RETRY_MS, drainOutbox, shouldRegisterSync, shouldRetrySync, startOutboxTriggers, type OutboxTriggerOptions } from './triggers';

const idle: DrainResult = { skipped: null, sent: 0, parked: 0, retried: 0, stopped: null, nextAttemptAt: null };

/** Injected timers: the test fires them by hand. */
function manualTimers() {
  const timers = new Map<number, { cb: () => void; ms: number }>();
  let next = 0;
  return {
    timers,
    setTimeout: (cb: () => void, ms: number) => {
      next += 1;
      timers.set(next, { cb, ms });
      return next;
    },
    clearTimeout: (handle: unknown) => {
      timers.delete(handle as number);
    },
    /** The delay of the one armed timer. */
    armed(): number | undefined {
      return [...timers.values()].at(-1)?.ms;
    },
    fire() {
      const entries = [...timers.entries()];
      timers.clear();
      for (const [, timer] of entries) timer.cb();
    },
  };
}

function fakeReplayer(results: () => DrainResult) {
  const calls: string[] = [];
  const replayer: Replayer = {
    drain: async () => {
      calls.push('drain');
      await Promise.resolve();
      return results();
    },
    wake: async () => {
      calls.push('wake');
      await Promise.resolve();
      return 0;
    },
  };
  return { replayer, calls };
}

function start(options: Partial<OutboxTriggerOptions> & Pick<OutboxTriggerOptions, 'replayer'>) {
  const timers = manualTimers();
  const triggers = startOutboxTriggers({ now: () => 1_000, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout, ...options });
  return { triggers, timers };
}

describe('outbox triggers', () => {
  it('drains on start, on the timer and on drainOutbox(); the timer follows nextAttemptAt', async () => {
    const { replayer, calls } = fakeReplayer(() => ({ ...idle, nextAttemptAt: 1_000 + 5_000 }));
    const { triggers, timers } = start({ replayer });
    await drainOutbox();
    expect(calls.filter((c) => c === 'drain')).toHaveLength(2);
    expect(timers.armed()).toBe(5_000);
    timers.fire();
    await vi.waitFor(() => expect(calls.filter((c) => c === 'drain')).toHaveLength(3));
    triggers.stop();
    expect(await drainOutbox()).toBeNull();
  });

  it('on online, focus, a visible document and a probe reconnect, wakes the rows that met a dead network, then drains', async () => {
    const { replayer, calls } = fakeReplayer(() => idle);
    const events = new EventTarget();
    const visibility = Object.assign(new EventTarget(), { visibilityState: 'hidden' });
    let probeReconnect = () => undefined as void;
    const { triggers } = start({
      replayer,
      events,
      visibility,
      onReconnect: (listener) => {
        probeReconnect = listener;
        return () => undefined;
      },
    });
    await vi.waitFor(() => expect(calls).toEqual(['drain']));

    for (const signal of [
      () => events.dispatchEvent(new Event('online')),
      () => events.dispatchEvent(new Event('focus')),
      () => {
        visibility.visibilityState = 'visible';
        visibility.dispatchEvent(new Event('visibilitychange'));
      },
      () => probeReconnect(),
    ]) {
      calls.length = 0;
      signal();
      await vi.waitFor(() => expect(calls).toEqual(['wake', 'drain']));
    }

    // Hidden is no sign of anything.
    calls.length = 0;
    visibility.visibilityState = 'hidden';
    visibility.dispatchEvent(new Event('visibilitychange'));
    await Promise.resolve();
    expect(calls).toEqual([]);
    triggers.stop();
    events.dispatchEvent(new Event('online'));
    expect(calls).toEqual([]);
  });

  it('asks the probe for its urgent mode after an offline stop, and gives it up once a drain gets through', async () => {
    let next: DrainResult = { ...idle, stopped: 'offline', retried: 1, nextAttemptAt: 0 };
    const { replayer } = fakeReplayer(() => next);
    const urgent: boolean[] = [];
    const { triggers, timers } = start({ replayer, setUrgentProbe: (on) => urgent.push(on) });
    await vi.waitFor(() => expect(urgent).toEqual([true]));
    // The probe retries within seconds; the timer stays a fallback and is not spent on every second.
    expect(timers.armed()).toBe(DRAIN_INTERVAL_MS);

    // Another sender holds the lock: nothing is known, the urgent mode stays.
    next = { ...idle, skipped: 'busy' };
    await triggers.drainOutbox();
    expect(urgent).toEqual([true]);

    next = { ...idle, sent: 20 };
    await triggers.reconnect();
    expect(urgent).toEqual([true, false]);
    triggers.stop();
  });

  it('retries on its own timer after an offline stop when there is no probe to ask', async () => {
    const { replayer } = fakeReplayer(() => ({ ...idle, stopped: 'offline', nextAttemptAt: 0 }));
    const { triggers, timers } = start({ replayer });
    await triggers.drainOutbox();
    expect(timers.armed()).toBe(OFFLINE_RETRY_MS);
    triggers.stop();
  });

  it('tells afterDrain every finished drain', async () => {
    const seen: DrainResult[] = [];
    const { replayer } = fakeReplayer(() => ({ ...idle, sent: 1 }));
    const { triggers } = start({ replayer, afterDrain: (result) => seen.push(result) });
    await triggers.drainOutbox();
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every((result) => result.sent === 1)).toBe(true);
    triggers.stop();
  });
});

describe('what the end of a drain asks of Background Sync', () => {
  const waiting: DrainResult = { ...idle, retried: 1, nextAttemptAt: 5_000 };
  const offline: DrainResult = { ...idle, retried: 1, stopped: 'offline', nextAttemptAt: 0 };
  const done: DrainResult = { ...idle, sent: 3 };
  const busy: DrainResult = { ...idle, skipped: 'busy' };

  it('the worker fails a sync whose drain was busy while rows wait, so the browser fires it again', () => {
    expect(shouldRetrySync(busy, true)).toBe(true);
    expect(shouldRetrySync(busy, false)).toBe(false);
  });

  it('the worker fails a sync that left rows waiting (offline, on a backoff, no session), not one that sent everything', () => {
    expect(shouldRetrySync(offline, true)).toBe(true);
    expect(shouldRetrySync(waiting, true)).toBe(true);
    expect(shouldRetrySync({ ...idle, stopped: 'auth', nextAttemptAt: 0 }, true)).toBe(true);
    expect(shouldRetrySync(done, false)).toBe(false);
    expect(shouldRetrySync({ ...idle, skipped: 'signed-out' }, true)).toBe(false);
  });

  it('the page registers the tag again after its own drain left rows waiting, so a closed tab still gets them sent', () => {
    expect(shouldRegisterSync(offline)).toBe(true);
    expect(shouldRegisterSync(waiting)).toBe(true);
    expect(shouldRegisterSync(done)).toBe(false);
    // The other sender decides; the worker holds the same refused session.
    expect(shouldRegisterSync(busy)).toBe(false);
    expect(shouldRegisterSync({ ...idle, stopped: 'auth', nextAttemptAt: 0 })).toBe(false);
  });
});
