// A TLS front speaking HTTP/2 (and HTTP/1.1 to clients without it) before a plain-HTTP server: what a deployment
// puts before the main-service. A PWA is only installable over HTTPS, and the TLS terminators that serve it (Caddy,
// nginx, a cloud load balancer) speak HTTP/2, so the browser loads the app's ~25 files over one connection. Lighthouse
// measures the product through this front, as its users get it: over plain HTTP/1.1 its simulation queues those
// files on six connections that each pay their own round trips, which no deployment has.
//
// The certificate is self-signed for 127.0.0.1, made once per process with Debian's openssl; a browser trusts it
// through `--ignore-certificate-errors-spki-list=<spki>` (the certificate is then as good as a valid one: secure
// context, service worker, no warning), and Node clients through `certificate` as their CA.
import { execFile } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import http2, { type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface HttpsFront {
  /** The front's origin, e.g. https://127.0.0.1:40123 */
  url: string;
  /** base64 SHA-256 of the certificate's public key: Chromium's `--ignore-certificate-errors-spki-list` value. */
  spki: string;
  /** The certificate (PEM), for a Node client's `ca`. */
  certificate: string;
  stop(): Promise<void>;
}

// Headers of one connection, not of the message: HTTP/2 forbids them (Node refuses to send them), and a proxy never
// passes them on in either direction.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'http2-settings', 'host']);

interface KeyPair {
  key: Buffer;
  certificate: string;
}

let keyPair: Promise<KeyPair> | undefined;

async function makeKeyPair(): Promise<KeyPair> {
  const dir = await mkdtemp(join(tmpdir(), 'https-front-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    // prettier-ignore
    await promisify(execFile)('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    ]);
    return { key: await readFile(keyFile), certificate: await readFile(certFile, 'utf8') };
  } catch (error) {
    throw new Error(`openssl could not make the front's certificate (apt-get install openssl): ${String(error)}`, { cause: error });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function spkiOf(certificate: string): string {
  const publicKey = new X509Certificate(certificate).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(publicKey).digest('base64');
}

function passedOn(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || HOP_BY_HOP.has(name) || value === undefined) continue;
    kept[name] = value;
  }
  return kept;
}

/** Starts a front on a free port of 127.0.0.1 that passes every request on to `backendUrl` (http://host:port). */
export async function startHttpsFront(backendUrl: string): Promise<HttpsFront> {
  keyPair ??= makeKeyPair();
  const { key, certificate } = await keyPair;
  const backend = new URL(backendUrl);
  const agent = new http.Agent({ keepAlive: true });
  const sessions = new Set<ServerHttp2Session>();

  const server = http2.createSecureServer({ key, cert: certificate, allowHTTP1: true });
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('request', (request: Http2ServerRequest, response: Http2ServerResponse) => {
    // The server sees the public host, as behind `proxy_set_header Host $host`.
    const host = request.headers[':authority'] ?? request.headers.host ?? backend.host;
    const upstream = http.request(
      {
        agent,
        host: backend.hostname,
        port: backend.port,
        method: request.method,
        path: request.url,
        headers: { ...passedOn(request.headers), host, 'x-forwarded-proto': 'https' },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, passedOn(answer.headers));
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (response.headersSent) {
        response.destroy(error);
        return;
      }
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`The server behind the front did not answer: ${error.message}`);
    });
    // A client that leaves takes its request to the server with it.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.pipe(upstream);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    spki: spkiOf(certificate),
    certificate,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of sessions) session.close();
      await closed;
      agent.destroy();
    },
  };
}
