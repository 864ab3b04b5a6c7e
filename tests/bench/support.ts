// Shared by the benchmarks (`npm run bench`, scripts/bench.mjs): figures are printed and recorded in
// docs/benchmarks.md, never asserted in tests (timings depend on the machine).
import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The nearest-rank percentile: the smallest value that at least p % of the values do not exceed. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** Prints the figures as the last line of stdout, for scripts/bench.mjs to collect. */
export function report(name: string, figures: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: name, ...figures }));
}
