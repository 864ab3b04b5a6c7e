import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestApp } from '../../test-support';
import { addMember, call, companyRow, createCompanyAs, entrepreneurInn, legalEntityInn, login, type Login } from './fixtures';
import { formatInTimeZone } from '../../../src/domain/time-format';
import { formatInvoiceDate, formatRubles, invoiceFileName, PLATFORM_PAYEE, renderInvoicePdf } from './invoice';

// pdftotext and pdffonts (poppler-utils, installed by .ci/run) read the PDF the way a viewer does: the text
// must come out as written (Cyrillic included), which proves the font is embedded with a ToUnicode map.
// pdftotext runs with -raw: text in the order it is drawn, so a label is followed by its value.

let t: TestApp;
let owner: Login;
let ceo: Login;
let findir: Login;
let hr: Login;
let employee: Login;
let outsider: Login;
let company: string;
let inn: string;
let rival: string;
const dir = mkdtempSync(path.join(tmpdir(), 'invoice-test-'));

beforeAll(async () => {
  for (const tool of ['pdftotext', 'pdffonts']) {
    try {
      execFileSync(tool, ['-v'], { stdio: 'ignore' });
    } catch (error) {
      throw new Error(`${tool} is needed to read the invoice PDF: apt-get install poppler-utils (.ci/run does)`, { cause: error });
    }
  }
  t = await createTestApp();
  [owner, ceo, findir, hr, employee, outsider] = await Promise.all([login(t), login(t), login(t), login(t), login(t), login(t)]);
  inn = legalEntityInn();
  company = await createCompanyAs(t, owner, { name: 'ООО «Ёлка и Ко»', inn, kpp: '773601001' });
  await addMember(t, company, ceo, ['CEO']);
  await addMember(t, company, findir, ['FINANCIAL_DIRECTOR']);
  await addMember(t, company, hr, ['HR']);
  await addMember(t, company, employee, ['EMPLOYEE']);
  rival = await createCompanyAs(t, outsider, { name: 'Rival' });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

function pdfTool(tool: 'pdftotext' | 'pdffonts', pdf: Buffer): string {
  const file = path.join(dir, `${randomUUID()}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync(tool, tool === 'pdftotext' ? ['-raw', '-enc', 'UTF-8', file, '-'] : [file], { encoding: 'utf8' });
}

/** The PDF's text with every run of white space (the no-break spaces of amounts too) as one space. */
const textOf = (pdf: Buffer) => pdfTool('pdftotext', pdf).replace(/\s+/g, ' ');

function assertEmbeddedUnicodeFonts(pdf: Buffer): void {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const raw = pdf.toString('latin1');
  expect(raw).toMatch(/\/FontFile2 \d+ 0 R/);
  expect(raw).toMatch(/\/ToUnicode \d+ 0 R/);
  expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
  // Every font is embedded (emb), subset (sub) and has a Unicode map (uni); no standard font is used.
  const fonts = pdfTool('pdffonts', pdf).trim().split('\n').slice(2);
  expect(fonts.length).toBeGreaterThan(0);
  for (const line of fonts) expect(line, line).toMatch(/DejaVuSans.*\byes\s+yes\s+yes\b/);
}

describe('GET /companies/{companyId}/invoice', () => {
  it("answers the owner a PDF with the platform's details, the company's, the amount and the payment reference, in Russian", async () => {
    const response = await call(t, 'GET', `/companies/${company}/invoice`, owner, undefined, { Language: 'ru' });
    expect(response.statusCode).toBe(200);
    const row = await companyRow(t, company);
    const number = String(row?.invoice_number);
    expect(number).toMatch(/^INV-\d+$/);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="invoice-${number}.pdf"`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const pdf = response.rawPayload;
    assertEmbeddedUnicodeFonts(pdf);
    const text = textOf(pdf);
    const date = formatInvoiceDate(new Date(String((row?.created_at as Date).toISOString())), 'Europe/Moscow');
    expect(date).toMatch(/^\d{2}\.\d{2}\.\d{4} \(Europe\/Moscow, UTC\+3\)$/);
    expect(text).toContain(`Счёт на оплату № ${number} от ${date.slice(0, 10)} Дата счёта: ${date}`);
    expect(text).toContain(`Плательщик: ООО «Ёлка и Ко», ИНН ${inn}, КПП 773601001`);
    expect(text).toContain('Поставщик: ООО «Платформа улучшений», ИНН 7701234560, КПП 770101001');
    for (const detail of [PLATFORM_PAYEE.bic, PLATFORM_PAYEE.account, PLATFORM_PAYEE.correspondentAccount, 'АО «Демо Банк», г. Москва']) expect(text).toContain(detail);
    expect(text).toContain('№ Наименование Кол-во Ед. Цена Сумма 1 Подтверждение компании на платформе улучшений 1 усл. 1 000,00 ₽ 1 000,00 ₽');
    expect(text).toContain('Итого: 1 000,00 ₽ Без налога (НДС): —');
    expect(text).toContain('Всего к оплате: 1 000,00 ₽');
    expect(text).toContain(`Назначение платежа: Оплата по счёту № ${number}. НДС не облагается.`);
    expect(text).toContain('Проверка занимает до 5 дней.');
  });

  it("speaks English when the request does, with the company's details as stored", async () => {
    const response = await call(t, 'GET', `/companies/${company}/invoice`, ceo, undefined, { Language: 'en' });
    expect(response.statusCode).toBe(200);
    const number = String((await companyRow(t, company))?.invoice_number);
    const text = textOf(response.rawPayload);
    expect(text).toMatch(new RegExp(`Invoice No\\. ${number} of (\\d{2}\\.\\d{2}\\.\\d{4}) Invoice date: \\1 \\(Europe/Moscow, UTC\\+3\\)`));
    expect(text).toContain(`Payer: ООО «Ёлка и Ко», INN ${inn}, KPP 773601001`);
    expect(text).toContain('Amount due: 1,000.00 RUB');
    expect(text).toContain(`Payment reference: Payment for invoice No. ${number}. VAT not applicable.`);
    assertEmbeddedUnicodeFonts(response.rawPayload);
  });

  it('is the same invoice at every download, for the financial director too', async () => {
    const a = textOf((await call(t, 'GET', `/companies/${company}/invoice`, findir)).rawPayload);
    const b = textOf((await call(t, 'GET', `/companies/${company}/invoice`, owner)).rawPayload);
    expect(a).toBe(b);
  });

  it('leaves out the KPP of an entrepreneur', async () => {
    const ip = await createCompanyAs(t, owner, { legalForm: 'ENTREPRENEUR', name: 'ИП Кравцов Пётр Ильич', inn: entrepreneurInn(), kpp: null });
    const text = textOf((await call(t, 'GET', `/companies/${ip}/invoice`, owner, undefined, { Language: 'ru' })).rawPayload);
    const payer = /Плательщик: (.*?) №/.exec(text)?.[1] ?? '';
    expect(payer).toMatch(/^ИП Кравцов Пётр Ильич, ИНН \d{12}$/);
  });

  it('is refused (403) to HR and employees, and another company answers like a missing one (404)', async () => {
    for (const who of [hr, employee]) expect((await call(t, 'GET', `/companies/${company}/invoice`, who)).statusCode).toBe(403);
    const missing = await call(t, 'GET', `/companies/${randomUUID()}/invoice`, owner);
    expect(missing.statusCode).toBe(404);
    const other = await call(t, 'GET', `/companies/${rival}/invoice`, owner);
    expect(other.statusCode).toBe(404);
    expect(json(other)).toEqual(json(missing));
    expect((await call(t, 'GET', `/companies/${company}/invoice`, null)).statusCode).toBe(401);
  });

  it('gives a company made before invoice numbers existed its number at the first download, and keeps it', async () => {
    const legacy = await t.db.one<{ id: string }>(`INSERT INTO companies (name) VALUES ('Старая') RETURNING id`);
    await addMember(t, legacy!.id, owner, ['OWNER']);
    const first = textOf((await call(t, 'GET', `/companies/${legacy!.id}/invoice`, owner, undefined, { Language: 'ru' })).rawPayload);
    const number = String((await companyRow(t, legacy!.id))?.invoice_number);
    expect(number).toMatch(/^INV-\d+$/);
    expect(first).toContain(`Плательщик: Старая, ИНН —`);
    expect(first).toContain(`№ ${number}`);
    const again = await call(t, 'GET', `/companies/${legacy!.id}/invoice`, owner);
    expect(again.headers['content-disposition']).toBe(`attachment; filename="invoice-${number}.pdf"`);
  });
});

