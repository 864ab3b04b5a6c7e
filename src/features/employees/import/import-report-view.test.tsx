import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import ru from '../../../../locales/ru.json';
import type { ImportReport } from '../../../domain/company';
import { ImportReportView } from './components/import-report-view';
import { VIRTUALIZE_FROM } from './components/virtual-list';
import { rejectedRowsCsv } from './rejected-csv';
import { sampleReport } from './test-samples';

afterEach(cleanup);

function renderIn(locale: 'en' | 'ru', node: ReactNode) {
  const { hook } = memoryLocation({ path: '/companies/c1/employees/import-report?importId=imp-1' });
  return render(
    <IntlProvider locale={locale} messages={locale === 'ru' ? ru : en} timeZone="UTC">
      <Router hook={hook}>{node}</Router>
    </IntlProvider>,
  );
}

const count = (container: HTMLElement, name: string) => container.querySelector(`[data-count="${name}"] dd`)?.textContent;

describe('the import report', () => {
  it('shows the result, the counts and the file', () => {
    const { container } = renderIn('en', <ImportReportView report={sampleReport} onDownloadRejected={() => undefined} />);
    const status = screen.getByRole('status');
    expect(within(status).getByText('Imported with errors')).toBeTruthy();
    expect(within(status).getByText('3 rows of 5 imported, 2 rejected.')).toBeTruthy();
    expect(within(status).getByText(/File “staff.xlsx”, Mar 2, 2026/)).toBeTruthy();
    expect(count(container, 'imported')).toBe('3');
    expect(count(container, 'created')).toBe('2');
    expect(count(container, 'updated')).toBe('1');
    expect(count(container, 'unchanged')).toBe('0');
    expect(count(container, 'rejected')).toBe('2');
  });

  it('lists each rejected row by its number with its reason and values, in file order', () => {
    renderIn('en', <ImportReportView report={sampleReport} onDownloadRejected={() => undefined} />);
    expect(screen.getByRole('heading', { name: 'Rejected rows (2)' })).toBeTruthy();
    const items = within(screen.getByRole('list', { name: 'Rejected rows' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Row 4First name is requiredСидоров · Т-3',
      'Row 6The e-mail address is not validСмирнов · Олег · oleg@',
    ]);
  });

  it('lists the imported rows with what happened to each and a link to the employee', () => {
    renderIn('en', <ImportReportView report={sampleReport} onDownloadRejected={() => undefined} />);
    const items = within(screen.getByRole('list', { name: 'Imported rows' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Row 2Иванов Иванadded', 'Row 3Петрова Аннаadded', 'Row 5Кузнецов Пётрupdated']);
    expect(within(items[2]!).getByRole('link', { name: 'Кузнецов Пётр' }).getAttribute('href')).toBe('/companies/c1/employees/e3');
  });

  it('leads back to the employees and to another import', () => {
    renderIn('en', <ImportReportView report={sampleReport} onDownloadRejected={() => undefined} />);
    expect(screen.getByRole('link', { name: 'To the employees' }).getAttribute('href')).toBe('/companies/c1/employees');
    expect(screen.getByRole('link', { name: 'Import another file' }).getAttribute('href')).toBe('/companies/c1/employees/import');
  });

  it('offers the rejected rows as a CSV file', async () => {
    const user = userEvent.setup();
    const onDownload = vi.fn();
    renderIn('en', <ImportReportView report={sampleReport} onDownloadRejected={onDownload} />);
    await user.click(screen.getByRole('button', { name: 'Download rejected rows (CSV)' }));
    expect(onDownload).toHaveBeenCalledTimes(1);
  });

  it('says "Imported" and offers no rejected rows when every row went in', () => {
    const clean: ImportReport = { ...sampleReport, result: 'imported', totalRows: 3, rejected: [] };
    renderIn('ru', <ImportReportView report={clean} onDownloadRejected={() => undefined} />);
    expect(within(screen.getByRole('status')).getByText('Импортировано')).toBeTruthy();
    expect(screen.getByText('Импортировано 3 строки из 3.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /CSV/ })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Отклонённые строки' })).toBeNull();
  });

  it('words each imported row in Russian to agree with the person’s gender, neutrally when the name does not tell', () => {
    const imported: ImportReport['imported'] = [
      { row: 2, employeeId: 'e1', fullName: 'Сидорова Анна', action: 'created' },
      { row: 3, employeeId: 'e2', fullName: 'Сидоров Иван', action: 'created' },
      { row: 4, employeeId: 'e3', fullName: 'Черных Саша', action: 'created' },
      { row: 5, employeeId: 'e4', fullName: 'Черных Анна Сергеевна', action: 'updated' },
      { row: 6, employeeId: 'e5', fullName: 'Алиев Рашид Гусейн оглы', action: 'updated' },
      { row: 7, employeeId: 'e6', fullName: 'Ким Саша', action: 'updated' },
      { row: 8, employeeId: 'e7', fullName: 'Петрова Ольга', action: 'unchanged' },
    ];
    const report: ImportReport = { ...sampleReport, result: 'imported', totalRows: imported.length, created: 3, updated: 3, unchanged: 1, rejected: [], imported };
    renderIn('ru', <ImportReportView report={report} onDownloadRejected={() => undefined} />);
    const items = within(screen.getByRole('list', { name: 'Импортированные строки' })).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.import-row__action')?.textContent)).toEqual([
      'добавлена',
      'добавлен',
      'запись добавлена',
      'обновлена',
      'обновлён',
      'запись обновлена',
      'без изменений',
    ]);
  });

  it('keeps the English words as they were, whatever the name', () => {
    const imported: ImportReport['imported'] = [
      { row: 2, employeeId: 'e1', fullName: 'Сидорова Анна', action: 'created' },
      { row: 3, employeeId: 'e4', fullName: 'Черных Саша', action: 'updated' },
    ];
    renderIn('en', <ImportReportView report={{ ...sampleReport, rejected: [], imported }} onDownloadRejected={() => undefined} />);
    const items = within(screen.getByRole('list', { name: 'Imported rows' })).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.import-row__action')?.textContent)).toEqual(['added', 'updated']);
  });

  it('keeps a long list of imported rows to what is on screen', () => {
    const imported = Array.from({ length: VIRTUALIZE_FROM * 3 }, (_, i) => ({ row: i + 2, employeeId: `e${i}`, fullName: `Сотрудник ${i}`, action: 'created' as const }));
    const long: ImportReport = { ...sampleReport, result: 'imported', totalRows: imported.length, created: imported.length, updated: 0, rejected: [], imported };
    renderIn('en', <ImportReportView report={long} onDownloadRejected={() => undefined} />);
    const list = screen.getByRole('list', { name: 'Imported rows' });
    // jsdom lays nothing out, so the virtualizer shows (next to) nothing; a browser shows one screenful.
    expect(within(list).queryAllByRole('listitem').length).toBeLessThan(imported.length);
    expect(screen.getByRole('heading', { name: 'Imported rows (300)' })).toBeTruthy();
  });
});

describe('the CSV of rejected rows', () => {
  const labels = { row: 'Row', reason: 'Reason', column: (n: number) => `Column ${n}` };

  it('holds each rejected row’s number, reason and cells under the file’s headers, for Excel', () => {
    const csv = rejectedRowsCsv(sampleReport.rejected, { labels, headers: ['Фамилия', 'Имя', 'Табельный №', ''], locale: 'ru' });
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const parsed = Papa.parse<string[]>(csv.slice(1), { delimiter: ';', skipEmptyLines: true });
    expect(parsed.data).toEqual([
      ['Row', 'Reason', 'Фамилия', 'Имя', 'Табельный №', 'Column 4'],
      ['6', 'The e-mail address is not valid', 'Смирнов', 'Олег', 'oleg@', ''],
      ['4', 'First name is required', 'Сидоров', '', 'Т-3', ''],
    ]);
  });

  it('numbers the columns when the headers are not known, and uses commas in English', () => {
    const csv = rejectedRowsCsv([{ row: 2, code: 'required', message: 'Last name, please', field: 'lastName', values: ['', 'Ann'] }], { labels, headers: null, locale: 'en' });
    expect(csv).toBe('\uFEFFRow,Reason,Column 1,Column 2\r\n2,"Last name, please",,Ann\r\n');
  });

  it('defuses cells that a spreadsheet would run as formulas', () => {
    const csv = rejectedRowsCsv([{ row: 2, code: 'x', message: 'bad', field: null, values: ['=HYPERLINK("http://evil")'] }], { labels, headers: null, locale: 'en' });
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });
});
