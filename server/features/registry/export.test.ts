// The registry's exports (docs/api.md "Registry exports"), read back as a person's tools read them: the XLSX through
// read-excel-file, the PDF through pdftotext and pdffonts (poppler-utils, as the invoice tests use them). Registries
// are written straight to the table, shaped as src/domain/registry.ts `Registry`, their totals `registryTotals`.

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { strFromU8, unzipSync } from 'fflate';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryTotals, type Registry, type RegistryItem } from '../../../src/domain/registry';
import type { Database } from '../../db/database';
import { api, json, testAppPerFile } from '../../test-support';
import { legalEntityInn } from '../companies/fixtures';
import { createCompany, signUpMember, type Login } from '../projects/fixtures';
import { amountAsNumber, formatAmount, formatExportTime, registryExportFileName, renderRegistryPdf } from './export';

const t = testAppPerFile();
const dir = mkdtempSync(path.join(tmpdir(), 'registry-export-test-'));

let owner: Login;
let direction: Login;
let employee: Login;
let outsider: Login;
let company: string;
let inn: string;
let rival: string;
let approved: Registry;
let sent: Registry;
let returned: Registry;
let long: Registry;
let rivalRegistry: Registry;

const COMPANY_NAME = 'ООО «Ёлка и Ко»';
const EVIL = '=HYPERLINK("http://evil")';

function item(fields: Partial<RegistryItem> & Pick<RegistryItem, 'name'>): RegistryItem {
  return {
    projectId: randomUUID(),
    departmentId: null,
    projectManagerName: null,
    currency: 'RUB',
    estimatedCostsMinor: 0,
    expectedEffect12mMinor: 0,
    remunerationMinor: 0,
    finalCostMinor: null,
    adjustmentReason: null,
    ...fields,
  };
}

function registry(companyId: string, number: number, items: RegistryItem[], fields: Partial<Registry> = {}): Registry {
  return {
    id: randomUUID(),
    companyId,
    number,
    status: 'SENT',
    items,
    totals: registryTotals(items),
    sentByUserId: null,
    sentByName: 'Направленцев Дмитрий',
    sentAt: '2026-11-20T09:00:00.000Z',
    decidedByUserId: null,
    decidedByName: null,
    decidedAt: null,
    comment: null,
    history: [],
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-20T09:00:00.000Z',
    ...fields,
  };
}

async function insertRegistry(db: Database, row: Registry): Promise<Registry> {
  await db.query(
    `INSERT INTO registries (company_id, id, number, status, items, totals, sent_by, sent_by_name, sent_at, decided_by, decided_by_name,
       decided_at, decision_comment, history, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, $16)`,
    [
      row.companyId,
      row.id,
      row.number,
      row.status,
      JSON.stringify(row.items),
      JSON.stringify(row.totals),
      row.sentByUserId,
      row.sentByName,
      row.sentAt,
      row.decidedByUserId,
      row.decidedByName,
      row.decidedAt,
      row.comment,
      JSON.stringify(row.history),
      row.createdAt,
      row.updatedAt,
    ],
  );
  return row;
}

