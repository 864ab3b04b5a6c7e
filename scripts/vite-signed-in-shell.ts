// Vite plugin and chunk group: the signed-in shell in one chunk (issue 14, JavaScript per route).
//
// Every signed-in screen loads the same code before its page: the default layout and its header, the device
// database, the offline start (replayer, pulls, connectivity), every feature's outbox kinds and mirror stores,
// the unsent badge, the bell and the device notices. Left to the automatic chunking they were some 45 files
// (one per distinct set of lazy importers), and gzip compresses each file alone: the same code gzipped as one
// file was 14 KB smaller (94.5 -> 80.6 KB, measured on the build of fe7ed5e). This puts that code into
// `assets/signed-in-<hash>.js`.
//
// Which modules: the static-import closure of SHELL_ROOTS (what the default layout loads, statically or by the
// lazy imports it makes on every screen), less the closure of the entry (already in index.js) and less the
// closure of the sign-in pages (a module a sign-in page imports stays in a chunk of its own, so the sign-in
// route never loads the shell). Computed from the module graph once the build has it, so a module a feature
// adds to the shell joins the group without anyone listing it. The budgets in tests/e2e/route-budgets.test.ts
// and tests/e2e/bundle-budget.test.ts check both sides.
import type { Plugin } from 'vite';

/** What every signed-in screen loads, relative to the project root. */
const SHELL_ROOTS = [
  'src/app/default-layout.tsx',
  'src/app/device-notices.tsx',
  'src/app/nav-review-access.tsx',
  'src/app/outbox-kinds.ts',
  'src/lib/offline.ts',
  'src/lib/sign-out-data.ts',
  'src/features/outbox/components/unsent-badge.tsx',
  'src/features/notifications/components/bell.tsx',
];

/** The sign-in page: what it shares with the shell is one chunk of its own ('common'), see shellModules. */
const SIGN_IN_PAGE = 'src/features/auth/pages/login-page.tsx';

/** Modules under these folders are the signed-out screens: never in the shell. */
const SIGNED_OUT_PAGES = /\/src\/features\/auth\/|\/src\/app\/not-found-page\.tsx$/;

export interface SignedInShell {
  plugin: Plugin;
  /** The chunk groups' tests: whether a module id belongs to the shell, or to what it shares with the sign-in page. */
  test: (id: string) => boolean;
  testCommon: (id: string) => boolean;
  /** Whether a module id is what the shell shares with the other signed-out pages (not the sign-in page). */
  testSession: (id: string) => boolean;
  /** What the entry loads statically, as one chunk ('boot') instead of index.js and some ten small chunks. */
  testBoot: (id: string) => boolean;
}

interface ModuleGraph {
  getModuleIds(): IterableIterator<string>;
  getModuleInfo(id: string): { isEntry: boolean; importedIds: readonly string[] } | null;
}

/** Every module `roots` import statically, the roots included. */
function staticClosure(graph: ModuleGraph, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * The shell's modules in `graph`: the closure of the roots less what the entry or a sign-out page loads; and
 * 'common', what the shell shares with the sign-in page beyond the entry (the HTTP client, the session, the
 * app state, react-intl, superstruct: some ten small chunks that both load, one gzip file instead); and
 * 'session', what it shares with the other signed-out pages only (an invitation's page reads the app state and
 * the current company): three small chunks on every signed-in route before, one now.
 */
export function shellModules(graph: ModuleGraph, root: string): { shell: Set<string>; common: Set<string>; session: Set<string>; boot: Set<string> } {
  const ids = [...graph.getModuleIds()];
  const normalise = (id: string) => id.replaceAll('\\', '/');
  const pathOf = (path: string) => `${normalise(root).replace(/\/$/, '')}/${path}`;
  const modulesAt = (paths: readonly string[]) => {
    const found = ids.filter((id) => paths.some((path) => normalise(id) === pathOf(path)));
    const missing = paths.filter((path) => !found.some((id) => normalise(id) === pathOf(path)));
    if (missing.length > 0) throw new Error(`signed-in shell: no module ${missing.join(', ')} (moved? update scripts/vite-signed-in-shell.ts)`);
    return found;
  };
  const entry = staticClosure(graph, ids.filter((id) => graph.getModuleInfo(id)?.isEntry === true));
  const signedOut = staticClosure(graph, ids.filter((id) => SIGNED_OUT_PAGES.test(normalise(id))));
  const signIn = staticClosure(graph, modulesAt([SIGN_IN_PAGE]));
  const shellClosure = staticClosure(graph, modulesAt(SHELL_ROOTS));
  return {
    shell: new Set([...shellClosure].filter((id) => !entry.has(id) && !signedOut.has(id))),
    common: new Set([...shellClosure].filter((id) => !entry.has(id) && signIn.has(id))),
    session: new Set([...shellClosure].filter((id) => !entry.has(id) && signedOut.has(id) && !signIn.has(id))),
    boot: entry,
  };
}

export function signedInShell(): SignedInShell {
  let root = process.cwd();
  let modules = { shell: new Set<string>(), common: new Set<string>(), session: new Set<string>(), boot: new Set<string>() };
  return {
    plugin: {
      name: 'signed-in-shell',
      apply: 'build',
      configResolved(config) {
        root = config.root;
      },
      buildEnd(error) {
        if (error) return;
        modules = shellModules(this, root);
      },
    },
    test: (id) => modules.shell.has(id),
    testCommon: (id) => modules.common.has(id),
    testSession: (id) => modules.session.has(id),
    testBoot: (id) => modules.boot.has(id),
  };
}
