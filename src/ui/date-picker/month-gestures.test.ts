import { describe, expect, it } from 'vitest';
import { SWIPE_THRESHOLD_PX, monthScrollInterval, swipeMonthStep, wheelMonthStep } from './month-gestures';

describe('calendar swipe', () => {
  it('has a threshold of 10 px', () => {
    expect(SWIPE_THRESHOLD_PX).toBe(10);
  });

  it('turns to the next month for a swipe to the left longer than 10 px, and back for one to the right', () => {
    expect(swipeMonthStep({ x: 200, y: 100 }, { x: 189, y: 100 })).toBe(1);
    expect(swipeMonthStep({ x: 200, y: 100 }, { x: 211, y: 100 })).toBe(-1);
  });

  it('does nothing for a swipe of 10 px or less', () => {
    expect(swipeMonthStep({ x: 200, y: 100 }, { x: 190, y: 100 })).toBe(0);
    expect(swipeMonthStep({ x: 200, y: 100 }, { x: 210, y: 100 })).toBe(0);
    expect(swipeMonthStep({ x: 200, y: 100 }, { x: 200, y: 100 })).toBe(0);
  });

  it('leaves a mostly vertical movement to the page', () => {
    expect(swipeMonthStep({ x: 200, y: 100 }, { x: 180, y: 160 })).toBe(0);
  });
});

describe('month-scroll throttle', () => {
  it('waits 500 ms between month changes for a gentle scroll (|deltaY| up to 1)', () => {
    expect(monthScrollInterval(1)).toBe(500);
    expect(monthScrollInterval(-1)).toBe(500);
    expect(monthScrollInterval(0.5)).toBe(500);
  });

  it('waits 100 ms once |deltaY| exceeds 1', () => {
    expect(monthScrollInterval(1.5)).toBe(100);
    expect(monthScrollInterval(-40)).toBe(100);
    expect(monthScrollInterval(100)).toBe(100);
  });

  it('does not wait once |deltaY| exceeds 100', () => {
    expect(monthScrollInterval(101)).toBe(0);
    expect(monthScrollInterval(-120)).toBe(0);
  });

  it('turns forward scrolling down and back scrolling up, the first time at once', () => {
    expect(wheelMonthStep(1, 1_000, null)).toBe(1);
    expect(wheelMonthStep(-1, 1_000, null)).toBe(-1);
    expect(wheelMonthStep(0, 1_000, null)).toBe(0);
  });

  it('holds back a change that comes sooner than the interval after the last one', () => {
    expect(wheelMonthStep(1, 1_499, 1_000)).toBe(0);
    expect(wheelMonthStep(1, 1_500, 1_000)).toBe(1);
    expect(wheelMonthStep(50, 1_099, 1_000)).toBe(0);
    expect(wheelMonthStep(50, 1_100, 1_000)).toBe(1);
    expect(wheelMonthStep(150, 1_000, 1_000)).toBe(1);
  });
});
