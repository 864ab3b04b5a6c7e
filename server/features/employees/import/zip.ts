// Opening an uploaded XLSX (a zip) without trusting it. A zip's headers may lie, and read-excel-file
// inflates whatever it is given into memory, so the uploaded archive never reaches it. What this module
// guarantees, in order:
//
// 1. Before a single byte is inflated, the central directory is read and the archive is refused
//    (`importBroken`) when it declares more than XLSX_MAX_UNPACKED_BYTES in all, an entry of over
//    RATIO_CHECK_MIN_BYTES packed more than MAX_COMPRESSION_RATIO : 1, more than MAX_ENTRIES entries, an
//    encrypted entry or a compression method other than stored or deflate.
// 2. The inflation itself is bounded by those declared sizes: each entry is inflated by node:zlib with
//    `maxOutputLength` = its declared size, so zlib stops with a RangeError the moment an entry produces
//    one byte more than it declared (a lying header costs at most the declared bytes, whose sum was
//    checked in 1). An entry shorter than declared, a bad CRC-32, or data running past the archive is
//    refused as well.
// 3. read-excel-file only ever sees a new zip built here from the verified entries (the XML parts it
//    reads and the first worksheet only), stored without compression: every header it may trust is true
//    and its own "inflation" is a copy of at most XLSX_MAX_UNPACKED_BYTES.
//
// The first worksheet is also scanned for the rows and columns it references before it is handed over:
// read-excel-file fills the gaps of a sparse sheet with empty cells, so a few bytes naming cell XFD1048576
// would otherwise make it allocate billions of cells.

import { crc32, inflateRawSync } from 'node:zlib';
import { zipSync, type Zippable } from 'fflate';

/** The most an XLSX may unpack to, in all (declared, and so also actually inflated). */
export const XLSX_MAX_UNPACKED_BYTES = 100 * 1024 * 1024;
/** Entries at least this large (unpacked) must not be packed more tightly than MAX_COMPRESSION_RATIO. */
export const RATIO_CHECK_MIN_BYTES = 1024 * 1024;
export const MAX_COMPRESSION_RATIO = 200;
export const MAX_ENTRIES = 10_000;

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const EOCD_MIN = 22;

/** Why an archive is refused: `bomb` (sizes over the limits) or `broken` (unreadable). */
export class UnsafeZipError extends Error {
  override name = 'UnsafeZipError';
  constructor(
    readonly reason: 'bomb' | 'broken',
    detail: string,
  ) {
    super(detail);
  }
}

const broken = (detail: string) => new UnsafeZipError('broken', detail);

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function u64(dv: DataView, at: number): number {
  const value = dv.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw broken('zip64 value out of range');
  return Number(value);
}

/** Offset of the end-of-central-directory record: searched backwards over the largest possible comment. */
function findEocd(bytes: Uint8Array, dv: DataView): number {
  const stop = Math.max(0, bytes.length - EOCD_MIN - 0xffff);
  for (let at = bytes.length - EOCD_MIN; at >= stop; at -= 1) {
    if (dv.getUint32(at, true) === SIG_EOCD) return at;
  }
  throw broken('no end of central directory');
}

/**
 * The central directory: every entry's name, method and declared sizes, checked against the limits of
 * point 1 above. Nothing is inflated here.
 */
