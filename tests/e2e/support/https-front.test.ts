// The HTTPS front itself (support/https-front.ts): over HTTP/2 and HTTP/1.1 it passes requests and bodies on to the
// plain-HTTP server and its answers back, without the headers of one connection, under the public host; a server
// that does not answer gives 502; the SPKI it names is its certificate's.
import { X509Certificate, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import http2 from 'node:http2';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from './server';
import { startHttpsFront, type HttpsFront } from './https-front';

interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  forwardedProto: string | undefined;
  body: string;
}

let backend: Server;
let front: HttpsFront;
const seen: Seen[] = [];

async function readBody(stream: IncomingMessage | http2.ClientHttp2Stream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  backend = createServer((request, response) => {
    void readBody(request).then((body) => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', host: request.headers.host, forwardedProto: request.headers['x-forwarded-proto'] as string | undefined, body });
      // A chunked answer with a Connection header: both belong to this hop only.
      response.writeHead(201, { 'content-type': 'text/plain', connection: 'keep-alive', 'x-answer': 'yes' });
      response.write('answer to ');
      response.end(`${request.method} ${request.url} ${body}`);
    });
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', () => resolve()));
  front = await startHttpsFront(`http://127.0.0.1:${(backend.address() as AddressInfo).port}`);
}, 60_000);

afterAll(async () => {
  await front?.stop();
  await new Promise((resolve) => backend?.close(resolve));
});

describe('the HTTPS front', () => {
  it('passes an HTTP/2 request and its body on, and the answer back without hop-by-hop headers', async () => {
    const session = http2.connect(front.url, { ca: front.certificate });
    try {
      const stream = session.request({ ':method': 'POST', ':path': '/main-service/api/v1/echo?x=1', 'content-type': 'text/plain' });
      stream.end('a body of some bytes');
      const headers = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
        stream.once('response', resolve);
        stream.once('error', reject);
      });
      const body = await readBody(stream);
      expect(headers[':status']).toBe(201);
      expect(headers['x-answer']).toBe('yes');
      expect(headers.connection).toBeUndefined();
      expect(body).toBe('answer to POST /main-service/api/v1/echo?x=1 a body of some bytes');
      expect(seen.at(-1)).toEqual({
        method: 'POST',
        url: '/main-service/api/v1/echo?x=1',
        host: new URL(front.url).host,
        forwardedProto: 'https',
        body: 'a body of some bytes',
      });
    } finally {
      session.close();
    }
  });

  it('answers HTTP/1.1 clients too', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpsRequest(`${front.url}/plain`, { ca: front.certificate }, (response) => {
        void readBody(response).then((text) => resolve({ status: response.statusCode ?? 0, body: text }), reject);
      });
      request.once('error', reject);
      request.end();
    });
    expect(status).toBe(201);
    expect(body).toBe('answer to GET /plain ');
  });

  it('names the SPKI of its certificate', () => {
    const spki = createHash('sha256')
      .update(new X509Certificate(front.certificate).publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64');
    expect(front.spki).toBe(spki);
    expect(new X509Certificate(front.certificate).checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('answers 502 when the server behind it does not answer', async () => {
    const nobody = await startHttpsFront(`http://127.0.0.1:${await findFreePort()}`);
    const session = http2.connect(nobody.url, { ca: nobody.certificate });
    try {
      const stream = session.request({ ':path': '/' });
      stream.end();
      const headers = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
        stream.once('response', resolve);
        stream.once('error', reject);
      });
      expect(headers[':status']).toBe(502);
      expect(await readBody(stream)).toMatch(/did not answer/);
    } finally {
      session.close();
      await nobody.stop();
    }
  });
});
