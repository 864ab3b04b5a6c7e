// One bar chart of the dashboard with its accessible twin: the canvas (role="img", its aria-label a summary in
// words) is drawn once chart.js has arrived (chart-loader.ts); the same data is always in a real <table> with a
// caption, visually hidden until "Show the table" is pressed, so a screen reader, a failed chart load and a
// printout all have the figures. chart.js (53 KB gzipped) is fetched only when a chart comes near the screen:
// the charts sit below the figures, so a phone showing the figures never pays for them until it scrolls.
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { FormattedMessage } from 'react-intl';
import type { ChartConfiguration } from 'chart.js';
import { loadChart } from './chart-loader';

/** What a chart needs of chart.js: its constructor and `destroy()` (chart.js's Chart, or a test's stand-in). */
export type DrawChart = new (canvas: HTMLCanvasElement, config: ChartConfiguration<'bar'>) => { destroy(): void };

export interface BarSeries {
  label: string;
  values: readonly number[];
  /** A colour with at least 3:1 contrast on white (WCAG 1.4.11 for graphics). */
  color: string;
}

export interface BarChartProps {
  /** The data-testid of the chart's container. */
  testId: string;
  /** The chart's heading (also the table's caption). */
  title: ReactNode;
  /** The canvas's aria-label: what the chart shows, in words. */
  summary: string;
  labels: readonly string[];
  series: readonly BarSeries[];
  /** Bars along the horizontal axis (the funnel). */
  horizontal?: boolean;
  /** How a value reads in the tooltip and on the value axis. */
  formatValue: (value: number) => string;
  /** The table of the same data (its rows; the caption is `title`). */
  table: ReactNode;
  /** The canvas's height in CSS pixels (the width follows the container). */
  height?: number;
  /** Where chart.js comes from (tests give a stand-in). */
  load?: () => Promise<DrawChart>;
}

/** No animation for users who ask for less motion. */
function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function configOf(props: Pick<BarChartProps, 'labels' | 'series' | 'horizontal' | 'formatValue'>): ChartConfiguration<'bar'> {
  const valueAxis = props.horizontal ? 'x' : 'y';
  return {
    type: 'bar',
    data: {
      labels: [...props.labels],
      datasets: props.series.map((series) => ({ label: series.label, data: [...series.values], backgroundColor: series.color, borderColor: series.color })),
    },
    options: {
      indexAxis: props.horizontal ? 'y' : 'x',
      responsive: true,
      maintainAspectRatio: false,
      animation: prefersReducedMotion() ? false : undefined,
      plugins: {
        legend: { display: props.series.length > 1, position: 'bottom' },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${props.formatValue(Number(item.raw))}` } },
      },
      scales: {
        [valueAxis]: { beginAtZero: true, ticks: { callback: (value: string | number) => props.formatValue(Number(value)) } },
      },
    },
  };
}

/** How far below the screen a chart starts loading, so it is drawn by the time it scrolls in. */
const NEAR_SCREEN_MARGIN = '400px 0px';

/** True once `ref`'s element has come within NEAR_SCREEN_MARGIN of the screen (at once where IntersectionObserver is missing). */
function useNearScreen(ref: RefObject<Element | null>): boolean {
  const [isNear, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (isNear || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR_SCREEN_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [isNear, ref]);
  return isNear;
}

export function BarChart({ testId, title, summary, labels, series, horizontal = false, formatValue, table, height = 240, load = loadChart }: BarChartProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [isTableShown, setTableShown] = useState(false);
  const [isDrawn, setDrawn] = useState(false);
  const tableId = useId();
  const figureRef = useRef<HTMLElement>(null);
  const isNearScreen = useNearScreen(figureRef);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !isNearScreen) return;
    let isCurrent = true;
    let chart: { destroy(): void } | null = null;
    load().then(
      (Chart) => {
        if (!isCurrent) return;
        chart = new Chart(canvas, configOf({ labels, series, horizontal, formatValue }));
        setDrawn(true);
      },
      (error: unknown) => console.warn('The chart could not be loaded; its table holds the figures', error),
    );
    return () => {
      isCurrent = false;
      chart?.destroy();
    };
  }, [labels, series, horizontal, formatValue, load, isNearScreen]);

  return (
    <figure ref={figureRef} className="dashboard-chart" data-testid={testId} data-drawn={isDrawn ? '' : undefined}>
      <figcaption className="dashboard-chart__title">{title}</figcaption>
      <div className="dashboard-chart__canvas" style={{ height }}>
        <canvas ref={canvasRef} role="img" aria-label={summary} />
      </div>
      {/* The table is always read by screen readers; the button only shows it on screen. */}
      <button
        type="button"
        className="dashboard-chart__toggle"
        aria-controls={tableId}
        aria-expanded={isTableShown}
        onClick={() => setTableShown((shown) => !shown)}
      >
        {isTableShown ? (
          <FormattedMessage id="dashboard.chart.hideTable" defaultMessage="Hide the table" />
        ) : (
          <FormattedMessage id="dashboard.chart.showTable" defaultMessage="Show the table" />
        )}
      </button>
      {/* Shown, a table wider than a phone scrolls sideways: a keyboard reaches that scrolling only if the region
          takes the focus (WCAG 2.1.1), named by the caption for whoever lands on it. */}
      <div
        id={tableId}
        className={isTableShown ? 'dashboard-chart__table' : 'dashboard-chart__table visually-hidden'}
        role={isTableShown ? 'region' : undefined}
        aria-labelledby={isTableShown ? `${tableId}-caption` : undefined}
        tabIndex={isTableShown ? 0 : undefined}
      >
        <table className="dashboard-table">
          <caption id={`${tableId}-caption`}>{title}</caption>
          {table}
        </table>
      </div>
    </figure>
  );
}
