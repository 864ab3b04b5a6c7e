// Message catalogues per area of the app (issue 9): locales/en.json and locales/ru.json stay the one
// source of every message; at build time they are split by message id into one chunk per language and
// area, so a screen downloads only the messages its area shows.
// Guarantees: every id of the catalogues belongs to exactly one area, or to the server only (mails and
// the invoice PDF, never sent to the browser); an id that no rule names belongs to 'app', so messages of
// new screens never land on the sign-in route. Pure TypeScript: used by the page (area names, and the
// area modules under catalogues/), by the Vite plugin that builds the chunks
// (scripts/vite-catalogue-areas.ts) and by the tests.

/**
 * 'auth': what every screen renders, signed in or not: the errors, the app's frame (loading, error and 404
 * screens, update prompt), dialogs, the text field and the language switch. Every screen loads it first.
 * 'signin': the sign-in pages' own `auth.*` texts (sign-in, registration, recovery, invitations), which the
 * auth layout loads with 'auth' and no signed-in screen loads (3 KB gzipped off every signed-in route). 'app': what every signed-in screen may show, whatever
 * its page: the signed-in frame (header, notices, notifications), the outbox and its conflicts, enums, the
 * field errors several forms share. Then one area per feature, loaded with that feature's pages only
 * (FEATURE_AREAS_OF_ROUTE): a signed-in screen downloads 'auth', 'app' and its own, never the other screens'
 * (issue 14: the one 'app' chunk of every signed-in text was 28 KB gzipped on every route).
 */
export const CATALOGUE_AREAS = [
  'auth',
  'signin',
  'app',
  'dashboard',
  'projects',
  'goals',
  'suggestions',
  'employees',
  'companies',
  'registry',
  'profile',
  'departments',
  'notifications',
  'projectform',
  'projectview',
] as const;
export type CatalogueArea = (typeof CATALOGUE_AREAS)[number];

/**
 * First matching prefix wins; `null` = used by the server only. Keep the more specific prefixes first.
 * `nav.*` is the signed-in header except the three ids the auth layout shows (logo, name, language).
 */
export const AREA_RULES: readonly (readonly [prefix: string, area: CatalogueArea | null])[] = [
  ['auth.', 'signin'],
  // A late decision's conflict: the server words it (the client shows the server's message).
  ['error.suggestion', null],
  // The distribution screen's own field error.
  ['error.validation.same', 'app'],
  // Goals and projects (issue 12): their conflicts are worded by the server; their field errors belong to
  // their forms, never to the sign-in route.
  ['error.goal', null],
  ['error.project', null],
  ['error.validation.afterStart', 'app'],
  ['error.validation.percent', 'app'],
  ['error.validation.amount', 'app'],
  ['error.validation.exceedsRemuneration', 'app'],
  ['error.validation.belowPayments', 'app'],
  ['error.validation.duplicateEmployee', 'app'],
  ['error.validation.activeEmployee', 'app'],
  ['error.validation.indicatorUnit', 'app'],
  ['error.validation.notInTeam', 'app'],
  ['error.validation.future', 'app'],
  // The registry and the dashboard (issue 13): conflicts and refusals worded by the server; the field errors of
  // the owner's approval, the send and the dashboard's period belong to their screens.
  ['error.registry', null],
  ['error.dashboard', null],
  ['error.ebitda', null],
  ['error.validation.period', 'app'],
  ['error.validation.notInRegistry', 'app'],
  ['error.validation.duplicate', 'app'],
  ['error.validation.notInOpenRegistry', 'app'],
  // The server's own errors, worded by the server in the request's language: the client shows the server's
  // message and names none of these ids (issue 14: 9 KB of them rode along with every route's frame texts).
  ['error.import', null],
  ['error.idempotency', null],
  ['error.invitation', null],
  ['error.refreshToken', null],
  ['error.file', null],
  ['error.upload', null],
  ['error.tooMany', null],
  ['error.company', null],
  ['error.department', null],
  ['error.accountDisabled', null],
  ['error.alreadyMember', null],
  ['error.badRequest', null],
  ['error.databaseUnavailable', null],
  ['error.emailTokenInvalid', null],
  ['error.employeeTaken', null],
  ['error.forbidden', null],
  ['error.internal', null],
  ['error.invalidCredentials', null],
  ['error.lastOwner', null],
  ['error.mailRateLimited', null],
  ['error.malformedJson', null],
  ['error.notFound', null],
  ['error.payloadTooLarge', null],
  ['error.pushNotApplied', null],
  ['error.serverBusy', null],
  ['error.unauthorized', null],
  ['error.unsupportedMediaType', null],
  ['error.verificationState', null],
  ['error.', 'auth'],
  ['app.', 'auth'],
  ['dialog.', 'auth'],
  ['common.', 'auth'],
  ['form.', 'auth'],
  ['pwa.', 'auth'],
  ['nav.language', 'auth'],
  ['nav.logoAlt', 'auth'],
  ['nav.productName', 'auth'],
  ['ui.field.', 'auth'],
  ['ui.mask.', 'auth'],
  // The registration form's selects (position, main goal).
  ['ui.select.', 'auth'],
  // src/lib/request-errors.ts: the sign-in forms show these when the server cannot be reached.
  ['people.error.', 'auth'],
  ['mail.', null],
  // The start rule's requirements as the server words them, and the units' titles (the session's app config).
  ['company.requirement.', null],
  ['unit.', null],
  ['invoice.', null],
  // The server's titles of roles, positions and goals (the session's app config) and the import template's
  // sheet; the UI kit's own page (tests/e2e/kit) reads the whole catalogue.
  ['enum.', null],
  ['import.', null],
  ['kit.', null],
  // The registry's XLSX and PDF exports (server/features/registry/export.ts).
  ['registryExport.', null],
  // The features' own areas (issue 14). The dashboard's proposal block is worded under `suggestions.dashboard.`.
  ['suggestions.dashboard.', 'dashboard'],
  ['dashboard.', 'dashboard'],
  // Projects (issue 14: the project screens' texts were 5 KB gzipped on each): what every project screen may show
  // (the store's errors, amounts), the form's (making and editing a project) and the other screens'.
  ['projects.error.', 'projects'],
  ['projects.amount.', 'projects'],
  ['projects.form.', 'projectform'],
  ['projects.create', 'projectform'],
  ['projects.edit.', 'projectform'],
  ['projects.', 'projectview'],
  ['goals.', 'goals'],
  ['suggestions.', 'suggestions'],
  ['employees.', 'employees'],
  // Invitations are sent from the employee card and list.
  ['invitations.', 'employees'],
  ['companies.', 'companies'],
  ['registry.', 'registry'],
  ['profile.', 'profile'],
  ['departments.', 'departments'],
  // The header's bell is on every signed-in screen; the list and its texts are the notifications page's.
  ['notifications.bell', 'app'],
  ['notifications.unreadCount', 'app'],
  // The outbox names its rows on every screen (the unsent badge and page).
  ['notifications.outbox', 'app'],
  ['notifications.', 'notifications'],
];