export function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  if (bytes.length < EOCD_MIN) throw broken('too short for a zip');
  const dv = view(bytes);
  const eocd = findEocd(bytes, dv);
  let count = dv.getUint16(eocd + 10, true);
  let cdSize = dv.getUint32(eocd + 12, true);
  let cdOffset = dv.getUint32(eocd + 16, true);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || dv.getUint32(locator, true) !== SIG_ZIP64_LOCATOR) throw broken('zip64 locator missing');
    const record = u64(dv, locator + 8);
    if (record + 56 > bytes.length || dv.getUint32(record, true) !== SIG_ZIP64_EOCD) throw broken('zip64 record missing');
    count = u64(dv, record + 32);
    cdSize = u64(dv, record + 40);
    cdOffset = u64(dv, record + 48);
  }
  if (count > MAX_ENTRIES) throw new UnsafeZipError('bomb', `${count} entries`);
  if (cdOffset + cdSize > bytes.length) throw broken('central directory past the end');

  const entries: ZipEntry[] = [];
  let declaredTotal = 0;
  let at = cdOffset;
  const decoder = new TextDecoder('utf-8');
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > cdOffset + cdSize || dv.getUint32(at, true) !== SIG_CENTRAL) throw broken('bad central directory entry');
    const flags = dv.getUint16(at + 8, true);
    const method = dv.getUint16(at + 10, true);
    const crc = dv.getUint32(at + 16, true);
    let compressedSize = dv.getUint32(at + 20, true);
    let size = dv.getUint32(at + 24, true);
    const nameLength = dv.getUint16(at + 28, true);
    const extraLength = dv.getUint16(at + 30, true);
    const commentLength = dv.getUint16(at + 32, true);
    let localOffset = dv.getUint32(at + 42, true);
    const nameStart = at + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > cdOffset + cdSize) throw broken('central directory entry past its end');
    const name = decoder.decode(bytes.subarray(nameStart, extraStart));
    // Zip64: the real values follow in the extra field 0x0001, in this order, for those marked 0xffffffff.
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      let e = extraStart;
      let found = false;
      while (e + 4 <= extraStart + extraLength) {
        const id = dv.getUint16(e, true);
        const length = dv.getUint16(e + 2, true);
        if (id === 0x0001) {
          let p = e + 4;
          const end = Math.min(p + length, extraStart + extraLength);
          const take = () => {
            if (p + 8 > end) throw broken('short zip64 extra field');
            const value = u64(dv, p);
            p += 8;
            return value;
          };
          if (size === 0xffffffff) size = take();
          if (compressedSize === 0xffffffff) compressedSize = take();
          if (localOffset === 0xffffffff) localOffset = take();
          found = true;
          break;
        }
        e += 4 + length;
      }
      if (!found) throw broken('zip64 sizes without their extra field');
    }
    if (flags & 0x0001) throw broken(`encrypted entry ${name}`);
    if (method !== 0 && method !== 8) throw broken(`compression method ${method} in ${name}`);
    if (method === 0 && compressedSize !== size) throw broken(`stored entry ${name} with two sizes`);
    declaredTotal += size;
    if (declaredTotal > XLSX_MAX_UNPACKED_BYTES) throw new UnsafeZipError('bomb', `declares over ${XLSX_MAX_UNPACKED_BYTES} bytes`);
    if (size >= RATIO_CHECK_MIN_BYTES && size > MAX_COMPRESSION_RATIO * Math.max(compressedSize, 1)) {
      throw new UnsafeZipError('bomb', `${name} packed ${Math.round(size / Math.max(compressedSize, 1))}:1`);
    }
    entries.push({ name, method, flags, crc, compressedSize, size, localOffset });
    at = next;
  }
  return entries;
}

/**
 * One entry's bytes, inflated with its declared size as a hard ceiling (point 2 above): zlib itself stops
 * with a RangeError once the output would pass `maxOutputLength`, so no more than the declared size is
 * ever allocated, whatever the compressed stream really holds.
 */
