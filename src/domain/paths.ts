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
