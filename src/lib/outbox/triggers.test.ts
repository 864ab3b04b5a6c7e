import { describe, expect, it } from 'vitest';
import type { DrainResult } from './replayer';
import { drainOutbox, startOutboxTriggers } from './triggers';

const idle: DrainResult = { skipped: null, sent: 0, parked: 0, retried: 0, stopped: null, nextAttemptAt: null };

describe('outbox triggers', () => {
  it('drains on start, on online, on reconnect, on the timer and on drainOutbox(); the timer follows nextAttemptAt', async () => {
    let drains = 0;
    const delays: number[] = [];
    let fireTimer = () => undefined as void;
    let reconnect = () => undefined as void;
    const events = new EventTarget();
    const triggers = startOutboxTriggers({
      replayer: {
        drain: async () => {
          drains += 1;
          await Promise.resolve();
          return { ...idle, nextAttemptAt: 1_000 + 5_000 };
        },
      },
      now: () => 1_000,
      events: events,
      onReconnect: (listener) => {
        reconnect = listener;
        return () => undefined;
      },
      setTimeout: (cb, ms) => {
        fireTimer = cb;
        delays.push(ms);
        return delays.length;
      },
      clearTimeout: () => undefined,
    });
    await drainOutbox();
    expect(drains).toBe(2);
    events.dispatchEvent(new Event('online'));
    reconnect();
    fireTimer();
    await drainOutbox();
    expect(drains).toBe(6);
    expect(delays.every((ms) => ms === 5_000)).toBe(true);
    triggers.stop();
    expect(await drainOutbox()).toBeNull();
  });
});