/**
 * The feature areas of a signed-in route, by the route's name (src/app/routes.tsx), first matching rule wins.
 * A route no rule names loads 'auth' and 'app' only. src/app/route-catalogues.test.ts follows every route's page
 * through its imports and checks that each message id it can show is in an area the route loads.
 */
export const FEATURE_AREAS_OF_ROUTE: readonly (readonly [pattern: RegExp, areas: readonly CatalogueArea[]])[] = [
  [/^Dashboard$/, ['dashboard']],
  // The profile lists the user's companies with their legal form and verification state.
  [/^Profile/, ['profile', 'companies']],
  [/^Companies|^CompanyVerification/, ['companies']],
  [/^CompanyDepartments$/, ['departments']],
  [/^Employee/, ['employees']],
  [/^Goal/, ['goals']],
  [/^ProjectCreate/, ['projects', 'projectform']],
  [/^Project/, ['projects', 'projectview']],
  [/Suggestion/, ['suggestions']],
  [/^Registry/, ['registry']],
  [/^Notifications$/, ['notifications']],
];

const AUTH_AREAS: readonly CatalogueArea[] = ['auth', 'signin'];
/** The 404 page (auth layout, signed in or out) shows the frame's texts only. */
const FRAME_AREAS: readonly CatalogueArea[] = ['auth'];
const routeAreas = new Map<string, readonly CatalogueArea[]>();

/**
 * The areas a route shows: the auth layout 'auth' and 'signin' (the sign-in route downloads no signed-in text; the
 * 404 page 'auth' only); the
 * default layout 'auth', 'app' and the route's feature areas. The same array for the same route, every time.
 */
export function areasOfRoute(name: string, layout: 'auth' | 'default'): readonly CatalogueArea[] {
  if (layout === 'auth') return name === 'NotFound' ? FRAME_AREAS : AUTH_AREAS;
  let areas = routeAreas.get(name);
  if (!areas) {
    const features = FEATURE_AREAS_OF_ROUTE.find(([pattern]) => pattern.test(name))?.[1] ?? [];
    areas = ['auth', 'app', ...features];
    routeAreas.set(name, areas);
  }
  return areas;
}

/** The area of a message id; `null` for ids only the server uses. */
export function areaOf(id: string): CatalogueArea | null {
  for (const [prefix, area] of AREA_RULES) {
    if (id === prefix || id.startsWith(prefix)) return area;
  }
  return 'app';
}

/** The messages of one area, in the catalogue's order. */
export function catalogueOfArea(catalogue: Readonly<Record<string, string>>, area: CatalogueArea): Record<string, string> {
  return Object.fromEntries(Object.entries(catalogue).filter(([id]) => areaOf(id) === area));
}

function isArea(value: string): value is CatalogueArea {
  return (CATALOGUE_AREAS as readonly string[]).includes(value);
}

/**
 * The language and area of a module `src/lib/catalogues/messages-<lang>-<area>.ts`, or null for any other
 * module id. The page imports each area's messages from such a module; the build replaces its code with
 * the area's compiled messages, and without the build's plugin (unit tests, the UI kit's dev server)
 * the module reads them from the whole catalogue itself.
 */
export function parseAreaModule(moduleId: string): { language: string; area: CatalogueArea } | null {
  const match = /[\\/]src[\\/]lib[\\/]catalogues[\\/]messages-([a-z]{2})-([a-z]+)\.ts$/.exec(moduleId);
  if (!match?.[1] || !match[2] || !isArea(match[2])) return null;
  return { language: match[1], area: match[2] };
}
