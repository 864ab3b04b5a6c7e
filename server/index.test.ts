// The real process: `node --import tsx server/index.ts`, as `npm start` runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from './db/lock';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>): Running {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: { ...inherited, LOG_LEVEL: 'silent', PASSWORD_SCRYPT_LOG_N: '10', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(running: Running, text: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!running.output().includes(text)) {
    if (running.child.exitCode !== null) throw new Error(`exited early:\n${running.output()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for "${text}":\n${running.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the main-service process on an embedded database', () => {
  let dataDir: string;
  let port: number;
  let first: Running;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'main-service-'));
    port = await freePort();
    first = start({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', STATIC_DIR: path.join(dataDir, 'no-build') });
    await waitFor(first, 'Dashboard is running at');
  }, 90_000);

  afterAll(async () => {
    if (first.child.exitCode === null) {
      first.child.kill('SIGKILL');
      await first.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints its URL and the demo logins, and answers on its port', async () => {
    expect(first.output()).toContain(`Dashboard is running at http://localhost:${port}`);
    expect(first.output()).toContain('Demo logins (password demo1234):');
    expect(first.output()).toContain('admin@demo.local');
    const health = await fetch(`http://127.0.0.1:${port}/main-service/api/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ data: { status: 'ok' } });
    const login = await fetch(`http://127.0.0.1:${port}/main-service/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@demo.local', password: 'demo1234' }),
    });
    expect(login.status).toBe(200);
  });

  it('refuses a second process on the same directory with a clear message', async () => {
    const second = start({ DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1' });
    const code = await second.exited;
    expect(code).toBe(1);
    expect(second.output()).toContain(`(pid ${first.child.pid})`);
    expect(second.output()).toContain('stop it or set DATABASE_URL');
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(true);
  }, 60_000);

  it('shuts down cleanly on SIGTERM: exit code 0 and the lock file gone', async () => {
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
  }, 30_000);

  it('starts again on the same data, without seeding twice', async () => {
    const again = start({ DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', STATIC_DIR: path.join(dataDir, 'no-build') });
    try {
      await waitFor(again, 'Dashboard is running at');
      expect(again.output()).not.toContain('applied migrations');
      expect(again.output()).toContain('owner@demo.local');
      again.child.kill('SIGINT');
      expect(await again.exited).toBe(0);
    } finally {
      if (again.child.exitCode === null) again.child.kill('SIGKILL');
    }
  }, 90_000);

  it('stops with a clear message on a bad setting', async () => {
    const bad = start({ DATA_DIR: dataDir, PORT: 'eighty' });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('Invalid configuration');
    expect(bad.output()).toContain('PORT="eighty"');
  }, 30_000);
});
