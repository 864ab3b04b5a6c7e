import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { compileCatalogueModule } from '../../scripts/vite-catalogue-areas';
import { SRC, idsIn, reachable, sourceFiles } from '../../tests/unit/support/message-sources';
import { CATALOGUE_AREAS, areaOf, areasOfRoute, catalogueOfArea, parseAreaModule } from './catalogue-areas';

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
    expect(areaOf('auth.login.title')).toBe('signin');
    expect(areaOf('error.validation.required')).toBe('auth');
    expect(areaOf('dialog.ok')).toBe('auth');
    expect(areaOf('nav.language.en')).toBe('auth');
    expect(areaOf('nav.dashboard')).toBe('app');
    expect(areaOf('employees.list.title')).toBe('employees');
    expect(areaOf('invitations.send')).toBe('employees');
    expect(areaOf('suggestions.dashboard.title')).toBe('dashboard');
    expect(areaOf('suggestions.list.title')).toBe('suggestions');
    expect(areaOf('registryExport.title')).toBeNull();
    expect(areaOf('registry.title')).toBe('registry');
    expect(areaOf('outbox.title')).toBe('app');
    // An id of a screen that does not exist yet lands in the app area, never on the sign-in route.
    expect(areaOf('approvals.queue.title')).toBe('app');
    expect(areaOf('mail.greeting')).toBeNull();
  });

  it('hold every message the sign-in pages, the auth layout and the frame around them can show', () => {
    const pages = readdirSync(join(SRC, 'features/auth/pages')).filter((n) => /\.tsx$/.test(n) && !n.includes('.test.')).map((n) => join(SRC, 'features/auth/pages', n));
    // What signed-in screens show too: only 'auth' (they never load 'signin').
    const frameRoots = [
      join(SRC, 'app/auth-layout.tsx'),
      join(SRC, 'app/not-found-page.tsx'),
      join(SRC, 'app/error-boundary.tsx'),
      join(SRC, 'app/pwa-update.tsx'),
      join(SRC, 'ui/error-screen.tsx'),
      join(SRC, 'ui/loading-bar.tsx'),
      join(SRC, 'ui/dialog/index.ts'),
    ];
    const frame = new Set(reachable(frameRoots));
    const files = reachable([...pages, ...frameRoots]);
    // The walk must reach the parts the login form is made of, or it proves nothing.
    expect(files.map((f) => relative(SRC, f))).toEqual(expect.arrayContaining(['ui/text-field.tsx', 'ui/form.ts', 'lib/request-errors.ts', 'app/language-switch.tsx']));
    // app.tsx itself renders the page-loading label on every route; its imports are the whole app.
    const own = [...files, join(SRC, 'app/app.tsx')].map((file) => ({ file: relative(SRC, file), ...idsIn(file) }));
    const frameFiles = new Set([...frame, join(SRC, 'app/app.tsx')].map((file) => relative(SRC, file)));
    const outside = own.flatMap(({ file, literal, prefixes }) =>
      [...literal, ...prefixes]
        .filter((id) => areaOf(id) !== 'auth' && (frameFiles.has(file) || areaOf(id) !== 'signin'))
        .map((id) => `${file}: ${id}`),
    );
    expect(outside).toEqual([]);
    // The sign-in pages' own texts are theirs: the walk reached them.
    expect(own.some(({ literal }) => literal.some((id) => areaOf(id) === 'signin'))).toBe(true);
  });

  it('load with each signed-in route its own feature area only', () => {
    expect(areasOfRoute('Dashboard', 'default')).toEqual(['auth', 'app', 'dashboard']);
    expect(areasOfRoute('ProjectCreate', 'default')).toEqual(['auth', 'app', 'projects', 'projectform']);
    expect(areasOfRoute('Project', 'default')).toEqual(['auth', 'app', 'projects', 'projectview']);
    expect(areasOfRoute('Notifications', 'default')).toEqual(['auth', 'app', 'notifications']);
    expect(areasOfRoute('MySuggestions', 'default')).toEqual(['auth', 'app', 'suggestions']);
    expect(areasOfRoute('Unsent', 'default')).toEqual(['auth', 'app']);
    expect(areasOfRoute('AuthLogin', 'auth')).toEqual(['auth', 'signin']);
    // The same array each time: the intl provider's effects depend on it.
    expect(areasOfRoute('Goal', 'default')).toBe(areasOfRoute('Goal', 'default'));
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
    // Every area's module is known to the build, which would otherwise bundle the whole catalogue in its place.
    for (const area of CATALOGUE_AREAS) expect(parseAreaModule(`/repo/src/lib/catalogues/messages-ru-${area}.ts`)).toEqual({ language: 'ru', area });
    expect(parseAreaModule('/repo/src/features/x/messages-en-app.ts')).toBeNull();
    expect(parseAreaModule('/repo/locales/en.json')).toBeNull();
  });

  it('as modules, hold the messages of their area (as the tests and the UI kit run them)', async () => {
    for (const [language, catalogue] of [['ru', ru], ['en', en]] as const) {
      for (const area of CATALOGUE_AREAS) {
        const module = (await import(`./catalogues/messages-${language}-${area}.ts`)) as { default: Record<string, string> };
        expect(module.default, `${language}:${area}`).toEqual(catalogueOfArea(catalogue, area));
        expect(Object.keys(module.default).length, `${language}:${area}`).toBeGreaterThan(0);
      }
    }
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
