// The column mapping of the import's preview step: which employee field each column of the file fills.
// Pure rules, shared by the mapping table and the import request: the server's detection is the starting
// point, the user may change any column, and the file may be imported only when every required field has a
// column and no field has two.
import { IMPORT_FIELDS, IMPORT_REQUIRED_FIELDS, type ImportField, type ImportPreview } from '../../../domain/company';

/** One entry per column of the file, in the file's order: the field it fills, or null (ignored). */
export type ColumnMapping = readonly (ImportField | null)[];

/** The Select's id for "do not import this column" (a select value is a string, never null). */
export const IGNORE_COLUMN = 'ignore';

/** The mapping the server detected, one entry per column, in the file's order. */
export function detectedMapping(preview: Pick<ImportPreview, 'columns'>): (ImportField | null)[] {
  const byIndex = new Map(preview.columns.map((column) => [column.index, column.field]));
  const length = preview.columns.reduce((most, column) => Math.max(most, column.index + 1), 0);
  return Array.from({ length }, (_, index) => byIndex.get(index) ?? null);
}

/** The mapping after the user chose `field` (or ignore) for the column at `index`. */
export function withColumnField(mapping: ColumnMapping, index: number, field: ImportField | null): (ImportField | null)[] {
  return mapping.map((current, i) => (i === index ? field : current));
}

/** A Select value back to a field: anything that is not a field means "ignore". */
export function fieldOfChoice(choice: string): ImportField | null {
  return (IMPORT_FIELDS as readonly string[]).includes(choice) ? (choice as ImportField) : null;
}

/** Required fields no column fills, in the order of IMPORT_REQUIRED_FIELDS. */
export function missingRequiredFields(mapping: ColumnMapping): ImportField[] {
  return IMPORT_REQUIRED_FIELDS.filter((field) => !mapping.includes(field));
}

/** Fields that more than one column fills, in the order of IMPORT_FIELDS. */
export function duplicatedFields(mapping: ColumnMapping): ImportField[] {
  return IMPORT_FIELDS.filter((field) => mapping.filter((current) => current === field).length > 1);
}

/** Whether the file can be imported with this mapping. */
export function isMappingComplete(mapping: ColumnMapping): boolean {
  return missingRequiredFields(mapping).length === 0 && duplicatedFields(mapping).length === 0;
}

/** The `mapping` field of the import request (docs/api.md, "Import"): a JSON array, field or null per column. */
export function mappingFieldValue(mapping: ColumnMapping): string {
  return JSON.stringify(mapping.map((field) => field ?? null));
}
