// Test helpers for upload routes: multipart bodies built byte by byte (so a test can cut one anywhere), and
// one HTTP exchange over a real socket, where the request body can be sent in part, chunked, or never ended.

import { connect, type Socket } from 'node:net';

export const BOUNDARY = 'h3-test-boundary-7f1c';
export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A real 1×1 PNG: the server only reads its signature. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** A PNG of exactly `bytes` bytes: the signature, then filler. */
export function pngOfSize(bytes: number): Buffer {
  const file = Buffer.alloc(bytes, 7);
  PNG.copy(file, 0, 0, Math.min(bytes, PNG.length));
  return file;
}

/** The head of a file part (up to the first byte of the file). */
export function filePartHead(filename = 'photo.png', field = 'file', contentType = 'image/png'): Buffer {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
}

export function fieldPart(name: string, value: string): Buffer {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}

export const CLOSING = Buffer.from(`--${BOUNDARY}--\r\n`);

/** A whole, valid body with one file. */
export function fileBody(bytes: Buffer, filename = 'photo.png'): Buffer {
  return Buffer.concat([filePartHead(filename), bytes, Buffer.from('\r\n'), CLOSING]);
}

/**
 * Bodies that are not valid multipart, each in its own way; every one must answer 400, never 500. `file` is
 * the file whose bytes the cut bodies start (a PNG, so the type check passes and the cut is what is refused).
 */
export function malformedBodies(file: Buffer = PNG): Record<string, Buffer> {
  const head = filePartHead();
  return {
    'cut inside the file': Buffer.concat([head, file.subarray(0, Math.ceil(file.length / 2))]),
    'cut inside the part header': Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Ty`),
    'a whole part without the closing boundary': Buffer.concat([head, file, Buffer.from('\r\n')]),
    'the opening boundary alone': Buffer.from(`--${BOUNDARY}`),
    'no boundary anywhere': Buffer.from('just some text that is not multipart at all'),
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Connection {
  socket: Socket;
  /** The next complete answer on this connection, read by its Content-Length. */
  nextAnswer(): Promise<RawAnswer>;
  /** Settles when the connection is closed, by either side. */
  closed: Promise<void>;
}

/** A client connection that reads answers one after another, whatever state its request bodies are in. */
export function openConnection(port: number): Promise<Connection> {
  return new Promise((resolveOpen, rejectOpen) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let received = Buffer.alloc(0);
    let failure: Error | null = null;
    const waiting: { resolve(answer: RawAnswer): void; reject(error: Error): void }[] = [];
    const parse = () => {
      while (waiting.length > 0) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (received.length < end + 4 + length) return;
        const body = received.subarray(end + 4, end + 4 + length).toString('utf8');
        received = received.subarray(end + 4 + length);
        waiting.shift()?.resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
      }
    };
    const fail = (error: Error) => {
      failure ??= error;
      for (const w of waiting.splice(0)) w.reject(failure);
    };
    socket.on('connect', () =>
      resolveOpen({
        socket,
        closed,
        nextAnswer: () =>
          new Promise<RawAnswer>((resolve, reject) => {
            waiting.push({ resolve, reject });
            parse();
            if (failure) fail(failure);
          }),
      }),
    );
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      parse();
    });
    // Writing on after the server answered and stopped reading may end in EPIPE/ECONNRESET: that fails only
    // the answers still awaited.
    socket.on('error', (error) => {
      fail(error);
      rejectOpen(error);
    });
    socket.on('close', () => fail(new Error(`the connection closed before a whole answer: ${received.toString('latin1').slice(0, 300)}`)));
  });
}

/**
 * Sends `head` (request line and headers, ending with the blank line) over a new connection, lets `send`
 * write the body as it likes (in part, chunked, never ending it), and resolves with the first answer, which
 * is seen even while the request body is unfinished. The connection is closed then.
 */
export async function exchange(port: number, head: string, send: (socket: Socket) => void): Promise<RawAnswer> {
  const connection = await openConnection(port);
  try {
    connection.socket.write(head);
    send(connection.socket);
    return await connection.nextAnswer();
  } finally {
    connection.socket.destroy();
  }
}

/** The request line and headers of a POST. */
export function postHead(path: string, headers: Record<string, string>): string {
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}

/** Writes `body` with Transfer-Encoding: chunked, in chunks of `size`, then the last chunk. */
export function writeChunked(socket: Socket, body: Buffer, size: number): void {
  for (let at = 0; at < body.length; at += size) {
    const chunk = body.subarray(at, at + size);
    socket.write(`${chunk.length.toString(16)}\r\n`);
    socket.write(chunk);
    socket.write('\r\n');
  }
  socket.write('0\r\n\r\n');
}
