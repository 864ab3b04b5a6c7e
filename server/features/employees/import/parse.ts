// Bytes of an uploaded staff list -> rows of text (docs/api.md "Import"). The type is decided by the bytes,
// never by the name: a zip signature is an XLSX (first sheet, through zip.ts and read-excel-file), other
// bytes that read as text are a CSV (UTF-8 with or without BOM, else Windows-1251; UTF-16 with a BOM, as
// Excel's "Unicode text" saves it; comma, semicolon or tab, guessed). Anything else is 415. Cells come
// back trimmed, as the spreadsheet shows them: formulas as their cached values, dates as dd.mm.yyyy,
// numbers without a trailing ".0" or an exponent. Empty rows are dropped; every row keeps its number as
// the spreadsheet shows it (the first line is row 1).

import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { IMPORT_MAX_ROWS } from '../../../../src/domain/company';
import { AppError } from '../../../errors';
import { repackXlsx, UnsafeZipError } from './zip';

/** Rows above the header a file may have (a title, a date, blank lines) before the header is found. */
export const HEADER_SEARCH_ROWS = 10;
/** The widest sheet read; more columns than this is not a staff list. */
export const IMPORT_MAX_COLUMNS = 200;
/** Cells read-excel-file may lay out for one sheet (rows x columns it references, gaps included). */
export const SHEET_MAX_CELLS = 1_500_000;
/** Non-empty rows read at most: the header, the rows above it and IMPORT_MAX_ROWS data rows. */
const MAX_READ_ROWS = IMPORT_MAX_ROWS + 1 + HEADER_SEARCH_ROWS;

export interface SheetRow {
  /** 1-based, as the spreadsheet shows it. */
  row: number;
  cells: string[];
}

export interface ParsedSheet {
  kind: 'csv' | 'xlsx';
  /** Non-empty rows only, in order. */
  rows: SheetRow[];
}

const tooManyRows = () => new AppError('importTooManyRows', 400, { values: { max: IMPORT_MAX_ROWS } });
const brokenFile = () => new AppError('importBroken', 400);

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05) && (bytes[3] === 0x04 || bytes[3] === 0x06);
}

/** A row of cells without its trailing empty cells, capped at IMPORT_MAX_COLUMNS + 1 (to notice a too-wide header). */
function tidy(cells: readonly string[]): string[] {
  let end = Math.min(cells.length, IMPORT_MAX_COLUMNS + 1);
  while (end > 0 && cells[end - 1] === '') end -= 1;
  return cells.slice(0, end);
}

// ---------------------------------------------------------------------------------------------------
// Text

/**
 * The text of a CSV file: a BOM names its encoding; otherwise strict UTF-8, and Windows-1251 (what Excel
 * and 1C save in a Russian locale) when the bytes are not valid UTF-8. Null when the bytes are not text.
 */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    text = new TextDecoder('utf-8').decode(bytes.subarray(3));
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      text = new TextDecoder('windows-1251').decode(bytes);
    }
  }
  // Text files hold no NUL and almost no other control characters (tab, line breaks and form feed aside);
  // images, PDFs, old binary .xls files and random bytes do.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is counted here
  const controls = text.match(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g)?.length ?? 0;
  if (text.includes('\u0000') || controls > text.length / 1000) return null;
  return text;
}

const DELIMITERS = [';', ',', '\t'];

/**
 * The separator of a CSV text: the one that splits its first ten non-blank rows most evenly into two or
 * more cells (papaparse's guess, made with blank lines skipped: counted, they make a short two-column
 * file look like a single column). A comma when none does.
 */
export function guessDelimiter(text: string): string {
  const guess = Papa.parse<string[]>(text.slice(0, 64 * 1024), { delimitersToGuess: DELIMITERS, skipEmptyLines: 'greedy', preview: 10 });
  return DELIMITERS.includes(guess.meta.delimiter) ? guess.meta.delimiter : ',';
}

