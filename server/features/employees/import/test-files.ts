// Files for the import tests, made on the spot: CSV bytes in Windows-1251 (through a byte table checked
// against TextDecoder), XLSX written by write-excel-file, a hand-written XLSX with formula and date cells
// (as Excel saves them: the formula with its cached value), and zips made by hand, including zip bombs
// whose entries inflate to hundreds of megabytes.

import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';
import writeXlsxFile, { type SheetData } from 'write-excel-file/node';
import { IMPORT_FIELDS } from '../../../../src/domain/company';

/** Windows-1251 encoding of `text`: the table is TextDecoder's own decoding of every byte, reversed. */
export function encodeCp1251(text: string): Uint8Array {
  const decoder = new TextDecoder('windows-1251');
  const table = new Map<string, number>();
  for (let b = 0; b < 256; b += 1) table.set(decoder.decode(Uint8Array.of(b)), b);
  return Uint8Array.from(Array.from(text, (ch) => {
    const byte = table.get(ch);
    if (byte === undefined) throw new Error(`${ch} has no Windows-1251 byte`);
    return byte;
  }));
}

export const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
export const withBom = (text: string) => new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));

export async function xlsxOf(rows: SheetData): Promise<Uint8Array> {
  return new Uint8Array(await writeXlsxFile(rows).toBuffer());
}

export interface EmployeeLine {
  lastName: string;
  firstName: string;
  middleName?: string;
  position?: string;
  email?: string;
  serviceNumber?: string;
  department?: string;
}

/** `count` employees with unique service numbers and e-mails (prefix keeps test files apart). */
export function employeeLines(count: number, prefix: string, departments = ['Цех 1', 'Цех 2', 'Склад']): EmployeeLine[] {
  return Array.from({ length: count }, (_, i) => ({
    lastName: `Иванов${i}`,
    firstName: 'Иван',
    middleName: 'Петрович',
    position: 'Слесарь',
    email: `${prefix}.${i}@example.com`,
    serviceNumber: `${prefix}-${String(i).padStart(5, '0')}`,
    department: departments[i % departments.length] ?? '',
  }));
}

const RU_HEADERS = ['Фамилия', 'Имя', 'Отчество', 'Должность', 'E-mail', 'Таб. №', 'Подразделение'];

/** An XLSX of the lines under Russian headers, in IMPORT_FIELDS order. */
export function staffXlsx(lines: readonly EmployeeLine[], headers = RU_HEADERS): Promise<Uint8Array> {
  return xlsxOf([headers, ...lines.map((l) => IMPORT_FIELDS.map((f) => l[f] ?? null))]);
}

/** A CSV (UTF-8 with BOM, semicolons) of the lines under Russian headers. */
export function staffCsv(lines: readonly EmployeeLine[], headers = RU_HEADERS): Uint8Array {
  const cell = (v: string) => (/[";\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return withBom([headers, ...lines.map((l) => IMPORT_FIELDS.map((f) => l[f] ?? ''))].map((r) => r.map(cell).join(';')).join('\r\n'));
}

// ---------------------------------------------------------------------------------------------------
// Zips by hand

export interface RawEntry {
  name: string;
  /** The bytes as stored in the archive (deflated when method is 8). */
  data: Uint8Array;
  method: 0 | 8;
  crc: number;
  /** The uncompressed size the headers declare (may lie). */
  size: number;
}

export function deflatedEntry(name: string, content: Uint8Array | string): RawEntry {
  const bytes = typeof content === 'string' ? utf8(content) : content;
  return { name, data: deflateRawSync(bytes), method: 8, crc: crc32(bytes) >>> 0, size: bytes.length };
}

/** A zip of the entries, headers as declared in them (sizes, CRCs): the tool to make archives that lie. */
export function zipOf(entries: readonly RawEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, Buffer.from(e.data));
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, end]));
}

/** `megabytes` MiB of zeros, raw-deflated a mebibyte at a time (never held in memory whole), with its CRC. */
export async function deflatedZeros(megabytes: number): Promise<{ data: Uint8Array; crc: number; size: number }> {
  const chunk = Buffer.alloc(1024 * 1024);
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = 0;
  for (let i = 0; i < megabytes; i += 1) {
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { data: new Uint8Array(Buffer.concat(out)), crc: crc >>> 0, size: megabytes * 1024 * 1024 };
}

// ---------------------------------------------------------------------------------------------------
// An XLSX written by hand, as Excel writes one

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Штат" sheetId="1" r:id="rId1"/><sheet name="Прочее" sheetId="2" r:id="rId4"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>`;
// Style 0: general; style 1: built-in date format 14 (d.m.yyyy in a Russian Excel); style 2: dd.mm.yyyy.
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd\\.mm\\.yyyy"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`;

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An XLSX with the given sheet XML (`<sheetData>` content) and shared strings, deflated as Excel does. */
export function handmadeXlsx(sheetData: string, sharedStrings: readonly string[], extra: RawEntry[] = []): Uint8Array {
  const sst = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${sharedStrings.length}" uniqueCount="${sharedStrings.length}">${sharedStrings.map((s) => `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`).join('')}</sst>`;
  const sheet = (data: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetData>${data}</sheetData></worksheet>`;
  return zipOf([
    deflatedEntry('[Content_Types].xml', CONTENT_TYPES),
    deflatedEntry('_rels/.rels', ROOT_RELS),
    deflatedEntry('xl/workbook.xml', WORKBOOK),
    deflatedEntry('xl/_rels/workbook.xml.rels', WORKBOOK_RELS),
    deflatedEntry('xl/styles.xml', STYLES),
    deflatedEntry('xl/sharedStrings.xml', sst),
    deflatedEntry('xl/worksheets/sheet1.xml', sheet(sheetData)),
    deflatedEntry('xl/worksheets/sheet2.xml', sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>второй лист</t></is></c></row>')),
    ...extra,
  ]);
}
