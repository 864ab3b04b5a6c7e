// PGlite is one process per data directory: a second process opening the same files would corrupt
// them. This lock file (created with O_EXCL, the owner's pid inside) makes the second process refuse
// to start. A lock left by a process that no longer runs is taken over.

import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE_NAME = 'main-service.lock';

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPERM';
  }
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // vanished or unreadable between our attempts: treat as stale
  }
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(path.resolve(dataDir), LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return createLock(file);
    } catch (error) {
      if (!(typeof error === 'object' && error !== null && 'code' in error && error.code === 'EEXIST')) throw error;
    }
    const pid = readPid(file);
    if (pid !== null && pid !== process.pid && isAlive(pid)) {
      throw new DataDirLockedError(
        `The embedded database in ${path.dirname(file)} is in use by another process (pid ${pid}). ` +
          'PGlite allows one process per directory: stop it or set DATABASE_URL to use a PostgreSQL server.',
      );
    }
    try {
      unlinkSync(file); // stale: its owner is gone
    } catch (error) {
      if (!(typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT')) throw error;
    }
  }
  throw new DataDirLockedError(`Could not take the lock file ${file}: another process keeps creating it.`);
}

function createLock(file: string): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    if (readPid(file) !== process.pid) return; // someone took it over: not ours to remove
    try {
      unlinkSync(file);
    } catch (error) {
      console.error(`[db] could not remove the lock file ${file}:`, error);
    }
  };
  // Last resort for an exit that skipped the orderly shutdown.
  process.on('exit', release);
  return { file, release };
}
