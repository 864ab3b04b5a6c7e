// The sign-in route's JavaScript budget (issue 9): what Chromium loads to show /auth/login on a first
// visit, every file gzipped, must stay within BUDGET_KB, measured by the same code as `npm run bench`
// (scripts/bundle-size.mjs). It counts the message catalogue chunks the route really loads, so it also
// checks that the sign-in route takes the sign-in areas' messages only ('auth' and 'signin'). A size budget, not a timing.
// MEASURE_DIST=/some/dir measures another build than dist/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUDGET_KB, measureSignInRoute, resolveDist, type Measurement } from '../../scripts/bundle-size.mjs';
import { CATALOGUE_AREAS } from '../../src/lib/catalogue-areas';

const dist = resolveDist(process.env.MEASURE_DIST);

function table(result: Measurement): string {
  const rows = result.files.map((f) => `${f.file.padEnd(48)} ${(f.gzip / 1024).toFixed(1).padStart(6)} KB`);
  return [...rows, `${'total'.padEnd(48)} ${(result.total.gzip / 1024).toFixed(1).padStart(6)} KB`].join('\n');
}

describe('the sign-in route', () => {
  it(`loads at most ${BUDGET_KB} KB of gzipped JavaScript, with the Russian sign-in messages only`, async () => {
    const result = await measureSignInRoute({ dist, method: 'chromium' });
    const files = result.files.map((f) => f.file);
    const shown = table(result);
    expect(files.filter((f) => /\/messages-ru-auth-[\w-]+\.js$/.test(f)), shown).toHaveLength(1);
    expect(files.filter((f) => /\/messages-ru-signin-[\w-]+\.js$/.test(f)), shown).toHaveLength(1);
    // No other area or language: the signed-in screens' messages never weigh on this route.
    expect(files.filter((f) => /\/messages-/.test(f) && !/\/messages-ru-(?:auth|signin)-/.test(f)), shown).toEqual([]);
    // The e-mail mask needs no imask (16 KB); the formatting masks load with the pages that use them.
    expect(files.filter((f) => /\/masks-imask-/.test(f)), shown).toEqual([]);
    expect(result.total.gzip, shown).toBeLessThanOrEqual(BUDGET_KB * 1024);
  });
});

describe('the service worker', () => {
  it('is one classic script: no import statement and no import.meta, which a classic worker cannot evaluate', () => {
    const worker = readFileSync(join(dist, 'sw.js'), 'utf8');
    // A dynamic import the worker's code reaches (the outbox kinds' handlers) once brought Vite's preload helper,
    // with its import.meta, into sw.js: the worker failed to install, and the app lost its offline start.
    expect(worker).not.toMatch(/\bimport\.meta\b/);
    expect(worker).not.toMatch(/(?:^|[;}\s])import\s*[({"'\w*]/);
  });
});

describe('the message catalogue chunks', () => {
  it('are one per language and area, and all in the service worker precache (a cold start offline in any area)', () => {
    const pattern = new RegExp(`^messages-(?:ru|en)-(?:${CATALOGUE_AREAS.join('|')})-[\\w-]+\\.js$`);
    const chunks = readdirSync(join(dist, 'assets')).filter((f) => pattern.test(f));
    // The content hash may itself hold '-' (messages-en-auth---q6Funf.js): the name is read from the front.
    const names = chunks.map((f) => new RegExp(`^messages-(?:ru|en)-(?:${CATALOGUE_AREAS.join('|')})`).exec(f)?.[0]).sort();
    expect(names).toEqual(['ru', 'en'].flatMap((language) => CATALOGUE_AREAS.map((area) => `messages-${language}-${area}`)).sort());
    const worker = readFileSync(join(dist, 'sw.js'), 'utf8');
    expect(chunks.filter((f) => !worker.includes(`assets/${f}`))).toEqual([]);
  });
});
