// Security headers on every answer of the server. What this guarantees:
// - Every response (API JSON, uploaded images, static files, the SPA fallback, errors, 404s, the "not built"
//   503) carries `X-Content-Type-Options: nosniff`, a Referrer-Policy, a Permissions-Policy denying the
//   powerful features the app does not use, `X-Frame-Options: DENY` with CSP `frame-ancestors 'none'`,
//   `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Resource-Policy: same-origin`.
// - The HTML shell, its files and the service worker script run under APP_CSP: script, style, connections,
//   workers, fonts and the manifest from this origin only; no inline script, no eval, no plugins, no <base>.
//   Images also from blob: (photos are shown from object URLs) and data: (icons inlined in the CSS), and
//   fetch() also of blob: (object URLs the page made). A
//   service worker is governed by the CSP delivered with its own script, so sw.js gets the same policy.
// - API answers get API_CSP (`default-src 'none'`): JSON and uploaded images are never documents that may
//   run or load anything, even if opened directly or if a stored file were ever taken for HTML.
// - Strict-Transport-Security only on requests that came over TLS. trustProxy is off today, so behind a
//   TLS-terminating proxy `request.protocol` stays 'http' and HSTS is not sent until trustProxy is set;
//   a client cannot switch it on with its own X-Forwarded-Proto.
// The headers are set in an onSend hook on the root instance, registered before any route or plugin, so
// they reach every answer, including those the error and not-found handlers write. A request Fastify refuses
// before routing (a malformed URL) runs no hook: app.ts's frameworkErrors adds securityHeadersFor() itself.

import type { FastifyInstance, FastifyRequest } from 'fastify';

const SELF = "'self'";
const NONE = "'none'";

function policy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

export const APP_CSP = policy({
  'default-src': [SELF],
  'script-src': [SELF],
  // The app needs no inline style: React writes `style` props through the CSSOM, which CSP does not govern,
  // and the boot loading bar's CSS is a file (src/app/boot-loading.css), not a <style> in index.html.
  'style-src': [SELF],
  'img-src': [SELF, 'blob:', 'data:'],
  'font-src': [SELF],
  // blob: for fetch() of object URLs the page made itself (the proposal form reads a kept photo back that way);
  // 'self' does not cover blob:, and a page can only read blob: URLs its own origin created.
  'connect-src': [SELF, 'blob:'],
  'worker-src': [SELF],
  'manifest-src': [SELF],
  'frame-src': [NONE],
  'object-src': [NONE],
  'base-uri': [NONE],
  'form-action': [SELF],
  'frame-ancestors': [NONE],
});

export const API_CSP = policy({
  'default-src': [NONE],
  'base-uri': [NONE],
  'form-action': [NONE],
  'frame-ancestors': [NONE],
});

// Features the app does not use, denied to the page and to anything it might embed. The photo field is a
// plain <input type=file accept="image/*">: a phone offers its camera through the operating system's picker,
// which Permissions-Policy `camera` (getUserMedia) does not govern, so camera is denied as well. Only names
// Chromium recognises are listed: an unknown one (`bluetooth`, `interest-cohort`) puts a warning in the console
// of every page, which tests/e2e/csp.test.ts treats as a failure.
const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
];

export const PERMISSIONS_POLICY = DENIED_FEATURES.map((feature) => `${feature}=()`).join(', ');

export const HSTS = 'max-age=31536000; includeSubDomains';

const COMMON_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  // Not no-referrer: with it the browser sends `Origin: null` on the app's own POSTs, which would defeat an
  // Origin check (ours later, or a proxy's). Other sites only ever see the origin, never a path or a token in
  // a query (recovery and invitation links carry one); the full URL goes to this server only.
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  // frame-ancestors replaces it where CSP is understood; kept for browsers and proxies that only know this.
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  // Uploaded photos and the app's files are for this origin's pages only (no hotlinking of a photo by URL).
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Paths under this prefix are the API and get API_CSP; everything else is the app and gets APP_CSP. */
export const API_BASE = '/main-service/';

/** Every security header the answer to `request` carries. */
export function securityHeadersFor(request: Pick<FastifyRequest, 'url' | 'protocol'>, apiPrefix = API_BASE): Record<string, string> {
  return {
    ...COMMON_HEADERS,
    'Content-Security-Policy': request.url.startsWith(apiPrefix) ? API_CSP : APP_CSP,
    ...(request.protocol === 'https' ? { 'Strict-Transport-Security': HSTS } : {}),
  };
}

export function registerSecurityHeaders(app: FastifyInstance, apiPrefix = API_BASE): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(securityHeadersFor(request, apiPrefix));
    return payload;
  });
}
