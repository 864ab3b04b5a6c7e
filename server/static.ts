// Serves the built PWA from STATIC_DIR next to the API. Caching: the HTML shell, the service worker
// and the manifest are revalidated on every load (no-cache), so a new version is noticed; hashed
// files under /assets never change and are cached for a year. Client routes (paths without a file
// extension) fall back to index.html so deep links and reloads work.
// Every answer here (files, the fallback, 404, the 503 when not built) also carries the security headers
// and the app's CSP from server/security-headers.ts, which the service worker's script gets as well.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

export const APP_NOT_BUILT_MESSAGE = 'The app is not built: run npm run build';

const NO_CACHE_FILES = new Set(['index.html', 'sw.js', 'manifest.webmanifest', 'registerSW.js']);

export function cacheControlFor(filePath: string): string {
  const normalized = filePath.split(path.sep).join('/');
  if (NO_CACHE_FILES.has(path.basename(filePath))) return 'no-cache';
  if (normalized.includes('/assets/')) return 'public, max-age=31536000, immutable';
  if (/\/workbox-[^/]+\.js$/.test(normalized)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=3600';
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
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    dotfiles: 'ignore',
    setHeaders: (res, filePath) => {
      res.setHeader('Cache-Control', cacheControlFor(filePath));
    },
  });
  return {
    handleNotFound: async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isClientRoute = !path.posix.basename(pathname).includes('.');
      if ((request.method === 'GET' || request.method === 'HEAD') && isClientRoute) {
        return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      }
      return reply.code(404).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('Not Found');
    },
  };
}