beforeAll(async () => {
  for (const tool of ['pdftotext', 'pdffonts']) {
    try {
      execFileSync(tool, ['-v'], { stdio: 'ignore' });
    } catch (error) {
      throw new Error(`${tool} is needed to read the registry PDF: apt-get install poppler-utils (.ci/run does)`, { cause: error });
    }
  }
  [owner, direction, employee, outsider] = await Promise.all([
    signUpMember(t, { lastName: 'Хозяинов' }),
    signUpMember(t, { lastName: 'Направленцев' }),
    signUpMember(t, { lastName: 'Рядовой' }),
    signUpMember(t, { lastName: 'Чужой' }),
  ]);
  company = (await createCompany(t.db, COMPANY_NAME, { [owner.id]: ['OWNER'], [direction.id]: ['DIRECTION_MANAGER'], [employee.id]: ['EMPLOYEE'] })).companyId;
  inn = legalEntityInn();
  await t.db.query('UPDATE companies SET inn = $2 WHERE id = $1', [company, inn]);
  rival = (await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] })).companyId;

  approved = await insertRegistry(
    t.db,
    registry(
      company,
      3,
      [
        item({
          name: 'Быстрая переналадка',
          projectManagerName: 'Сидоров Сидор Сидорович',
          estimatedCostsMinor: 123_456_789,
          finalCostMinor: 100_000_000,
          adjustmentReason: 'Поставщик дал скидку',
          expectedEffect12mMinor: 500_000_000,
          remunerationMinor: 50_000_000,
        }),
        item({ name: EVIL, estimatedCostsMinor: 1_000_000, expectedEffect12mMinor: 3_000_000, remunerationMinor: 300_000 }),
        item({ name: '+1', projectManagerName: 'Smith John', currency: 'USD', estimatedCostsMinor: 250_050, expectedEffect12mMinor: 1_000_000, remunerationMinor: 100_000 }),
      ],
      {
        status: 'APPROVED',
        sentByUserId: direction.id,
        decidedByUserId: owner.id,
        decidedByName: 'Хозяинов Олег',
        // 00:30 on 22 November in Moscow.
        decidedAt: '2026-11-21T21:30:00.000Z',
        comment: 'Согласовано',
        updatedAt: '2026-11-21T21:30:00.000Z',
      },
    ),
  );
  sent = await insertRegistry(t.db, registry(company, 4, [item({ name: 'Новая оснастка', projectManagerName: 'Петров Пётр', estimatedCostsMinor: 500_00, expectedEffect12mMinor: 1_500_00 })]));
  returned = await insertRegistry(
    t.db,
    registry(company, 2, [item({ name: 'Сменный график', currency: 'AUD', estimatedCostsMinor: 7 })], {
      status: 'RETURNED',
      decidedByName: 'Хозяинов Олег',
      decidedAt: '2026-11-10T08:05:00.000Z',
      comment: 'Пересчитать затраты\nпо второму проекту',
    }),
  );
  long = await insertRegistry(
    t.db,
    registry(
      company,
      5,
      Array.from({ length: 80 }, (_, i) => item({ name: `Проект номер ${i + 1}`, projectManagerName: 'Иванов Иван', estimatedCostsMinor: 100_00, expectedEffect12mMinor: 1_000_00 })),
    ),
  );
  rivalRegistry = await insertRegistry(t.db, registry(rival, 1, [item({ name: 'Чужой проект', estimatedCostsMinor: 1 })]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function download(who: Login | null, companyId: string, registryId: string, query: string, language = 'en'): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url: api(`/companies/${companyId}/registry/${registryId}/export${query}`),
    headers: { Language: language, ...(who ? { authorization: `Bearer ${who.access}` } : {}) },
  });
}

async function sheetOf(response: LightMyRequestResponse): Promise<unknown[][]> {
  expect(response.statusCode, response.body).toBe(200);
  return readSheet(response.rawPayload);
}

/** The row whose first non-empty cells are `start` (a label in column B, a header in column A). */
function rowStarting(rows: unknown[][], column: number, value: unknown): unknown[] {
  const found = rows.find((row) => row[column] === value);
  if (!found) throw new Error(`no row with ${String(value)} in column ${column}: ${JSON.stringify(rows)}`);
  return found;
}

