// The routes table: every screen of spec section 2, its name, its layout and its lazily loaded page.
// Patterns come from `paths` (src/domain/paths.ts), so links and routes cannot drift apart.
import type { ComponentType } from 'react';
import { paths } from '../domain/paths';
import { areasOfRoute, type CatalogueArea } from '../lib/catalogue-areas';
import { lazyPage, type PageLoader } from './lazy-page';
import { findMatch, type RouteParams } from '../domain/route-match';

export type LayoutName = 'auth' | 'default';

export interface RouteMeta {
  /** Also chooses the message catalogue areas the route loads (catalogueAreasOf). */
  layout: LayoutName;
  /** The auth layout hides its logo (recovery-password-success). */
  noLogo?: boolean;
}

export interface AppRoute {
  name: string;
  path: string;
  meta: RouteMeta;
  /** Loads the page's module (once); `Page` then renders without suspending. */
  load: PageLoader;
  Page: ComponentType;
}

const c = ':companyId';
const auth: RouteMeta = { layout: 'auth' };
const app: RouteMeta = { layout: 'default' };

function route(name: string, path: string, meta: RouteMeta, load: PageLoader): AppRoute {
  const page = lazyPage(load);
  return { name, path, meta, load: page.load, Page: page.Component };
}

export const routes: readonly AppRoute[] = [
  // Authentication layout
  route('AuthLogin', paths.auth.login, auth, () => import('../features/auth/pages/login-page')),
  route('AuthRegister', paths.auth.register, auth, () => import('../features/auth/pages/register-page')),
  route('AuthRegisterHrSuccess', paths.auth.registerHrSuccess, auth, () => import('../features/auth/pages/register-hr-success-page')),
  route('AuthRegisterConfirmEmail', paths.auth.registerConfirmEmail, auth, () => import('../features/auth/pages/register-confirm-email-page')),
  route('AuthRegisterVerified', paths.auth.registerVerified, auth, () => import('../features/auth/pages/register-verified-page')),
  route('AuthRecoveryPassword', paths.auth.recoveryPassword, auth, () => import('../features/auth/pages/recovery-password-page')),
  route('AuthRecoveryPasswordConfirm', paths.auth.recoveryPasswordConfirm, auth, () => import('../features/auth/pages/recovery-password-confirm-page')),
  route('AuthRecoveryPasswordSuccess', paths.auth.recoveryPasswordSuccess, { layout: 'auth', noLogo: true }, () => import('../features/auth/pages/recovery-password-success-page')),
  route('AuthInvitation', paths.auth.invitation, auth, () => import('../features/auth/pages/invitation-accept-page')),

  // Default layout
  route('Dashboard', paths.dashboard, app, () => import('../features/dashboard/pages/dashboard-page')),
  route('Profile', paths.profile, app, () => import('../features/profile/pages/profile-page')),
  route('ProfileAdmin', paths.profileAdmin, app, () => import('../features/profile/pages/profile-admin-page')),
  route('CompaniesCreate', paths.companiesCreate, app, () => import('../features/companies/pages/company-create-page')),
  route('CompaniesCreated', paths.companiesCreated, app, () => import('../features/companies/pages/company-created-page')),
  // The page with the app's outbox-kind registry (labels, edit and open links): without it every row would read
  // "A change". Both are loaded with the route, so the registry stays out of the entry chunk.
  route('Unsent', paths.unsent, app, () =>
    Promise.all([import('../features/outbox/pages/unsent-page'), import('./outbox-kinds')]).then(([page, kinds]) => ({
      default: page.withOutboxKinds(kinds.describeOutboxRow),
    })),
  ),
  route('Notifications', paths.notifications, app, () => import('../features/notifications/pages/notifications-page')),

  route('CompanyDepartments', paths.company.departments(c), app, () => import('../features/departments/pages/departments-page')),
  route('CompanyVerificationPayment', paths.company.verificationPayment(c), app, () => import('../features/companies/pages/verification-payment-page')),
  route('CompanyVerificationPaymentCheck', paths.company.verificationPaymentCheck(c), app, () => import('../features/companies/pages/verification-payment-check-page')),

  route('Employees', paths.company.employees(c), app, () => import('../features/employees/pages/employees-page')),
  route('EmployeeEdit', paths.company.employeesEdit(c), app, () => import('../features/employees/pages/employee-edit-page')),
  route('EmployeeCreateSuccess', paths.company.employeesCreateSuccess(c), app, () => import('../features/employees/pages/employee-create-success-page')),
  route('EmployeesImport', paths.company.employeesImport(c), app, () => import('../features/employees/pages/employees-import-page')),
  route('EmployeesImportReport', paths.company.employeesImportReport(c), app, () => import('../features/employees/pages/employees-import-report-page')),
  route('Employee', paths.company.employee(c, ':employeeId'), app, () => import('../features/employees/pages/employee-page')),

  route('Goals', paths.company.goals(c), app, () => import('../features/goals/pages/goals-page')),
  route('Goal', paths.company.goal(c, ':goalId'), app, () => import('../features/goals/pages/goal-page')),
  route('GoalActionResult', paths.company.goalActionResult(c, ':goalId'), app, () => import('../features/goals/pages/goal-action-result-page')),
  route('GoalCreate', paths.company.goalsCreate(c), app, () => import('../features/goals/pages/goal-create-page')),
  route('GoalCreateResult', paths.company.goalsCreateResult(c), app, () => import('../features/goals/pages/goal-create-result-page')),

  route('Projects', paths.company.projects(c), app, () => import('../features/projects/pages/projects-page')),
  route('ProjectCreate', paths.company.projectsCreate(c), app, () => import('../features/projects/pages/project-create-page')),
  route('ProjectCreateSuccess', paths.company.projectsCreateSuccess(c), app, () => import('../features/projects/pages/project-create-success-page')),
  route('Project', paths.company.project(c, ':projectId'), app, () => import('../features/projects/pages/project-page')),
  route('ProjectComplete', paths.company.projectComplete(c, ':projectId'), app, () => import('../features/projects/pages/project-complete-page')),
  route('ProjectCompleteSuccess', paths.company.projectCompleteSuccess(c, ':projectId'), app, () => import('../features/projects/pages/project-complete-success-page')),
  route('ProjectIndicatorSuccess', paths.company.projectIndicatorSuccess(c, ':projectId'), app, () => import('../features/projects/pages/project-indicator-success-page')),
  route('ProjectApproveResult', paths.company.projectApproveResult(c, ':projectId'), app, () => import('../features/projects/pages/project-approve-result-page')),

  route('MySuggestions', paths.company.mySuggestions(c), app, () => import('../features/suggestions/pages/my-suggestions-page')),
  route('Suggestions', paths.company.suggestions(c), app, () => import('../features/suggestions/pages/suggestions-page')),
  route('SuggestionCreate', paths.company.suggestionsCreate(c), app, () => import('../features/suggestions/pages/suggestion-create-page')),
  route('SuggestionCreateResult', paths.company.suggestionsCreateResult(c), app, () => import('../features/suggestions/pages/suggestion-create-result-page')),
  route('Suggestion', paths.company.suggestion(c, ':suggestionId'), app, () => import('../features/suggestions/pages/suggestion-page')),
  route('SuggestionDistribute', paths.company.suggestionDistribute(c, ':suggestionId'), app, () => import('../features/suggestions/pages/suggestion-distribute-page')),
  route('SuggestionSuccess', paths.company.suggestionSuccess(c, ':suggestionId'), app, () => import('../features/suggestions/pages/suggestion-success-page')),

  route('Registry', paths.company.registry(c), app, () => import('../features/registry/pages/registry-page')),
  route('RegistryApprove', paths.company.registryApprove(c), app, () => import('../features/registry/pages/registry-approve-page')),
  route('RegistryApproveSuccess', paths.company.registryApproveSuccess(c), app, () => import('../features/registry/pages/registry-approve-success-page')),
  route('RegistrySuccess', paths.company.registrySuccess(c), app, () => import('../features/registry/pages/registry-success-page')),
];

/** Any unmatched path: '404 Page Not Found', in the auth layout so it reads the same signed in or out. */
export const notFoundRoute: AppRoute = route('NotFound', '*', auth, () => import('./not-found-page'));

/** Where '/' goes (spec section 2). */
export const ROOT_REDIRECT = paths.dashboard;

export interface ResolvedRoute {
  route: AppRoute;
  params: RouteParams;
}

/** The route for `path`: the most specific match, or the not-found route. */
export function resolveRoute(path: string): ResolvedRoute {
  return findMatch(routes, path) ?? { route: notFoundRoute, params: {} };
}

/**
 * The message catalogue areas a path shows (src/lib/catalogue-areas.ts): the auth layout (sign-in pages,
 * 404) only 'auth', so the sign-in route downloads no message of the signed-in screens; the default layout
 * 'auth' (dialogs, errors, frame), 'app' (the signed-in frame) and the areas of the route's feature.
 */
export function catalogueAreasOf(path: string): readonly CatalogueArea[] {
  const { route } = resolveRoute(path);
  return areasOfRoute(route.name, route.meta.layout);
}
