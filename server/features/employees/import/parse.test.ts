import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_ROWS } from '../../../../src/domain/company';
import { AppError } from '../../../errors';
import { cellText, decodeText, guessDelimiter, parseSpreadsheet, SheetNumber } from './parse';
import { deflatedEntry, deflatedZeros, encodeCp1251, handmadeXlsx, utf8, withBom, xlsxOf, zipOf } from './test-files';
import { readCentralDirectory, repackXlsx, UnsafeZipError, XLSX_MAX_UNPACKED_BYTES } from './zip';

const rowsOf = async (bytes: Uint8Array) => (await parseSpreadsheet(bytes)).rows;

describe('CSV', () => {
  it('reads UTF-8 with a BOM and semicolons, as Excel saves “CSV UTF-8”', async () => {
    const sheet = await parseSpreadsheet(withBom('Фамилия;Имя;Таб. №\r\nИванов;Иван;000123\r\n'));
    expect(sheet.kind).toBe('csv');
    expect(sheet.rows).toEqual([
      { row: 1, cells: ['Фамилия', 'Имя', 'Таб. №'] },
      { row: 2, cells: ['Иванов', 'Иван', '000123'] },
    ]);
  });

  it('reads UTF-8 without a BOM and commas', async () => {
    expect(await rowsOf(utf8('Last name,First name,E-mail\nSmith,John,john@example.com\n'))).toEqual([
      { row: 1, cells: ['Last name', 'First name', 'E-mail'] },
      { row: 2, cells: ['Smith', 'John', 'john@example.com'] },
    ]);
  });

  it('reads Windows-1251, as Excel and 1C save CSV in a Russian locale', async () => {
    const bytes = encodeCp1251('Фамилия;Имя;Отчество;Подразделение\r\nЁлкина;Алёна;Юрьевна;Цех №5\r\n');
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    expect(await rowsOf(bytes)).toEqual([
      { row: 1, cells: ['Фамилия', 'Имя', 'Отчество', 'Подразделение'] },
      { row: 2, cells: ['Ёлкина', 'Алёна', 'Юрьевна', 'Цех №5'] },
    ]);
  });

  it('reads UTF-16 with a BOM and tabs, as Excel saves “Unicode text”', async () => {
    const text = 'Фамилия\tИмя\r\nПетров\tПётр\r\n';
    const bytes = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(await rowsOf(bytes)).toEqual([
      { row: 1, cells: ['Фамилия', 'Имя'] },
      { row: 2, cells: ['Петров', 'Пётр'] },
    ]);
  });

  it('keeps quoted fields whole (line breaks, separators, doubled quotes) and numbers rows as the spreadsheet shows them', async () => {
    const csv = 'Фамилия;Имя;Должность\r\n"Иванов";"Иван";"Мастер\r\nучастка; смена ""А"""\r\nПетров;Пётр;Слесарь\r\n';
    expect(await rowsOf(utf8(csv))).toEqual([
      { row: 1, cells: ['Фамилия', 'Имя', 'Должность'] },
      { row: 2, cells: ['Иванов', 'Иван', 'Мастер\r\nучастка; смена "А"'] },
      { row: 3, cells: ['Петров', 'Пётр', 'Слесарь'] },
    ]);
  });

  it('skips empty rows (blank lines, separators only) and trims cells, keeping the row numbers', async () => {
    const csv = 'Фамилия;Имя;;\n\n  Иванов  ; Иван ;;\n;;;\n   ;  ;\nПетров;Пётр\n';
    expect(await rowsOf(utf8(csv))).toEqual([
      { row: 1, cells: ['Фамилия', 'Имя'] },
      { row: 3, cells: ['Иванов', 'Иван'] },
      { row: 6, cells: ['Петров', 'Пётр'] },
    ]);
  });

  it('refuses an unterminated quote as a broken file', async () => {
    await expect(parseSpreadsheet(utf8('Фамилия;Имя\n"Иванов;Иван\nПетров;Пётр\n'))).rejects.toMatchObject({ code: 'importBroken', status: 400 });
  });

  it(`refuses more than ${IMPORT_MAX_ROWS} rows`, async () => {
    const csv = `Фамилия;Имя\n${'Иванов;Иван\n'.repeat(IMPORT_MAX_ROWS + 20)}`;
    await expect(parseSpreadsheet(utf8(csv))).rejects.toMatchObject({ code: 'importTooManyRows', status: 400 });
  });

  it('decides the type by the bytes: images, PDFs, old .xls files and random bytes are not text (415)', async () => {
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52);
    const xls = Uint8Array.of(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0);
    const pdf = new Uint8Array(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 1, 2, 3, 0x80, 0x81, 0x00, 0x05])]));
    for (const bytes of [png, xls, pdf, new Uint8Array(randomBytes(4096))]) {
      await expect(parseSpreadsheet(bytes)).rejects.toMatchObject({ code: 'importFileType', status: 415 });
    }
    expect(decodeText(utf8('plain text, with a tab\tand a form feed\f'))).not.toBeNull();
  });

  it('refuses an empty file as broken', async () => {
    await expect(parseSpreadsheet(new Uint8Array())).rejects.toMatchObject({ code: 'importBroken', status: 400 });
  });
});

