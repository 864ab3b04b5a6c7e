import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_NOT_BUILT_MESSAGE } from './static';
import { api, createTestApp, createTestDatabase, json, type TestApp, type TestDatabase } from './test-support';

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