/** Rows of a CSV text, streamed through papaparse so that only non-empty rows are kept. */
export function parseCsvText(text: string): SheetRow[] {
  const rows: SheetRow[] = [];
  let record = 0;
  // Set inside papaparse's callback, so kept in an object the compiler does not narrow.
  const outcome: { failure: AppError | null } = { failure: null };
  Papa.parse<string[]>(text, {
    delimiter: guessDelimiter(text),
    skipEmptyLines: false,
    step(result, parser) {
      record += 1;
      if (result.errors.some((e) => e.type === 'Quotes')) {
        outcome.failure = brokenFile();
        parser.abort();
        return;
      }
      const cells = tidy(result.data.map((cell) => cell.trim()));
      if (cells.length === 0) return;
      if (rows.length >= MAX_READ_ROWS) {
        outcome.failure = tooManyRows();
        parser.abort();
        return;
      }
      rows.push({ row: record, cells });
    },
  });
  if (outcome.failure) throw outcome.failure;
  return rows;
}

// ---------------------------------------------------------------------------------------------------
// XLSX

const pad = (n: number) => String(n).padStart(2, '0');

/** A numeric cell as written in the sheet's XML, kept apart from text cells that merely look like numbers. */
export class SheetNumber {
  constructor(readonly raw: string) {}
}

/** A cell as the spreadsheet shows it (see the module header). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    return `${pad(value.getUTCDate())}.${pad(value.getUTCMonth() + 1)}.${value.getUTCFullYear()}`;
  }
  if (value instanceof SheetNumber) return numberText(value.raw.trim());
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return numberText(String(value));
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return '';
}

/**
 * A number as a spreadsheet shows it: 15 significant digits, no exponent for whole numbers, so that a
 * service number stored as 120000, "1.2E+5" or "1234.0" reads 120000 and 1234. Long digit strings (beyond
 * what a double holds exactly) are kept as written.
 */
function numberText(raw: string): string {
  if (/^\d{16,}$/.test(raw)) return raw.replace(/^0+(?=\d)/, '');
  const n = Number(raw);
  if (!Number.isFinite(n)) return raw;
  const rounded = Number(n.toPrecision(15));
  if (Number.isInteger(rounded) && Math.abs(rounded) < 1e21) return BigInt(rounded).toString();
  return String(rounded);
}

async function parseXlsx(bytes: Uint8Array): Promise<SheetRow[]> {
  let repacked;
  try {
    repacked = repackXlsx(bytes);
  } catch (error) {
    // RangeError: a DataView read past the end of a truncated archive, whatever its headers claimed.
    if (error instanceof UnsafeZipError || error instanceof RangeError) throw brokenFile();
    throw error;
  }
  const { rows: reach, columns } = repacked.extent;
  if (reach > 2 * MAX_READ_ROWS) throw tooManyRows();
  if (columns > IMPORT_MAX_COLUMNS) throw brokenFile();
  if (reach * columns > SHEET_MAX_CELLS) throw reach > MAX_READ_ROWS ? tooManyRows() : brokenFile();
  let data: unknown[][];
  try {
    data = await readSheet(Buffer.from(repacked.zip.buffer, repacked.zip.byteOffset, repacked.zip.byteLength), {
      parseNumber: (raw: string) => new SheetNumber(raw),
    });
  } catch (error) {
    // read-excel-file says InvalidInputError / InvalidSpreadsheetError / SheetNotFoundError, or a plain
    // error from its XML parser: whatever it could not read is a broken file, never a 500.
    if (error instanceof Error) throw brokenFile();
    throw error;
  }
  const rows: SheetRow[] = [];
  for (let i = 0; i < data.length; i += 1) {
    const cells = tidy((data[i] ?? []).map(cellText));
    if (cells.length === 0) continue;
    if (rows.length >= MAX_READ_ROWS) throw tooManyRows();
    rows.push({ row: i + 1, cells });
  }
  return rows;
}

/** Rows of an uploaded file; 415 `importFileType` when it is neither an XLSX nor text. */
export async function parseSpreadsheet(bytes: Uint8Array): Promise<ParsedSheet> {
  if (isZip(bytes)) return { kind: 'xlsx', rows: await parseXlsx(bytes) };
  if (bytes.length === 0) throw brokenFile();
  const text = decodeText(bytes);
  if (text === null) throw new AppError('importFileType', 415);
  return { kind: 'csv', rows: parseCsvText(text) };
}