describe('XLSX', () => {
  it('reads the first sheet written by write-excel-file: text, numbers without ".0", dates as dd.mm.yyyy, empty rows skipped', async () => {
    const bytes = await xlsxOf([
      ['Фамилия', 'Имя', 'Таб. №', 'Дата приёма', 'Ставка'],
      ['Иванов', '  Иван ', 123456, { value: new Date(Date.UTC(2024, 0, 15)), format: 'dd.mm.yyyy' }, 0.5],
      [null, null, null, null, null],
      ['Петров', 'Пётр', { value: '000120', type: String }, { value: new Date(Date.UTC(2024, 1, 29)), format: 'yyyy-mm-dd' }, 1],
    ]);
    const sheet = await parseSpreadsheet(bytes);
    expect(sheet.kind).toBe('xlsx');
    expect(sheet.rows).toEqual([
      { row: 1, cells: ['Фамилия', 'Имя', 'Таб. №', 'Дата приёма', 'Ставка'] },
      { row: 2, cells: ['Иванов', 'Иван', '123456', '15.01.2024', '0.5'] },
      { row: 4, cells: ['Петров', 'Пётр', '000120', '29.02.2024', '1'] },
    ]);
  });

  it('gives formula cells their cached values and date cells as dd.mm.yyyy, as Excel saves them', async () => {
    const strings = ['Фамилия', 'Имя', 'Таб. №', 'Дата приёма', 'Должность', 'Петров', 'Пётр', 'Инженер', 'Сидорова'];
    const sheetData = [
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>',
      '<row r="2"/>',
      '<row r="3"><c r="A3" t="s"><v>5</v></c><c r="B3" t="s"><v>6</v></c><c r="C3"><f>1000*120</f><v>120000</v></c><c r="D3" s="1"><v>45306</v></c><c r="E3" t="str"><f>UPPER(H1)&amp;"р"</f><v>Инженер</v></c><c r="F3"><f>NOW()</f></c></row>',
      '<row r="5"><c r="A5" t="inlineStr"><is><t>  Сидорова  </t></is></c><c r="B5" t="s"><v>6</v></c><c r="C5"><v>1.2E+5</v></c><c r="D5" s="2"><v>45351</v></c><c r="E5"><v>1234.0</v></c></row>',
      '<row r="6"><c r="A6" t="inlineStr"><is><t>   </t></is></c></row>',
    ].join('');
    expect(await rowsOf(handmadeXlsx(sheetData, strings))).toEqual([
      { row: 1, cells: ['Фамилия', 'Имя', 'Таб. №', 'Дата приёма', 'Должность'] },
      { row: 3, cells: ['Петров', 'Пётр', '120000', '15.01.2024', 'Инженер'] },
      { row: 5, cells: ['Сидорова', 'Пётр', '120000', '29.02.2024', '1234'] },
    ]);
  });

  it('is recognised by its bytes, whatever the file is called', async () => {
    const bytes = await xlsxOf([['Фамилия', 'Имя'], ['Иванов', 'Иван']]);
    expect((await parseSpreadsheet(bytes)).kind).toBe('xlsx');
  });

  it('refuses a truncated file, a zip without a sheet and junk behind a zip signature as broken (400)', async () => {
    const good = await xlsxOf([['Фамилия', 'Имя'], ['Иванов', 'Иван']]);
    const noSheet = zipOf([deflatedEntry('[Content_Types].xml', '<Types/>'), deflatedEntry('docProps/app.xml', '<Properties/>')]);
    const junk = new Uint8Array(Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(2000)]));
    const badCrc = handmadeXlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', ['Фамилия']);
    // Flip one byte inside the sheet's deflated data: the CRC (or the inflation) fails.
    const sheetAt = Buffer.from(badCrc).indexOf('xl/worksheets/sheet1.xml') + 'xl/worksheets/sheet1.xml'.length;
    badCrc[sheetAt + 5] = (badCrc[sheetAt + 5] ?? 0) ^ 0xff;
    const emptySheet = handmadeXlsx('', []);
    for (const bytes of [good.subarray(0, Math.floor(good.length / 2)), good.subarray(0, good.length - 10), noSheet, junk, badCrc]) {
      await expect(parseSpreadsheet(bytes)).rejects.toMatchObject({ code: 'importBroken', status: 400 });
    }
    expect(await rowsOf(emptySheet)).toEqual([]);
  });

  it('refuses a sheet that reaches a far corner (read-excel-file would lay out every cell in between)', async () => {
    const far = handmadeXlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="1048576"><c r="XFD1048576"><v>1</v></c></row>', ['Фамилия']);
    await expect(parseSpreadsheet(far)).rejects.toMatchObject({ code: 'importTooManyRows', status: 400 });
    const wide = handmadeXlsx('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="XFD1"><v>1</v></c></row>', ['Фамилия']);
    await expect(parseSpreadsheet(wide)).rejects.toMatchObject({ code: 'importBroken', status: 400 });
  });
});

