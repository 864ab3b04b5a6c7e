// How much JavaScript the sign-in route (/auth/login) costs a first-time visitor, gzipped: the one
// measuring code of `npm run bench` (scripts/measure-bundle.mjs) and of the budget test
// (tests/e2e/bundle-budget.test.ts). Types in bundle-size.d.mts.
//
// Preferred measure: what Debian's Chromium actually loads. The build in `dist` is served by the real
// server (STATIC_DIR) on a free port (throwaway PGlite directory, no demo data) and opened in a fresh
// context with service workers blocked, so the precache (which fetches every chunk for offline use, in
// the background) is not counted. Every script the page loads is gzipped (level 9) from `dist` and
// summed: the entry, its static imports, the login page chunk and its imports, the message catalogue
// chunks of the sign-in area, and whatever else the page fetches (workbox-window).
// Fallback (no Chromium, or method 'manifest'): the same set read from Vite's build manifest: static
// imports only, so it leaves out workbox-window, which the page imports dynamically.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_DIST = join(ROOT, 'dist');
export const SIGN_IN_ROUTE = '/auth/login';
/** The sign-in route's budget (issue 9: 120 KB, down from 150, with the catalogues cut per area). */
export const BUDGET_KB = 120;
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A dist directory given on the command line or in the environment, resolved against the repository. */
export function resolveDist(dir) {
  if (!dir) return DEFAULT_DIST;
  return isAbsolute(dir) ? dir : resolve(ROOT, dir);
}

function findFreePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/** The real server on a free port, serving `dist`, on a throwaway embedded database. */
async function startServer(dist) {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-data-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: url,
    DATA_DIR: dataDir,
    STATIC_DIR: dist,
    SEED_DEMO: '0',
    NODE_ENV: 'production',
  };
  delete env.DATABASE_URL;
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited during start:\n${output}`);
    }
    const healthy = await fetch(`${url}/main-service/api/v1/health`).then((r) => r.ok, () => false);
    if (healthy) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not answer /health:\n${output}`);
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
}

/** Scripts Chromium fetches to show the sign-in route, as dist-relative paths. */
export async function scriptsLoadedByChromium(dist) {
  const { chromium } = await import('playwright-core');
  const server = await startServer(dist);
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      const scripts = new Set();
      page.on('response', (response) => {
        const request = response.request();
        const url = new URL(response.url());
        // Module preloads are not always typed 'script', so the file name counts too.
        const isScript = request.resourceType() === 'script' || /\.m?js$/.test(url.pathname);
        if (isScript && url.origin === server.url) scripts.add(url.pathname);
      });
      await page.goto(`${server.url}${SIGN_IN_ROUTE}`, { waitUntil: 'networkidle' });
      await page.locator('[data-route="AuthLogin"]').first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      return [...scripts].map((p) => p.replace(/^\//, ''));
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

/** The JavaScript files of the manifest's entry and of the modules matching `patterns`, with their static imports. */
function manifestClosure(dist, patterns) {
  const file = join(dist, '.vite', 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing (build.manifest must be true)`);
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const keys = Object.keys(manifest);
  const entry = keys.find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('no entry in the Vite manifest');
  visit(entry);
  for (const [label, pattern] of patterns) {
    const key = keys.find((k) => pattern.test(k));
    if (!key) throw new Error(`no ${label} in the Vite manifest`);
    visit(key);
  }
  return [...files].filter((f) => f.endsWith('.js'));
}

/**
 * The same set from Vite's manifest: entry + static imports, login page + imports, and the Russian
 * catalogue of the sign-in area (src/lib/catalogues/messages-ru-auth.ts, see src/lib/catalogue-areas.ts).
 */
export function scriptsFromManifest(dist) {
  return manifestClosure(dist, [
    ['login page', /features\/auth\/pages\/login-page\.tsx$/],
    ['ru catalogue of the auth area', /src\/lib\/catalogues\/messages-ru-auth\.ts$/],
  ]);
}

/**
 * The dashboard route (issue 13), from Vite's manifest: the entry, the signed-in frame, the dashboard page, the
 * Russian messages of both areas, and chart.js with its set-up, which the page imports once its figures show.
 */
export function dashboardRouteScripts(dist) {
  return manifestClosure(dist, [
    // The default layout is in the signed-in frame's chunk group (scripts/vite-signed-in-shell.ts), named by its file.
    ['signed-in frame', /^_signed-in-[\w-]+\.js$/],
    ['dashboard page', /features\/dashboard\/pages\/dashboard-page\.tsx$/],
    ['ru catalogue of the auth area', /src\/lib\/catalogues\/messages-ru-auth\.ts$/],
    ['ru catalogue of the app area', /src\/lib\/catalogues\/messages-ru-app\.ts$/],
    ['ru catalogue of the dashboard area', /src\/lib\/catalogues\/messages-ru-dashboard\.ts$/],
    ['chart set-up', /features\/dashboard\/components\/chart-setup\.ts$/],
  ]);
}

/**
 * What the service worker precaches (the `url`s of the manifest Workbox injected into dist/sw.js), with raw and
 * gzip -9 sizes, largest first: what a first visit downloads in the background for offline use.
 */
export function precacheFiles(dist) {
  const worker = readFileSync(join(dist, 'sw.js'), 'utf8');
  const urls = [...new Set([...worker.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]))];
  if (urls.length === 0) throw new Error(`${dist}/sw.js lists no precache entries`);
  return describeFiles(dist, urls);
}

/** Raw and gzip -9 size of each file, largest first. */
export function describeFiles(dist, files) {
  return files
    .filter((file) => existsSync(join(dist, file)))
    .map((file) => {
      const bytes = readFileSync(join(dist, file));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

/**
 * Measures the sign-in route of the build in `dist`. method: 'chromium' (fails without it), 'manifest',
 * or 'auto' (Chromium when it is installed, else the manifest; a failed Chromium run falls back too).
 */
export async function measureSignInRoute({ dist = DEFAULT_DIST, method = 'auto', onFallback = () => undefined } = {}) {
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist} holds no build (index.html is missing)`);
  let used = method === 'manifest' || (method === 'auto' && !existsSync(CHROMIUM_PATH)) ? 'vite-manifest' : 'chromium';
  let files;
  if (used === 'vite-manifest') {
    files = scriptsFromManifest(dist);
  } else {
    try {
      files = await scriptsLoadedByChromium(dist);
    } catch (error) {
      if (method === 'chromium') throw error;
      onFallback(error);
      used = 'vite-manifest';
      files = scriptsFromManifest(dist);
    }
  }
  const rows = describeFiles(dist, files);
  const total = rows.reduce((sum, r) => ({ raw: sum.raw + r.raw, gzip: sum.gzip + r.gzip }), { raw: 0, gzip: 0 });
  return { route: SIGN_IN_ROUTE, method: used, dist, files: rows, total, budgetKb: BUDGET_KB, withinBudget: total.gzip <= BUDGET_KB * 1024 };
}
