// The exports of a sent registry (docs/api.md "Registry exports"): the same document as an XLSX workbook and as a
// PDF, in the request's language. What they guarantee:
// - Both hold the same content, built once (`registryDocument`): the company (name, INN), the registry's number and
//   status ("figures of record" once APPROVED), who sent it and when, who decided and when and the owner's comment,
//   a row per project (as snapshotted when it was sent, the owner's adjusted final cost and its reason where
//   adjusted) and the totals per currency (`registryTotals` of the rows printed: different currencies are never
//   added). Times are printed in the company's time zone, each naming it (`formatInTimeZone`, the formatter of the
//   company's screens and of the registry's conflict messages), and the document says which zone that is.
// - Money is exact: integer minor units turned into major units with 2 decimals without rounding (XLSX: numeric
//   cells formatted '#,##0.00'; PDF: digits grouped as the language writes them, like the invoice).
// - Every text cell of the XLSX goes through `neutralizeFormula`, so a project named `=HYPERLINK(...)` is shown,
//   never run. The PDF embeds DejaVu Sans (subset, with a ToUnicode map) as the invoice does, so Cyrillic prints on
//   any viewer and extracts as text.
// - Only a registry of the caller's company is read (`loadRegistryExport`): another company's id is a 404 like a
//   missing one. Stored rows are checked against the `Registry` struct before anything is printed.

import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import writeXlsxFile, { type Cell } from 'write-excel-file/node';
import type { Locale } from '../../../src/domain/auth';
import { MINOR_PER_MAJOR } from '../../../src/domain/money';
import { Registry, registryTotals } from '../../../src/domain/registry';
import { neutralizeFormula } from '../../../src/domain/spreadsheet';
import { formatInTimeZone } from '../../../src/domain/time-format';
import type { Queryable } from '../../db/database';
import { AppError } from '../../errors';
import { translate, type MessageValues } from '../../i18n/messages';
import { selectRegistries, toRegistry } from './rows';

const requireFile = createRequire(import.meta.url);
const FONT_REGULAR = requireFile.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = requireFile.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

export const REGISTRY_EXPORT_FORMATS = ['xlsx', 'pdf'] as const;
export type RegistryExportFormat = (typeof REGISTRY_EXPORT_FORMATS)[number];

export const REGISTRY_EXPORT_CONTENT_TYPES: Record<RegistryExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/** What an export prints: the registry and the company it belongs to (its times in the company's `timeZone`). */
export interface RegistryExportInput {
  company: { name: string; inn: string | null; timeZone: string };
  registry: Registry;
}

/** `registry-<number>.xlsx` / `.pdf`. */
export function registryExportFileName(number: number, format: RegistryExportFormat): string {
  return `registry-${Math.trunc(number)}.${format}`;
}

// ---------------------------------------------------------------------------------------------------
// Reading.

/** The registry `registryId` of `companyId` with its company's name and INN; 404 when the company has no such one. */
export async function loadRegistryExport(db: Queryable, companyId: string, registryId: string): Promise<RegistryExportInput> {
  const row = await selectRegistries(db).where('r.company_id', '=', companyId).where('r.id', '=', registryId).executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  const company = await db.kysely.selectFrom('companies').select(['name', 'inn', 'time_zone']).where('id', '=', companyId).executeTakeFirst();
  if (!company) throw new AppError('notFound', 404);
  // The struct's own check (not `validate`, which also refuses line breaks in texts the owner may write on lines).
  const [error, registry] = Registry.validate(toRegistry(row));
  // The service writes these rows; one that breaks the struct is a bug to see, never a file printed from it.
  if (error) throw new Error(`registry ${registryId} does not match the Registry struct`, { cause: error });
  return { company: { name: company.name, inn: company.inn, timeZone: company.time_zone }, registry };
}

// ---------------------------------------------------------------------------------------------------
// Formatting.

/** `1 000,00` in Russian, `1,000.00` in English: major units with 2 decimals from minor units, without floating point. */
export function formatAmount(amountMinor: number, locale: Locale): string {
  const sign = amountMinor < 0 ? '-' : '';
  const abs = BigInt(Math.abs(Math.trunc(amountMinor)));
  const perMajor = BigInt(MINOR_PER_MAJOR);
  const whole = new Intl.NumberFormat(locale === 'ru' ? 'ru-RU' : 'en-US').format(abs / perMajor);
  const cents = String(abs % perMajor).padStart(2, '0');
  return `${sign}${whole}${locale === 'ru' ? ',' : '.'}${cents}`;
}

