// Which destinations the signed-in navigation offers, and which of them come first, by the member's roles in the
// current company (DESIGN.md "Roles and permissions"). Pure: the header's links on a tablet and the bottom bar on a
// phone both read `navItemsFor`; the labels and icons are the layout's.
import type { CompanyRole } from '../domain/auth';
import { paths } from '../domain/paths';
import { SUGGESTION_REVIEW_OVERRIDE_ROLES, canSeeAllSuggestions, hasAnyRole, hasPermission, type Roles } from '../domain/permissions';

export type NavKey =
  | 'dashboard'
  | 'review'
  | 'suggestions'
  | 'submit'
  | 'my-suggestions'
  | 'goals'
  | 'projects'
  | 'registry'
  | 'employees'
  | 'departments'
  | 'verification'
  | 'add-company'
  | 'admin'
  | 'profile';

/** The work of the company ('company') or the user's own account ('account'): the "More" sheet shows them apart. */
export type NavGroup = 'company' | 'account';

export interface NavItem {
  key: NavKey;
  href: string;
  group: NavGroup;
  /** Pages outside `href`'s own subtree that belong to it (`/registry-approve` to the registry). */
  also: readonly string[];
}

/**
 * What the member may do with others' proposals: decide on some (OWNER, CEO, a department head), only see them
 * (HR, direction manager), or neither. The same answer as the notifications feature's `useReviewAccess`.
 */
export type SuggestionAccess = 'decide' | 'see' | null;

export interface NavFlags {
  /** The current company; null for a user without one. */
  companyId: string | null;
  /**
   * Read from the device (whether the member heads a department); undefined until it has been read. Until then
   * the roles alone answer, so an owner's bar does not change when the answer comes.
   */
  suggestionAccess?: SuggestionAccess;
  /** The platform admin, who reviews verification payments. */
  isAdmin: boolean;
}

export interface NavItems {
  /** The role's own work, first: the phone's bottom bar and the tablet's header row. */
  primary: NavItem[];
  /** Everything else, behind "More". */
  more: NavItem[];
}

/** Destinations on the bottom bar besides "More": five slots fit a 360 px phone with their labels. */
export const PRIMARY_MAX = 4;

/**
 * The work of each role, most pressing first; a member holding several roles gets them in this table's order.
 * Review, submitting and one's own proposals follow (every member's), then the dashboard.
 */
const ROLE_WORK: readonly (readonly [CompanyRole, readonly NavKey[]])[] = [
  // The owner sets goals, approves the registry and watches the effect on the dashboard.
  ['OWNER', ['goals', 'registry', 'dashboard']],
  ['CEO', ['dashboard', 'goals']],
  // Finance calculates the projects' costs and effect; the director also sends the registry and enters EBITDA.
  ['FINANCIAL_DIRECTOR', ['projects', 'registry', 'dashboard']],
  ['FINANCIAL_SPECIALIST', ['projects']],
  // The direction manager approves calculated projects and sends the registry.
  ['DIRECTION_MANAGER', ['projects', 'registry']],
  ['TOP_MANAGER', ['goals']],
  ['HR', ['employees']],
];

/** The member's access to others' proposals: what the device read, or what the roles alone tell until then. */
export function suggestionAccessOf(roles: Roles, known: SuggestionAccess | undefined): SuggestionAccess {
  if (known !== undefined) return known;
  if (hasAnyRole(roles, SUGGESTION_REVIEW_OVERRIDE_ROLES)) return 'decide';
  return canSeeAllSuggestions(roles) ? 'see' : null;
}

function item(key: NavKey, href: string, group: NavGroup, also: readonly string[] = []): NavItem {
  return { key, href, group, also };
}

/** Every destination the member may open, in the order the "More" sheet lists them. */
function availableItems(roles: Roles | null, flags: NavFlags, access: SuggestionAccess): NavItem[] {
  const items: NavItem[] = [item('dashboard', paths.dashboard, 'company')];
  const c = flags.companyId;
  if (c !== null && roles !== null && hasPermission(roles, 'company.read')) {
    if (access === 'decide') items.push(item('review', paths.company.suggestions(c), 'company'));
    else if (access === 'see') items.push(item('suggestions', paths.company.suggestions(c), 'company'));
    if (hasPermission(roles, 'suggestion.submit')) {
      items.push(item('submit', paths.company.suggestionsCreate(c), 'company', [paths.company.suggestionsCreateResult(c)]));
    }
    items.push(
      item('my-suggestions', paths.company.mySuggestions(c), 'company'),
      // Every member sees the goals, the projects and the open registry; what each may do there is their own rule.
      item('goals', paths.company.goals(c), 'company'),
      item('projects', paths.company.projects(c), 'company'),
      item('registry', paths.company.registry(c), 'company', [
        paths.company.registryApprove(c),
        paths.company.registrySuccess(c),
      ]),
      item('employees', paths.company.employees(c), 'company'),
      item('departments', paths.company.departments(c), 'company'),
    );
    if (hasPermission(roles, 'company.invoice')) {
      items.push(item('verification', paths.company.verificationPayment(c), 'company', [paths.company.verificationPaymentCheck(c)]));
    }
  }
  items.push(item('add-company', paths.companiesCreate, 'account', [paths.companiesCreated]));
  if (flags.isAdmin) items.push(item('admin', paths.profileAdmin, 'account'));
  items.push(item('profile', paths.profile, 'account'));
  return items;
}

/** The keys of the member's own work, most pressing first (may name what is not available; those are skipped). */
function workOrder(roles: Roles | null, flags: NavFlags, access: SuggestionAccess): NavKey[] {
  const order: NavKey[] = flags.isAdmin ? ['admin'] : [];
  if (flags.companyId === null || roles === null) {
    // Without a company, adding one is the work.
    order.push('add-company', 'dashboard');
    return order;
  }
  for (const [role, keys] of ROLE_WORK) if (roles.includes(role)) order.push(...keys);
  if (access === 'decide') order.push('review');
  else if (access === 'see') order.push('suggestions');
  order.push('submit', 'my-suggestions', 'dashboard');
  return order;
}

/**
 * The navigation of a member with `roles` in the current company (null without a company): up to PRIMARY_MAX
 * destinations of their work first, the rest behind "More". The profile always stays behind "More", with the
 * language and sign-out, so "More" is never empty.
 */
export function navItemsFor(roles: Roles | null, flags: NavFlags): NavItems {
  const access = roles === null ? null : suggestionAccessOf(roles, flags.suggestionAccess);
  const available = availableItems(roles, flags, access);
  const byKey = new Map(available.map((entry) => [entry.key, entry]));
  const primary: NavItem[] = [];
  for (const key of workOrder(roles, flags, access)) {
    const entry = byKey.get(key);
    if (!entry || primary.includes(entry)) continue;
    primary.push(entry);
    if (primary.length === PRIMARY_MAX) break;
  }
  return { primary, more: available.filter((entry) => !primary.includes(entry)) };
}

function isUnder(location: string, href: string): boolean {
  return location === href || location.startsWith(`${href}/`);
}

/**
 * The item of the page at `location`: the one whose page (or section) holds it, the most specific when several
 * do (`/suggestions/create` is "submit", not "review"); null for a page of none (notifications, unsent).
 */
export function currentNavItem(location: string, items: readonly NavItem[]): NavItem | null {
  let best: NavItem | null = null;
  let bestLength = -1;
  for (const entry of items) {
    for (const href of [entry.href, ...entry.also]) {
      if (isUnder(location, href) && href.length > bestLength) {
        best = entry;
        bestLength = href.length;
      }
    }
  }
  return best;
}
