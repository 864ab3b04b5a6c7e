// The HTML shell names the files of its route's first screen (server/route-preloads.ts, served by server/static.ts).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeOfCookie, routeOf, withPreloads, type RoutePreloadTable } from './route-preloads';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from './test-support';

const SHELL = '<!doctype html><html><head><title>Dashboard</title><script type="module" crossorigin src="/assets/index-1.js"></script></head><body></body></html>';

const TABLE: RoutePreloadTable = {
  rootRedirect: '/dashboard',
  routes: [
    { name: 'Dashboard', path: '/dashboard', files: ['assets/signed-in-1.js', 'assets/dashboard-page-1.js'], styles: [], messages: { ru: ['assets/messages-ru-app-1.js'], en: ['assets/messages-en-app-1.js'] } },
    { name: 'Goals', path: '/companies/:companyId/goals', files: ['assets/signed-in-1.js', 'assets/goals-page-1.js'], styles: ['assets/goals-page-1.css'], messages: { ru: ['assets/messages-ru-goals-1.js'], en: ['assets/messages-en-goals-1.js'] } },
    { name: 'GoalCreate', path: '/companies/:companyId/goals/create', files: ['assets/goal-create-page-1.js'], styles: [], messages: { ru: [], en: [] } },
    { name: 'Goal', path: '/companies/:companyId/goals/:goalId', files: ['assets/goal-page-1.js'], styles: [], messages: { ru: [], en: [] } },
    { name: 'NotFound', path: '*', files: ['assets/not-found-page-1.js'], styles: [], messages: { ru: [], en: [] } },
  ],
};

const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="\/([^"]+)">/g)].map((match) => match[1]);
const stylePreloads = (html: string) => [...html.matchAll(/<link rel="preload" as="style" crossorigin fetchpriority="low" href="\/([^"]+)">/g)].map((match) => match[1]);

describe('the route of a path', () => {
  it('is the most specific match, "/" the dashboard, and none for a path no route has (the not-found route names nothing)', () => {
    expect(routeOf(TABLE, '/companies/c1/goals/create')?.name).toBe('GoalCreate');
    expect(routeOf(TABLE, '/companies/c1/goals/g7')?.name).toBe('Goal');
    expect(routeOf(TABLE, '/companies/c1/goals/')?.name).toBe('Goals');
    expect(routeOf(TABLE, '/')?.name).toBe('Dashboard');
    expect(routeOf(TABLE, '/no/such/page')).toBeNull();
  });

  it("reads the device's language from the appLocale cookie, Russian without one", () => {
    expect(localeOfCookie('theme=dark; appLocale=en')).toBe('en');
    expect(localeOfCookie('appLocale=ru')).toBe('ru');
    expect(localeOfCookie('appLocale=de')).toBe('ru');
    expect(localeOfCookie('xappLocale=en')).toBe('ru');
    expect(localeOfCookie(undefined)).toBe('ru');
  });

  it("names the route's files once each, then its messages, before </head>; a shell without a head stays as it is", () => {
    const html = withPreloads(SHELL, routeOf(TABLE, '/companies/c1/goals'), 'en');
    expect(preloads(html)).toEqual(['assets/signed-in-1.js', 'assets/goals-page-1.js', 'assets/messages-en-goals-1.js']);
    expect(stylePreloads(html)).toEqual(['assets/goals-page-1.css']);
    expect(html.indexOf('modulepreload')).toBeGreaterThan(html.indexOf('index-1.js'));
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
    expect(withPreloads('<p>no head</p>', routeOf(TABLE, '/dashboard'), 'ru')).toBe('<p>no head</p>');
    expect(withPreloads(SHELL, null, 'ru')).toBe(SHELL);
  });
});

describe('the served shell', () => {
  let database: TestDatabase;
  let dir: string;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(path.join(tmpdir(), 'route-preloads-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), SHELL);
    await writeFile(path.join(dir, 'route-preloads.json'), JSON.stringify(TABLE));
    t = await createTestApp({ staticDir: dir }, database);
  });
  afterAll(async () => {
    await t.close();
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it("names a deep link's files and the messages of the device's language, at / the dashboard's", async () => {
    const goals = await get('/companies/c1/goals?tab=mine', { cookie: 'appLocale=en' });
    expect(goals.statusCode).toBe(200);
    expect(goals.headers['content-type']).toMatch(/^text\/html/);
    expect(goals.headers['cache-control']).toBe('no-cache');
    expect(String(goals.headers.vary)).toBe('Accept-Encoding, Cookie');
    expect(preloads(goals.body)).toEqual(['assets/signed-in-1.js', 'assets/goals-page-1.js', 'assets/messages-en-goals-1.js']);
    expect(preloads((await get('/')).body)).toEqual(['assets/signed-in-1.js', 'assets/dashboard-page-1.js', 'assets/messages-ru-app-1.js']);
    expect((await get('/no/such/page')).body).toBe(SHELL);
  });

  it('compresses each shell, tags each representation and answers a revalidation with 304', async () => {
    const br = await get('/dashboard', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(preloads(brotliDecompressSync(br.rawPayload).toString())).toContain('assets/dashboard-page-1.js');
    const plain = await get('/dashboard');
    expect(plain.headers.etag).not.toBe(br.headers.etag);
    const again = await get('/dashboard', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('serves a new build with its own table, and the shell as it is when the table is broken', async () => {
    await writeFile(path.join(dir, 'route-preloads.json'), JSON.stringify({ ...TABLE, routes: [{ ...TABLE.routes[0], files: ['assets/signed-in-2.js'] }] }));
    await writeFile(path.join(dir, 'index.html'), `${SHELL}\n`);
    expect(preloads((await get('/dashboard')).body)).toEqual(['assets/signed-in-2.js', 'assets/messages-ru-app-1.js']);

    await writeFile(path.join(dir, 'route-preloads.json'), JSON.stringify({ rootRedirect: '/dashboard', routes: [{ name: 'X', path: '/x', files: ['../../etc/passwd'], messages: {} }] }));
    await writeFile(path.join(dir, 'index.html'), `${SHELL}\n\n`);
    const shell = await get('/dashboard');
    expect(shell.statusCode).toBe(200);
    expect(shell.body).toBe(`${SHELL}\n\n`);
  });
});
