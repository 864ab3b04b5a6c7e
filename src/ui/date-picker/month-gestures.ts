// Month changes by gesture (spec section 9): a horizontal swipe longer than 10 px, and the mouse wheel
// or trackpad throttled by how hard it scrolls. Pure functions, so the numbers are tested apart from
// the events that feed them.

/** A swipe must travel more than this many pixels sideways to change the month. */
export const SWIPE_THRESHOLD_PX = 10;

/** Months to move for a swipe from `start` to `end`: +1 (next), -1 (previous) or 0 (not a swipe). */
export function swipeMonthStep(start: { x: number; y: number }, end: { x: number; y: number }): -1 | 0 | 1 {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  // Mostly vertical movement is a page scroll, not a swipe.
  if (Math.abs(dx) <= SWIPE_THRESHOLD_PX || Math.abs(dx) < Math.abs(dy)) return 0;
  // Dragging the page to the left brings in the next month, as on a phone's calendar.
  return dx < 0 ? 1 : -1;
}

/**
 * Least time between two month changes by wheel: 500 ms for gentle scrolling, 100 ms once |deltaY|
 * exceeds 1, none once it exceeds 100 (a mouse wheel's notch), so a trackpad's stream of small deltas
 * does not fly through the years while a deliberate notch always turns the page.
 */
export function monthScrollInterval(deltaY: number): number {
  const magnitude = Math.abs(deltaY);
  if (magnitude > 100) return 0;
  if (magnitude > 1) return 100;
  return 500;
}

/**
 * Months to move for a wheel event at `now` when the last wheel month change was at `lastChangeAt`
 * (null: none yet): +1 scrolling down, -1 up, 0 while throttled or without vertical movement.
 */
export function wheelMonthStep(deltaY: number, now: number, lastChangeAt: number | null): -1 | 0 | 1 {
  if (deltaY === 0) return 0;
  if (lastChangeAt !== null && now - lastChangeAt < monthScrollInterval(deltaY)) return 0;
  return deltaY > 0 ? 1 : -1;
}
