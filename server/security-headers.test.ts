import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CSP, APP_CSP, HSTS, registerSecurityHeaders } from './security-headers';
import { api, createTestApp, createTestDatabase, signUp, type TestApp, type TestDatabase } from './test-support';

// A real 1×1 PNG: the upload route decides the type from these bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let database: TestDatabase;
let dir: string;
let t: TestApp;
let access: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'security-headers-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Dashboard</title>');
  await writeFile(path.join(dir, 'sw.js'), 'self.skipWaiting;');
  await writeFile(path.join(dir, 'manifest.webmanifest'), '{"name":"Dashboard"}');
  await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  t = await createTestApp({ staticDir: dir }, database);
  ({ access } = await signUp(t));
});
afterAll(async () => {
  await t?.close();
  await database?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The headers every answer carries, whatever it is. */
function expectCommonHeaders(response: LightMyRequestResponse, what: string): void {
  const headers = response.headers;
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(headers['cross-origin-resource-policy'], what).toBe('same-origin');
  const permissions = String(headers['permissions-policy']);
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
    expect(permissions, what).toContain(`${feature}=()`);
  }
  expect(String(headers['content-security-policy']), what).toContain("frame-ancestors 'none'");
  // Plain HTTP here: HSTS on it would be ignored at best and pin a mistake at worst.
  expect(headers['strict-transport-security'], what).toBeUndefined();
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words): words is [string, ...string[]] => words[0] !== undefined && words[0] !== '')
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('the app policy', () => {
  it('allows script only from this origin: no inline script, no eval', () => {
    const csp = directives(APP_CSP);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'blob:', 'data:']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'blob:']);
    for (const name of ['worker-src', 'manifest-src', 'font-src', 'form-action']) expect(csp.get(name), name).toEqual(["'self'"]);
    for (const name of ['object-src', 'base-uri', 'frame-ancestors']) expect(csp.get(name), name).toEqual(["'none'"]);
    expect(APP_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('lets the API answers load and run nothing', () => {
    expect(directives(API_CSP).get('default-src')).toEqual(["'none'"]);
  });
});

describe('headers on every answer', () => {
  it('on an API answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: api('/health') });
    expect(response.statusCode).toBe(200);
    expectCommonHeaders(response, 'health');
    expect(response.headers['content-security-policy']).toBe(API_CSP);
  });

  it('on the HTML shell, a static file, the manifest and the service worker script', async () => {
    for (const url of ['/', '/index.html', '/assets/index-abc123.js', '/manifest.webmanifest', '/sw.js']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expectCommonHeaders(response, url);
      // The service worker runs under the CSP delivered with its own script.
      expect(response.headers['content-security-policy'], url).toBe(APP_CSP);
    }
  });

  it('on the SPA fallback for client routes, GET and HEAD', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await t.app.inject({ method, url: '/companies/42/proposals?tab=mine' });
      expect(response.statusCode, method).toBe(200);
      expectCommonHeaders(response, method);
      expect(response.headers['content-security-policy'], method).toBe(APP_CSP);
    }
  });

  it('on errors: API validation, authentication, unparsable JSON, unknown API paths', async () => {
    const answers = {
      validation: await t.app.inject({ method: 'POST', url: api('/auth/login'), payload: { email: 1 } }),
      unauthenticated: await t.app.inject({ method: 'GET', url: api('/user') }),
      badJson: await t.app.inject({ method: 'POST', url: api('/auth/login'), headers: { 'content-type': 'application/json' }, payload: '{"email":' }),
      unknownApi: await t.app.inject({ method: 'GET', url: '/main-service/api/v2/user' }),
    };
    for (const [what, response] of Object.entries(answers)) {
      expect(response.statusCode, what).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, what).toBeLessThan(500);
      expectCommonHeaders(response, what);
      expect(response.headers['content-security-policy'], what).toBe(API_CSP);
    }
  });

  it('on the static 404 and on requests refused before routing', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/assets/missing-123.js' });
    expect(missing.statusCode).toBe(404);
    expectCommonHeaders(missing, 'missing asset');
    // A malformed percent-encoding is refused by the router itself, before any hook runs.
    for (const url of ['/dashboard/%E0%A4%A', api('/suggestions/%E0%A4%A')]) {
      const badUrl = await t.app.inject({ method: 'GET', url, headers: { language: 'en' } });
      expect(badUrl.statusCode, url).toBe(400);
      expect(JSON.parse(badUrl.body), url).toEqual({ message: expect.any(String) });
      expectCommonHeaders(badUrl, url);
    }
  });

  it('on an upload and on the uploaded file when read back', async () => {
    const boundary = '----security-headers-test';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: api('/files/upload'),
      payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${access}` },
    });
    expect(uploaded.statusCode).toBe(200);
    expectCommonHeaders(uploaded, 'upload');
    const link = (JSON.parse(uploaded.body) as { data: { imageLink: string } }).data.imageLink;

    const file = await t.app.inject({ method: 'GET', url: link, headers: { authorization: `Bearer ${access}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expectCommonHeaders(file, 'uploaded file');
    expect(file.headers['content-security-policy']).toBe(API_CSP);
  });

  it('on the "not built" answer', async () => {
    const bare = await createTestApp({ staticDir: path.join(dir, 'no-build-here') }, database);
    try {
      const page = await bare.app.inject({ method: 'GET', url: '/dashboard' });
      expect(page.statusCode).toBe(503);
      expectCommonHeaders(page, 'not built');
    } finally {
      await bare.close();
    }
  });
});

describe('Strict-Transport-Security', () => {
  it('is not sent when a client claims TLS with X-Forwarded-Proto, as trustProxy is off', async () => {
    const response = await t.app.inject({ method: 'GET', url: api('/health'), headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent on requests that came over TLS (here through a trusted proxy)', async () => {
    const app = Fastify({ trustProxy: true });
    registerSecurityHeaders(app);
    app.get('/main-service/api/v1/health', (_request, reply) => reply.send({ status: 'ok' }));
    try {
      const overTls = await app.inject({ method: 'GET', url: '/main-service/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
      expect(overTls.headers['strict-transport-security']).toBe(HSTS);
      expect(HSTS).toBe('max-age=31536000; includeSubDomains');
      const plain = await app.inject({ method: 'GET', url: '/main-service/api/v1/health' });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
