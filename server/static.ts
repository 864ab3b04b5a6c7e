// Serves the built PWA from STATIC_DIR next to the API. Caching: the HTML shell, the service worker
// and the manifest are revalidated on every load (no-cache), so a new version is noticed; hashed
// files under /assets never change and are cached for a year. Client routes (paths without a file
// extension) fall back to index.html so deep links and reloads work; that copy names the files of the route's first
// screen, for the browser to fetch beside the entry script (server/route-preloads.ts).
// Every answer here (files, the fallback, 404, the 503 when not built) also carries the security headers
// and the app's CSP from server/security-headers.ts, which the service worker's script gets as well.
// Compression: text files (scripts, styles, the HTML shell, SVG, the manifest) go out brotli- or gzip-encoded
// when the browser accepts it, with `Vary: Accept-Encoding`; each file is compressed once per version (path, size,
// modification time) and kept in memory, so only the first request of a file waits for it. The app's scripts
// shrink to about a third, which on a phone's connection is most of a first visit's wait. Partial (206) and
// not-modified (304) answers are left as they are.

import { createHash } from 'node:crypto';
import { existsSync, type Stats } from 'node:fs';
import { readFile, stat as fsStat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { localeOfCookie, readRoutePreloads, routeOf, withPreloads, type RoutePreloadTable } from './route-preloads';

export const APP_NOT_BUILT_MESSAGE = 'The app is not built: run npm run build';

const NO_CACHE_FILES = new Set(['index.html', 'sw.js', 'manifest.webmanifest', 'registerSW.js']);

export function cacheControlFor(filePath: string): string {
  const normalized = filePath.split(path.sep).join('/');
  if (NO_CACHE_FILES.has(path.basename(filePath))) return 'no-cache';
  if (normalized.includes('/assets/')) return 'public, max-age=31536000, immutable';
  if (/\/workbox-[^/]+\.js$/.test(normalized)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
}

const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|webmanifest|txt)$/;
/** Below this, an encoded answer saves less than its headers cost. */
const MIN_COMPRESSED_BYTES = 1024;

export type ContentEncoding = 'br' | 'gzip';

/** The encoding to answer with for an Accept-Encoding header: br, else gzip, else none (q=0 refuses one). */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    if (q === undefined || Number(q) > 0) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

function compress(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  // Brotli quality 5: within a few per cent of the maximum (11) on these files at a fiftieth of its time.
  if (encoding === 'br') {
    return brotli(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  }
  return gzipAsync(body, { level: 9 });
}

/**
 * Puts `entry` into `cache` under `key` until `outcome` fails: a failed read or compression is not kept, so the
 * next request tries again (the caller sees the failure). An entry that has since been replaced stays.
 */
function keepUnlessFailed<K, T>(cache: Map<K, T>, key: K, entry: T, outcome: Promise<unknown>): T {
  cache.set(key, entry);
  outcome.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return entry;
}

interface ServedFile {
  filePath: string;
  stat: Stats;
}

/** Each file's encoded bodies, one version per path and encoding (a rebuilt file replaces its old entry). */
class CompressedFiles {
  private readonly entries = new Map<string, { version: string; body: Promise<Buffer> }>();

  get({ filePath, stat }: ServedFile, encoding: ContentEncoding): Promise<Buffer> {
    const key = `${encoding}:${filePath}`;
    const version = `${stat.size}:${stat.mtimeMs}`;
    const known = this.entries.get(key);
    if (known?.version === version) return known.body;
    const body = readFile(filePath).then((content) => compress(content, encoding));
    return keepUnlessFailed(this.entries, key, { version, body }, body).body;
  }
}

/**
 * index.html as each client route is served: with its route's files named (server/route-preloads.ts), encoded
 * as asked, kept per version of index.html (its size and modification time: a new build is read anew, with its
 * table), route and language.
 */
class RouteShells {
  private version = '';
  private source: Promise<{ html: string; table: RoutePreloadTable | null }> | null = null;
  private readonly bodies = new Map<string, Promise<{ body: Buffer; etag: string }>>();

  constructor(
    private readonly root: string,
    private readonly warn: (reason: string) => void,
  ) {}

  async get(pathname: string, locale: string, encoding: ContentEncoding | null): Promise<{ body: Buffer; etag: string }> {
    const file = path.join(this.root, 'index.html');
    const stat = await fsStat(file);
    const version = `${stat.size}:${stat.mtimeMs}`;
    if (version !== this.version || !this.source) {
      this.version = version;
      this.bodies.clear();
      this.source = Promise.all([readFile(file, 'utf8'), readRoutePreloads(this.root)]).then(([html, preloads]) => {
        if (preloads.table === null) this.warn(preloads.reason);
        return { html, table: preloads.table };
      });
      this.source.catch(() => {
        this.source = null;
      });
    }
    const { html, table } = await this.source;
    const route = table ? routeOf(table, pathname) : null;
    const key = `${route?.name ?? ''}:${route ? locale : ''}:${encoding ?? ''}`;
    let body = this.bodies.get(key);
    if (!body) {
      const plain = Buffer.from(withPreloads(html, route, locale), 'utf8');
      // One tag per representation: the same shell differently encoded is another one.
      const etag = `"${createHash('sha256').update(plain).digest('base64url').slice(0, 27)}-${encoding ?? 'identity'}"`;
      const encoded = (encoding ? compress(plain, encoding) : Promise.resolve(plain)).then((result) => ({ body: result, etag }));
      body = keepUnlessFailed(this.bodies, key, encoded, encoded);
    }
    return body;
  }
}

function discard(payload: unknown): void {
  if (payload instanceof Readable) payload.destroy();
}

export interface StaticSite {
  /** The not-found answer outside the API: index.html for client routes, else 404 (503 when not built). */
  handleNotFound(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

export async function registerStatic(app: FastifyInstance, staticDir: string): Promise<StaticSite> {
  const root = path.resolve(staticDir);
  const built = existsSync(path.join(root, 'index.html'));
  if (!built) {
    app.log.warn(`${APP_NOT_BUILT_MESSAGE} (no index.html in ${root})`);
    return {
      handleNotFound: async (_request, reply) => reply.code(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(APP_NOT_BUILT_MESSAGE),
    };
  }
  // The file behind each answer that may be compressed, noted by setHeaders for the onSend hook below.
  const servedFiles = new WeakMap<object, ServedFile>();
  const compressed = new CompressedFiles();
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    dotfiles: 'ignore',
    setHeaders: (res, filePath, stat) => {
      res.setHeader('Cache-Control', cacheControlFor(filePath));
      if (COMPRESSIBLE.test(filePath) && stat.size >= MIN_COMPRESSED_BYTES) {
        res.setHeader('Vary', 'Accept-Encoding');
        servedFiles.set(res, { filePath, stat });
      }
    },
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const file = servedFiles.get(reply.raw);
    if (!file || reply.statusCode !== 200) return payload;
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    let body: Buffer;
    try {
      body = await compressed.get(file, encoding);
    } catch (error) {
      // The file as it is still serves; only the saving is lost.
      request.log.warn({ err: error, file: file.filePath }, 'could not compress a static file');
      return payload;
    }
    discard(payload);
    // Byte ranges would address the encoded body, which is not what a client asking for them means.
    reply.removeHeader('Accept-Ranges');
    reply.header('Content-Encoding', encoding).header('Content-Length', body.length);
    return body;
  });
  const shells = new RouteShells(root, (reason) => app.log.warn(`The HTML shell names no route files: ${reason}`));
  const serveShell = async (request: FastifyRequest, reply: FastifyReply, pathname: string) => {
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const shell = await shells.get(pathname, localeOfCookie(request.headers.cookie), encoding);
    reply.header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding, Cookie').header('ETag', shell.etag);
    if (request.headers['if-none-match'] === shell.etag) return reply.code(304).send();
    reply.type('text/html; charset=utf-8');
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.send(shell.body);
  };
  // '/' is a client route like the others (the client sends it to the dashboard, whose files its shell names).
  app.route({ method: ['GET', 'HEAD'], url: '/', handler: (request, reply) => serveShell(request, reply, '/') });
  return {
    handleNotFound: async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isClientRoute = !path.posix.basename(pathname).includes('.');
      if ((request.method === 'GET' || request.method === 'HEAD') && isClientRoute) return serveShell(request, reply, pathname);
      return reply.code(404).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('Not Found');
    },
  };
}