describe("the invoice's date in the company's time zone", () => {
  it('prints the creation date on the calendar of the zone the company chose, naming it, in both languages', async () => {
    // Created at 22:30 UTC on 14 March: already 15 March in Vladivostok, still 14 March in New York.
    const createdAt = '2025-03-14T22:30:00.000Z';
    const east = await createCompanyAs(t, owner, { name: 'ООО «Восток»', timeZone: 'Asia/Vladivostok' });
    const west = await createCompanyAs(t, owner, { name: 'West LLC', timeZone: 'America/New_York' });
    await t.db.query('UPDATE companies SET created_at = $1 WHERE id = ANY($2::uuid[])', [createdAt, [east, west]]);
    const invoiceText = async (id: string, language: 'ru' | 'en') => textOf((await call(t, 'GET', `/companies/${id}/invoice`, owner, undefined, { Language: language })).rawPayload);
    const eastNumber = String((await companyRow(t, east))?.invoice_number);
    expect(await invoiceText(east, 'ru')).toContain(`Счёт на оплату № ${eastNumber} от 15.03.2025 Дата счёта: 15.03.2025 (Asia/Vladivostok, UTC+10)`);
    expect(await invoiceText(east, 'en')).toContain(`Invoice No. ${eastNumber} of 15.03.2025 Invoice date: 15.03.2025 (Asia/Vladivostok, UTC+10)`);
    const westNumber = String((await companyRow(t, west))?.invoice_number);
    expect(await invoiceText(west, 'ru')).toContain(`Счёт на оплату № ${westNumber} от 14.03.2025 Дата счёта: 14.03.2025 (America/New_York, UTC-4)`);
    // The verification page prints the same text with the same formatter from the mirrored row.
    expect(formatInTimeZone(createdAt, 'Asia/Vladivostok', { time: false })).toBe('15.03.2025 (Asia/Vladivostok, UTC+10)');
  });

  it('follows a change of the zone: the same invoice, dated on the new calendar', async () => {
    const id = await createCompanyAs(t, owner, { name: 'ООО «Переезд»' });
    await t.db.query(`UPDATE companies SET created_at = '2025-03-14T22:30:00Z' WHERE id = $1`, [id]);
    const number = String((await companyRow(t, id))?.invoice_number);
    expect(textOf((await call(t, 'GET', `/companies/${id}/invoice`, owner, undefined, { Language: 'en' })).rawPayload)).toContain(
      `Invoice No. ${number} of 15.03.2025 Invoice date: 15.03.2025 (Europe/Moscow, UTC+3)`,
    );
    expect((await call(t, 'PATCH', `/companies/${id}`, owner, { timeZone: 'Europe/London' })).statusCode).toBe(200);
    expect(textOf((await call(t, 'GET', `/companies/${id}/invoice`, owner, undefined, { Language: 'en' })).rawPayload)).toContain(
      `Invoice No. ${number} of 14.03.2025 Invoice date: 14.03.2025 (Europe/London, UTC+0)`,
    );
  });
});

