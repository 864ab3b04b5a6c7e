// Companies and people (issue 5): the input structs of the company, department, employee, invitation and
// import calls, the answers the client checks on read, the verification state machine, and the rule of
// when a company may start its improvement flow. Shared by the main-service (which validates with them)
// and the client (forms and stored rows). Refinement names are error codes (see validation.ts).

import {
  type Infer,
  array,
  boolean,
  enums,
  integer,
  nullable,
  number,
  object,
  optional,
  partial,
  refine,
  size,
  string,
  trimmed,
  type,
} from 'superstruct';
import { COMPANY_ROLES, Password } from './auth';

// The start rule and an employee's state, light enough for the screens that need only them (the dashboard's setup).
import { EMPLOYEE_STATES, MANAGER_ROLES, START_REQUIREMENTS, employeeStateOf, missingForStart, type EmployeeState, type StartRequirement } from './company-roles';
export { EMPLOYEE_STATES, MANAGER_ROLES, START_REQUIREMENTS, employeeStateOf, missingForStart, type EmployeeState, type StartRequirement };
import { isValidEntrepreneurInn, isValidKpp, isValidLegalEntityInn } from './inn';
import { Uuid } from './suggestion';
import { TimeZone } from './time-format';
import { multilineText, type FieldErrors } from './validation';

export const LEGAL_FORMS = ['LEGAL_ENTITY', 'ENTREPRENEUR'] as const;
export type LegalForm = (typeof LEGAL_FORMS)[number];

export const VERIFICATION_STATUSES = ['UNVERIFIED', 'PAYMENT_REPORTED', 'VERIFIED', 'REJECTED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Days the platform admin has to review a reported payment (spec section 9). */
export const VERIFICATION_REVIEW_DAYS = 5;
/** The verification payment, in kopecks: 1,000.00 RUB. */
export const VERIFICATION_AMOUNT_MINOR = 100_000;
export const VERIFICATION_CURRENCY = 'RUB';

export const COMPANY_NAME_MAX = 200;
export const WEBSITE_MAX = 200;
export const EMPLOYEE_COUNT_MAX = 10_000_000;
export const NAME_MAX = 100;
export const POSITION_MAX = 200;
export const SERVICE_NUMBER_MAX = 50;
export const DEPARTMENT_NAME_MAX = 200;
export const EMAIL_MAX = 254;

const requiredText = (max: number) => refine(size(refine(trimmed(string()), 'required', (v) => v.length > 0), 0, max), 'size', () => true);
const optionalText = (max: number) => optional(nullable(size(trimmed(string()), 0, max)));

const EMAIL_RE = /^[^\s@]{1,64}@[^\s@]{1,253}\.[^\s@]{1,63}$/u;
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX && EMAIL_RE.test(value);
}
export const Email = refine(trimmed(string()), 'email', (v) => isEmail(v));

const WEBSITE_RE = /^(https?:\/\/)?([\p{L}\p{N}-]+\.)+[\p{L}\p{N}-]{2,}(\/\S*)?$/iu;
export function isWebsite(value: string): boolean {
  return value.length <= WEBSITE_MAX && WEBSITE_RE.test(value);
}

// ---------------------------------------------------------------------------------------------------
// Companies

/** Body of `POST /companies`. Cross-field rules (INN length by legal form, KPP) in `companyInputErrors`. */
export const CompanyInput = object({
  legalForm: enums(LEGAL_FORMS),
  name: requiredText(COMPANY_NAME_MAX),
  inn: refine(trimmed(string()), 'inn', (v) => /^\d{10}(\d{2})?$/.test(v)),
  kpp: optional(nullable(trimmed(string()))),
  website: optional(nullable(refine(trimmed(string()), 'website', (v) => v === '' || isWebsite(v)))),
  employeeCount: optional(nullable(refine(integer(), 'invalid', (v) => v >= 1 && v <= EMPLOYEE_COUNT_MAX))),
  logoImageId: optional(nullable(Uuid)),
  /**
   * The company's IANA time zone (issue 14), in which its documents and screens print dates and times; one of
   * `Intl.supportedValuesOf('timeZone')` (an alias is stored as the zone it names). Left out on create:
   * DEFAULT_TIME_ZONE (Europe/Moscow).
   */
  timeZone: optional(TimeZone),
});
export type CompanyInput = Infer<typeof CompanyInput>;

/** Body of `PATCH /companies/{companyId}`: any field of CompanyInput; nothing else (no status, no roles). */
export const CompanyPatch = partial(CompanyInput);
export type CompanyPatch = Infer<typeof CompanyPatch>;

