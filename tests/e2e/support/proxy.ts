// A TCP proxy of the tests' own between the browser and the server (TESTING.md, "Cutting the network the same
// way in every engine"): the browser opens the app on the proxy's port (the app uses relative URLs), and the
// test switches the link between
// - up: every connection is piped to the server;
// - refuse: the listening socket is closed, so a connection attempt is refused at once (a dead network);
// - hang: connections are accepted and read, and nothing ever answers (a weak cell signal, a captive portal).
// With `hold`, the proxy also keeps chosen requests unanswered while up, until `release()`: what a test needs to
// look at a page while one of its requests is on its way (the same in every engine, unlike a driver's request
// interception). To find a request in a connection it reads the HTTP/1.1 framing the browser sends (a head,
// then Content-Length bytes of body); a connection that sends a chunked body or upgrades is passed on unread
// from then on, so its later requests are never held.
// Guarantees: every switch destroys the connections open at that moment (keep-alive sockets included), so no
// request made before the switch can still be answered after it; the port stays the same across switches, so
// the page's origin (and its IndexedDB, service worker and caches) never changes. A held request reaches the
// server only after `release()`, and whole: nothing of it is sent before.
import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyMode = 'up' | 'refuse' | 'hang';

export interface ProxyOptions {
  /** The port to listen on (else a free one). */
  port?: number;
  /** Paths (without the query) whose requests are held unanswered until `release()`. */
  hold?: readonly string[];
}

export interface TcpProxy {
  port: number;
  /** http://127.0.0.1:<port>, the origin the browser uses. */
  origin: string;
  mode(): ProxyMode;
  set(mode: ProxyMode): Promise<void>;
  /** Connections accepted so far (for diagnostics: a hanging proxy still counts them). */
  accepted(): number;
  /** The paths of the requests held so far (one entry a request), in the order they came. */
  held(): string[];
  /** Sends the held requests on and holds no more. */
  release(): void;
  close(): Promise<void>;
}

/** The largest request head the proxy reads to find a request's path; past it, the connection is passed on unread. */
const MAX_HEAD_BYTES = 64 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');

/** The path of an HTTP request head's target ('GET /a/b?c HTTP/1.1' gives '/a/b'). */
function requestPath(head: string): string {
  const target = head.slice(0, head.indexOf('\r\n')).split(' ')[1] ?? '';
  return target.split('?')[0] ?? '';
}

/**
 * Sends what `client` writes on to `upstream` request by request. At the start of each request it asks
 * `holdUntil(path)`: a promise there keeps that request and all after it in this connection back until it
 * resolves (then the request is offered to `holdUntil` again). Follows the browser's writes with back-pressure,
 * as `pipe` does, and ends `upstream` once everything before the client's end is sent.
 */
function forwardRequests(client: Socket, upstream: Socket, holdUntil: (path: string) => Promise<void> | null): void {
  let pending: Buffer = Buffer.alloc(0);
  let bodyLeft = 0;
  let unread = false;
  let holding = false;
  let ended = false;
  let draining = false;

  const send = (bytes: Buffer) => {
    if (upstream.write(bytes) || draining) return;
    draining = true;
    client.pause();
    upstream.once('drain', () => {
      draining = false;
      client.resume();
    });
  };

  const forward = () => {
    while (pending.length > 0 && !holding && !upstream.destroyed) {
      if (unread || bodyLeft > 0) {
        const size = unread ? pending.length : Math.min(bodyLeft, pending.length);
        send(pending.subarray(0, size));
        pending = pending.subarray(size);
        if (!unread) bodyLeft -= size;
        continue;
      }
      const end = pending.indexOf(HEAD_END);
      if (end < 0) {
        // The rest of the head is on its way; a head this long is no HTTP this proxy reads: it goes on as it comes.
        if (pending.length <= MAX_HEAD_BYTES) break;
        unread = true;
        continue;
      }
      const headSize = end + HEAD_END.length;
      const head = pending.subarray(0, headSize).toString('latin1');
      const released = holdUntil(requestPath(head));
      if (released) {
        holding = true;
        void released.then(() => {
          holding = false;
          forward();
        });
        return;
      }
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      bodyLeft = length ? Number(length[1]) : 0;
      unread = /\r\n(transfer-encoding:[^\r]*chunked|upgrade:)/i.test(head);
      send(pending.subarray(0, headSize));
      pending = pending.subarray(headSize);
    }
    if (ended && pending.length === 0 && !upstream.writableEnded) upstream.end();
  };

  client.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    forward();
  });
  client.once('end', () => {
    ended = true;
    forward();
  });
}

/** Starts a proxy to 127.0.0.1:`targetPort`, in mode 'up' (see ProxyOptions). */
export async function startProxy(targetPort: number, options: ProxyOptions = {}): Promise<TcpProxy> {
  let mode: ProxyMode = 'up';
  let server: Server | null = null;
  let accepted = 0;
  const open = new Set<Socket>();
  let closed = false;
  const holdPaths = new Set(options.hold ?? []);
  const heldPaths: string[] = [];
  let letHeldThrough: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (letHeldThrough = resolve));
  let isReleased = false;
  const holdUntil = (path: string) => {
    if (isReleased || !holdPaths.has(path)) return null;
    heldPaths.push(path);
    return released;
  };

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
    if (holdPaths.size > 0) forwardRequests(client, upstream, holdUntil);
    else client.pipe(upstream);
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
    held: () => [...heldPaths],
    release() {
      isReleased = true;
      letHeldThrough();
    },
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
