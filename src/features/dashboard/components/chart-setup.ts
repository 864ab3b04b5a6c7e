// chart.js with only what the dashboard's bar charts use registered. Reached only through the dynamic import in
// chart-loader.ts, so it and chart.js form a chunk of their own; the static named imports let the bundler drop
// the controllers, elements and plugins the dashboard does not use.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);
// Axis and legend text dark enough for WCAG AA on white (the default grey is lighter).
Chart.defaults.color = '#374151';

export { Chart };
