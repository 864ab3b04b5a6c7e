// Vite plugin: replaces each area module `src/lib/catalogues/messages-<lang>-<area>.ts` (which, run as
// written, filters the whole catalogue) with the messages of that area only (rules in
// src/lib/catalogue-areas.ts), so each language and area becomes its own small chunk,
// `assets/messages-<lang>-<area>-<hash>.js`, and locales/*.json stay the one source.
//
// The messages are compiled to their ICU syntax trees here, at build time, and the page's
// `@formatjs/icu-messageformat-parser` is replaced by its parser-less entry (the FormatJS way to drop
// the parser, 8 KB gzipped, from the bundle: react-intl formats the trees directly). What that costs:
// a `defaultMessage` in the code is shown verbatim if its id is missing from the loaded catalogue (it
// would otherwise be parsed and formatted); the tests keep every id the code names in the catalogues,
// and the precache keeps every catalogue chunk. Unit tests and the UI kit's dev server do not use this
// plugin: they import the whole catalogue as strings, with the parser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';
import { catalogueOfArea, parseAreaModule } from '../src/lib/catalogue-areas';

/** `export default JSON.parse("…")`: a JSON string parses faster than the same object literal. */
export function compileCatalogueModule(messages: Readonly<Record<string, string>>): string {
  const trees = Object.fromEntries(Object.entries(messages).map(([id, text]) => [id, parse(text)]));
  return `export default JSON.parse(${JSON.stringify(JSON.stringify(trees))});\n`;
}

export function catalogueAreas(): Plugin {
  let root = process.cwd();
  return {
    name: 'catalogue-areas',
    enforce: 'pre',
    config: () => ({
      resolve: {
        // Exactly the package's main entry: its parser-less twin keeps the same exports but `parse`.
        alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
      },
    }),
    configResolved(config) {
      root = config.root;
    },
    load(id) {
      const request = parseAreaModule(id);
      if (!request) return null;
      const file = join(root, 'locales', `${request.language}.json`);
      // Rebuild (and in dev, reload) when the catalogue changes.
      this.addWatchFile(file);
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      return compileCatalogueModule(catalogueOfArea(catalogue, request.area));
    },
  };
}
