// The embedded database as the server starts it (database.ts, openPglite): a small buffer pool, a new data
// directory made in a child process and renamed into place, and acknowledged writes that survive a killed
// process. PGlite only: these run without DATABASE_URL.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database';

const onPglite = !process.env.DATABASE_URL;
const DATABASE_MODULE = fileURLToPath(new URL('./database.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe.runIf(onPglite)('the embedded database', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pglite-start-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('runs with an 8MB buffer pool, in memory as on disk', async () => {
    const db = await openDatabase({ dataDir: null });
    try {
      expect(await db.one('SHOW shared_buffers')).toEqual({ shared_buffers: '8MB' });
    } finally {
      await db.close();
    }
  });

  it('makes a new data directory whole, clearing what an interrupted first start left beside it', async () => {
    const leftover = path.join(dataDir, 'pglite.init-999999');
    await mkdir(leftover);
    await writeFile(path.join(leftover, 'PG_VERSION'), '18\n');
    const db = await openDatabase({ dataDir });
    try {
      expect(await db.one('SHOW shared_buffers')).toEqual({ shared_buffers: '8MB' });
      await db.query('CREATE TABLE kept (note text)');
      await db.query(`INSERT INTO kept VALUES ('written before the restart')`);
    } finally {
      await db.close();
    }
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    expect((await readdir(dataDir)).filter((name) => name.startsWith('pglite.init-'))).toEqual([]);

    const again = await openDatabase({ dataDir });
    try {
      expect(await again.query('SELECT note FROM kept')).toEqual([{ note: 'written before the restart' }]);
      expect(await again.one('SHOW shared_buffers')).toEqual({ shared_buffers: '8MB' });
    } finally {
      await again.close();
    }
  }, 180_000);

  it('keeps every acknowledged write when the process is killed mid-write (SIGKILL)', async () => {
    // A server-like process: each insert is acknowledged on stdout once its query has answered.
    const writer = `
      import { openDatabase } from ${JSON.stringify(DATABASE_MODULE)};
      const db = await openDatabase({ dataDir: process.argv[1] });
      await db.query('CREATE TABLE IF NOT EXISTS acked (n int PRIMARY KEY, body text)');
      for (let n = 1; ; n += 1) {
        await db.transaction((tx) => tx.query('INSERT INTO acked VALUES ($1, repeat($2, 200))', [n, 'x']));
        process.stdout.write(n + '\\n');
      }`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', writer, dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const acknowledged = () => stdout.split('\n').filter((line) => /^\d+$/.test(line)).map(Number);
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (acknowledged().length >= 200) resolve();
        else if (child.exitCode !== null) reject(new Error(`the writer exited early:\n${stderr}`));
        else setTimeout(check, 20);
      };
      check();
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const last = Math.max(...acknowledged());
    const db = await openDatabase({ dataDir });
    try {
      const rows = await db.query<{ n: number }>('SELECT n FROM acked WHERE n <= $1 ORDER BY n', [last]);
      expect(rows.map((r) => r.n)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    } finally {
      await db.close();
    }
  }, 180_000);
});
