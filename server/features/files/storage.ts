// The one way uploaded files are kept and read back. The default keeps the bytes in the database
// (`files`, bytea): transactional, on PGlite and any PostgreSQL alike, so API nodes stay stateless. Another
// backend (object storage) would implement the same interface.
//
// Memory: the bytes travel in the form each driver handles without blowing them up. `pg` sends a Buffer as a
// binary parameter and parses bytea from hex with Buffer.from. PGlite's own bytea serializer goes through
// Array.from(bytes).map(hex) (some 40 bytes of heap per byte: about 400 MB for a 10 MiB image) and its parser
// calls parseInt per byte, so on PGlite the bytes go in as one base64 text (`decode(<text>, 'base64')`) and come
// back as `encode(bytes, 'base64')`, both converted by Buffer in native code.

import type { Selectable } from 'kysely';
import type { Database, Queryable } from '../../db/database';
import type { DB } from '../../db/kysely';
import type { ImageType } from './detect';

export interface NewFile {
  ownerId: string;
  /** Null until the file is attached to a proposal, which gives it the proposal's company. */
  companyId: string | null;
  contentType: ImageType;
  name: string;
  bytes: Uint8Array;
}

export interface StoredFile {
  id: string;
  ownerId: string;
  companyId: string | null;
  contentType: ImageType;
  size: number;
  name: string;
  createdAt: Date;
}

export interface FileStorage {
  /** Saves through `tx` when given (the caller's transaction), else on its own. */
  save(file: NewFile, tx?: Queryable): Promise<StoredFile>;
  /** The file and its bytes, or null when there is no such file. Access is checked by the caller. */
  read(id: string): Promise<{ file: StoredFile; bytes: Buffer } | null>;
}

/** A files row without its bytes. */
type FileRecord = Omit<Selectable<DB['files']>, 'bytes'>;

const COLUMNS = ['id', 'owner_id', 'company_id', 'content_type', 'size', 'name', 'created_at'] as const;

/** The column's CHECK admits these two only; anything else is a damaged row, not a 404. */
function imageTypeOf(value: string): ImageType {
  if (value === 'image/png' || value === 'image/jpeg') return value;
  throw new Error(`files.content_type holds ${JSON.stringify(value)}, not an image type`);
}

function toStoredFile(row: FileRecord): StoredFile {
  return {
    id: row.id,
    ownerId: row.owner_id,
    companyId: row.company_id,
    contentType: imageTypeOf(row.content_type),
    size: row.size,
    name: row.name,
    createdAt: row.created_at,
  };
}

/** PGlite answers bytea as a Uint8Array, pg as a Buffer: one shape for the routes. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function createDatabaseFileStorage(db: Database): FileStorage {
  const base64 = db.kind === 'pglite';
  return {
    async save(file, tx) {
      const row = await (tx ?? db).kysely
        .insertInto('files')
        .values((eb) => ({
          owner_id: file.ownerId,
          company_id: file.companyId,
          content_type: file.contentType,
          size: file.bytes.byteLength,
          name: file.name,
          bytes: base64 ? eb.fn<Uint8Array>('decode', [eb.val(asBuffer(file.bytes).toString('base64')), eb.val('base64')]) : file.bytes,
        }))
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!row) throw new Error('INSERT INTO files returned no row');
      return toStoredFile(row);
    },
    async read(id) {
      const query = db.kysely.selectFrom('files').select(COLUMNS).where('id', '=', id);
      const row = base64
        ? await query.select((eb) => eb.fn<string>('encode', [eb.ref('bytes'), eb.val('base64')]).as('bytes')).executeTakeFirst()
        : await query.select('bytes').executeTakeFirst();
      if (!row) return null;
      // Buffer's base64 decoder skips the line breaks encode() puts every 76 characters.
      return { file: toStoredFile(row), bytes: typeof row.bytes === 'string' ? Buffer.from(row.bytes, 'base64') : asBuffer(row.bytes) };
    },
  };
}
