// The service's one notion of "now" for anything that schedules or counts over time (jobs, deadlines, rate
// limits). Production reads the system clock; tests build a clock they move by hand, so a 5-day deadline or a
// 15-minute window is tested without waiting and without depending on how fast the machine is.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` (negative moves it back). */
  advance(ms: number): void;
  set(at: Date): void;
}

export function createManualClock(start: Date = new Date()): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(at) {
      current = at.getTime();
    },
  };
}
