import { describe, expect, it } from 'vitest';
import { matchPattern } from '../domain/route-match';
import { catalogueAreasOf, notFoundRoute, resolveRoute, routes } from './routes';

// Every route of spec section 2, written out by hand so that the table cannot drop one unnoticed.
const SPEC_ROUTES: [name: string, path: string, layout: 'auth' | 'default'][] = [
  ['AuthLogin', '/auth/login', 'auth'],
  ['AuthRegister', '/auth/register', 'auth'],
  ['AuthRegisterHrSuccess', '/auth/register/hr/success', 'auth'],
  ['AuthRegisterConfirmEmail', '/auth/register/confirm-email', 'auth'],
  ['AuthRegisterVerified', '/auth/register/verified', 'auth'],
  ['AuthRecoveryPassword', '/auth/recovery-password', 'auth'],
  ['AuthRecoveryPasswordConfirm', '/auth/recovery-password-confirm', 'auth'],
  ['AuthRecoveryPasswordSuccess', '/auth/recovery-password-success', 'auth'],
  ['AuthInvitation', '/auth/invitation', 'auth'],
  ['Dashboard', '/dashboard', 'default'],
  ['Profile', '/profile', 'default'],
  ['ProfileAdmin', '/profile/admin', 'default'],
  ['CompaniesCreate', '/companies/create', 'default'],
  ['CompaniesCreated', '/companies/created', 'default'],
  ['Unsent', '/unsent', 'default'],
  // Issue 11: the bell's notifications, and the proposals of others (spec section 2 names them by label only).
  ['Notifications', '/notifications', 'default'],
  ['Suggestions', '/companies/c1/suggestions', 'default'],
  ['CompanyDepartments', '/companies/c1/departaments', 'default'],
  ['CompanyVerificationPayment', '/companies/c1/verification-payment', 'default'],
  ['CompanyVerificationPaymentCheck', '/companies/c1/verification-payment-check', 'default'],
  ['Employees', '/companies/c1/employees', 'default'],
  ['EmployeeEdit', '/companies/c1/employees/edit', 'default'],
  ['EmployeeCreateSuccess', '/companies/c1/employees/create-success', 'default'],
  ['EmployeesImport', '/companies/c1/employees/import', 'default'],
  ['EmployeesImportReport', '/companies/c1/employees/import-report', 'default'],
  ['Employee', '/companies/c1/employees/e1', 'default'],
  ['Goals', '/companies/c1/goals', 'default'],
  ['Goal', '/companies/c1/goals/g1', 'default'],
  ['GoalActionResult', '/companies/c1/goals/g1/action-result', 'default'],
  ['GoalCreate', '/companies/c1/goals/create', 'default'],
  ['GoalCreateResult', '/companies/c1/goals/create-result', 'default'],
  ['Projects', '/companies/c1/projects', 'default'],
  ['ProjectCreate', '/companies/c1/projects/create', 'default'],
  ['ProjectCreateSuccess', '/companies/c1/projects/create-success', 'default'],
  ['Project', '/companies/c1/projects/p1', 'default'],
  ['ProjectComplete', '/companies/c1/projects/p1/complete', 'default'],
  ['ProjectCompleteSuccess', '/companies/c1/projects/p1/complete-success', 'default'],
  ['ProjectIndicatorSuccess', '/companies/c1/projects/p1/indicator-success', 'default'],
  ['ProjectApproveResult', '/companies/c1/projects/p1/aprove-result', 'default'],
  ['MySuggestions', '/companies/c1/my-suggestions', 'default'],
  ['SuggestionCreate', '/companies/c1/suggestions/create', 'default'],
  ['SuggestionCreateResult', '/companies/c1/suggestions/create-result', 'default'],
  ['Suggestion', '/companies/c1/suggestions/s1', 'default'],
  ['SuggestionDistribute', '/companies/c1/suggestions/s1/distribute', 'default'],
  ['SuggestionSuccess', '/companies/c1/suggestions/s1/success', 'default'],
  ['Registry', '/companies/c1/registry', 'default'],
  ['RegistryApprove', '/companies/c1/registry-approve', 'default'],
  ['RegistryApproveSuccess', '/companies/c1/registry-approve/success', 'default'],
  ['RegistrySuccess', '/companies/c1/registry-success', 'default'],
];

