import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_NOT_BUILT_MESSAGE, preferredEncoding } from './static';
import { api, createTestApp, createTestDatabase, json, type TestApp, type TestDatabase } from './test-support';

// Large enough to be worth compressing (1 KB or more), and compressible.
const BIG_SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `'row ${i}'`).join(', ')}];\n`;

let database: TestDatabase;
let dir: string;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'static-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Dashboard</title>');
  await writeFile(path.join(dir, 'sw.js'), 'self.skipWaiting;');
  await writeFile(path.join(dir, 'manifest.webmanifest'), '{"name":"Dashboard"}');
  await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dir, 'icon-192.png'), 'png');
  await writeFile(path.join(dir, 'assets', 'page-def456.js'), BIG_SCRIPT);
  await writeFile(path.join(dir, 'assets', 'photo-def456.png'), BIG_SCRIPT);
  t = await createTestApp({ staticDir: dir }, database);
});
afterAll(async () => {
  await t.close();
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('serving the built PWA', () => {
  it('serves index.html at / without caching', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Dashboard</title>');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('serves the service worker and the manifest without caching', async () => {
    for (const file of ['/sw.js', '/manifest.webmanifest']) {
      const response = await get(file);
      expect(response.statusCode, file).toBe(200);
      expect(response.headers['cache-control'], file).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year as immutable', async () => {
    const response = await get('/assets/index-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers client routes with index.html (SPA fallback)', async () => {
    for (const route of ['/dashboard', '/auth/register/verified?token=abc', '/companies/42/projects/7/aprove-result']) {
      const response = await get(route);
      expect(response.statusCode, route).toBe(200);
      expect(response.body, route).toContain('<title>Dashboard</title>');
      expect(response.headers['cache-control'], route).toBe('no-cache');
    }
  });

  it('answers a missing file with 404, not the app', async () => {
    const response = await get('/assets/missing-123.js');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<title>');
  });

  it('does not fall back for other methods', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/dashboard' })).statusCode).toBe(404);
  });

  it('keeps the API in JSON: unknown API paths answer 404 JSON', async () => {
    for (const url of [api('/nope'), '/main-service/api/v2/user']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(json(response), url).toEqual({ message: 'Не найдено.' });
    }
  });
});

describe('compressing text files', () => {
  const fetchWith = (url: string, acceptEncoding: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': acceptEncoding, ...headers } });

  it('answers a script in brotli when accepted, else gzip, else as it is', async () => {
    const br = await fetchWith('/assets/page-def456.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(BIG_SCRIPT.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);

    const gz = await fetchWith('/assets/page-def456.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_SCRIPT);

    const plain = await fetchWith('/assets/page-def456.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);
  });

  it('compresses the HTML shell of a client route too, and answers a revalidation with 304', async () => {
    await writeFile(path.join(dir, 'index.html'), `<!doctype html><title>Dashboard</title>${'<p>shell</p>'.repeat(200)}`);
    const page = await fetchWith('/auth/login', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<title>Dashboard</title>');
    const etag = page.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await fetchWith('/auth/login', 'br', { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('serves a rebuilt file, not the compressed copy of the old one', async () => {
    const file = path.join(dir, 'assets', 'rebuilt-1.js');
    await writeFile(file, BIG_SCRIPT);
    await fetchWith('/assets/rebuilt-1.js', 'br');
    const changed = BIG_SCRIPT.replace('row 1', 'row one');
    await writeFile(file, changed);
    const response = await fetchWith('/assets/rebuilt-1.js', 'br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(changed);
  });

  it('leaves images, small files and byte ranges as they are', async () => {
    expect((await fetchWith('/assets/photo-def456.png', 'br')).headers['content-encoding']).toBeUndefined();
    expect((await fetchWith('/assets/index-abc123.js', 'br')).headers['content-encoding']).toBeUndefined();
    const range = await fetchWith('/assets/page-def456.js', 'br', { range: 'bytes=0-9' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body).toBe(BIG_SCRIPT.slice(0, 10));
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('gzip');
    expect(preferredEncoding('identity, deflate')).toBeNull();
  });
});

describe('without a build', () => {
  it('answers 503 with a hint for app pages and keeps the API working', async () => {
    const bare = await createTestApp({ staticDir: path.join(dir, 'no-build-here') }, database);
    try {
      const page = await bare.app.inject({ method: 'GET', url: '/dashboard' });
      expect(page.statusCode).toBe(503);
      expect(page.body).toBe(APP_NOT_BUILT_MESSAGE);
      const health = await bare.app.inject({ method: 'GET', url: api('/health') });
      expect(health.statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
