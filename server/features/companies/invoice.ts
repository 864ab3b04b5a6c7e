// The verification invoice as a PDF (docs/api.md, `GET /companies/{companyId}/invoice`): the platform's
// payment details, the payer's (name, INN, KPP), the amount and the payment reference (the invoice number),
// in the request's language. DejaVu Sans is embedded (subset, with a ToUnicode map), so Cyrillic, «», № and
// ₽ render on any viewer and the text can be copied or searched. Everything printed comes from the
// company row, so the same company always gets the same invoice (its date is the company's creation date,
// printed in the company's time zone and naming it, by the formatter the verification page uses too, so the
// page and the PDF show the same date whatever the device's zone).

import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { Locale } from '../../../src/domain/auth';
import { VERIFICATION_REVIEW_DAYS } from '../../../src/domain/company';
import { calendarDateInTimeZone, formatInTimeZone } from '../../../src/domain/time-format';
import { translate } from '../../i18n/messages';

const requireFile = createRequire(import.meta.url);
const FONT_REGULAR = requireFile.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = requireFile.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** Who receives the verification payment. */
export interface Payee {
  name: Record<Locale, string>;
  inn: string;
  kpp: string;
  bank: Record<Locale, string>;
  bic: string;
  correspondentAccount: string;
  account: string;
}

/**
 * The platform operator's payment details printed on every invoice. These are the demo installation's
 * placeholders (checksum-valid, belonging to no one we know of); an operator sets their own with
 * `INVOICE_PAYEE` (JSON of this shape, checked at start by server/config.ts).
 */
export const PLATFORM_PAYEE: Payee = {
  name: { ru: 'ООО «Платформа улучшений»', en: 'Improvement Platform LLC' },
  inn: '7701234560',
  kpp: '770101001',
  bank: { ru: 'АО «Демо Банк», г. Москва', en: 'Demo Bank JSC, Moscow' },
  bic: '044525999',
  correspondentAccount: '30101810400000000999',
  account: '40702810900000001234',
};

export interface InvoiceInput {
  number: string;
  issuedAt: Date;
  /** The company's IANA time zone: the date is printed on its calendar. */
  timeZone: string;
  amountMinor: number;
  payer: { name: string; inn: string | null; kpp: string | null };
}

/** `1 000,00 ₽` in Russian, `1,000.00 RUB` in English; from integer kopecks, without floating point. */
export function formatRubles(amountMinor: number, locale: Locale): string {
  const sign = amountMinor < 0 ? '-' : '';
  const abs = BigInt(Math.abs(Math.trunc(amountMinor)));
  const whole = new Intl.NumberFormat(locale === 'ru' ? 'ru-RU' : 'en-US').format(abs / 100n);
  const cents = String(abs % 100n).padStart(2, '0');
  return locale === 'ru' ? `${sign}${whole},${cents}\u00a0₽` : `${sign}${whole}.${cents}\u00a0RUB`;
}

/**
 * The invoice date on the company's calendar, naming its zone: `15.03.2025 (Europe/Moscow, UTC+3)` in both
 * languages, exactly as the verification page prints it (`formatInTimeZone`).
 */
export function formatInvoiceDate(date: Date, timeZone: string): string {
  return formatInTimeZone(date, timeZone, { time: false });
}

export function invoiceFileName(number: string): string {
  return `invoice-${number.replace(/[^A-Za-z0-9-]/g, '_')}.pdf`;
}

const PAGE_MARGIN = 50;
const INK = '#111827';
const MUTED = '#4b5563';
const RULE = '#9ca3af';