/**
 * The rules that span fields, on the company as it will be stored: a legal entity has a 10-digit INN with
 * its check digit and a 9-character KPP; an individual entrepreneur a 12-digit INN with both check digits
 * and no KPP. Codes: `inn` (wrong checksum or length), `kppRequired`, `kpp`, `kppNotAllowed`.
 */
export function companyInputErrors(company: { legalForm: LegalForm; inn: string; kpp?: string | null | undefined }): FieldErrors {
  const errors: FieldErrors = {};
  const kpp = company.kpp?.trim() ?? '';
  if (company.legalForm === 'LEGAL_ENTITY') {
    if (!isValidLegalEntityInn(company.inn)) errors.inn = 'inn';
    if (kpp === '') errors.kpp = 'kppRequired';
    else if (!isValidKpp(kpp)) errors.kpp = 'kpp';
  } else {
    if (!isValidEntrepreneurInn(company.inn)) errors.inn = 'inn';
    if (kpp !== '') errors.kpp = 'kppNotAllowed';
  }
  return errors;
}

/** A company as `GET /companies` and `GET /companies/{id}` answer it: the mirrored row plus the caller's roles. */
export const Company = type({
  id: string(),
  name: string(),
  inn: nullable(string()),
  kpp: nullable(string()),
  legalForm: enums(LEGAL_FORMS),
  website: nullable(string()),
  employeeCount: nullable(integer()),
  logoImageId: nullable(string()),
  /** The IANA zone its dates and times are printed in (`formatInTimeZone` of time-format.ts). */
  timeZone: string(),
  verificationStatus: enums(VERIFICATION_STATUSES),
  invoiceNumber: nullable(string()),
  paymentReportedAt: nullable(string()),
  verificationDecidedAt: nullable(string()),
  verificationComment: nullable(string()),
  createdAt: string(),
  updatedAt: string(),
  /** The caller's roles in the company. */
  roles: array(string()),
  /** What the company lacks before the improvement flow may start (`missingForStart`). */
  missingForStart: array(enums(START_REQUIREMENTS)),
});
export type Company = Infer<typeof Company>;

/** Body of `POST /admin/companies/{companyId}/verification`. A rejection needs a comment. */
export const VerificationDecision = object({
  decision: enums(['VERIFIED', 'REJECTED'] as const),
  comment: optional(nullable(size(trimmed(multilineText()), 0, 2000))),
});
export type VerificationDecision = Infer<typeof VerificationDecision>;

/** A company waiting for (or past) review, as `GET /admin/companies` lists them for the platform admin. */
export const AdminCompany = type({
  id: string(),
  name: string(),
  inn: nullable(string()),
  kpp: nullable(string()),
  legalForm: enums(LEGAL_FORMS),
  verificationStatus: enums(VERIFICATION_STATUSES),
  invoiceNumber: nullable(string()),
  amountMinor: nullable(number()),
  paymentReportedAt: nullable(string()),
  reviewDueAt: nullable(string()),
  verificationDecidedAt: nullable(string()),
  verificationComment: nullable(string()),
  ownerName: nullable(string()),
  ownerEmail: nullable(string()),
});
export type AdminCompany = Infer<typeof AdminCompany>;

// ---------------------------------------------------------------------------------------------------
// Departments

/** Body of `POST /companies/{companyId}/departments` and of its PATCH (every field optional there). */
export const DepartmentInput = object({
  name: requiredText(DEPARTMENT_NAME_MAX),
  /** A user who is an active member of the company, or null for no head. */
  headUserId: optional(nullable(Uuid)),
});
export type DepartmentInput = Infer<typeof DepartmentInput>;

/** Body of the department PATCH: any field of DepartmentInput. */
export const DepartmentPatch = partial(DepartmentInput);
export type DepartmentPatch = Infer<typeof DepartmentPatch>;

// ---------------------------------------------------------------------------------------------------
// Employees

const roleList = refine(size(array(enums(COMPANY_ROLES)), 1, COMPANY_ROLES.length), 'roles', (v) => new Set(v).size === v.length);

/** Body of `POST /companies/{companyId}/employees`. */
export const EmployeeInput = object({
  lastName: requiredText(NAME_MAX),
  firstName: requiredText(NAME_MAX),
  middleName: optionalText(NAME_MAX),
  position: optionalText(POSITION_MAX),
  email: optional(nullable(refine(trimmed(string()), 'email', (v) => v === '' || isEmail(v)))),
  serviceNumber: optionalText(SERVICE_NUMBER_MAX),
  departmentId: optional(nullable(Uuid)),
  roles: optional(roleList),
  active: optional(boolean()),
});
export type EmployeeInput = Infer<typeof EmployeeInput>;

