import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import { DialogProvider } from './dialog';
import { FilterSelect, SEARCH_DELAY_MS, SearchFilter } from './filters';

function renderIn(node: ReactNode) {
  const wrap = (child: ReactNode) => (
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>{child}</DialogProvider>
    </IntlProvider>
  );
  const view = render(wrap(node));
  return { ...view, rerender: (next: ReactNode) => view.rerender(wrap(next)) };
}

/** Moves the fake clock, letting React render what the timers did. */
const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('search filter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  });

  const search = () => screen.getByRole('searchbox', { name: 'Search' });

  it('shows what is typed at once and commits it once, a pause after the last keystroke', async () => {
    const user = userEvent.setup({ delay: null });
    const onCommit = vi.fn();
    renderIn(<SearchFilter label="Search" placeholder="Words" value="" onCommit={onCommit} />);
    await user.type(search(), 'pump');
    expect(search()).toHaveProperty('value', 'pump');
    advance(SEARCH_DELAY_MS - 1);
    expect(onCommit).not.toHaveBeenCalled();
    advance(1);
    expect(onCommit.mock.calls).toEqual([['pump']]);
    expect(search().getAttribute('name')).toBe('q');
  });

  it('commits at once on Enter', async () => {
    const user = userEvent.setup({ delay: null });
    const onCommit = vi.fn();
    renderIn(<SearchFilter label="Search" value="" onCommit={onCommit} />);
    await user.type(search(), 'valve{Enter}');
    expect(onCommit).toHaveBeenCalledWith('valve');
  });

  it('shows a value that changes under it (back, a link) instead of the text typed', () => {
    const onCommit = vi.fn();
    const { rerender } = renderIn(<SearchFilter label="Search" value="pump" onCommit={onCommit} />);
    expect(search()).toHaveProperty('value', 'pump');
    rerender(<SearchFilter label="Search" value="valve" onCommit={onCommit} />);
    expect(search()).toHaveProperty('value', 'valve');
    advance(SEARCH_DELAY_MS);
    expect(onCommit).not.toHaveBeenCalled();
  });

  it('does not send again a text that reads as the value once normalized', () => {
    const onCommit = vi.fn();
    renderIn(<SearchFilter label="Search" value="pump" onCommit={onCommit} normalize={(text) => text.trim()} />);
    fireEvent.change(search(), { target: { value: 'pump ' } });
    advance(SEARCH_DELAY_MS);
    expect(onCommit).not.toHaveBeenCalled();
    fireEvent.change(search(), { target: { value: 'pumps ' } });
    advance(SEARCH_DELAY_MS);
    expect(onCommit.mock.calls).toEqual([['pumps ']]);
  });
});

describe('filter select', () => {
  const options = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `d${index}`, title: `Department ${index}` }));

  it('reads "any" as its placeholder and hands over the chosen id', async () => {
    const user = userEvent.setup({ delay: null });
    const onChange = vi.fn();
    const { container } = renderIn(<FilterSelect label="Department" name="department" value={null} onChange={onChange} options={options(3)} placeholder="All departments" />);
    const combobox = screen.getByRole('combobox', { name: 'Department' });
    expect(combobox.textContent).toBe('All departments');
    expect(container.querySelector('input[type="hidden"][name="department"]')).toHaveProperty('value', '');
    await user.click(combobox);
    await user.click(screen.getByRole('option', { name: 'Department 1' }));
    expect(onChange).toHaveBeenCalledWith('d1');
  });

  it('shows the chosen option', () => {
    renderIn(<FilterSelect label="Department" name="department" value="d2" onChange={vi.fn()} options={options(3)} placeholder="All departments" />);
    expect(screen.getByRole('combobox', { name: 'Department' }).textContent).toBe('Department 2');
  });

  it('can be searched from nine options, unless told otherwise', () => {
    const { rerender } = renderIn(<FilterSelect label="Department" name="department" value={null} onChange={vi.fn()} options={options(8)} placeholder="All" />);
    expect(screen.getByRole('combobox', { name: 'Department' }).getAttribute('aria-autocomplete')).toBeNull();
    rerender(<FilterSelect label="Department" name="department" value={null} onChange={vi.fn()} options={options(9)} placeholder="All" />);
    expect(screen.getByRole('combobox', { name: 'Department' }).getAttribute('aria-autocomplete')).toBe('list');
    rerender(<FilterSelect label="Department" name="department" value={null} onChange={vi.fn()} options={options(9)} placeholder="All" searchable={false} />);
    expect(screen.getByRole('combobox', { name: 'Department' }).getAttribute('aria-autocomplete')).toBeNull();
  });
});
