// One small interface over the three browser engines the app must work in (issue 9, "Proven in three
// engines"): Chromium through playwright-core, Firefox ESR through puppeteer-core (WebDriver BiDi) and
// WebKitGTK through WebKitWebDriver + webdriverio. Each launcher keeps its profile in a directory of its own,
// so `restart()` is a real browser restart on the same IndexedDB, Cache Storage and service worker.
// Page functions given to `evaluate` run in the page: they may use only their argument (no closure over test
// code) and must return plain JSON values, which is all WebDriver can carry back.
//
// Guarantees: `dispose()` ends every process the launcher started (browser, driver, display) and removes the
// profile, and is safe to call twice or after a failed start; `killOnExit` covers a worker that dies first.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { startProxy, type TcpProxy } from './proxy';
import { waitUntil } from './wait';

export type EngineName = 'chromium' | 'firefox' | 'webkit';

const ALL_ENGINES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

/** The engines a browser test runs in: E2E_ENGINES=chromium,firefox,webkit picks them (all three by default). */
export function selectedEngines(): EngineName[] {
  return (process.env.E2E_ENGINES ?? ALL_ENGINES.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name): name is EngineName => (ALL_ENGINES as readonly string[]).includes(name));
}

export interface Engine {
  readonly name: EngineName;
  readonly profileDir: string;
  /**
   * Opens `url` in the page; returns at DOMContentLoaded (in WebKit at the load event: webkit.ts says why), or
   * after `timeoutMs` without failing (the caller checks the page).
   */
  goto(url: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Reloads the page; like `goto`, returns after `timeoutMs` at most. */
  reload(options?: { timeoutMs?: number }): Promise<void>;
  /** Runs `fn(arg)` in the page and returns its (awaited) plain-JSON result. */
  evaluate<R, A = null>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Types `value` into the field (replacing what it holds), as a person would. */
  fill(selector: string, value: string): Promise<void>;
  click(selector: string): Promise<void>;
  /** Text of the first element matching `selector`, '' when there is none. */
  text(selector: string): Promise<string>;
  /** Hands the files on disk to a file input, by the engine's own means. */
  setFiles(selector: string, paths: string[]): Promise<void>;
  /** Closes the browser; the profile stays. */
  close(): Promise<void>;
  /** Starts the browser again on the same profile (closing it first if it runs). */
  restart(): Promise<void>;
  /** Closes everything the launcher started and removes the profile. */
  dispose(): Promise<void>;
}

export interface EngineOptions {
  /** Firefox only: answers the storage-persistence prompt (left unset, the default behaviour is tested). */
  firefoxPersistPrompt?: 'allow' | 'deny';
}

const tracked = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills `child` with SIGKILL if this process exits while it still runs (a crashed or timed-out worker). */
export function killOnExit(child: ChildProcess): void {
  tracked.add(child);
  child.once('exit', () => tracked.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const running of tracked) running.kill('SIGKILL');
    });
  }
}

/** Resolves true when `child` has exited, false after `timeoutMs`. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** SIGTERM, then SIGKILL if it is still there after `graceMs`. */
export async function stopProcess(child: ChildProcess | null | undefined, graceMs = 5_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await waitForExit(child, graceMs))) {
    child.kill('SIGKILL');
    await waitForExit(child, 5_000);
  }
}

export async function launchEngine(name: EngineName, options: EngineOptions = {}): Promise<Engine> {
  // Imported on demand so a run of one engine does not load the other drivers.
  switch (name) {
    case 'chromium':
      return (await import('./chromium-engine')).launchChromium();
    case 'firefox':
      return (await import('./firefox')).launchFirefox(options);
    case 'webkit':
      return (await import('./webkit')).launchWebKit();
  }
}

/** A test file's log line about one engine: `[tag] engine: message`, so interleaved engines stay apart. */
export function engineLog(tag: string): (engine: EngineName, message: string) => void {
  return (engine, message) => console.log(`[${tag}] ${engine}: ${message}`);
}

export interface EngineSuite {
  /** The suite's browser; reading it before the suite's beforeAll ran, or after it failed, throws. */
  readonly engine: Engine;
  /** The proxy between that browser and the server: the origin to open the app on, and the network switch. */
  readonly proxy: TcpProxy;
}

/**
 * The set-up every test of one engine shares, registered in the calling `describe`: beforeAll starts a proxy
 * to the server on `serverPort()` (read then, once the file's server runs) and the browser, and hands the
 * launch time to `log`; afterAll ends the browser and then the proxy, each on its own, so a failure in one
 * does not leave the other running.
 */
