// The one way uploaded files are kept and read back. The default keeps the bytes in the database
// (`files`, bytea): transactional, on PGlite and any PostgreSQL alike, so API nodes stay stateless. Another
// backend (object storage) would implement the same interface.

import type { Database, Queryable } from '../../db/database';
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

interface FileRow {
  id: string;
  owner_id: string;
  company_id: string | null;
  content_type: ImageType;
  size: number;
  name: string;
  created_at: Date;
}

const COLUMNS = 'id, owner_id, company_id, content_type, size, name, created_at';

function toStoredFile(row: FileRow): StoredFile {
  return {
    id: row.id,
    ownerId: row.owner_id,
    companyId: row.company_id,
    contentType: row.content_type,
    size: Number(row.size),
    name: row.name,
    createdAt: row.created_at,
  };
}

/** PGlite answers bytea as a Uint8Array, pg as a Buffer: one shape for the routes. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function createDatabaseFileStorage(db: Database): FileStorage {
  return {
    async save(file, tx) {
      const row = await (tx ?? db).one<FileRow>(
        `INSERT INTO files (owner_id, company_id, content_type, size, name, bytes)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [file.ownerId, file.companyId, file.contentType, file.bytes.byteLength, file.name, file.bytes],
      );
      if (!row) throw new Error('INSERT INTO files returned no row');
      return toStoredFile(row);
    },
    async read(id) {
      const row = await db.one<FileRow & { bytes: Uint8Array }>(`SELECT ${COLUMNS}, bytes FROM files WHERE id = $1`, [id]);
      return row ? { file: toStoredFile(row), bytes: asBuffer(row.bytes) } : null;
    },
  };
}
