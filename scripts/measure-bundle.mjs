#!/usr/bin/env node
// `npm run bench`: how much JavaScript the sign-in route (/auth/login) costs a first-time visitor, gzipped.
//
// Preferred measure: what Debian's Chromium actually loads. The built app is served by the real server on
// a free port (throwaway PGlite directory, no demo data) and opened in a fresh context with service workers
// blocked, so the precache (which fetches every chunk for offline use, in the background) is not counted.
// Every script the page loads is gzipped (level 9) from dist/ and summed: the entry, its static imports,
// the login page chunk and its imports, the Russian catalogue chunk.
// Fallback (no Chromium, or `--manifest`): the same set read from Vite's build manifest.
//
// Usage: node scripts/measure-bundle.mjs [--manifest] [--json] [--strict]   (--strict: exit 1 over budget)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const ROUTE = '/auth/login';
const BUDGET_KB = 150;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const flags = new Set(process.argv.slice(2));

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function ensureBuild() {
  if (existsSync(join(DIST, 'index.html'))) return;
  console.error('dist/index.html is missing: building (vite build)...');
  const code = await run(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build']);
  if (code !== 0) throw new Error(`vite build failed (${code})`);
}

function findFreePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function startServer() {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-data-'));
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', APP_URL: url, DATA_DIR: dataDir, SEED_DEMO: '0', NODE_ENV: 'production' };
  delete env.DATABASE_URL;
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
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
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Scripts Chromium fetches to show the sign-in route, as dist-relative paths. */
async function scriptsLoadedByChromium() {
  const { chromium } = await import('playwright-core');
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
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
    await page.goto(`${server.url}${ROUTE}`, { waitUntil: 'networkidle' });
    await page.locator('[data-route="AuthLogin"]').first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    return [...scripts].map((p) => p.replace(/^\//, ''));
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** The same set from Vite's manifest: entry + static imports, login page + imports, ru catalogue. */
function scriptsFromManifest() {
  const file = join(DIST, '.vite', 'manifest.json');
  if (!existsSync(file)) throw new Error('dist/.vite/manifest.json is missing (build.manifest must be true)');
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
  const login = keys.find((k) => /features\/auth\/pages\/login-page\.tsx$/.test(k));
  const ru = keys.find((k) => /locales\/ru\.json$/.test(k));
  for (const [label, key] of [['entry', entry], ['login page', login], ['ru catalogue', ru]]) {
    if (!key) throw new Error(`no ${label} in the Vite manifest`);
    visit(key);
  }
  return [...files].filter((f) => f.endsWith('.js'));
}

function describeFiles(files) {
  return files
    .map((file) => {
      const bytes = readFileSync(join(DIST, file));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

const kb = (n) => (n / 1024).toFixed(1);

async function main() {
  await ensureBuild();
  let method = 'chromium';
  let files;
  if (flags.has('--manifest') || !existsSync(CHROMIUM)) {
    method = 'vite-manifest';
    files = scriptsFromManifest();
  } else {
    try {
      files = await scriptsLoadedByChromium();
    } catch (error) {
      console.error(`Measuring in Chromium failed, using the Vite manifest instead: ${error.message}`);
      method = 'vite-manifest';
      files = scriptsFromManifest();
    }
  }
  const rows = describeFiles(files.filter((f) => existsSync(join(DIST, f))));
  const total = rows.reduce((sum, r) => ({ raw: sum.raw + r.raw, gzip: sum.gzip + r.gzip }), { raw: 0, gzip: 0 });
  const withinBudget = total.gzip <= BUDGET_KB * 1024;

  if (flags.has('--json')) {
    console.log(JSON.stringify({ route: ROUTE, method, files: rows, total, budgetKb: BUDGET_KB, withinBudget }, null, 2));
  } else {
    const width = Math.max(...rows.map((r) => r.file.length), 'total'.length);
    console.log(`JavaScript loaded by ${ROUTE} (measured with ${method}; gzip -9 of each file in dist/)`);
    console.log(`${'file'.padEnd(width)}  ${'raw KB'.padStart(8)}  ${'gzip KB'.padStart(8)}`);
    for (const r of rows) console.log(`${r.file.padEnd(width)}  ${kb(r.raw).padStart(8)}  ${kb(r.gzip).padStart(8)}`);
    console.log(`${'total'.padEnd(width)}  ${kb(total.raw).padStart(8)}  ${kb(total.gzip).padStart(8)}`);
    console.log(`${rows.length} files; ${kb(total.gzip)} KB gzipped: ${withinBudget ? 'within' : 'OVER'} the ${BUDGET_KB} KB budget`);
  }
  if (flags.has('--strict') && !withinBudget) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