export function extractEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const dv = view(bytes);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || dv.getUint32(at, true) !== SIG_LOCAL) throw broken(`no local header for ${entry.name}`);
  const start = at + 30 + dv.getUint16(at + 26, true) + dv.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw broken(`${entry.name} runs past the end of the file`);
  const packed = bytes.subarray(start, end);
  let data: Uint8Array;
  if (entry.method === 0) {
    data = packed;
  } else {
    try {
      data = inflateRawSync(packed, { maxOutputLength: Math.max(entry.size, 1) });
    } catch (error) {
      if (error instanceof RangeError) throw new UnsafeZipError('bomb', `${entry.name} inflates past its declared ${entry.size} bytes`);
      throw broken(`${entry.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (data.length !== entry.size) throw broken(`${entry.name} is ${data.length} bytes, declared ${entry.size}`);
  if (crc32(data) >>> 0 !== entry.crc >>> 0) throw broken(`${entry.name} fails its CRC`);
  return data;
}

const utf8Text = new TextDecoder('utf-8');

function attribute(tag: string, name: RegExp): string | undefined {
  return name.exec(tag)?.[1];
}

/**
 * The path of the workbook's first sheet, found as read-excel-file finds it: the first `<sheet name=…>` of
 * xl/workbook.xml, its relationship id, and that relationship's target in xl/_rels/workbook.xml.rels.
 */
function firstSheetPath(workbook: string, rels: string): string | null {
  const sheet = /<(?:\w+:)?sheet\b[^>]*\bname="[^"]*"[^>]*>/.exec(workbook)?.[0];
  const relationId = sheet ? attribute(sheet, /\s(?:\w+:)?id="([^"]+)"/) : undefined;
  if (!relationId) return null;
  for (const match of rels.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
    const tag = match[0];
    if (attribute(tag, /\sId="([^"]+)"/) !== relationId) continue;
    if (!/\/worksheet"/.test(tag)) return null;
    const target = attribute(tag, /\sTarget="([^"]+)"/);
    if (!target) return null;
    return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  }
  return null;
}

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** The highest row any `<row>` or non-empty `<c>` names, and the rightmost column holding a non-empty cell. */
export function sheetExtent(xml: string): { rows: number; columns: number } {
  let rows = 0;
  let columns = 0;
  for (const match of xml.matchAll(/<(?:\w+:)?(row|c)\b([^>]*?)(\/?)>/g)) {
    const [, tag, attributes = '', selfClosing] = match;
    const ref = /\sr="([A-Z]{0,3})(\d+)"/.exec(attributes);
    if (!ref) continue;
    const row = Number(ref[2]);
    if (tag === 'row') {
      rows = Math.max(rows, row);
    } else if (selfClosing !== '/') {
      rows = Math.max(rows, row);
      columns = Math.max(columns, columnNumber(ref[1] ?? ''));
    }
  }
  return { rows, columns };
}

export interface RepackedXlsx {
  /** A zip of stored entries, safe to hand to read-excel-file. */
  zip: Uint8Array;
  /** How far the first sheet reaches (see `sheetExtent`). */
  extent: { rows: number; columns: number };
}

/**
 * Checks an uploaded XLSX (points 1 and 2) and rebuilds it (point 3) with the parts read-excel-file needs:
 * the XML parts and relationships, of the worksheets only the first. `broken` when there is no sheet.
 */
export function repackXlsx(bytes: Uint8Array): RepackedXlsx {
  const entries = readCentralDirectory(bytes);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const text = (name: string) => {
    const entry = byName.get(name);
    return entry ? utf8Text.decode(extractEntry(bytes, entry)) : null;
  };
  const workbook = text('xl/workbook.xml');
  const rels = text('xl/_rels/workbook.xml.rels');
  if (workbook === null || rels === null) throw broken('not a workbook');
  const sheetPath = firstSheetPath(workbook, rels);
  const sheetEntry = sheetPath ? byName.get(sheetPath) : undefined;
  if (!sheetPath || !sheetEntry) throw broken('the workbook has no sheet');

  const files: Zippable = {};
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const isXml = entry.name.endsWith('.xml') || entry.name.endsWith('.rels');
    const isOtherSheet = /^xl\/worksheets\/[^/]+\.xml$/.test(entry.name) && entry.name !== sheetPath;
    if (!isXml || isOtherSheet) continue;
    files[entry.name] = extractEntry(bytes, entry);
  }
  const sheetBytes = files[sheetPath];
  if (!(sheetBytes instanceof Uint8Array)) throw broken('the workbook has no sheet');
  const extent = sheetExtent(utf8Text.decode(sheetBytes));
  return { zip: zipSync(files, { level: 0 }), extent };
}
