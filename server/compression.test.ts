// The API's answers compressed for the browsers that accept it (server/app.ts): the same JSON, fewer bytes on a
// phone's connection; small answers, clients that accept nothing, and request bodies stay plain.
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { api, signUp, testAppPerFile } from './test-support';

const t = testAppPerFile();

describe('compressed API answers', () => {
  it('sends a large answer brotli- or gzip-encoded as the browser accepts, with Vary, decoding to the same JSON', async () => {
    const { access } = await signUp(t);
    const headers = { authorization: `Bearer ${access}` };
    const plain = await t.app.inject({ method: 'GET', url: api('/enums'), headers });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await t.app.inject({ method: 'GET', url: api('/enums'), headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(JSON.parse(plain.body));

    const gzip = await t.app.inject({ method: 'GET', url: api('/enums'), headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(JSON.parse(plain.body));
  });

  it('leaves a small answer plain', async () => {
    const health = await t.app.inject({ method: 'GET', url: api('/health'), headers: { 'accept-encoding': 'gzip, br' } });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json<{ data: { status: string } }>().data.status).toBe('ok');
  });

  it('does not decompress request bodies: a gzip-encoded sign-in is refused with a 4xx, nothing signs in', async () => {
    const { email, password } = await signUp(t);
    const response = await t.app.inject({
      method: 'POST',
      url: api('/auth/login'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email, password })),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});
