// Starts the real main-service (`node --import tsx server/index.ts`) for a browser test: a free port, a
// throwaway DATA_DIR (embedded PGlite), its console collected so tests can read the mails it prints
// (`[mail] to <addr>: <subject> — <link>` when no SMTP_URL is set). Stopped with SIGTERM, like an operator.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));

export interface Mail {
  to: string;
  subject: string;
  link: string;
}

export interface RunningServer {
  /** Origin of the app, e.g. http://127.0.0.1:40123 */
  url: string;
  port: number;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  mails(): Mail[];
  /** Resolves with the first mail to `to` that arrived after `since` mails had been seen. */
  waitForMail(to: string, options?: { since?: number; timeoutMs?: number }): Promise<Mail>;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  seedDemo?: boolean;
  /**
   * The built app to serve (the server's STATIC_DIR). Defaults to the E2E_STATIC_DIR environment variable,
   * else the server's own default (dist): a helper can run the browser tests on a build of its own.
   */
  staticDir?: string;
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

const MAIL_LINE = /\[mail\] to <?([^\s>]+?)>?: (.*) — (\S+)\s*$/;

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

export function parseMails(output: string): Mail[] {
  const mails: Mail[] = [];
  for (const line of output.split('\n')) {
    const match = MAIL_LINE.exec(line);
    if (match?.[1] && match[2] !== undefined && match[3]) {
      mails.push({ to: match[1].toLowerCase(), subject: match[2], link: match[3] });
    }
  }
  return mails;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'e2e-data-'));
  let output = '';

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: url,
    DATA_DIR: dataDir,
    SEED_DEMO: options.seedDemo ? '1' : '0',
    JWT_SECRET: 'e2e-secret-that-is-long-enough-for-hs256-0123456789',
    ...options.env,
  };
  if (options.staticDir) env.STATIC_DIR = options.staticDir;
  else if (process.env.E2E_STATIC_DIR && options.env?.STATIC_DIR === undefined) env.STATIC_DIR = process.env.E2E_STATIC_DIR;
  // The browser tests always run on the embedded database and print their mails to the console.
  delete env.DATABASE_URL;
  delete env.SMTP_URL;

  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (output += chunk));
  child.stderr?.on('data', (chunk: string) => (output += chunk));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 15_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
  let lastProbeError: unknown = null;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await rm(dataDir, { recursive: true, force: true });
      throw new Error(`server exited during start (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    try {
      const response = await fetch(`${url}/main-service/api/v1/health`);
      if (response.ok) break;
    } catch (error) {
      // Not listening yet: keep polling until the deadline, and say why if it never comes up.
      lastProbeError = error;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not answer /health in time (${String(lastProbeError)}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    port,
    output: () => output,
    mails: () => parseMails(output),
    async waitForMail(to, { since = 0, timeoutMs = 15_000 } = {}) {
      const address = to.toLowerCase();
      const until = Date.now() + timeoutMs;
      for (;;) {
        const mail = parseMails(output)
          .slice(since)
          .find((m) => m.to === address);
        if (mail) return mail;
        if (Date.now() > until) throw new Error(`no mail to ${to} within ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop,
  };
}
