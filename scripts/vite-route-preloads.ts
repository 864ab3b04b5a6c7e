// Vite plugin: which files the first screen of each route needs, for the server to name in the HTML shell
// (server/route-preloads.ts), so a phone fetches them while the entry script downloads instead of after it has run.
//
// It writes `route-preloads.json` next to index.html: for every route of src/app/routes.tsx its path pattern, the
// JavaScript its first screen loads (the page's chunk and its static imports, the signed-in frame and the company
// gate when the route has them) and the stylesheets of those chunks, less what index.html loads already, and the
// message catalogue chunks of the route's areas in each language. Where it reads them:
// - a route's page modules: the `import()` calls inside each `route('<Name>', ...)` call of routes.tsx (its syntax
//   tree, so a new route is covered without anyone listing it);
// - a route's path, layout and catalogue areas: the routes table itself, run in a child process under tsx (the
//   patterns are built from src/domain/paths.ts; nothing of a page is loaded there, its imports are lazy);
// - the files: the bundle's chunks (a module's chunk is the one that holds it: its own, or its group's).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import { ROUTE_PRELOADS_FILE, type RoutePreloadTable } from '../server/route-preloads';

// The table's shape and file name are the server's, which reads it.
type RoutePreload = RoutePreloadTable['routes'][number];

const ROUTES_MODULE = 'src/app/routes.tsx';
const FRAME_MODULES = { layout: 'src/app/default-layout.tsx', companyGuard: 'src/app/company-guard.tsx' };
const CATALOGUE_CHUNK = /^messages-([a-z]+)-([a-z]+)$/;

interface RouteFacts {
  name: string;
  path: string;
  layout: 'auth' | 'default';
  areas: string[];
}

/** The routes table as the app builds it, read in a child process (tsx runs the TypeScript). */
function readRouteTable(root: string): { rootRedirect: string; routes: RouteFacts[] } {
  const script = `
    const { routes, notFoundRoute, ROOT_REDIRECT } = await import(${JSON.stringify(path.join(root, ROUTES_MODULE))});
    const { areasOfRoute } = await import(${JSON.stringify(path.join(root, 'src/lib/catalogue-areas.ts'))});
    const facts = [...routes, notFoundRoute].map((route) => ({ name: route.name, path: route.path, layout: route.meta.layout, areas: [...areasOfRoute(route.name, route.meta.layout)] }));
    process.stdout.write(JSON.stringify({ rootRedirect: ROOT_REDIRECT, routes: facts }));
  `;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  return JSON.parse(output) as { rootRedirect: string; routes: RouteFacts[] };
}

interface Node {
  type: string;
  [key: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!isNode(node)) return;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'type' && typeof value === 'object') walk(value, visit);
  }
}

const stringLiteral = (node: unknown): string | null => (isNode(node) && node.type === 'Literal' && typeof node.value === 'string' ? node.value : null);

/** Route name -> the specifiers its `route(...)` call imports, from the routes module's syntax tree. */
export function pageImportsOf(program: unknown): Map<string, string[]> {
  const imports = new Map<string, string[]>();
  walk(program, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = node.callee as Node;
    const args = node.arguments as unknown[];
    const name = stringLiteral(args[0]);
    if (callee.type !== 'Identifier' || callee.name !== 'route' || name === null) return;
    const specifiers: string[] = [];
    walk(args.slice(1), (inner) => {
      const specifier = inner.type === 'ImportExpression' ? stringLiteral(inner.source) : null;
      if (specifier !== null) specifiers.push(specifier);
    });
    imports.set(name, specifiers);
  });
  return imports;
}

/** The chunk's file and its static imports' files, recursively, less `known`; the chunk itself first. */
function closureOf(chunk: OutputChunk, chunks: ReadonlyMap<string, OutputChunk>, known: ReadonlySet<string>): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const queue = [chunk.fileName];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file) || known.has(file) || !chunks.has(file)) continue;
    seen.add(file);
    files.push(file);
    queue.push(...(chunks.get(file)?.imports ?? []));
  }
  return files;
}

export function routePreloads(): Plugin {
  let root = process.cwd();
  let pageModules = new Map<string, string[]>();
  return {
    name: 'route-preloads',
    apply: 'build',
    // After Vite's own CSS plugin has dropped the chunks that held only CSS (and the imports of them).
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    async buildStart() {
      const routesFile = path.join(root, ROUTES_MODULE);
      const program = this.parse(readFileSync(routesFile, 'utf8'), { lang: 'tsx' });
      pageModules = new Map();
      for (const [name, specifiers] of pageImportsOf(program)) {
        const ids: string[] = [];
        for (const specifier of specifiers) {
          const resolved = await this.resolve(specifier, routesFile);
          if (!resolved) throw new Error(`route-preloads: ${name} imports ${specifier}, which does not resolve`);
          ids.push(resolved.id);
        }
        pageModules.set(name, ids);
      }
    },
    generateBundle(_options, bundle: OutputBundle) {
      const chunks = new Map<string, OutputChunk>();
      // A module's chunk: its own (a page's), or the group's it was put in (the signed-in frame's).
      const byModule = new Map<string, OutputChunk>();
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.set(output.fileName, output);
        for (const id of output.moduleIds) byModule.set(path.normalize(id), output);
      }
      const chunkOf = (id: string): OutputChunk => {
        const chunk = byModule.get(path.normalize(id));
        if (!chunk) throw new Error(`route-preloads: no chunk holds ${id}`);
        return chunk;
      };
      // What index.html loads already: the entry and its static imports, and their stylesheets.
      const inHtml = new Set<string>();
      for (const chunk of chunks.values()) if (chunk.isEntry) for (const file of closureOf(chunk, chunks, new Set())) inHtml.add(file);
      const stylesOf = (files: readonly string[]) => files.flatMap((file) => [...(chunks.get(file)?.viteMetadata?.importedCss ?? [])]);
      const stylesInHtml = new Set(stylesOf([...inHtml]));

      const catalogues = new Map<string, string>();
      for (const chunk of chunks.values()) {
        const match = CATALOGUE_CHUNK.exec(chunk.name);
        if (match && chunk.isDynamicEntry) catalogues.set(`${match[1]}:${match[2]}`, chunk.fileName);
      }
      const languages = [...new Set([...catalogues.keys()].map((key) => key.split(':')[0] ?? ''))].sort();

      const table = readRouteTable(root);
      const routes: RoutePreload[] = table.routes.map((route) => {
        const modules = pageModules.get(route.name);
        if (!modules) throw new Error(`route-preloads: no route('${route.name}', ...) call in ${ROUTES_MODULE}`);
        const roots = [
          ...(route.layout === 'default' ? [path.join(root, FRAME_MODULES.layout)] : []),
          ...(route.path.includes(':companyId') ? [path.join(root, FRAME_MODULES.companyGuard)] : []),
          ...modules,
        ];
        const files: string[] = [];
        for (const id of roots) for (const file of closureOf(chunkOf(id), chunks, inHtml)) if (!files.includes(file)) files.push(file);
        const messages = Object.fromEntries(
          languages.map((language) => [language, route.areas.map((area) => catalogues.get(`${language}:${area}`)).filter((file): file is string => file !== undefined)]),
        );
        const styles = [...new Set(stylesOf(files))].filter((file) => !stylesInHtml.has(file));
        return { name: route.name, path: route.path, files, styles, messages };
      });
      const preloads: RoutePreloadTable = { rootRedirect: table.rootRedirect, routes };
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(preloads, null, 1)}\n` });
    },
  };
}