export function engineSuite(name: EngineName, { serverPort, log }: { serverPort: () => number; log: (engine: EngineName, message: string) => void }): EngineSuite {
  let engine: Engine | undefined;
  let proxy: TcpProxy | undefined;

  beforeAll(async () => {
    proxy = await startProxy(serverPort());
    const started = Date.now();
    engine = await launchEngine(name);
    log(name, `browser started in ${Date.now() - started} ms`);
  }, 180_000);

  afterAll(async () => {
    await engine?.dispose().catch((error: unknown) => console.error(`disposing ${name} failed`, error));
    await proxy?.close().catch((error: unknown) => console.error('closing the proxy failed', error));
  }, 60_000);

  return {
    get engine() {
      if (!engine) throw new Error(`no ${name} browser: it did not start`);
      return engine;
    },
    get proxy() {
      if (!proxy) throw new Error(`no proxy for ${name}: it did not start`);
      return proxy;
    },
  };
}

// ----- Steps written once against the interface -----

/** An error of a page that was navigating away while a script ran in it: the script's answer is just lost. */
export function isNavigationError(error: unknown): boolean {
  return error instanceof Error && /context was destroyed|navigat|detached|unload|no such window|Cannot find context|frame was removed/i.test(error.message);
}

/** `promise`, or `fallback` when the page navigated while it ran (for polls that run across navigations). */
export async function orWhileNavigating<T>(promise: Promise<T>, fallback: T): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (isNavigationError(error)) return fallback;
    throw error;
  }
}

/** Whether an element matching `selector` is in the page and rendered (not display:none, has a box). */
export async function isVisible(engine: Engine, selector: string): Promise<boolean> {
  return orWhileNavigating(
    engine.evaluate((sel) => {
      const element = document.querySelector(sel);
      if (!element) return false;
      const rect = element.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    }, selector),
    false,
  );
}

export async function waitForSelector(engine: Engine, selector: string, timeoutMs = 20_000): Promise<void> {
  await waitUntil(() => isVisible(engine, selector), { timeoutMs, intervalMs: 200, message: `${selector} on screen in ${engine.name}` });
}

export async function waitForRoute(engine: Engine, route: string, timeoutMs = 20_000): Promise<void> {
  await waitForSelector(engine, `[data-route="${route}"]`, timeoutMs);
}

/** The data-route of every route container on screen (for failure messages). */
export async function routesOnScreen(engine: Engine): Promise<string[]> {
  return orWhileNavigating(
    engine.evaluate(() => [...document.querySelectorAll('[data-route]')].map((element) => element.getAttribute('data-route') ?? '')),
    [],
  );
}

/** Signs in through the login form (email and password; a form in steps is followed). */
export async function signIn(engine: Engine, origin: string, email: string, password: string): Promise<void> {
  await engine.goto(`${origin}/auth/login`);
  await waitForRoute(engine, 'AuthLogin', 30_000);
  const form = '[data-route="AuthLogin"]';
  await engine.fill(`${form} [name="email"]`, email);
  if (!(await isVisible(engine, `${form} [name="password"]`))) {
    await engine.click(`${form} button[type="submit"]`);
    await waitForSelector(engine, `${form} [name="password"]`);
  }
  await engine.fill(`${form} [name="password"]`, password);
  await engine.click(`${form} button[type="submit"]`);
}

/**
 * Chooses the first real option (not "other") of the UI kit's select whose hidden input is named `name`:
 * the combobox beside it is opened, then the option clicked, both by the engine's own clicks. The page marks
 * the two elements with data-e2e attributes so every driver can reach them by a plain CSS selector.
 */
export async function chooseFirstOption(engine: Engine, scope: string, name: string): Promise<void> {
  const marked = await engine.evaluate(
    ({ scope, name }) => {
      const hidden = document.querySelector(`${scope} [name="${name}"]`);
      const container = hidden?.parentElement;
      const trigger = container?.querySelector('[role="combobox"]') ?? container?.querySelector('button, input:not([type="hidden"])');
      if (!trigger) return false;
      trigger.setAttribute('data-e2e', `combobox-${name}`);
      return true;
    },
    { scope, name },
  );
  if (!marked) throw new Error(`no combobox for ${name} in ${engine.name}`);
  await engine.click(`[data-e2e="combobox-${name}"]`);
  await waitUntil(
    () =>
      engine.evaluate(() => {
        const options = [...document.querySelectorAll('[role="option"]')];
        const option = options.find((o) => !/друг|other/i.test(o.textContent ?? '')) ?? options[0];
        if (!option) return false;
        option.setAttribute('data-e2e', 'chosen-option');
        return true;
      }, null),
    { timeoutMs: 10_000, intervalMs: 200, message: `the options of ${name} in ${engine.name}` },
  );
  await engine.click('[data-e2e="chosen-option"]');
  await waitUntil(
    () => engine.evaluate(({ scope, name }) => (document.querySelector<HTMLInputElement>(`${scope} [name="${name}"]`)?.value ?? '') !== '', { scope, name }),
    { timeoutMs: 10_000, intervalMs: 200, message: `${name} to take a value in ${engine.name}` },
  );
}