function pdfTool(tool: 'pdftotext' | 'pdffonts', pdf: Buffer): string {
  const file = path.join(dir, `${randomUUID()}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync(tool, tool === 'pdftotext' ? ['-raw', '-enc', 'UTF-8', file, '-'] : [file], { encoding: 'utf8' });
}

/** The PDF's text with every run of white space (the no-break spaces of amounts too) as one space. */
const textOf = (pdf: Buffer) => pdfTool('pdftotext', pdf).replace(/\s+/g, ' ');

function assertEmbeddedUnicodeFonts(pdf: Buffer): void {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // Every font is embedded (emb), subset (sub) and has a Unicode map (uni); no standard font is used.
  const fonts = pdfTool('pdffonts', pdf).trim().split('\n').slice(2);
  expect(fonts.length).toBeGreaterThan(0);
  for (const line of fonts) expect(line, line).toMatch(/DejaVuSans.*\byes\s+yes\s+yes\b/);
}

describe('GET /companies/{companyId}/registry/{registryId}/export?format=xlsx', () => {
  it('answers an approved registry as a workbook: heading, a row per project with numeric amounts, totals per currency', async () => {
    const response = await download(employee, company, approved.id, '?format=xlsx');
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toBe('attachment; filename="registry-3.xlsx"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const rows = await sheetOf(response);

    expect(rows[0]?.[0]).toBe('Registry No. 3');
    expect(rowStarting(rows, 1, 'Company')[2]).toBe(COMPANY_NAME);
    expect(rowStarting(rows, 1, 'INN')[2]).toBe(inn);
    expect(rowStarting(rows, 1, 'Status')[2]).toBe('Approved by the owner: these are the figures of record');
    expect(rowStarting(rows, 1, 'Sent')[2]).toBe('Направленцев Дмитрий, 20.11.2026, 12:00 (Europe/Moscow, UTC+3)');
    expect(rowStarting(rows, 1, 'Decided')[2]).toBe('Хозяинов Олег, 22.11.2026, 00:30 (Europe/Moscow, UTC+3)');
    expect(rowStarting(rows, 1, "Owner's comment")[2]).toBe('Согласовано');
    expect(rowStarting(rows, 1, "Times are given in the company's time zone, Europe/Moscow.")).toBeDefined();

    const header = rowStarting(rows, 0, 'No.');
    expect(header).toEqual([
      'No.',
      'Project',
      'Project manager',
      'Currency',
      'Estimated costs',
      'Final cost',
      'Reason for the adjustment',
      'Expected 12-month effect',
      'Remuneration',
    ]);
    const first = rows.indexOf(header) + 1;
    expect(rows[first]).toEqual([1, 'Быстрая переналадка', 'Сидоров Сидор Сидорович', 'RUB', 1_234_567.89, 1_000_000, 'Поставщик дал скидку', 5_000_000, 500_000]);
    expect(rows[first + 1]).toEqual([2, `'${EVIL}`, '—', 'RUB', 10_000, 10_000, null, 30_000, 3_000]);
    expect(rows[first + 2]).toEqual([3, "'+1", 'Smith John', 'USD', 2_500.5, 2_500.5, null, 10_000, 1_000]);

    const totalsTitle = rows.indexOf(rowStarting(rows, 1, 'Totals by currency'));
    expect(rows[totalsTitle + 1]).toEqual([null, 'Total RUB: 2 projects', null, 'RUB', 1_244_567.89, 1_010_000, null, 5_030_000, 503_000]);
    expect(rows[totalsTitle + 2]).toEqual([null, 'Total USD: 1 project', null, 'USD', 2_500.5, 2_500.5, null, 10_000, 1_000]);
    expect(rows.length).toBe(totalsTitle + 3);
  });

  it("formats amounts as '#,##0.00' numbers, never as text", async () => {
    const response = await download(owner, company, approved.id, '?format=xlsx');
    const cells = await readSheet(response.rawPayload, { parseNumber: (raw: string) => `number:${raw}` });
    const header = cells.findIndex((row) => row[0] === 'No.');
    expect(cells[header + 1]?.[4]).toBe('number:1234567.89');
    // The amount cell's style (s="n") is the n-th cell format, whose number format is '#,##0.00'.
    const parts = unzipSync(new Uint8Array(response.rawPayload));
    const sheet = strFromU8(parts['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
    const styles = strFromU8(parts['xl/styles.xml'] ?? new Uint8Array());
    const style = Number(new RegExp(`<c r="E${header + 2}" s="(\\d+)"`).exec(sheet)?.[1]);
    const formats = /<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(styles)?.[1]?.match(/<xf [^>]*>/g) ?? [];
    const formatId = /numFmtId="(\d+)"/.exec(formats[style] ?? '')?.[1];
    expect(styles).toMatch(new RegExp(`<numFmt numFmtId="${formatId}" formatCode="#,##0.00"`));
  });

  it('speaks Russian when the request does, and states a returned registry and its comment', async () => {
    const rows = await sheetOf(await download(direction, company, returned.id, '?format=xlsx', 'ru'));
    expect(rows[0]?.[0]).toBe('Реестр № 2');
    expect(rowStarting(rows, 1, 'Компания')[2]).toBe(COMPANY_NAME);
    expect(rowStarting(rows, 1, 'ИНН')[2]).toBe(inn);
    expect(rowStarting(rows, 1, 'Статус')[2]).toBe('Возвращён владельцем: его проекты вернулись в открытый реестр');
    expect(rowStarting(rows, 1, 'Решение принято')[2]).toBe('Хозяинов Олег, 10.11.2026, 11:05 (Europe/Moscow, UTC+3)');
    expect(rowStarting(rows, 1, 'Комментарий владельца')[2]).toBe('Пересчитать затраты\nпо второму проекту');
    expect(rowStarting(rows, 1, 'Время указано в часовом поясе компании: Europe/Moscow.')).toBeDefined();
    expect(rowStarting(rows, 0, '№')).toEqual([
      '№',
      'Проект',
      'Руководитель проекта',
      'Валюта',
      'Расчётные затраты',
      'Итоговая стоимость',
      'Причина корректировки',
      'Ожидаемый эффект за 12 месяцев',
      'Вознаграждение',
    ]);
    expect(rowStarting(rows, 1, 'Итого AUD: 1 проект')[4]).toBe(0.07);
  });

  it('has no decision lines while the registry waits on the owner', async () => {
    const rows = await sheetOf(await download(owner, company, sent.id, '?format=xlsx'));
    expect(rowStarting(rows, 1, 'Status')[2]).toBe('Sent to the owner, awaiting the decision');
    expect(rows.some((row) => row[1] === 'Decided' || row[1] === "Owner's comment")).toBe(false);
    expect(rowStarting(rows, 1, 'Total RUB: 1 project')[4]).toBe(500);
  });
});

