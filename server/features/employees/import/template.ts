// The import template (GET .../employees/import-template): one header row in the request's language, which
// the import recognises in either language, and one example row. XLSX through write-excel-file (the service
// number written as text, so leading zeros stay); CSV as Excel in a Russian locale opens it: UTF-8 with a
// BOM, semicolons, CRLF. Every cell goes through `neutralizeFormula`, as every cell the service writes into a
// spreadsheet must: its texts come from the catalogues, but a spreadsheet never runs one of them.

import writeXlsxFile from 'write-excel-file/node';
import { IMPORT_FIELDS, type ImportField } from '../../../../src/domain/company';
import type { Locale } from '../../../../src/domain/auth';
import { neutralizeFormula } from '../../../../src/domain/spreadsheet';
import { translate } from '../../../i18n/messages';

export const TEMPLATE_FORMATS = ['xlsx', 'csv'] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

export const TEMPLATE_CONTENT_TYPES: Record<TemplateFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

const COLUMN_WIDTHS: Record<ImportField, number> = {
  lastName: 18,
  firstName: 16,
  middleName: 18,
  position: 26,
  email: 28,
  serviceNumber: 16,
  department: 26,
};

export function templateRows(locale: Locale): { headers: string[]; example: string[] } {
  return {
    headers: IMPORT_FIELDS.map((field) => neutralizeFormula(translate(locale, `import.field.${field}`))),
    example: IMPORT_FIELDS.map((field) => neutralizeFormula(translate(locale, `import.template.example.${field}`))),
  };
}

function csvCell(value: string): string {
  return /[";\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export async function buildTemplate(format: TemplateFormat, locale: Locale): Promise<Buffer> {
  const { headers, example } = templateRows(locale);
  if (format === 'csv') {
    const text = [headers, example].map((row) => row.map(csvCell).join(';')).join('\r\n') + '\r\n';
    return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
  }
  return writeXlsxFile(
    [
      headers.map((value) => ({ value, fontWeight: 'bold' as const })),
      example.map((value) => ({ value, type: String })),
    ],
    { sheet: translate(locale, 'import.template.sheet'), stickyRowsCount: 1, columns: IMPORT_FIELDS.map((field) => ({ width: COLUMN_WIDTHS[field] })) },
  ).toBuffer();
}
