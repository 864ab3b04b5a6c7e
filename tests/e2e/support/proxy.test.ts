// The test proxy itself (support/proxy.ts): up pipes to the target, refuse refuses, hang accepts and never
// answers, and every switch ends the connections open at that moment.
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