describe('GET /companies/{companyId}/registry/{registryId}/export?format=pdf', () => {
  it('answers a PDF in Russian with embedded fonts, the Cyrillic names, the adjusted cost, its reason and the totals', async () => {
    const response = await download(employee, company, approved.id, '?format=pdf', 'ru');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="registry-3.pdf"');
    assertEmbeddedUnicodeFonts(response.rawPayload);
    const text = textOf(response.rawPayload);
    expect(text).toContain('Реестр № 3');
    expect(text).toContain(`Компания: ${COMPANY_NAME}`);
    expect(text).toContain(`ИНН: ${inn}`);
    expect(text).toContain('Статус: Утверждён владельцем: это окончательные учётные показатели');
    expect(text).toContain('Отправлен: Направленцев Дмитрий, 20.11.2026, 12:00 (Europe/Moscow, UTC+3)');
    expect(text).toContain('Решение принято: Хозяинов Олег, 22.11.2026, 00:30 (Europe/Moscow, UTC+3)');
    expect(text).toContain('Комментарий владельца: Согласовано');
    expect(text).toContain('Время указано в часовом поясе компании: Europe/Moscow.');
    expect(text).toContain('1 Быстрая переналадка Сидоров Сидор Сидорович RUB 1 234 567,89 1 000 000,00 Поставщик дал скидку 5 000 000,00 500 000,00');
    // The PDF is no spreadsheet: names print as written.
    expect(text).toContain(`2 ${EVIL} — RUB 10 000,00 10 000,00 30 000,00 3 000,00`);
    expect(text).toContain('3 +1 Smith John USD 2 500,50 2 500,50 10 000,00 1 000,00');
    expect(text).toContain('Итоги по валютам');
    expect(text).toContain('Итого RUB: 2 проекта RUB 1 244 567,89 1 010 000,00 5 030 000,00 503 000,00');
    expect(text).toContain('Итого USD: 1 проект USD 2 500,50 2 500,50 10 000,00 1 000,00');
    expect(text).toContain('Реестр № 3 · страница 1 из 1');
  });

  it('speaks English when the request does', async () => {
    const response = await download(owner, company, approved.id, '?format=pdf', 'en');
    assertEmbeddedUnicodeFonts(response.rawPayload);
    const text = textOf(response.rawPayload);
    expect(text).toContain('Registry No. 3');
    expect(text).toContain('Status: Approved by the owner: these are the figures of record');
    expect(text).toContain('Decided: Хозяинов Олег, 22.11.2026, 00:30 (Europe/Moscow, UTC+3)');
    expect(text).toContain("Times are given in the company's time zone, Europe/Moscow.");
    // A header too wide for its column wraps after its hyphen ("12-" / "month").
    expect(text.replace(/- /g, '-')).toContain('No. Project Project manager Currency Estimated costs Final cost Reason for the adjustment Expected 12-month effect Remuneration');
    expect(text).toContain('1 Быстрая переналадка Сидоров Сидор Сидорович RUB 1,234,567.89 1,000,000.00 Поставщик дал скидку 5,000,000.00 500,000.00');
    expect(text).toContain('Total RUB: 2 projects RUB 1,244,567.89 1,010,000.00 5,030,000.00 503,000.00');
    expect(text).toContain('Total USD: 1 project USD 2,500.50 2,500.50 10,000.00 1,000.00');
  });

  it('is the same file at every download', async () => {
    const a = await download(owner, company, approved.id, '?format=pdf', 'ru');
    const b = await download(direction, company, approved.id, '?format=pdf', 'ru');
    expect(textOf(a.rawPayload)).toBe(textOf(b.rawPayload));
  });

  it('runs a long registry over pages, the table header on each, every project and the totals kept', async () => {
    const response = await download(owner, company, long.id, '?format=pdf', 'en');
    const pages = pdfTool('pdftotext', response.rawPayload).split('\f').filter((page) => page.trim() !== '');
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.replace(/\s+/g, ' ')).toContain('No. Project Project manager');
    const text = textOf(response.rawPayload);
    for (let i = 1; i <= 80; i += 1) expect(text).toContain(`${i} Проект номер ${i} Иванов Иван RUB 100.00`);
    expect(text).toContain('Total RUB: 80 projects RUB 8,000.00 8,000.00 80,000.00 0.00');
    expect(text).toContain(`Registry No. 5 · page ${pages.length} of ${pages.length}`);
  });
});