describe('damaged files', () => {
  it('answers any damage to an XLSX or a CSV with a coded refusal or rows, never another error', async () => {
    const xlsx = await xlsxOf([['Фамилия', 'Имя', 'Таб. №'], ['Иванов', 'Иван', 1], ['Петров', 'Пётр', 2]]);
    const csv = withBom('Фамилия;Имя\r\n"Иванов";Иван\r\n');
    const damage = fc.record({
      base: fc.constantFrom(xlsx, csv),
      cut: fc.option(fc.nat(), { nil: undefined }),
      flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(damage, async ({ base, cut, flips }) => {
        const bytes = base.slice(0, cut === undefined ? base.length : cut % (base.length + 1));
        for (const [at, mask] of flips) if (bytes.length > 0) bytes[at % bytes.length] = (bytes[at % bytes.length] ?? 0) ^ mask;
        try {
          const sheet = await parseSpreadsheet(bytes);
          expect(Array.isArray(sheet.rows)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect(['importBroken', 'importFileType', 'importTooManyRows']).toContain((error as AppError).code);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('zip bombs', () => {
  const sheetStrings = ['Фамилия'];

  it('refuses an archive that declares more than the limit before inflating anything', async () => {
    const zeros = await deflatedZeros(200);
    expect(zeros.data.length).toBeLessThan(1024 * 1024);
    const bomb = handmadeXlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', sheetStrings, [
      { name: 'xl/media/zeros.xml', data: zeros.data, method: 8, crc: zeros.crc, size: zeros.size },
    ]);
    expect(() => readCentralDirectory(bomb)).toThrow(UnsafeZipError);
    await expect(parseSpreadsheet(bomb)).rejects.toMatchObject({ code: 'importBroken', status: 400 });
  });

  it('refuses an entry packed more tightly than 200:1', async () => {
    const zeros = await deflatedZeros(20);
    expect(zeros.size).toBeLessThan(XLSX_MAX_UNPACKED_BYTES);
    const dense = handmadeXlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', sheetStrings, [
      { name: 'xl/zeros.xml', data: zeros.data, method: 8, crc: zeros.crc, size: zeros.size },
    ]);
    try {
      readCentralDirectory(dense);
      expect.unreachable('the dense entry was accepted');
    } catch (error) {
      expect(error).toMatchObject({ reason: 'bomb' });
    }
  });

  it('stops inflating at the declared size when the headers lie about it', async () => {
    const zeros = await deflatedZeros(200);
    // Declared as 900 kB: under the ratio check's threshold and the total limit, so only the inflation guard is left.
    const liar = handmadeXlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', sheetStrings, [
      { name: 'xl/zeros.xml', data: zeros.data, method: 8, crc: zeros.crc, size: 900 * 1024 },
    ]);
    expect(() => readCentralDirectory(liar)).not.toThrow();
    try {
      repackXlsx(liar);
      expect.unreachable('the lying entry was inflated');
    } catch (error) {
      expect(error).toMatchObject({ reason: 'bomb' });
    }
    await expect(parseSpreadsheet(liar)).rejects.toMatchObject({ code: 'importBroken', status: 400 });
  });

  it('hands read-excel-file a stored archive holding only what it reads', () => {
    const { zip } = repackXlsx(handmadeXlsx('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', sheetStrings));
    const entries = readCentralDirectory(zip);
    expect(entries.every((e) => e.method === 0)).toBe(true);
    expect(entries.map((e) => e.name)).toContain('xl/worksheets/sheet1.xml');
    expect(entries.map((e) => e.name)).not.toContain('xl/worksheets/sheet2.xml');
  });
});

describe('cellText', () => {
  it('shows numbers as a spreadsheet does, and keeps text that looks like a number as written', () => {
    expect(cellText(new SheetNumber('120000'))).toBe('120000');
    expect(cellText(new SheetNumber('1.2E+5'))).toBe('120000');
    expect(cellText(new SheetNumber('1234.0'))).toBe('1234');
    expect(cellText(new SheetNumber('0.30000000000000004'))).toBe('0.3');
    expect(cellText(new SheetNumber('12345678901234567890'))).toBe('12345678901234567890');
    expect(cellText('000123')).toBe('000123');
    expect(cellText(new Date(Date.UTC(2023, 11, 31)))).toBe('31.12.2023');
    expect(cellText(true)).toBe('TRUE');
    expect(cellText(null)).toBe('');
  });
});

describe('guessDelimiter', () => {
  it('finds the separator of short files too, with or without a final line break', () => {
    expect(guessDelimiter('Фамилия;Имя\nИванов;Иван\n')).toBe(';');
    expect(guessDelimiter('Фамилия,Имя\r\nИванов,Иван')).toBe(',');
    expect(guessDelimiter('Фамилия\tИмя\n\nИванов\tИван\n\n')).toBe('\t');
    expect(guessDelimiter('"Иванов, Иван";Слесарь\n"Петров, Пётр";Мастер\n')).toBe(';');
    expect(guessDelimiter('Фамилия\nИванов\n')).toBe(',');
  });
});
