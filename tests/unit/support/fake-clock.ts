// Vitest's fake clock, set up the way Testing Library and user-event need it: user-event waits between its steps
// by moving the clock, and Testing Library drains its async wrapper with a 0 ms timer, which it only advances when
// it sees Jest's fake timers (a global `jest`): the stub lets it see Vitest's. Tests on this clock never wait on
// the wall clock, so a busy machine cannot make them fail (issue 14).
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';

export type FakeClockUser = ReturnType<typeof userEvent.setup>;

/** Puts the test on the fake clock; answers a user-event instance that moves it. Undo with `stopFakeClock`. */
export function startFakeClock(): FakeClockUser {
  vi.useFakeTimers();
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

/** Back to the real clock, without the `jest` stub. */
export function stopFakeClock(): void {
  vi.unstubAllGlobals();
  vi.useRealTimers();
}
