// Every signed-in route loads the message areas its screens can show (src/lib/catalogue-areas.ts): a missing area
// would show the English default text in a Russian screen, since the build drops the message parser.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { idsIn, reachable, resolveImport, SRC } from '../../tests/unit/support/message-sources';
import { areaOf, areasOfRoute } from '../lib/catalogue-areas';
import { routes } from './routes';

describe('the message areas of the signed-in routes', () => {
  it('hold every message each signed-in route can show in the areas that route loads', () => {
    // Each route's pages, as src/app/routes.tsx imports them (one or more `import('…')` per `route(…)` call).
    const routesFile = join(SRC, 'app/routes.tsx');
    const routesText = readFileSync(routesFile, 'utf8');
    const pagesOf = new Map<string, string[]>();
    for (const match of routesText.matchAll(/\broute\('(\w+)',([\s\S]*?)\),\n/g)) {
      const pages = [...(match[2] ?? '').matchAll(/import\('([^']+)'\)/g)].map((m) => resolveImport(routesFile, m[1] ?? '') ?? '');
      pagesOf.set(match[1] ?? '', pages);
    }
    const appRoutes = routes.filter((route) => route.meta.layout === 'default');
    expect([...pagesOf.keys()].filter((name) => appRoutes.some((route) => route.name === name)).sort()).toEqual(appRoutes.map((route) => route.name).sort());
    // The signed-in frame around every page (header, notices, the offline start and every outbox kind), and app.tsx's
    // own texts. routes.tsx is not followed: it imports every page.
    const frame = reachable([join(SRC, 'app/default-layout.tsx'), join(SRC, 'app/app.tsx')], [routesFile]);
    expect(frame.map((f) => relative(SRC, f))).toEqual(expect.arrayContaining(['app/outbox-kinds.ts', 'features/notifications/components/bell.tsx']));
    const problems: string[] = [];
    for (const route of appRoutes) {
      const pages = pagesOf.get(route.name) ?? [];
      expect(pages.length, route.name).toBeGreaterThan(0);
      const loaded = new Set<string | null>(areasOfRoute(route.name, route.meta.layout));
      for (const file of new Set([...frame, ...reachable(pages, [routesFile])])) {
        const { literal, prefixes } = idsIn(file);
        for (const id of [...literal, ...prefixes]) {
          if (!loaded.has(areaOf(id))) problems.push(`${route.name}: ${relative(SRC, file)} shows ${id} (area ${String(areaOf(id))})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

});
