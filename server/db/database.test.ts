import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support';
import { isUniqueViolation } from './database';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from './lock';
import { MIGRATIONS, migrate } from './migrations';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('migrations', () => {
  it('are recorded and applied only once', async () => {
    const rows = await database.db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(MIGRATIONS.map((m) => m.id));
    expect(await migrate(database.db)).toEqual([]);
  });

  it('apply a new migration in one transaction: a failing one leaves nothing behind', async () => {
    const broken = [...MIGRATIONS, { id: '9999_broken', statements: ['CREATE TABLE half_done (id int)', 'SELECT * FROM no_such_table'] }];
    await expect(migrate(database.db, broken)).rejects.toThrow();
    expect(await database.db.one(`SELECT id FROM schema_migrations WHERE id = '9999_broken'`)).toBeNull();
    await expect(database.db.query('SELECT * FROM half_done')).rejects.toThrow();
  });

  it('enforce one account per e-mail, whatever its case', async () => {
    const insert = (email: string) =>
      database.db.query(`INSERT INTO users (email, password_hash, first_name, last_name, role) VALUES ($1, 'x', 'a', 'b', 'OWNER')`, [email]);
    await insert('Case@Example.com');
    const error = await insert('case@example.COM').catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });
});

describe('transactions', () => {
  it('roll back when the work throws', async () => {
    await database.db.query('CREATE TABLE tx_probe (n int)');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_probe VALUES (1)');
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await database.db.query('SELECT * FROM tx_probe')).toEqual([]);
    await database.db.transaction((tx) => tx.query('INSERT INTO tx_probe VALUES (2)'));
    expect(await database.db.query('SELECT n FROM tx_probe')).toEqual([{ n: 2 }]);
  });
});

describe('the PGlite directory lock', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'lock-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('holds our pid and goes away on release', async () => {
    const lock = acquireDataDirLock(dir);
    expect((await readFile(lock.file, 'utf8')).trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('refuses while a live process holds it, naming the pid and the way out', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(path.join(dir, LOCK_FILE_NAME), `${sleeper.pid}\n`);
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`pid ${sleeper.pid}.*stop it or set DATABASE_URL`));
    } finally {
      sleeper.kill();
    }
  });

  it('takes over a lock whose process is gone', async () => {
    const quick = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = quick.pid;
    await new Promise((resolve) => quick.on('exit', resolve));
    await writeFile(path.join(dir, LOCK_FILE_NAME), `${pid}\n`);
    const lock = acquireDataDirLock(dir);
    expect((await readFile(lock.file, 'utf8')).trim()).toBe(String(process.pid));
    lock.release();
  });
});