describe('who gets an export', () => {
  it('answers 404 for another company’s registry, a missing one and a non-member, alike', async () => {
    const missing = await download(owner, company, randomUUID(), '?format=pdf');
    expect(missing.statusCode).toBe(404);
    const theirs = await download(owner, company, rivalRegistry.id, '?format=pdf');
    expect(theirs.statusCode).toBe(404);
    expect(json(theirs)).toEqual(json(missing));
    const outside = await download(owner, rival, rivalRegistry.id, '?format=xlsx');
    expect(outside.statusCode).toBe(404);
    expect(json(outside)).toEqual(json(missing));
    expect((await download(outsider, company, approved.id, '?format=xlsx')).statusCode).toBe(404);
    expect((await download(owner, company, 'not-an-id', '?format=xlsx')).statusCode).toBe(404);
    expect((await download(null, company, approved.id, '?format=xlsx')).statusCode).toBe(401);
  });

  it('answers 400 naming the format when it is unknown or missing, in the request’s language', async () => {
    const unknown = await download(owner, company, approved.id, '?format=csv');
    expect(unknown.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string> }>(unknown).errors).toEqual({ format: expect.any(String) });
    const missing = await download(owner, company, approved.id, '', 'ru');
    expect(missing.statusCode).toBe(400);
    expect(json<{ message: string; errors: Record<string, string> }>(missing).errors).toEqual({ format: expect.any(String) });
    expect(json<{ message: string }>(missing).message).toMatch(/[а-яё]/i);
  });

  it('gives a member of the rival company its own registry', async () => {
    const rows = await sheetOf(await download(outsider, rival, rivalRegistry.id, '?format=xlsx'));
    expect(rowStarting(rows, 1, 'Company')[2]).toBe('Rival');
    expect(rowStarting(rows, 1, 'INN')[2]).toBe('—');
  });
});

