// Shared by the client router (src/app/routes.tsx) and the server, which names the first screen's files in the HTML
// shell of a client route (server/route-preloads.ts).
// Matching a pathname against route patterns such as '/companies/:companyId/goals/:goalId'.
// Static segments outrank parameters position by position, so '/companies/1/goals/create' is the
// create page and never a goal whose id is 'create', whatever order the table lists them in.

export type RouteParams = Record<string, string>;

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

/** The params of `path` under `pattern`, or null when it does not match. A trailing slash is ignored. */
export function matchPattern(pattern: string, path: string): RouteParams | null {
  const expected = segmentsOf(pattern);
  const actual = segmentsOf(path);
  if (expected.length !== actual.length) return null;
  const params: RouteParams = {};
  for (const [index, part] of expected.entries()) {
    const value = actual[index] ?? '';
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        // A malformed escape (e.g. '%E0%A4%A') cannot name any entity: no route has it.
        return null;
      }
    } else if (part !== value) {
      return null;
    }
  }
  return params;
}

/** Negative when `a` is more specific than `b`: the first position where one is static and the other a parameter decides. */
export function compareSpecificity(a: string, b: string): number {
  const sa = segmentsOf(a);
  const sb = segmentsOf(b);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const aParam = sa[i]?.startsWith(':') ?? false;
    const bParam = sb[i]?.startsWith(':') ?? false;
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return 0;
}

/** The most specific route whose pattern matches `path`. */
export function findMatch<R extends { path: string }>(routes: readonly R[], path: string): { route: R; params: RouteParams } | null {
  const pathname = path.split(/[?#]/)[0] ?? '';
  let best: { route: R; params: RouteParams } | null = null;
  for (const route of routes) {
    const params = matchPattern(route.path, pathname);
    if (params && (!best || compareSpecificity(route.path, best.route.path) < 0)) best = { route, params };
  }
  return best;
}
