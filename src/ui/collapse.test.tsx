import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COLLAPSE_TRANSITION_MS, Collapse } from './collapse';
import { startFakeClock, stopFakeClock, type FakeClockUser } from '../../tests/unit/support/fake-clock';

/** Moves the fake clock; React renders what the timers changed. */
const advance = (ms: number): void => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

let user: FakeClockUser;

beforeEach(() => {
  user = startFakeClock();
});

afterEach(() => {
  cleanup();
  stopFakeClock();
});

const toggle = () => screen.getByRole('button', { name: 'Details' });


describe('collapse', () => {
  it('starts closed, its content out of the accessibility tree', () => {
    render(<Collapse title="Details">Budget: 100</Collapse>);
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByText('Budget: 100')).not.toBeNull();
    expect(document.getElementById(toggle().getAttribute('aria-controls') ?? '')?.hidden).toBe(true);
  });

  it('opens at once with a 220 ms height transition', async () => {
    render(<Collapse title="Details">Budget: 100</Collapse>);
    Object.defineProperty(HTMLElement.prototype, 'scrollHeight', { configurable: true, get: () => 80 });
    await user.click(toggle());
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    const region = screen.getByRole('region', { name: 'Details' });
    expect(region.style.height).toBe('80px');
    advance(COLLAPSE_TRANSITION_MS - 1);
    expect(region.style.height).toBe('80px');
    advance(1);
    expect(region.style.height).toBe('');
    Reflect.deleteProperty(HTMLElement.prototype, 'scrollHeight');
  });

  it('leaves the accessibility tree at once when closed, and the page after the 220 ms transition', async () => {
    render(
      <Collapse title="Details" defaultOpen>
        Budget: 100
      </Collapse>,
    );
    const region = screen.getByRole('region', { name: 'Details' });
    await user.click(toggle());
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region')).toBeNull();
    expect(region.hasAttribute('inert')).toBe(true);
    advance(COLLAPSE_TRANSITION_MS - 1);
    expect(region.hidden).toBe(false);
    advance(1);
    expect(region.hidden).toBe(true);
  });

  it('opens and closes by keyboard', async () => {
    render(<Collapse title="Details">Budget: 100</Collapse>);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    await user.keyboard(' ');
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
  });

  it('follows the open prop when controlled, and reports the toggle', async () => {
    const onToggle = vi.fn();
    const { rerender } = render(
      <Collapse title="Details" open={false} onToggle={onToggle}>
        Budget: 100
      </Collapse>,
    );
    await user.click(toggle());
    expect(onToggle).toHaveBeenCalledWith(true);
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    rerender(
      <Collapse title="Details" open onToggle={onToggle}>
        Budget: 100
      </Collapse>,
    );
    expect(screen.getByRole('region', { name: 'Details' })).toBeTruthy();
  });
});