describe('export formatting', () => {
  it('writes amounts from minor units exactly, as each language groups digits', () => {
    expect(formatAmount(123_456_789_05, 'ru')).toBe('123\u00a0456\u00a0789,05');
    expect(formatAmount(123_456_789_05, 'en')).toBe('123,456,789.05');
    expect(formatAmount(5, 'en')).toBe('0.05');
    expect(formatAmount(Number.MAX_SAFE_INTEGER, 'en')).toBe('90,071,992,547,409.91');
    expect(amountAsNumber(123_456_789)).toBe(1_234_567.89);
  });

  it("prints times in the company's time zone and names it", () => {
    expect(formatExportTime('2026-03-14T22:30:00Z', 'Europe/Moscow')).toBe('15.03.2026, 01:30 (Europe/Moscow, UTC+3)');
    expect(formatExportTime('2026-03-14T22:30:00Z', 'Asia/Vladivostok')).toBe('15.03.2026, 08:30 (Asia/Vladivostok, UTC+10)');
    expect(formatExportTime('2026-03-14T22:30:00Z', 'America/New_York')).toBe('14.03.2026, 18:30 (America/New_York, UTC-4)');
  });

  it("follows the company's time zone in both files once it changes", async () => {
    await t.db.query(`UPDATE companies SET time_zone = 'Asia/Vladivostok' WHERE id = $1`, [company]);
    try {
      const rows = await sheetOf(await download(owner, company, approved.id, '?format=xlsx', 'ru'));
      expect(rowStarting(rows, 1, 'Решение принято')[2]).toBe('Хозяинов Олег, 22.11.2026, 07:30 (Asia/Vladivostok, UTC+10)');
      expect(rowStarting(rows, 1, 'Время указано в часовом поясе компании: Asia/Vladivostok.')).toBeDefined();
      const text = textOf((await download(owner, company, approved.id, '?format=pdf', 'en')).rawPayload);
      expect(text).toContain('Decided: Хозяинов Олег, 22.11.2026, 07:30 (Asia/Vladivostok, UTC+10)');
      expect(text).toContain("Times are given in the company's time zone, Asia/Vladivostok.");
    } finally {
      await t.db.query(`UPDATE companies SET time_zone = 'Europe/Moscow' WHERE id = $1`, [company]);
    }
  });

  it('wraps the longest texts a registry may hold instead of losing them', async () => {
    const reason = `${'Поставщик снизил цену после переговоров '.repeat(25).trim()} конец`.slice(-1000);
    const comment = `${'Проверить затраты второго проекта '.repeat(58).trim()} конец`;
    const name = 'П'.repeat(200);
    const input = {
      company: { name: COMPANY_NAME, inn: null, timeZone: 'Europe/Moscow' },
      registry: registry(company, 9, [item({ name, estimatedCostsMinor: 100, finalCostMinor: 50, adjustmentReason: reason })], {
        status: 'APPROVED',
        decidedByName: 'Хозяинов Олег',
        decidedAt: '2026-11-21T09:00:00.000Z',
        comment,
      }),
    };
    const pdf = await renderRegistryPdf(input, 'ru');
    assertEmbeddedUnicodeFonts(pdf);
    const text = textOf(pdf);
    expect(text).toContain(`Комментарий владельца: ${comment}`);
    expect(text.replace(/ /g, '')).toContain(reason.replace(/ /g, ''));
    expect(text.replace(/ /g, '')).toContain(name);
    expect(text).toContain('ИНН: —');
  });

  it('names the files by the registry number', () => {
    expect(registryExportFileName(12, 'xlsx')).toBe('registry-12.xlsx');
    expect(registryExportFileName(12, 'pdf')).toBe('registry-12.pdf');
  });
});
