// Which column of a staff list is which field (docs/api.md "Import"). Headers are compared without case,
// spaces or punctuation, so "Таб. №", "таб №" and "ТАБ.№" are one header; Russian and English names and
// the usual HR abbreviations are known. The header row is the first of the file's first non-empty rows in
// which a required field is recognised (a title line above the table is skipped); when none is, the first
// row. A mapping chosen by the client wins over what was detected, column by column.

import { IMPORT_FIELDS, IMPORT_REQUIRED_FIELDS, type ImportField } from '../../../../src/domain/company';
import { AppError } from '../../../errors';
import { HEADER_SEARCH_ROWS, IMPORT_MAX_COLUMNS, type SheetRow } from './parse';

/** Header names per field, written naturally; compared after `normalizeHeader`. */
export const HEADER_SYNONYMS: Record<ImportField, readonly string[]> = {
  lastName: ['Фамилия', 'Фамилия сотрудника', 'Last name', 'Lastname', 'Surname', 'Family name'],
  firstName: ['Имя', 'Имя сотрудника', 'First name', 'Firstname', 'Given name', 'Forename'],
  middleName: ['Отчество', 'Middle name', 'Middlename', 'Patronymic'],
  position: ['Должность', 'Профессия', 'Должность (профессия)', 'Должность/профессия', 'Position', 'Job title', 'Title', 'Role', 'Job'],
  email: ['E-mail', 'Email', 'Эл. почта', 'Электронная почта', 'Адрес электронной почты', 'Почта', 'Mail', 'E-mail address', 'Email address'],
  serviceNumber: [
    'Табельный номер',
    'Таб. №',
    'Таб. номер',
    'Табельный №',
    'Таб №',
    'Табельный',
    'Service number',
    'Employee number',
    'Employee ID',
    'Employee No',
    'Personnel number',
    'Staff number',
    'Payroll number',
  ],
  department: ['Подразделение', 'Структурное подразделение', 'Отдел', 'Цех', 'Служба', 'Department', 'Division', 'Unit', 'Dept'],
};

/** Lower case, ё as е, Latin look-alikes of Cyrillic letters left alone, everything but letters, digits and № removed. */
export function normalizeHeader(header: string): string {
  return header
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}№]/gu, '');
}

const FIELD_BY_HEADER = new Map<string, ImportField>();
for (const field of IMPORT_FIELDS) {
  for (const name of HEADER_SYNONYMS[field]) FIELD_BY_HEADER.set(normalizeHeader(name), field);
}
// "Е-mail" typed with a Cyrillic Е is common enough to be worth a key of its own.
FIELD_BY_HEADER.set('еmail', 'email');

export function fieldOfHeader(header: string): ImportField | null {
  return FIELD_BY_HEADER.get(normalizeHeader(header)) ?? null;
}

export interface Column {
  index: number;
  header: string;
  field: ImportField | null;
}

/** Columns of a header row: each recognised field once (its first column), the rest ignored. */
export function columnsOf(header: readonly string[]): Column[] {
  const seen = new Set<ImportField>();
  return header.map((text, index) => {
    let field = fieldOfHeader(text);
    if (field && seen.has(field)) field = null;
    if (field) seen.add(field);
    return { index, header: text, field };
  });
}

export interface DetectedTable {
  /** Position of the header in the rows given. */
  headerIndex: number;
  /** The header's spreadsheet row number. */
  headerRow: number;
  columns: Column[];
}

/** Finds the header row (see the module header); `importBroken` when it is wider than IMPORT_MAX_COLUMNS. */
export function detectTable(rows: readonly SheetRow[]): DetectedTable {
  const candidates = rows.slice(0, HEADER_SEARCH_ROWS + 1);
  let headerIndex = candidates.findIndex((r) => r.cells.some((cell) => IMPORT_REQUIRED_FIELDS.includes(fieldOfHeader(cell) as ImportField)));
  if (headerIndex < 0) headerIndex = 0;
  const header = rows[headerIndex];
  if (header && header.cells.length > IMPORT_MAX_COLUMNS) throw new AppError('importBroken', 400);
  return { headerIndex, headerRow: header?.row ?? 1, columns: columnsOf(header?.cells ?? []) };
}

/**
 * The `mapping` form field: a JSON array with a field name or null per column. Anything else (not JSON,
 * not an array, an unknown field, a field twice, more entries than columns) is 400 `errors.mapping`.
 */
export function parseMappingField(raw: string | undefined, columnCount: number): (ImportField | null)[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  const invalid = () => new AppError('validation', 400, { fieldErrors: { mapping: 'invalid' } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    if (error instanceof SyntaxError) throw invalid();
    throw error;
  }
  if (!Array.isArray(parsed) || parsed.length > Math.max(columnCount, 0)) throw invalid();
  const fields: (ImportField | null)[] = [];
  for (const value of parsed as unknown[]) {
    if (value === null || value === '') fields.push(null);
    else if (typeof value === 'string' && (IMPORT_FIELDS as readonly string[]).includes(value)) fields.push(value as ImportField);
    else throw invalid();
  }
  const named = fields.filter((f): f is ImportField => f !== null);
  if (new Set(named).size !== named.length) throw invalid();
  return fields;
}

/**
 * The client's choice laid over the detected columns: entry i decides column i (a field or null); columns
 * past the end of `mapping` keep what was detected, unless the client gave their field to another column.
 */
export function applyMapping(columns: readonly Column[], mapping: readonly (ImportField | null)[] | null): Column[] {
  if (!mapping) return columns.map((c) => ({ ...c }));
  const chosen = new Set(mapping.filter((f): f is ImportField => f !== null));
  return columns.map((column) => {
    if (column.index < mapping.length) return { ...column, field: mapping[column.index] ?? null };
    return { ...column, field: column.field && chosen.has(column.field) ? null : column.field };
  });
}

/** Required fields no column maps to. */
export function missingFields(columns: readonly Column[]): ImportField[] {
  return IMPORT_REQUIRED_FIELDS.filter((field) => !columns.some((c) => c.field === field));
}