export function renderInvoicePdf(invoice: InvoiceInput, locale: Locale, payee: Payee = PLATFORM_PAYEE): Promise<Buffer> {
  const t = (id: string, values?: Record<string, string | number>) => translate(locale, `invoice.${id}`, values);
  const none = '—';
  const amount = formatRubles(invoice.amountMinor, locale);
  // The title as Russian invoices write it ("… от 24.11.2026"), and under it the same date naming the company's
  // zone, the very text the verification page shows beside "Invoice date" (a zone in the title would wrap at '/').
  const title = t('title', { number: invoice.number, date: calendarDateInTimeZone(invoice.issuedAt, invoice.timeZone) });
  const dateLine = `${t('date')}: ${formatInvoiceDate(invoice.issuedAt, invoice.timeZone)}`;

  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    info: { Title: title, Author: payee.name[locale], Subject: t('item'), CreationDate: invoice.issuedAt, ModDate: invoice.issuedAt },
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

  // The payee's bank details, in a box as on a Russian payment order.
  const bankRows: [string, string][] = [
    [t('payeeBank'), payee.bank[locale]],
    [t('bic'), payee.bic],
    [t('correspondentAccount'), payee.correspondentAccount],
    [t('account'), payee.account],
    [t('inn'), payee.inn],
    [t('kpp'), payee.kpp],
    [t('payee'), payee.name[locale]],
  ];
  const labelWidth = 170;
  const boxTop = doc.y;
  let y = boxTop + 8;
  doc.fontSize(9);
  for (const [label, value] of bankRows) {
    const height = Math.max(doc.font('regular').heightOfString(label, { width: labelWidth - 16 }), doc.heightOfString(value, { width: width - labelWidth - 16 }));
    doc.fillColor(MUTED).font('regular').text(label, left + 8, y, { width: labelWidth - 16 });
    doc.fillColor(INK).font('regular').text(value, left + labelWidth, y, { width: width - labelWidth - 8 });
    y += height + 4;
  }
  doc.lineWidth(0.75).strokeColor(RULE).rect(left, boxTop, width, y - boxTop + 4).stroke();
  y += 24;

  doc.fillColor(INK).font('bold').fontSize(15).text(title, left, y, { width });
  doc.fillColor(MUTED).font('regular').fontSize(10).text(dateLine, left, doc.y + 2, { width });
  y = doc.y + 6;
  doc.lineWidth(1.5).strokeColor(INK).moveTo(left, y).lineTo(left + width, y).stroke();
  y += 12;

  // Supplier and payer.
  const party = (name: string, inn: string | null, kpp: string | null) =>
    [name, `${t('inn')} ${inn ?? none}`, ...(kpp ? [`${t('kpp')} ${kpp}`] : [])].join(', ');
  const parties: [string, string][] = [
    [t('supplier'), party(payee.name[locale], payee.inn, payee.kpp)],
    [t('payer'), party(invoice.payer.name, invoice.payer.inn, invoice.payer.kpp)],
  ];
  doc.fontSize(10);
  for (const [label, value] of parties) {
    doc.fillColor(MUTED).font('regular').text(`${label}:`, left, y, { width: 100 });
    doc.fillColor(INK).font('bold').text(value, left + 100, y, { width: width - 100 });
    y = Math.max(doc.y, y + 14) + 8;
  }
  y += 8;

  // The one line of the invoice.
  const columns = [
    { header: t('table.number'), width: 28, align: 'center' as const },
    { header: t('table.item'), width: width - 28 - 50 - 50 - 90 - 90, align: 'left' as const },
    { header: t('table.quantity'), width: 50, align: 'right' as const },
    { header: t('table.unit'), width: 50, align: 'center' as const },
    { header: t('table.price'), width: 90, align: 'right' as const },
    { header: t('table.sum'), width: 90, align: 'right' as const },
  ];
  const drawRow = (cells: readonly string[], font: 'regular' | 'bold') => {
    doc.font(font).fontSize(9);
    const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: (columns[i]?.width ?? 50) - 8 }))) + 10;
    let x = left;
    cells.forEach((cell, i) => {
      const column = columns[i];
      if (!column) return;
      doc.lineWidth(0.75).strokeColor(RULE).rect(x, y, column.width, height).stroke();
      doc.fillColor(INK).text(cell, x + 4, y + 5, { width: column.width - 8, align: column.align });
      x += column.width;
    });
    y += height;
  };
  drawRow(
    columns.map((c) => c.header),
    'bold',
  );
  drawRow(['1', t('item'), '1', t('unit'), amount, amount], 'regular');
  y += 10;

  const totals: [string, string, 'regular' | 'bold'][] = [
    [t('total'), amount, 'regular'],
    [t('vat'), none, 'regular'],
    [t('due'), amount, 'bold'],
  ];
  for (const [label, value, font] of totals) {
    doc.font(font).fontSize(10).fillColor(INK);
    doc.text(`${label}:`, left, y, { width: width - 120, align: 'right' });
    doc.text(value, left + width - 110, y, { width: 110, align: 'right' });
    y += 16;
  }
  y += 14;

  // The payment reference, which is how the payment is found.
  doc.font('bold').fontSize(10).fillColor(INK).text(`${t('reference.label')}:`, left, y, { width });
  doc.font('regular').text(t('reference.text', { number: invoice.number }), left, doc.y + 2, { width });
  doc.moveDown(0.8);
  doc.fillColor(MUTED).fontSize(9).text(t('reference.hint', { number: invoice.number }), left, doc.y, { width });
  doc.moveDown(0.4);
  doc.text(t('review', { days: VERIFICATION_REVIEW_DAYS }), left, doc.y, { width });

  doc.end();
  return done;
}