/** Files a File input by building the FileList in the page (for a driver that cannot upload). */
export async function setFilesInPage(engine: Engine, selector: string, files: Array<{ name: string; type: string; base64: string }>): Promise<void> {
  await engine.evaluate(
    ({ selector, files }) => {
      const input = document.querySelector(selector);
      if (!(input instanceof HTMLInputElement)) throw new Error(`no file input at ${selector}`);
      const transfer = new DataTransfer();
      for (const file of files) {
        const binary = atob(file.base64);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      input.files = transfer.files;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
      return true;
    },
    { selector, files },
  );
}

/** The service worker registration of the page, as its states ('' where there is none). */
interface WorkerState {
  controlled: boolean;
  installing: string;
  waiting: string;
  active: string;
}

/**
 * Waits until the service worker controls the page showing `route`, reloading once the worker is active but
 * not in control: a real visitor gets a controlled page on a later load when the worker activates late, and
 * only a controlled page has the shell and the page chunks offline. The page is asked for its registration
 * instead of awaiting `navigator.serviceWorker.ready`, because a worker that never gets past installing
 * (WebKitGTK can leave one so after a reload during its first install) would keep that promise pending past
 * any bound; so this fails after `timeoutMs` and names the state the worker was stuck in.
 */
export async function waitForServiceWorkerControl(engine: Engine, route: string, timeoutMs = 60_000): Promise<void> {
  let last: WorkerState | null = null;
  try {
    await waitUntil(
      async () => {
        const state = await orWhileNavigating(
          engine.evaluate(async () => {
            const registration = await navigator.serviceWorker.getRegistration();
            return {
              controlled: navigator.serviceWorker.controller !== null,
              installing: registration?.installing?.state ?? '',
              waiting: registration?.waiting?.state ?? '',
              active: registration?.active?.state ?? '',
            };
          }, null),
          null,
        );
        if (!state) return false;
        last = state;
        if (state.controlled) return true;
        if (state.active === 'activated') {
          await engine.reload();
          await waitForRoute(engine, route, 30_000);
        }
        return false;
      },
      { timeoutMs, intervalMs: 250, message: `the service worker to control the page in ${engine.name}` },
    );
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; registration: ${describeWorker(last)}`, { cause: error });
  }
}

function describeWorker(state: WorkerState | null): string {
  if (!state) return 'never read (the page was navigating)';
  const seen = `installing ${state.installing || 'none'}, waiting ${state.waiting || 'none'}, active ${state.active || 'none'}`;
  return state.installing && !state.active ? `${seen} (a worker that stays installing never takes control)` : seen;
}

/**
 * Opens `path` inside the running app, as a tap on a link does (wouter follows history.pushState): a person
 * moves between screens without reloading. Reloads and cold starts offline are offline-engines.test.ts's.
 */
export async function openInApp(engine: Engine, path: string): Promise<void> {
  await engine.evaluate((to) => {
    history.pushState(null, '', to);
    return true;
  }, path);
}

/** Waits for `selector`; on a timeout the error tells what was on screen instead. */
export async function waitOnScreen(engine: Engine, selector: string, timeoutMs = 30_000): Promise<void> {
  try {
    await waitForSelector(engine, selector, timeoutMs);
  } catch (error) {
    const screen = await orWhileNavigating(
      engine.evaluate(
        () =>
          `${location.pathname} (worker ${navigator.serviceWorker.controller ? 'controls' : 'does not control'} the page; routes ${[...document.querySelectorAll('[data-route]')]
            .map((element) => `${element.getAttribute('data-route')}:${element.innerHTML.length}`)
            .join(',')}; last resources ${performance
            .getEntriesByType('resource')
            .slice(-8)
            .map((entry) => entry.name.replace(location.origin, ''))
            .join(' ')}): ${document.body.innerText.slice(0, 400)}`,
        null,
      ),
      '(navigating)',
    );
    const database = await orWhileNavigating(
      engine.evaluate(
        () =>
          Promise.race([
            new Promise<string>((resolve) => {
              const request = indexedDB.open('dashboard');
              request.onsuccess = () => {
                const db = request.result;
                resolve(`opened at ${db.version} with ${db.objectStoreNames.length} stores`);
                db.close();
              };
              request.onerror = () => resolve('open failed');
              request.onblocked = () => resolve('open blocked');
            }),
            new Promise<string>((resolve) => setTimeout(() => resolve('no answer in 3 s'), 3000)),
          ]),
        null,
      ),
      '(navigating)',
    );
    throw new Error(`${error instanceof Error ? error.message : String(error)}; database: ${database}; on screen: ${screen.replace(/\s+/g, ' ')}`, { cause: error });
  }
}