/** An amount as the spreadsheet's numeric cell holds it (minor / 100: the double nearest the exact decimal). */
export function amountAsNumber(amountMinor: number): number {
  return amountMinor / MINOR_PER_MAJOR;
}

/** `20.11.2026, 12:00 (Europe/Moscow, UTC+3)`: the time in the company's zone, naming it, in both languages. */
export function formatExportTime(iso: string, timeZone: string): string {
  return formatInTimeZone(iso, timeZone);
}

// ---------------------------------------------------------------------------------------------------
// The document both formats print.

/** A cell of the table: text, an amount in minor units, a count (the row's number), or nothing. */
export type ExportCell = { text: string } | { minor: number } | { count: number } | null;

export const EXPORT_COLUMNS = [
  'number',
  'project',
  'projectManager',
  'currency',
  'estimatedCosts',
  'finalCost',
  'adjustmentReason',
  'expectedEffect',
  'remuneration',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

export interface RegistryDocument {
  title: string;
  /** Label and value lines under the title. */
  heading: [label: string, value: string][];
  timeZoneNote: string;
  headers: string[];
  /** One row per project, cells in EXPORT_COLUMNS order. */
  items: ExportCell[][];
  totalsTitle: string;
  /** One row per currency, cells in EXPORT_COLUMNS order. */
  totals: ExportCell[][];
}

const NONE = '—';

/** The content of the export of `input` in `locale`, shared by the XLSX and the PDF. */
export function registryDocument({ company, registry }: RegistryExportInput, locale: Locale): RegistryDocument {
  const t = (id: string, values?: MessageValues) => translate(locale, `registryExport.${id}`, values);
  const byAt = (name: string | null, at: string) => t('byAt', { name: name ?? NONE, at: formatExportTime(at, company.timeZone) });
  const heading: [string, string][] = [
    [t('company'), company.name],
    [t('inn'), company.inn ?? NONE],
    [t('statusLabel'), t(`status.${registry.status}`)],
    [t('sent'), byAt(registry.sentByName, registry.sentAt)],
  ];
  if (registry.decidedAt) heading.push([t('decided'), byAt(registry.decidedByName, registry.decidedAt)]);
  if (registry.comment) heading.push([t('comment'), registry.comment]);

  const items: ExportCell[][] = registry.items.map((item, index) => [
    { count: index + 1 },
    { text: item.name },
    { text: item.projectManagerName ?? NONE },
    { text: item.currency },
    { minor: item.estimatedCostsMinor },
    { minor: item.finalCostMinor ?? item.estimatedCostsMinor },
    item.adjustmentReason ? { text: item.adjustmentReason } : null,
    { minor: item.expectedEffect12mMinor },
    { minor: item.remunerationMinor },
  ]);
  const totals: ExportCell[][] = registryTotals(registry.items).map((sum) => [
    null,
    { text: t('total', { currency: sum.currency, count: sum.projects }) },
    null,
    { text: sum.currency },
    { minor: sum.estimatedCostsMinor },
    { minor: sum.finalCostsMinor },
    null,
    { minor: sum.expectedEffect12mMinor },
    { minor: sum.remunerationMinor },
  ]);
  return {
    title: t('title', { number: registry.number }),
    heading,
    timeZoneNote: t('timeZone', { zone: company.timeZone }),
    headers: EXPORT_COLUMNS.map((column) => t(`column.${column}`)),
    items,
    totalsTitle: t('totals'),
    totals,
  };
}

// ---------------------------------------------------------------------------------------------------
// XLSX.

const XLSX_COLUMN_WIDTHS: Record<ExportColumn, number> = {
  number: 6,
  project: 40,
  projectManager: 28,
  currency: 10,
  estimatedCosts: 18,
  finalCost: 18,
  adjustmentReason: 36,
  expectedEffect: 20,
  remuneration: 18,
};

const MONEY_FORMAT = '#,##0.00';

type Emphasis = 'plain' | 'bold';

/** A text cell as a spreadsheet must get it: never a formula. */
function xlsxText(value: string, emphasis: Emphasis = 'plain'): Cell {
  return { value: neutralizeFormula(value), type: String, ...(emphasis === 'bold' ? { fontWeight: 'bold' as const } : {}) };
}

function xlsxCell(cell: ExportCell, emphasis: Emphasis): Cell {
  const bold = emphasis === 'bold' ? { fontWeight: 'bold' as const } : {};
  if (cell === null) return null;
  if ('text' in cell) return xlsxText(cell.text, emphasis);
  if ('minor' in cell) return { value: amountAsNumber(cell.minor), type: Number, format: MONEY_FORMAT, ...bold };
  return { value: cell.count, type: Number, ...bold };
}

/** The rows of the workbook's one sheet: title, heading (labels in column B), table, totals. */
export function registryXlsxRows(document: RegistryDocument): Cell[][] {
  return [
    [{ ...xlsxText(document.title, 'bold'), fontSize: 14 }],
    ...document.heading.map(([label, value]): Cell[] => [null, xlsxText(label, 'bold'), xlsxText(value)]),
    [null, xlsxText(document.timeZoneNote)],
    [],
    document.headers.map((header): Cell => ({ ...xlsxText(header, 'bold'), wrap: true, alignVertical: 'top', bottomBorderStyle: 'thin' })),
    ...document.items.map((row) => row.map((cell) => xlsxCell(cell, 'plain'))),
    [],
    [null, xlsxText(document.totalsTitle, 'bold')],
    ...document.totals.map((row) => row.map((cell) => xlsxCell(cell, 'bold'))),
  ];
}

export function buildRegistryXlsx(input: RegistryExportInput, locale: Locale): Promise<Buffer> {
  const document = registryDocument(input, locale);
  return writeXlsxFile(registryXlsxRows(document), {
    sheet: translate(locale, 'registryExport.sheet', { number: input.registry.number }),
    columns: EXPORT_COLUMNS.map((column) => ({ width: XLSX_COLUMN_WIDTHS[column] })),
  }).toBuffer();
}

// ---------------------------------------------------------------------------------------------------
// PDF.

const PAGE_MARGIN = 40;
const INK = '#111827';
const MUTED = '#4b5563';
const RULE = '#9ca3af';
const SHADE = '#f3f4f6';
const TABLE_FONT_SIZE = 8;
const CELL_PADDING = 3;

/** Column widths on a landscape A4 page (761 points between the margins), amounts right-aligned. */
const PDF_COLUMNS: Record<ExportColumn, { width: number; align: 'left' | 'right' | 'center' }> = {
  number: { width: 22, align: 'center' },
  project: { width: 130, align: 'left' },
  projectManager: { width: 95, align: 'left' },
  currency: { width: 48, align: 'center' },
  estimatedCosts: { width: 82, align: 'right' },
  finalCost: { width: 82, align: 'right' },
  adjustmentReason: { width: 118, align: 'left' },
  expectedEffect: { width: 92, align: 'right' },
  remuneration: { width: 92, align: 'right' },
};

function pdfText(cell: ExportCell, locale: Locale): string {
  if (cell === null) return '';
  if ('text' in cell) return cell.text;
  if ('minor' in cell) return formatAmount(cell.minor, locale);
  return String(cell.count);
}

/** The registry as a landscape A4 PDF: heading, the table (its header repeated on every page), totals, page numbers. */
export function renderRegistryPdf(input: RegistryExportInput, locale: Locale): Promise<Buffer> {
  const document = registryDocument(input, locale);
  const stamp = new Date(input.registry.updatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: PAGE_MARGIN,
    bufferPages: true,
    info: { Title: `${document.title} — ${input.company.name}`, Author: input.company.name, CreationDate: stamp, ModDate: stamp },
    lang: locale,
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONT_REGULAR);
  doc.registerFont('bold', FONT_BOLD);

  const left = PAGE_MARGIN;
  const width = doc.page.width - 2 * PAGE_MARGIN;
  const top = PAGE_MARGIN;
  const bottom = doc.page.height - PAGE_MARGIN;

  // Title and heading (flowing text: a long comment continues on the next page by itself).
  doc.fillColor(INK).font('bold').fontSize(15).text(document.title, left, top, { width });
  doc.moveDown(0.4);
  doc.fontSize(9);
  for (const [label, value] of document.heading) {
    doc.fillColor(MUTED).font('regular').text(`${label}: `, left, doc.y, { width, continued: true });
    doc.fillColor(INK).font('bold').text(value);
    doc.moveDown(0.15);
  }
  doc.fillColor(MUTED).font('regular').text(document.timeZoneNote, left, doc.y, { width });
  let y = doc.y + 12;

  const columns = EXPORT_COLUMNS.map((column) => PDF_COLUMNS[column]);
  const heightOf = (cells: readonly string[], font: 'regular' | 'bold') => {
    doc.font(font).fontSize(TABLE_FONT_SIZE);
    return Math.max(...cells.map((cell, i) => doc.heightOfString(cell || ' ', { width: (columns[i]?.width ?? 40) - 2 * CELL_PADDING }))) + 2 * CELL_PADDING;
  };
  const headerHeight = heightOf(document.headers, 'bold');
  // No row is taller than a page below the repeated header; a longer cell is cut with an ellipsis.
  const tallestRow = bottom - top - headerHeight;

  const drawCells = (cells: readonly string[], font: 'regular' | 'bold', height: number, shade: boolean) => {
    let x = left;
    cells.forEach((cell, i) => {
      const column = columns[i];
      if (!column) return;
      if (shade) doc.rect(x, y, column.width, height).fillColor(SHADE).fill();
      doc.lineWidth(0.5).strokeColor(RULE).rect(x, y, column.width, height).stroke();
      doc
        .fillColor(INK)
        .font(font)
        .fontSize(TABLE_FONT_SIZE)
        .text(cell, x + CELL_PADDING, y + CELL_PADDING, { width: column.width - 2 * CELL_PADDING, height: height - 2 * CELL_PADDING, align: column.align, ellipsis: true });
      x += column.width;
    });
    y += height;
  };
  const drawHeader = () => drawCells(document.headers, 'bold', headerHeight, true);
  const drawRow = (cells: readonly string[], font: 'regular' | 'bold') => {
    const height = Math.min(heightOf(cells, font), tallestRow);
    if (y + height > bottom) {
      doc.addPage();
      y = top;
      drawHeader();
    }
    drawCells(cells, font, height, false);
  };

  if (y + headerHeight + heightOf([' '], 'regular') > bottom) {
    doc.addPage();
    y = top;
  }
  drawHeader();
  for (const row of document.items) drawRow(row.map((cell) => pdfText(cell, locale)), 'regular');

  // The totals: their own title and header, kept together with the first totals row.
  const totalsRows = document.totals.map((row) => row.map((cell) => pdfText(cell, locale)));
  const titleHeight = 24;
  if (y + titleHeight + headerHeight + heightOf(totalsRows[0] ?? [' '], 'bold') > bottom) {
    doc.addPage();
    y = top;
  } else {
    y += 4;
  }
  doc.fillColor(INK).font('bold').fontSize(10).text(document.totalsTitle, left, y + 6, { width });
  y += titleHeight;
  drawHeader();
  for (const row of totalsRows) drawRow(row, 'bold');

  // Page numbers, written into the bottom margin of every buffered page.
  const pages = doc.bufferedPageRange();
  for (let i = 0; i < pages.count; i += 1) {
    doc.switchToPage(pages.start + i);
    const margins = doc.page.margins;
    doc.page.margins = { ...margins, bottom: 0 };
    doc
      .fillColor(MUTED)
      .font('regular')
      .fontSize(7)
      .text(translate(locale, 'registryExport.page', { number: input.registry.number, page: i + 1, pages: pages.count }), left, bottom + 14, { width, align: 'right', lineBreak: false });
    doc.page.margins = margins;
  }

  doc.end();
  return done;
}

/** The export of `input` as `format`. */
export function buildRegistryExport(input: RegistryExportInput, format: RegistryExportFormat, locale: Locale): Promise<Buffer> {
  return format === 'xlsx' ? buildRegistryXlsx(input, locale) : renderRegistryPdf(input, locale);
}
