// Reading the client's source for the message catalogue tests: which files a module reaches through its relative
// imports, and which message ids a file names. Shared by src/lib/catalogue-areas.test.ts (the sign-in pages) and
// src/app/route-catalogues.test.ts (every signed-in route).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SRC = join(ROOT, 'src');

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Message ids a source file names: literal ids, and `prefix.${…}` templates as their prefix. */
export function idsIn(file: string): { literal: string[]; prefixes: string[] } {
  const text = readFileSync(file, 'utf8');
  const literal = [...text.matchAll(/\bid(?:=|:\s*)['"]([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)['"]/g)].map((m) => m[1] ?? '');
  const prefixes = [...text.matchAll(/\bid = `([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*\.)\$\{/g)].map((m) => m[1] ?? '');
  return { literal, prefixes };
}

/** The file a relative import names (static or dynamic), or null for packages and other kinds of file. */
export function resolveImport(from: string, specifier: string): string | null {
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

/** Every source file reachable from `roots` through relative imports, inside src/, never entering `opaque`. */
export function reachable(roots: string[], opaque: readonly string[] = []): string[] {
  const seen = new Set<string>(opaque);
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
  return [...seen].filter((file) => !opaque.includes(file)).sort();
}
