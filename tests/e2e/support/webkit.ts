// WebKitGTK behind the Engine interface: Debian's WebKitWebDriver driven by webdriverio's `remote()`, on an
// Xvfb display this launcher starts itself, with webkit-browser.py as the browser so the profile (IndexedDB,
// Cache Storage, the service worker) is kept on disk across `restart()` (MiniBrowser's --automation mode
// forgets everything; TESTING.md).
// Guarantees: `dispose()` ends the browser, the driver and Xvfb, whatever state they are in; the browser is
// found as a child of the driver, so it is ended even when the session could not be closed.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remote } from 'webdriverio';
import { killOnExit, setFilesInPage, stopProcess, type Engine } from './engines';
import { findFreePort } from './server';
import { waitUntil } from './wait';

export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const BROWSER_SCRIPT = fileURLToPath(new URL('./webkit-browser.py', import.meta.url));
// Debian's python3 (where python3-gi lives), not whatever python3 comes first on the PATH.
const PYTHON = process.env.WEBKIT_PYTHON ?? '/usr/bin/python3';

type WdioBrowser = Awaited<ReturnType<typeof remote>>;

/** Starts `Xvfb -displayfd`, which picks a free display itself and reports its number. */
export async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  killOnExit(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const fd3 = child.stdio[3] as NodeJS.ReadableStream;
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb reported no display in 20 s:\n${stderr}`)), 20_000);
    fd3.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${text.trim()}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}):\n${stderr}`));
    });
  });
  return { display, process: child };
}

/** The pids whose parent is `pid` (Linux /proc). */
function childPids(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (2nd field) is in parentheses and may hold spaces: parse after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) found.push(Number(entry));
    } catch {
      // The process ended while /proc was read: nothing to look at.
      continue;
    }
  }
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends `signal` to `pid`; one that has gone meanwhile (the driver reaps the browser it started) is no error. */
function signalIfRunning(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'ESRCH')) throw error;
  }
}

