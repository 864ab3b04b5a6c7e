import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { launchBrowser } from '../e2e/support/browser';
import { findFreePort } from '../e2e/support/server';

const configFile = fileURLToPath(new URL('./browser/review-list.vite.config.ts', import.meta.url));
const outDir = await mkdtemp(join(tmpdir(), 'bench-projects-dbg-'));
await build({ configFile, logLevel: 'warn', mode: process.env.MODE ?? 'production', build: { outDir, emptyOutDir: true, minify: false, rollupOptions: { input: fileURLToPath(new URL('./browser/projects-list.html', import.meta.url)) } } });
const port = await findFreePort();
const vite = await preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { port, strictPort: true, host: '127.0.0.1' } });
const browser = await launchBrowser({ viewport: { width: 800, height: 1280 } });
try {
  const { page } = browser;
  page.on('console', (m) => console.log('console.' + m.type(), m.text().slice(0, 500)));
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.goto(`http://127.0.0.1:${port}/projects-list.html`);
  await page.locator('#state', { hasText: 'ready' }).waitFor({ timeout: 120_000 });
  console.log(await page.evaluate((n) => window.projectsBench.prepare(n), Number(process.env.ROWS ?? 300)));
  const r = await page.evaluate((q) => window.projectsBench.firstRows(q, 1).catch((e) => String(e)), process.env.Q ?? '');
  console.log(r);
  console.log((await page.content()).slice(0, 3000));
} finally {
  await browser.close().catch(() => {});
  await new Promise<void>((resolve) => vite.httpServer.close(() => resolve()));
  await rm(outDir, { recursive: true, force: true });
}
