// The HTML shell of a client route names the files its first screen needs (route-preloads.json, written by the
// build: scripts/vite-route-preloads.ts), as `<link rel="modulepreload">` tags before `</head>`. The browser then
// fetches the page's code and messages while the entry script downloads, instead of once it has run: on a phone's
// connection, where each round trip is a sixth of a second and the entry alone takes a second, that is most of
// the wait before the first screen. The stylesheets those scripts bring are named too, as preloads (Vite's loader
// adds them when the scripts run). The messages are those of the device's language, which the app mirrors into
// the `appLocale` cookie (src/lib/locale-store.ts); without it, the app's default, Russian.
// Guarantees: a path no route matches, or a build without the table (an older build, a broken file), gets the
// shell as it is; only files the table names under /assets are ever named, each once.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { findMatch } from '../src/domain/route-match';

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';
const DEFAULT_LOCALE = 'ru';
const SCRIPT = /^assets\/[\w.-]+\.js$/;
const STYLE = /^assets\/[\w.-]+\.css$/;

export interface RoutePreloadTable {
  /** Where '/' goes (the client redirects there). */
  rootRedirect: string;
  routes: Array<{
    name: string;
    /** The route's pattern, as src/domain/route-match.ts reads it ('*' for the not-found route). */
    path: string;
    /** Chunks under /assets, without the leading slash, in the order to fetch them (the frame's first). */
    files: string[];
    /** The stylesheets those chunks bring (Vite adds them as the chunks load). */
    styles: string[];
    /** The message catalogue chunks of the route's areas, per language. */
    messages: Record<string, string[]>;
  }>;
}

function isTable(value: unknown): value is RoutePreloadTable {
  if (typeof value !== 'object' || value === null) return false;
  const { rootRedirect, routes } = value as Partial<RoutePreloadTable>;
  return (
    typeof rootRedirect === 'string' &&
    Array.isArray(routes) &&
    routes.every(
      (route) =>
        typeof route.name === 'string' &&
        typeof route.path === 'string' &&
        Array.isArray(route.files) &&
        route.files.every((file) => typeof file === 'string' && SCRIPT.test(file)) &&
        Array.isArray(route.styles) &&
        route.styles.every((file) => typeof file === 'string' && STYLE.test(file)) &&
        typeof route.messages === 'object' &&
        route.messages !== null &&
        Object.values(route.messages).every((files) => Array.isArray(files) && files.every((file) => typeof file === 'string' && SCRIPT.test(file))),
    )
  );
}

/** The build's table in `root`, or null (with the reason) when there is none or it is not one. */
export async function readRoutePreloads(root: string): Promise<{ table: RoutePreloadTable } | { table: null; reason: string }> {
  let text: string;
  try {
    text = await readFile(path.join(root, ROUTE_PRELOADS_FILE), 'utf8');
  } catch {
    return { table: null, reason: `no ${ROUTE_PRELOADS_FILE}` };
  }
  try {
    const value: unknown = JSON.parse(text);
    return isTable(value) ? { table: value } : { table: null, reason: `${ROUTE_PRELOADS_FILE} is not a route preload table` };
  } catch {
    return { table: null, reason: `${ROUTE_PRELOADS_FILE} is not JSON` };
  }
}

/** The language the device shows, from the request's `appLocale` cookie; the default when it names none. */
export function localeOfCookie(cookie: string | undefined): string {
  const match = /(?:^|;\s*)appLocale=(ru|en)(?:;|$)/.exec(cookie ?? '');
  return match?.[1] ?? DEFAULT_LOCALE;
}

/** The route `pathname` shows ('/' is where the client redirects it), or null when none matches. */
export function routeOf(table: RoutePreloadTable, pathname: string): RoutePreloadTable['routes'][number] | null {
  const target = pathname === '/' || pathname === '' ? table.rootRedirect : pathname;
  return findMatch(table.routes.filter((route) => route.path !== '*'), target)?.route ?? null;
}

/**
 * The shell with the tags for the route's scripts, its messages in `locale` and its stylesheets; the shell as it is
 * for no route. Low priority: the page's own stylesheet and the entry script come first, and the static shell is
 * painted without waiting for any of these. `crossorigin` as Vite's loader asks for them, so they are reused.
 */
export function withPreloads(html: string, route: RoutePreloadTable['routes'][number] | null, locale: string): string {
  if (!route || !html.includes('</head>')) return html;
  const scripts = [...new Set([...route.files, ...(route.messages[locale] ?? route.messages[DEFAULT_LOCALE] ?? [])])];
  const tags = [
    ...scripts.map((file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${file}">`),
    ...new Set(route.styles.map((file) => `<link rel="preload" as="style" crossorigin fetchpriority="low" href="/${file}">`)),
  ];
  return tags.length === 0 ? html : html.replace('</head>', `${tags.join('')}</head>`);
}
