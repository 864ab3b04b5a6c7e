// The rejected rows of an import as a CSV file HR can open in Excel, fix and import again: the row's number
// and reason first, then its cells under the file's own headers (when this tab saw them in the preview) or
// numbered column names. UTF-8 with a byte-order mark so Excel reads the Cyrillic right; the separator is the
// one Excel expects in the user's language (semicolon in Russian, comma in English), both of which the
// import reads back. Every cell goes through `neutralizeFormula` (src/domain/spreadsheet.ts), the rule of every
// spreadsheet the app writes: papaparse's own `escapeFormulae` misses a formula cell that spans lines.
import Papa from 'papaparse';
import type { ImportRowError } from '../../../domain/company';
import { neutralizeFormula } from '../../../domain/spreadsheet';

export interface RejectedCsvLabels {
  row: string;
  reason: string;
  /** The name of the n-th column (1-based) when the file's headers are not known. */
  column: (n: number) => string;
}

export function rejectedRowsCsv(
  rejected: readonly ImportRowError[],
  options: { labels: RejectedCsvLabels; headers: readonly string[] | null; locale: string },
): string {
  const width = Math.max(options.headers?.length ?? 0, ...rejected.map((row) => row.values.length));
  const columns = Array.from({ length: width }, (_, i) => {
    const header = options.headers?.[i]?.trim();
    return header ? header : options.labels.column(i + 1);
  });
  const rows = rejected.map((row) => [String(row.row), row.message, ...Array.from({ length: width }, (_, i) => row.values[i] ?? '')]);
  const cells = [[options.labels.row, options.labels.reason, ...columns], ...rows].map((row) => row.map(neutralizeFormula));
  const csv = Papa.unparse(cells, {
    delimiter: options.locale.startsWith('ru') ? ';' : ',',
    newline: '\r\n',
    quotes: false,
  });
  return `\uFEFF${csv}\r\n`;
}
