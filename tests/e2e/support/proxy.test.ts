// The test proxy itself (support/proxy.ts): up pipes to the target, refuse refuses, hang accepts and never
// answers, and every switch ends the connections open at that moment; with `hold`, a request for a held path
// waits for `release()` while the rest goes through.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type TcpProxy } from './proxy';

/** Connects to `port`; resolves with the socket once connected, rejects with the connect error. */
function connectTo(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `text` and resolves with the first answer. */
function ask(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')));
    socket.once('error', reject);
    socket.write(text);
  });
}

/** Reads one HTTP response from `socket` and resolves with its body (the answer is framed by Content-Length). */
function readResponse(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(received.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      socket.off('data', onData);
      resolve(received.subarray(end + 4, end + 4 + length).toString('utf8'));
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/** An HTTP/1.1 request as a browser writes it on a kept-alive connection. */
function request(method: string, target: string, body = ''): string {
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });
}

describe('the test proxy', () => {
  let target: Server;
  let targetConnections = 0;
  let proxy: TcpProxy;

  beforeAll(async () => {
    // An echo server standing in for the app's server.
    target = createServer((socket) => {
      targetConnections += 1;
      socket.on('data', (chunk: Buffer) => socket.write(`echo ${chunk.toString('utf8')}`));
      socket.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const address = target.address();
    proxy = await startProxy(typeof address === 'object' && address ? address.port : 0);
  });

  afterAll(async () => {
    await proxy?.close();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
  });

  it('pipes to the target when up, and ends open connections on a switch', async () => {
    const socket = await connectTo(proxy.port);
    expect(await ask(socket, 'hello')).toBe('echo hello');
    await proxy.set('hang');
    await closed(socket);
  });

  it('refuses connections when set to refuse, on the same port', async () => {
    await proxy.set('refuse');
    await expect(connectTo(proxy.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await proxy.set('up');
    const socket = await connectTo(proxy.port);
    expect(await ask(socket, 'again')).toBe('echo again');
    socket.destroy();
  });

  it('accepts and never answers when hanging, without reaching the target', async () => {
    await proxy.set('hang');
    const before = { target: targetConnections, accepted: proxy.accepted() };
    const socket = await connectTo(proxy.port);
    socket.write('anyone there?');
    // The connection was accepted by the proxy and never passed on: the target saw nothing.
    await expect.poll(() => proxy.accepted()).toBe(before.accepted + 1);
    expect(targetConnections).toBe(before.target);
    await proxy.set('up');
    await closed(socket);
  });
});

describe('the test proxy holding a path', () => {
  let target: HttpServer;
  /** What the target was asked, as '<method> <target> <body>', in order. */
  const asked: string[] = [];
  let proxy: TcpProxy;

  beforeAll(async () => {
    // An HTTP server standing in for the app's server: it answers every request with what it was asked.
    target = createHttpServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const seen = `${req.method ?? ''} ${req.url ?? ''} ${body}`.trim();
        asked.push(seen);
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(seen) });
        res.end(seen);
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const address = target.address();
    proxy = await startProxy(typeof address === 'object' && address ? address.port : 0, { hold: ['/held'] });
  });

  afterAll(async () => {
    await proxy?.close();
    target?.closeAllConnections();
    await new Promise<void>((resolve) => target?.close(() => resolve()));
  });

  it('keeps a request for the held path from the server until released, while other requests and connections go through', async () => {
    const kept = await connectTo(proxy.port);
    // Requests before it on the same kept-alive connection pass, a body that reads like a held request included.
    kept.write(request('GET', '/first'));
    expect(await readResponse(kept)).toBe('GET /first');
    const body = request('GET', '/held');
    kept.write(request('POST', '/upload', body));
    expect(await readResponse(kept)).toBe(`POST /upload ${body}`.trim());

    kept.write(request('GET', '/held?step=1'));
    const heldAnswer = readResponse(kept);
    await expect.poll(() => proxy.held()).toEqual(['/held']);

    // Meanwhile another connection is answered, and the server has still not seen the held request.
    const other = await connectTo(proxy.port);
    other.write(request('GET', '/other'));
    expect(await readResponse(other)).toBe('GET /other');
    expect(asked.filter((line) => line.startsWith('GET /held'))).toEqual([]);

    proxy.release();
    expect(await heldAnswer).toBe('GET /held?step=1');
    // Once released, the path is held no more.
    other.write(request('GET', '/held?step=2'));
    expect(await readResponse(other)).toBe('GET /held?step=2');
    expect(proxy.held()).toEqual(['/held']);
    kept.destroy();
    other.destroy();
  });
});