/** Ends the browser processes the driver started (SIGTERM, then SIGKILL after `graceMs`). */
async function endChildrenOf(pid: number | undefined, graceMs: number): Promise<void> {
  if (pid === undefined) return;
  const children = childPids(pid);
  for (const child of children) signalIfRunning(child, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (children.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const child of children.filter(isAlive)) signalIfRunning(child, 'SIGKILL');
}

/** `promise`, or a 'timeout' rejection after `ms` (the driver's own page-load timeout is a backstop). */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function launchWebKit(): Promise<Engine> {
  const profileDir = await mkdtemp(join(tmpdir(), 'e2e-webkit-'));
  let xvfb: ChildProcess | null = null;
  let driver: ChildProcess | null = null;
  let session: WdioBrowser | null = null;
  let driverPort = 0;
  let driverOutput = '';

  const stopAll = async () => {
    const running = session;
    session = null;
    if (running) await running.deleteSession().catch(() => undefined);
    await endChildrenOf(driver?.pid, 3_000);
    await stopProcess(driver, 3_000);
    driver = null;
    await stopProcess(xvfb, 3_000);
    xvfb = null;
  };

  const startSession = async () => {
    session = await remote({
      hostname: '127.0.0.1',
      port: driverPort,
      logLevel: 'error',
      connectionRetryTimeout: 120_000,
      connectionRetryCount: 1,
      capabilities: {
        // 'normal': a navigation answers at the load event. With 'eager' it answers at DOMContentLoaded, and
        // WebKitWebDriver then holds a script sent before the load event until the page-load timeout, because it
        // waits for a DOMContentLoaded that has already passed; at 'normal' such a script waits only for the load.
        pageLoadStrategy: 'normal',
        'webkitgtk:browserOptions': {
          binary: PYTHON,
          args: [BROWSER_SCRIPT, `--profile=${profileDir}`, '--automation'],
        },
      } as WebdriverIO.Capabilities,
    });
    await session.setTimeout({ pageLoad: 30_000, script: 120_000 });
  };

  const current = (): WdioBrowser => {
    if (!session) throw new Error('webkit is not running');
    return session;
  };

  const closeSession = async () => {
    const running = session;
    session = null;
    if (running) {
      try {
        await running.deleteSession();
      } catch {
        // The browser is gone already; its process is looked for below either way.
      }
    }
    // The browser quits when its last view closes; one that does not is ended, so the profile is not in use
    // by two browsers after a restart.
    const pid = driver?.pid;
    if (pid !== undefined) {
      try {
        await waitUntil(() => childPids(pid).length === 0, { timeoutMs: 10_000, intervalMs: 200, message: 'the WebKit browser to quit' });
      } catch {
        await endChildrenOf(pid, 3_000);
      }
    }
  };

  const settle = async (navigation: Promise<unknown>) => {
    try {
      await navigation;
    } catch (error) {
      if (!(error instanceof Error && /timeout|timed out/i.test(error.message))) throw error;
    }
  };

  try {
    const started = await startXvfb();
    xvfb = started.process;
    driverPort = await findFreePort();
    driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${driverPort}`], {
      env: { ...process.env, DISPLAY: started.display, GDK_BACKEND: 'x11', WEBKIT_DISABLE_COMPOSITING_MODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    killOnExit(driver);
    driver.stdout?.on('data', (chunk: Buffer) => (driverOutput += chunk.toString('utf8')));
    driver.stderr?.on('data', (chunk: Buffer) => (driverOutput += chunk.toString('utf8')));
    await waitUntil(
      async () => {
        try {
          return (await fetch(`http://127.0.0.1:${driverPort}/status`)).ok;
        } catch {
          return false;
        }
      },
      { timeoutMs: 20_000, intervalMs: 200, message: 'WebKitWebDriver to answer /status' },
    );
    await startSession();
  } catch (error) {
    await stopAll();
    await rm(profileDir, { recursive: true, force: true });
    throw new Error(`WebKit did not start: ${String(error)}\n${driverOutput}`, { cause: error });
  }

  const engine: Engine = {
    name: 'webkit',
    profileDir,
    goto: (url, { timeoutMs = 30_000 } = {}) => settle(withTimeout(current().url(url), timeoutMs)),
    reload: ({ timeoutMs = 30_000 } = {}) => settle(withTimeout(current().refresh(), timeoutMs)),
    // webdriverio's typing of `execute` maps element arguments to elements and cannot follow a generic A; the
    // argument is plain JSON here (WebDriver awaits a returned promise), so it is passed through as it is.
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg?: A) => current().execute(fn as (value: string) => unknown, (arg ?? null) as unknown as string) as Promise<R>,
    async fill(selector, value) {
      const element = current().$(selector);
      await element.clearValue();
      await element.addValue(value);
    },
    async click(selector) {
      await current().$(selector).click();
    },
    async text(selector) {
      const element = current().$(selector);
      return (await element.isExisting()) ? element.getText() : '';
    },
    async setFiles(selector, paths) {
      // WebDriver's "send keys" to a file input takes the paths; where the driver cannot, the page builds them.
      try {
        await current().$(selector).addValue(paths.join('\n'));
      } catch (error) {
        console.warn(`webkit: send keys to a file input failed (${String(error)}); building the files in the page`);
        const files = await Promise.all(
          paths.map(async (path) => ({
            name: path.split('/').pop() ?? 'photo',
            type: path.endsWith('.png') ? 'image/png' : 'image/jpeg',
            base64: (await readFile(path)).toString('base64'),
          })),
        );
        await setFilesInPage(engine, selector, files);
      }
    },
    close: closeSession,
    async restart() {
      await closeSession();
      await startSession();
    },
    async dispose() {
      await stopAll();
      await rm(profileDir, { recursive: true, force: true });
    },
  };
  return engine;
}
