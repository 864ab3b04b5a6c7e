// Route builders for every screen of spec section 2. One place, used by the routes table,
// by links in features and by the server when it mails a link.

type Id = string | number;

export const paths = {
  root: '/',
  dashboard: '/dashboard',
  profile: '/profile',
  profileAdmin: '/profile/admin',
  companiesCreate: '/companies/create',
  companiesCreated: '/companies/created',
  /** Writes made on this device that the server has not confirmed yet (issue 4). */
  unsent: '/unsent',
  /** The signed-in user's notifications in the current company (issue 11; the header's bell leads here). */
  notifications: '/notifications',

  auth: {
    login: '/auth/login',
    register: '/auth/register',
    registerHrSuccess: '/auth/register/hr/success',
    registerConfirmEmail: '/auth/register/confirm-email',
    registerVerified: '/auth/register/verified',
    recoveryPassword: '/auth/recovery-password',
    recoveryPasswordConfirm: '/auth/recovery-password-confirm',
    recoveryPasswordSuccess: '/auth/recovery-password-success',
    /** The link of an invitation e-mail (`?token=`): join a company (issue 5). */
    invitation: '/auth/invitation',
  },

  company: {
    departments: (c: Id) => `/companies/${c}/departaments`,
    verificationPayment: (c: Id) => `/companies/${c}/verification-payment`,
    verificationPaymentCheck: (c: Id) => `/companies/${c}/verification-payment-check`,

    employees: (c: Id) => `/companies/${c}/employees`,
    employeesEdit: (c: Id) => `/companies/${c}/employees/edit`,
    employeesCreateSuccess: (c: Id) => `/companies/${c}/employees/create-success`,
    employeesImport: (c: Id) => `/companies/${c}/employees/import`,
    employeesImportReport: (c: Id) => `/companies/${c}/employees/import-report`,
    employee: (c: Id, e: Id) => `/companies/${c}/employees/${e}`,

    goals: (c: Id) => `/companies/${c}/goals`,
    goal: (c: Id, g: Id) => `/companies/${c}/goals/${g}`,
    goalActionResult: (c: Id, g: Id) => `/companies/${c}/goals/${g}/action-result`,
    goalsCreate: (c: Id) => `/companies/${c}/goals/create`,
    goalsCreateResult: (c: Id) => `/companies/${c}/goals/create-result`,

    projects: (c: Id) => `/companies/${c}/projects`,
    projectsCreate: (c: Id) => `/companies/${c}/projects/create`,
    projectsCreateSuccess: (c: Id) => `/companies/${c}/projects/create-success`,
    project: (c: Id, p: Id) => `/companies/${c}/projects/${p}`,
    projectComplete: (c: Id, p: Id) => `/companies/${c}/projects/${p}/complete`,
    projectCompleteSuccess: (c: Id, p: Id) => `/companies/${c}/projects/${p}/complete-success`,
    projectIndicatorSuccess: (c: Id, p: Id) => `/companies/${c}/projects/${p}/indicator-success`,
    projectApproveResult: (c: Id, p: Id) => `/companies/${c}/projects/${p}/aprove-result`,

    mySuggestions: (c: Id) => `/companies/${c}/my-suggestions`,
    /** Proposals of others: "to review" (whoever may decide), the company's, all (issue 11; spec section 2 by label). */
    suggestions: (c: Id) => `/companies/${c}/suggestions`,
    suggestionsCreate: (c: Id) => `/companies/${c}/suggestions/create`,
    suggestionsCreateResult: (c: Id) => `/companies/${c}/suggestions/create-result`,
    suggestion: (c: Id, s: Id) => `/companies/${c}/suggestions/${s}`,
    suggestionDistribute: (c: Id, s: Id) => `/companies/${c}/suggestions/${s}/distribute`,
    suggestionSuccess: (c: Id, s: Id) => `/companies/${c}/suggestions/${s}/success`,

    registry: (c: Id) => `/companies/${c}/registry`,
    registryApprove: (c: Id) => `/companies/${c}/registry-approve`,
    registryApproveSuccess: (c: Id) => `/companies/${c}/registry-approve/success`,
    registrySuccess: (c: Id) => `/companies/${c}/registry-success`,
  },
} as const;

/** The API prefix of spec section 7 and DESIGN.md. */
export const API_PREFIX = '/main-service/api/v1';

/* Where to return after sign-in -------------------------------------------------------------------------------- */

/**
 * The login route's query parameter naming the page to open after sign-in (`/auth/login?next=/companies/…`).
 * The URL carries it, not storage: it survives a reload of the login page, it is lost with the tab rather than
 * waiting in storage for the next person who signs in on a shared device, and the auth pages hand it on in their
 * links (registration, password recovery and back). Anything read from it is untrusted: see `safeNextPath`.
 */
export const NEXT_PARAM = 'next';

/** Longer than any path of the app with its query; a longer `next` is not one of ours. */
const MAX_NEXT_LENGTH = 2048;
/** A stand-in origin to resolve `next` against: whatever resolves elsewhere is not a path of this app. */
const PARSE_ORIGIN = 'https://app.invalid';
/** Paths that are no page to return to: the sign-in pages themselves and the API. */
const NOT_RETURNABLE = /^\/(auth|main-service)(\/|$)/i;

/**
 * `value` as a path of this app to return to after sign-in, normalized (dot segments resolved), or null when it
 * is anything else: not starting with a single "/" ("//host" and "/\host" are other sites to a browser), with
 * a scheme ("javascript:", "https://…"), with control characters (the URL parser drops tabs and newlines,
 * turning "/\t/host" into "//host"), a sign-in page (it would loop) or an API path; percent-encoded variants
 * are judged decoded too. The router hands paths over decoded, so a space is taken (and given back encoded).
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value.length > MAX_NEXT_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\p{Cc}]/u.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PARSE_ORIGIN);
  } catch (error) {
    console.warn('Ignoring a return path that is no URL', error);
    return null;
  }
  if (url.origin !== PARSE_ORIGIN) return null;
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(url.pathname);
  } catch (error) {
    console.warn('Ignoring a return path with broken percent-encoding', error);
    return null;
  }
  if (NOT_RETURNABLE.test(url.pathname) || NOT_RETURNABLE.test(decodedPath) || /^\/[/\\]/.test(decodedPath)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * `path` (an auth page) asking to return to `next` after sign-in; `path` alone when `next` is not a safe app
 * path or is where a sign-in lands anyway (the dashboard, the root).
 */
export function withNextPath(path: string, next: string | null | undefined): string {
  const safe = safeNextPath(next);
  if (safe === null || safe === paths.root || safe === paths.dashboard) return path;
  // "/" may stand unencoded in a query (RFC 3986), so the address bar shows a readable path.
  return `${path}?${NEXT_PARAM}=${encodeURIComponent(safe).replaceAll('%2F', '/')}`;
}