/** Body of `PATCH /companies/{companyId}/employees/{employeeId}`: any field of EmployeeInput. */
export const EmployeePatch = partial(EmployeeInput);
export type EmployeePatch = Infer<typeof EmployeePatch>;

/** One employee as the employee calls answer it; the mirrored row is `EmployeeRow` of suggestion.ts. */
export const EmployeePage = type({ items: array(type({ id: string() })), nextCursor: nullable(string()), total: number() });

// ---------------------------------------------------------------------------------------------------
// Invitations

export const INVITATION_TTL_DAYS = 14;
export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'REVOKED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/**
 * Body of `POST /companies/{companyId}/invitations`: invite an existing employee (`employeeId`) or a new
 * person (names given; an employee row is created for them). Roles are checked against what the caller may
 * grant (`canGrantRoles`).
 */
export const InvitationInput = object({
  email: Email,
  roles: roleList,
  employeeId: optional(nullable(Uuid)),
  lastName: optionalText(NAME_MAX),
  firstName: optionalText(NAME_MAX),
  middleName: optionalText(NAME_MAX),
  position: optionalText(POSITION_MAX),
  departmentId: optional(nullable(Uuid)),
});
export type InvitationInput = Infer<typeof InvitationInput>;

export const Invitation = type({
  id: string(),
  companyId: string(),
  employeeId: string(),
  email: string(),
  roles: array(string()),
  status: enums(INVITATION_STATUSES),
  fullName: string(),
  invitedByName: nullable(string()),
  expiresAt: string(),
  sentCount: integer(),
  lastSentAt: string(),
  acceptedAt: nullable(string()),
  createdAt: string(),
});
export type Invitation = Infer<typeof Invitation>;

/** What `GET /invitations/{token}` tells the invited person before they accept (no auth needed). */
export const InvitationPreview = type({
  companyName: string(),
  email: string(),
  roles: array(string()),
  fullName: string(),
  /** True: an account with this e-mail exists, so the person signs in and accepts (no password here). */
  hasAccount: boolean(),
  expiresAt: string(),
});
export type InvitationPreview = Infer<typeof InvitationPreview>;

/** Body of `POST /invitations/{token}/accept`: a new person sets a password; a signed-in one sends `{}`. */
export const AcceptInvitationInput = object({
  password: optional(Password),
});
export type AcceptInvitationInput = Infer<typeof AcceptInvitationInput>;

// ---------------------------------------------------------------------------------------------------
// Import

/** Fields a spreadsheet column can map to. */
export const IMPORT_FIELDS = ['lastName', 'firstName', 'middleName', 'position', 'email', 'serviceNumber', 'department'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export const IMPORT_REQUIRED_FIELDS: readonly ImportField[] = ['lastName', 'firstName'];

/** Largest file the import takes, and the most rows. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;

export const ImportRowError = type({
  /** The row's number in the file as a spreadsheet shows it (header is row 1). */
  row: integer(),
  /** Error code (`error.import.<code>`), and the message in the request's language. */
  code: string(),
  message: string(),
  field: nullable(string()),
  values: array(string()),
});
export type ImportRowError = Infer<typeof ImportRowError>;

export const ImportReport = type({
  id: string(),
  companyId: string(),
  fileName: string(),
  createdAt: string(),
  /** 'imported': every data row went in; 'withErrors': some were rejected (spec section 4). */
  result: enums(['imported', 'withErrors'] as const),
  totalRows: integer(),
  created: integer(),
  updated: integer(),
  unchanged: integer(),
  rejected: array(ImportRowError),
  imported: array(type({ row: integer(), employeeId: string(), fullName: string(), action: enums(['created', 'updated', 'unchanged'] as const) })),
});
export type ImportReport = Infer<typeof ImportReport>;

/** The answer of `POST .../employees/import?dryRun=1`: how the columns were read, and the first rows. */
export const ImportPreview = type({
  fileName: string(),
  totalRows: integer(),
  /** One entry per column of the file: its header and the field it maps to (null: ignored). */
  columns: array(type({ index: integer(), header: string(), field: nullable(enums(IMPORT_FIELDS)) })),
  /** The first rows as read (at most 10), cells as text. */
  sample: array(array(string())),
  missingFields: array(enums(IMPORT_FIELDS)),
});
export type ImportPreview = Infer<typeof ImportPreview>;
