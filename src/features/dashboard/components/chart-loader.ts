// The one door to chart.js: a dynamic import, so the library is its own chunk, fetched only when a dashboard
// chart mounts (never with the sign-in route, the entry chunk or the dashboard page's own chunk), and only the
// parts the bar charts use are registered (chart-setup.ts; chart.js tree-shakes the rest). The figures and
// tables render without it; tests replace this module at its boundary (jsdom draws no canvas).
import type { Chart as ChartClass } from 'chart.js';

export type ChartConstructor = typeof ChartClass;

let loading: Promise<ChartConstructor> | null = null;

/** chart.js's Chart with the bar chart's controller, elements, scales, tooltip and legend registered. */
export function loadChart(): Promise<ChartConstructor> {
  loading ??= import('./chart-setup').then(({ Chart }) => Chart);
  // A failed load (offline before the chunk was cached) may be tried again by the next chart.
  void loading.catch(() => {
    loading = null;
  });
  return loading;
}
