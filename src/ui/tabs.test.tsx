import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TAB_UNDERLINE_DELAY_MS, Tabs, type TabItem } from './tabs';
import { startFakeClock, stopFakeClock } from '../../tests/unit/support/fake-clock';

/** Moves the fake clock; React renders what the timers changed. */
const advance = (ms: number): void => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

const TABS: TabItem[] = [
  { id: 'all', title: 'All' },
  { id: 'new', title: 'New' },
  { id: 'archived', title: 'Archived', disabled: true },
  { id: 'approved', title: 'Approved' },
];

function ProjectTabs({ onChange }: { onChange?: (id: string) => void }) {
  const [value, setValue] = useState('all');
  return (
    <Tabs
      label="Projects"
      tabs={TABS}
      value={value}
      onChange={(id) => {
        setValue(id);
        onChange?.(id);
      }}
    >
      <p>Panel of {value}</p>
    </Tabs>
  );
}

const tab = (name: string) => screen.getByRole('tab', { name });

afterEach(() => {
  cleanup();
  stopFakeClock();
});

describe('tabs (WAI-ARIA tabs pattern)', () => {
  it('has a labelled tab list, one selected tab and its panel', () => {
    render(<ProjectTabs />);
    expect(screen.getByRole('tablist', { name: 'Projects' })).toBeTruthy();
    expect(tab('All').getAttribute('aria-selected')).toBe('true');
    expect(tab('New').getAttribute('aria-selected')).toBe('false');
    const panel = screen.getByRole('tabpanel', { name: 'All' });
    expect(panel.textContent).toBe('Panel of all');
    expect(tab('All').getAttribute('aria-controls')).toBe(panel.id);
  });

  it('is one tab stop: only the selected tab is in the tab order', async () => {
    const user = userEvent.setup({ delay: null });
    render(<ProjectTabs />);
    await user.tab();
    expect(document.activeElement).toBe(tab('All'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tabpanel'));
  });

  it('moves and selects with the arrow keys, wrapping and skipping disabled tabs', async () => {
    const user = userEvent.setup({ delay: null });
    render(<ProjectTabs />);
    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('New'));
    expect(tab('New').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('Panel of new');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('Approved'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('All'));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(tab('Approved'));
  });

  it('jumps to the first and last tab with Home and End', async () => {
    const user = userEvent.setup({ delay: null });
    render(<ProjectTabs />);
    await user.tab();
    await user.keyboard('{End}');
    expect(tab('Approved').getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Home}');
    expect(tab('All').getAttribute('aria-selected')).toBe('true');
  });

  it('selects a tab by click', async () => {
    const user = userEvent.setup({ delay: null });
    const onChange = vi.fn();
    render(<ProjectTabs onChange={onChange} />);
    await user.click(tab('New'));
    expect(onChange).toHaveBeenCalledWith('new');
  });
});

describe('tab underline (spec section 9: 175 ms)', () => {
  beforeEach(() => {
    // jsdom lays nothing out: each tab is 100 px wide, side by side.
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(100);
    vi.spyOn(HTMLElement.prototype, 'offsetLeft', 'get').mockImplementation(function (this: HTMLElement) {
      const index = TABS.findIndex((t) => t.id === this.dataset.tabId);
      return Math.max(index, 0) * 100;
    });
  });

  afterEach(() => vi.restoreAllMocks());

  it('sits under the selected tab at once, then follows a new choice after 175 ms', async () => {
    const user = startFakeClock();
    const { container } = render(<ProjectTabs />);
    const underline = container.querySelector<HTMLElement>('.tabs__underline');
    expect(underline?.style.transform).toBe('translateX(0px)');
    expect(underline?.style.width).toBe('100px');

    await user.click(tab('Approved'));
    advance(TAB_UNDERLINE_DELAY_MS - 1);
    expect(underline?.style.transform).toBe('translateX(0px)');
    advance(1);
    expect(underline?.style.transform).toBe('translateX(300px)');
  });
});
