// Writes the dashboard's workbook (xlsx-rows.ts) and hands it to the browser's downloads. write-excel-file is
// loaded here by a dynamic import, on the first export only: it never weighs on the dashboard's first paint nor
// on any other route.
import type { IntlShape } from 'react-intl';
import type { Dashboard } from '../../domain/dashboard';
import { saveFile } from '../../lib/download';
import { dashboardSheets, exportFileName, type WorkbookContext } from './xlsx-rows';

/** Builds the XLSX of `dashboard` and saves it as `dashboard-<from>-<to>.xlsx`. */
export async function exportDashboardXlsx(intl: Pick<IntlShape, 'formatMessage' | 'formatDate' | 'locale'>, dashboard: Dashboard, context: WorkbookContext): Promise<void> {
  const { default: writeXlsxFile } = await import('write-excel-file/browser');
  const sheets = dashboardSheets(intl, dashboard, context);
  const blob = await writeXlsxFile(
    sheets.map((sheet) => ({ sheet: sheet.name, data: sheet.data, columns: sheet.columns })),
    { fontFamily: 'Calibri', fontSize: 11 },
  ).toBlob();
  saveFile(blob, exportFileName(dashboard));
}
