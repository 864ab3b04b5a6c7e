// A TCP proxy of the tests' own between the browser and the server (TESTING.md, "Cutting the network the same
// way in every engine"): the browser opens the app on the proxy's port (the app uses relative URLs), and the
// test switches the link between
// - up: every connection is piped to the server;
// - refuse: the listening socket is closed, so a connection attempt is refused at once (a dead network);
// - hang: connections are accepted and read, and nothing ever answers (a weak cell signal, a captive portal).
// Guarantees: every switch destroys the connections open at that moment (keep-alive sockets included), so no
// request made before the switch can still be answered after it; the port stays the same across switches, so
// the page's origin (and its IndexedDB, service worker and caches) never changes.
import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyMode = 'up' | 'refuse' | 'hang';

export interface TcpProxy {
  port: number;
  /** http://127.0.0.1:<port>, the origin the browser uses. */
  origin: string;
  mode(): ProxyMode;
  set(mode: ProxyMode): Promise<void>;
  /** Connections accepted so far (for diagnostics: a hanging proxy still counts them). */
  accepted(): number;
  close(): Promise<void>;
}

/** Starts a proxy to 127.0.0.1:`targetPort`, on `port` when given (else a free one), in mode 'up'. */
export async function startProxy(targetPort: number, options: { port?: number } = {}): Promise<TcpProxy> {
  let mode: ProxyMode = 'up';
  let server: Server | null = null;
  let accepted = 0;
  const open = new Set<Socket>();
  let closed = false;

  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    // A reset from either side is normal here (the proxy kills sockets on every switch).
    socket.on('error', () => socket.destroy());
  };

  const onConnection = (client: Socket) => {
    accepted += 1;
    track(client);
    if (mode === 'hang') {
      // Read and drop whatever the browser sends, so its writes do not stall; never answer.
      client.on('data', () => undefined);
      return;
    }
    const upstream = connect({ host: '127.0.0.1', port: targetPort });
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  };

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const next = createServer(onConnection);
      next.once('error', reject);
      next.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
        next.off('error', reject);
        server = next;
        const address = next.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });

  const stopListening = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = null;
      if (!current) return resolve();
      current.close(() => resolve());
    });

  const dropOpen = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };

  const port = await listen(options.port ?? 0);

  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    mode: () => mode,
    accepted: () => accepted,
    async set(next) {
      if (closed) throw new Error('the proxy is closed');
      mode = next;
      // `close` only stops accepting; the open sockets must go too, or a keep-alive connection would carry
      // requests past the switch.
      const closing = stopListening();
      dropOpen();
      await closing;
      if (next !== 'refuse') await listen(port);
    },
    async close() {
      closed = true;
      const closing = stopListening();
      dropOpen();
      await closing;
    },
  };
}