describe('routes table', () => {
  it('gives the Unsent page the outbox-kind registry, so rows are named by their kind (not all "A change")', async () => {
    const unsent = routes.find((r) => r.name === 'Unsent');
    const page = await unsent?.load();
    expect(page?.default.name).toBe('UnsentPageWithKinds');
  });

  it('holds every route of spec section 2, and no other', () => {
    expect(routes.map((r) => r.name).sort()).toEqual(SPEC_ROUTES.map(([name]) => name).sort());
  });

  it.each(SPEC_ROUTES)('resolves %s from %s in the %s layout', (name, path, layout) => {
    const { route } = resolveRoute(path);
    expect(route.name).toBe(name);
    expect(route.meta.layout).toBe(layout);
  });

  it('gives each route a lazily loaded page', () => {
    for (const route of routes) {
      expect(typeof route.load, route.name).toBe('function');
      expect(route.Page, route.name).toBeDefined();
    }
  });

  it('hides the logo only on recovery-password-success', () => {
    expect(routes.filter((r) => r.meta.noLogo).map((r) => r.name)).toEqual(['AuthRecoveryPasswordSuccess']);
  });

  it('lets static segments win over parameters', () => {
    expect(resolveRoute('/companies/1/employees/edit').route.name).toBe('EmployeeEdit');
    expect(resolveRoute('/companies/1/employees/import').route.name).toBe('EmployeesImport');
    expect(resolveRoute('/companies/1/employees/42').route.name).toBe('Employee');
    expect(resolveRoute('/companies/1/goals/create').route.name).toBe('GoalCreate');
    expect(resolveRoute('/companies/1/projects/create').route.name).toBe('ProjectCreate');
    expect(resolveRoute('/companies/1/suggestions/create').route.name).toBe('SuggestionCreate');
    expect(resolveRoute('/companies/create').route.name).toBe('CompaniesCreate');
  });

  it('takes the params from the path', () => {
    expect(resolveRoute('/companies/77/projects/5/complete').params).toEqual({ companyId: '77', projectId: '5' });
    expect(resolveRoute('/companies/a%20b/goals/x').params).toEqual({ companyId: 'a b', goalId: 'x' });
  });

  it('ignores a trailing slash and the query string', () => {
    expect(resolveRoute('/dashboard/').route.name).toBe('Dashboard');
    expect(resolveRoute('/auth/register/verified?token=abc').route.name).toBe('AuthRegisterVerified');
  });

  it('shows the not-found page for any unmatched path', () => {
    expect(resolveRoute('/nowhere').route).toBe(notFoundRoute);
    expect(resolveRoute('/companies/1/goals/2/3/4').route).toBe(notFoundRoute);
    expect(resolveRoute('/companies/%E0%A4%A/goals').route).toBe(notFoundRoute);
    expect(notFoundRoute.name).toBe('NotFound');
  });

  it('matches patterns segment by segment (self-check)', () => {
    expect(matchPattern('/a/:id', '/a/1')).toEqual({ id: '1' });
    expect(matchPattern('/a/:id', '/a')).toBeNull();
    expect(matchPattern('/a/:id', '/b/1')).toBeNull();
  });
});

describe('message catalogue areas of the routes', () => {
  it('load only the sign-in areas on the auth layout, and on the signed-in screens the frame and their own feature', () => {
    for (const [name, path, layout] of SPEC_ROUTES) {
      const concrete = path.replace(/:[A-Za-z]+/g, 'x1');
      const areas = catalogueAreasOf(concrete);
      if (layout === 'auth') {
        expect(areas, name).toEqual(name === 'NotFound' ? ['auth'] : ['auth', 'signin']);
      } else {
        expect(areas.slice(0, 2), name).toEqual(['auth', 'app']);
        // At most the page's feature and one it shows beside its own (the profile lists companies).
        expect(areas.length, name).toBeLessThanOrEqual(4);
      }
    }
    expect(catalogueAreasOf('/companies/x1/projects/x2')).toEqual(['auth', 'app', 'projects', 'projectview']);
    expect(catalogueAreasOf('/unsent')).toEqual(['auth', 'app']);
    // The 404 page is in the auth layout too, signed in or out.
    expect(catalogueAreasOf('/no/such/page')).toEqual(['auth']);
  });
});
