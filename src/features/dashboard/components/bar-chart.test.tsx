import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { BarChart, type DrawChart } from './bar-chart';

/** An IntersectionObserver the test drives: `enter()` tells every observer its element came near the screen. */
function fakeIntersectionObserver() {
  const callbacks = new Set<IntersectionObserverCallback>();
  const options: (IntersectionObserverInit | undefined)[] = [];
  class FakeObserver {
    constructor(
      private readonly callback: IntersectionObserverCallback,
      init?: IntersectionObserverInit,
    ) {
      callbacks.add(callback);
      options.push(init);
    }
    observe() {}
    disconnect() {
      callbacks.delete(this.callback);
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  return {
    options,
    enter: () =>
      act(async () => {
        for (const callback of [...callbacks]) callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
        await Promise.resolve();
      }),
  };
}

function chart(load: () => Promise<DrawChart>) {
  return render(
    <IntlProvider locale="en" messages={en}>
      <BarChart
        testId="chart"
        title="Effect by month"
        summary="Bars by month"
        labels={['Jan', 'Feb']}
        series={[{ label: 'Expected', values: [1, 2], color: '#1f5fa8' }]}
        formatValue={(value) => String(value)}
        table={
          <tbody>
            <tr>
              <td>1</td>
            </tr>
          </tbody>
        }
        load={load}
      />
    </IntlProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a dashboard chart', () => {
  it('fetches chart.js only once it comes near the screen, then draws', async () => {
    const screenEdge = fakeIntersectionObserver();
    const drawn: HTMLCanvasElement[] = [];
    class FakeChart {
      constructor(canvas: HTMLCanvasElement) {
        drawn.push(canvas);
      }
      destroy() {}
    }
    const load = vi.fn((): Promise<DrawChart> => Promise.resolve(FakeChart));
    chart(load);
    expect(load).not.toHaveBeenCalled();
    // Its table is there for screen readers before and whatever happens to the chart.
    expect(screen.getByRole('table', { name: 'Effect by month' })).toBeTruthy();
    expect(screenEdge.options[0]?.rootMargin).toBe('400px 0px');

    await screenEdge.enter();
    expect(load).toHaveBeenCalledTimes(1);
    expect(drawn).toHaveLength(1);
    expect(screen.getByTestId('chart').hasAttribute('data-drawn')).toBe(true);
  });

  it('shows its table on demand as a region named by the caption that a keyboard can focus and scroll', async () => {
    fakeIntersectionObserver();
    chart(() => new Promise<DrawChart>(() => undefined));
    const toggle = screen.getByRole('button', { name: 'Show the table' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    // Hidden, it is no region and takes no focus: a screen reader reads the table itself.
    expect(screen.queryByRole('region')).toBeNull();

    await userEvent.setup({ delay: null }).click(toggle);
    expect(screen.getByRole('button', { name: 'Hide the table' }).getAttribute('aria-expanded')).toBe('true');
    const region = screen.getByRole('region', { name: 'Effect by month' });
    expect(region.tabIndex).toBe(0);
    expect(region.contains(screen.getByRole('table', { name: 'Effect by month' }))).toBe(true);
  });
});