describe('invoice formatting', () => {
  it('writes amounts from kopecks as people read them, without floating point', () => {
    expect(formatRubles(100_000, 'ru')).toBe('1\u00a0000,00\u00a0₽');
    expect(formatRubles(100_000, 'en')).toBe('1,000.00\u00a0RUB');
    expect(formatRubles(123_456_789_05, 'ru')).toBe('123\u00a0456\u00a0789,05\u00a0₽');
    expect(formatRubles(5, 'en')).toBe('0.05\u00a0RUB');
  });

  it("dates the invoice on the company's calendar and names its zone", () => {
    expect(formatInvoiceDate(new Date('2025-03-14T22:30:00Z'), 'Europe/Moscow')).toBe('15.03.2025 (Europe/Moscow, UTC+3)');
    expect(formatInvoiceDate(new Date('2025-03-14T22:30:00Z'), 'America/New_York')).toBe('14.03.2025 (America/New_York, UTC-4)');
  });

  it('keeps the file name to safe characters', () => {
    expect(invoiceFileName('INV-1001')).toBe('invoice-INV-1001.pdf');
    expect(invoiceFileName('A/B"C')).toBe('invoice-A_B_C.pdf');
  });

  it('wraps a long company name instead of losing it', async () => {
    const name = `ООО «${'Очень длинное название '.repeat(8).trim()}»`;
    const pdf = await renderInvoicePdf({ number: 'INV-7', issuedAt: new Date('2025-01-01T12:00:00Z'), timeZone: 'Europe/Moscow', amountMinor: 100_000, payer: { name, inn: '7707083893', kpp: '773601001' } }, 'ru');
    expect(textOf(pdf)).toContain(`Плательщик: ${name}, ИНН 7707083893, КПП 773601001`);
  });
});
