import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { compileCatalogueModule } from '../../scripts/vite-catalogue-areas';
import { CATALOGUE_AREAS, areaOf, catalogueOfArea, parseAreaModule } from './catalogue-areas';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Message ids a source file names: literal ids, and `prefix.${…}` templates as their prefix. */
function idsIn(file: string): { literal: string[]; prefixes: string[] } {
  const text = readFileSync(file, 'utf8');
  const literal = [...text.matchAll(/\bid(?:=|:\s*)['"]([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)['"]/g)].map((m) => m[1] ?? '');
  const prefixes = [...text.matchAll(/\bid = `([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*\.)\$\{/g)].map((m) => m[1] ?? '');
  return { literal, prefixes };
}

/** The file a relative import names (static or dynamic), or null for packages and other kinds of file. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return candidate;
    } catch {
      // Not this candidate; try the next spelling.
    }
  }
  return null;
}

/** Every source file reachable from `roots` through relative imports, inside src/. */
function reachable(roots: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (seen.has(file) || !file.startsWith(SRC)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      const target = resolveImport(file, match[1] ?? '');
      if (target) queue.push(target);
    }
  }
  return [...seen].sort();
}

describe('catalogue areas', () => {
  it('put every id of both catalogues in one area, or on the server only', () => {
    for (const catalogue of [en, ru]) {
      const byArea = CATALOGUE_AREAS.map((area) => Object.keys(catalogueOfArea(catalogue, area)));
      const serverOnly = Object.keys(catalogue).filter((id) => areaOf(id) === null);
      expect(byArea.flat().length + serverOnly.length).toBe(Object.keys(catalogue).length);
      expect(new Set(byArea.flat()).size).toBe(byArea.flat().length);
    }
  });

  it('give the sign-in pages their own messages and leave the signed-in screens to the app area', () => {
    expect(areaOf('auth.login.title')).toBe('auth');
    expect(areaOf('error.validation.required')).toBe('auth');
    expect(areaOf('dialog.ok')).toBe('auth');
    expect(areaOf('nav.language.en')).toBe('auth');
    expect(areaOf('nav.dashboard')).toBe('app');
    expect(areaOf('employees.list.title')).toBe('app');
    // An id of a screen that does not exist yet lands in the app area, never on the sign-in route.
    expect(areaOf('approvals.queue.title')).toBe('app');
    expect(areaOf('mail.greeting')).toBeNull();
  });

  it('hold every message the sign-in pages, the auth layout and the frame around them can show', () => {
    const roots = [
      ...readdirSync(join(SRC, 'features/auth/pages')).filter((n) => /\.tsx$/.test(n) && !n.includes('.test.')).map((n) => join(SRC, 'features/auth/pages', n)),
      join(SRC, 'app/auth-layout.tsx'),
      join(SRC, 'app/not-found-page.tsx'),
      join(SRC, 'app/error-boundary.tsx'),
      join(SRC, 'app/pwa-update.tsx'),
      join(SRC, 'ui/error-screen.tsx'),
      join(SRC, 'ui/loading-bar.tsx'),
      join(SRC, 'ui/dialog/index.ts'),
    ];
    const files = reachable(roots);
    // The walk must reach the parts the login form is made of, or it proves nothing.
    expect(files.map((f) => relative(SRC, f))).toEqual(expect.arrayContaining(['ui/text-field.tsx', 'ui/form.ts', 'lib/request-errors.ts', 'app/language-switch.tsx']));
    // app.tsx itself renders the page-loading label on every route; its imports are the whole app.
    const own = [...files, join(SRC, 'app/app.tsx')].map((file) => ({ file: relative(SRC, file), ...idsIn(file) }));
    const outside = own.flatMap(({ file, literal, prefixes }) =>
      [...literal, ...prefixes].filter((id) => areaOf(id) !== 'auth').map((id) => `${file}: ${id}`),
    );
    expect(outside).toEqual([]);
  });

  it('name, in the client code, only ids that both catalogues hold and that reach the browser', () => {
    const problems = sourceFiles(SRC).flatMap((file) =>
      idsIn(file).literal.flatMap((id) => {
        if (!(id in en) || !(id in ru)) return [`${relative(SRC, file)}: ${id} is missing from a catalogue`];
        if (areaOf(id) === null) return [`${relative(SRC, file)}: ${id} is server-only`];
        return [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('know the area modules and nothing else', () => {
    expect(parseAreaModule('/repo/src/lib/catalogues/messages-ru-auth.ts')).toEqual({ language: 'ru', area: 'auth' });
    expect(parseAreaModule('C:\\repo\\src\\lib\\catalogues\\messages-en-app.ts')).toEqual({ language: 'en', area: 'app' });
    expect(parseAreaModule('/repo/src/lib/catalogues/messages-en-mail.ts')).toBeNull();
    expect(parseAreaModule('/repo/src/features/x/messages-en-app.ts')).toBeNull();
    expect(parseAreaModule('/repo/locales/en.json')).toBeNull();
  });

  it('as modules, hold the messages of their area (as the tests and the UI kit run them)', async () => {
    const modules = {
      'ru:auth': await import('./catalogues/messages-ru-auth'),
      'ru:app': await import('./catalogues/messages-ru-app'),
      'en:auth': await import('./catalogues/messages-en-auth'),
      'en:app': await import('./catalogues/messages-en-app'),
    };
    expect(modules['ru:auth'].default).toEqual(catalogueOfArea(ru, 'auth'));
    expect(modules['ru:app'].default).toEqual(catalogueOfArea(ru, 'app'));
    expect(modules['en:auth'].default).toEqual(catalogueOfArea(en, 'auth'));
    expect(modules['en:app'].default).toEqual(catalogueOfArea(en, 'app'));
  });

  it('compile an area to the syntax trees of its messages', () => {
    const messages = catalogueOfArea(ru, 'auth');
    const code = compileCatalogueModule(messages);
    const literal = /^export default JSON\.parse\((".*")\);\n$/s.exec(code)?.[1];
    expect(literal).toBeDefined();
    const trees = JSON.parse(JSON.parse(literal ?? '""') as string) as Record<string, unknown>;
    expect(Object.keys(trees)).toEqual(Object.keys(messages));
    for (const [id, text] of Object.entries(messages)) expect(trees[id], id).toEqual(parse(text));
  });
});
