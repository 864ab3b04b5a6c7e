// Companies (docs/api.md, "Companies"): create, read and edit a company, the verification payment ("I paid")
// and the platform admin's review. What it guarantees:
// - every call runs after the route's one access check (requireAccess / requireAdmin) and inside the
//   route's transaction, so a refused call changes nothing;
// - the creator becomes an OWNER member with an employee row holding the same roles, in the same transaction;
// - the legal details (legal form, name, INN, KPP) cannot change while a payment is reported or the company
//   is verified, and the verification state only moves UNVERIFIED | REJECTED -> PAYMENT_REPORTED ->
//   VERIFIED | REJECTED;
// - a logo is the caller's own upload that belongs to nothing yet; it then belongs to the company.

import {
  companyInputErrors,
  missingForStart,
  VERIFICATION_AMOUNT_MINOR,
  VERIFICATION_REVIEW_DAYS,
  type AdminCompany,
  type Company,
  type CompanyInput,
  type CompanyPatch,
  type LegalForm,
  type VerificationDecision,
  type VerificationStatus,
} from '../../../src/domain/company';
import { isUuid } from '../../../src/domain/suggestion';
import type { Locale } from '../../../src/domain/auth';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import type { UserRow } from '../../auth/users';
import { activeMemberRoles, type Membership } from '../../auth/access';

/** A `companies` row as the database answers it. */
export interface CompanyDbRow {
  id: string;
  name: string;
  inn: string | null;
  kpp: string | null;
  legal_form: LegalForm;
  website: string | null;
  employee_count: number | null;
  logo_image_id: string | null;
  verification_status: VerificationStatus;
  invoice_number: string | null;
  invoice_amount_minor: string | number | null;
  payment_reported_at: Date | string | null;
  verification_decided_at: Date | string | null;
  verification_comment: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** States in which the legal details are locked (the admin is checking them, or has confirmed them). */
export const LOCKED_STATES: readonly VerificationStatus[] = ['PAYMENT_REPORTED', 'VERIFIED'];
/** States from which "I paid" may be pressed. */
export const REPORTABLE_STATES: readonly VerificationStatus[] = ['UNVERIFIED', 'REJECTED'];

const DAY_MS = 24 * 60 * 60 * 1000;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

/** The next invoice number: `INV-` and the next value of the `invoice_numbers` sequence. */
export const NEXT_INVOICE_NUMBER_SQL = `'INV-' || nextval('invoice_numbers')`;

export function toCompany(row: CompanyDbRow, roles: readonly string[], memberRoles: readonly (readonly string[])[]): Company {
  return {
    id: row.id,
    name: row.name,
    inn: row.inn,
    kpp: row.kpp,
    legalForm: row.legal_form,
    website: row.website,
    employeeCount: row.employee_count,
    logoImageId: row.logo_image_id,
    verificationStatus: row.verification_status,
    invoiceNumber: row.invoice_number,
    paymentReportedAt: isoOrNull(row.payment_reported_at),
    verificationDecidedAt: isoOrNull(row.verification_decided_at),
    verificationComment: row.verification_comment,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    roles: [...roles],
    missingForStart: missingForStart(memberRoles),
  };
}

/** The caller's companies (active memberships), by name. */
export async function listCompanies(db: Queryable, userId: string): Promise<Company[]> {
  const rows = await db.query<CompanyDbRow & { my_roles: string[]; member_roles: string[][] | null }>(
    `SELECT c.*, m.roles AS my_roles,
            (SELECT json_agg(x.roles) FROM company_members x WHERE x.company_id = c.id AND x.active) AS member_roles
       FROM company_members m JOIN companies c ON c.id = m.company_id
      WHERE m.user_id = $1 AND m.active
      ORDER BY c.name, c.id`,
    [userId],
  );
  return rows.map((row) => toCompany(row, row.my_roles, row.member_roles ?? []));
}

/** The company of `member`, as its member sees it. */
export async function readCompany(db: Queryable, member: Membership): Promise<Company> {
  const row = await db.one<CompanyDbRow>('SELECT * FROM companies WHERE id = $1', [member.companyId]);
  if (!row) throw new AppError('notFound', 404);
  return toCompany(row, member.roles, await activeMemberRoles(db, member.companyId));
}

const emptyToNull = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/** KPP letters are capitals (positions 5-6); what the user typed in lower case is read as meant. */
const normalizeKpp = (value: string | null | undefined): string | null => emptyToNull(value)?.toUpperCase() ?? null;

function refuseFieldErrors(errors: Record<string, string>): void {
  if (Object.keys(errors).length > 0) throw new AppError('validation', 400, { fieldErrors: errors });
}

const innTaken = () => new AppError('companyInnTaken', 409, { fieldErrors: { inn: 'innTaken' } });

async function assertInnFree(tx: Queryable, inn: string, exceptCompanyId: string | null): Promise<void> {
  const taken = await tx.one('SELECT 1 FROM companies WHERE inn = $1 AND ($2::uuid IS NULL OR id <> $2::uuid)', [inn, exceptCompanyId]);
  if (taken) throw innTaken();
}

/** Locks the caller's own upload that belongs to nothing yet (no company, no proposal), or answers 400 `logoImageId`. */
async function claimLogo(tx: Queryable, userId: string, imageId: string): Promise<string> {
  const id = imageId.toLowerCase();
  const file = await tx.one<{ id: string }>(
    `SELECT f.id FROM files f
      WHERE f.id = $1 AND f.owner_id = $2 AND f.company_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM suggestion_images si WHERE si.file_id = f.id)
      FOR UPDATE`,
    [id, userId],
  );
  if (!file) throw new AppError('validation', 400, { fieldErrors: { logoImageId: 'logoImage' } });
  return file.id;
}

/** What the employee row says the creator's position is: the free text of OTHER, else the position's title. */
function positionOf(user: UserRow): string | null {
  if (!user.position) return null;
  if (user.position === 'OTHER') return user.other_position;
  return translate(user.locale, `enum.position.${user.position}`);
}

function insertError(error: unknown): never {
  if (isUniqueViolation(error)) throw innTaken();
  throw error;
}

/** `POST /companies`: the company, its invoice number, and the creator as OWNER member and employee. */
export async function createCompany(tx: Queryable, user: UserRow, input: CompanyInput): Promise<Company> {
  const kpp = normalizeKpp(input.kpp);
  refuseFieldErrors(companyInputErrors({ legalForm: input.legalForm, inn: input.inn, kpp }));
  await assertInnFree(tx, input.inn, null);
  const logoId = input.logoImageId ? await claimLogo(tx, user.id, input.logoImageId) : null;

  const row = await tx
    .one<CompanyDbRow>(
      `INSERT INTO companies (name, inn, kpp, legal_form, website, employee_count, logo_image_id, created_by, invoice_number, invoice_amount_minor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ${NEXT_INVOICE_NUMBER_SQL}, $9)
       RETURNING *`,
      [input.name, input.inn, kpp, input.legalForm, emptyToNull(input.website), input.employeeCount ?? null, logoId, user.id, VERIFICATION_AMOUNT_MINOR],
    )
    .catch(insertError);
  if (!row) throw new Error('companies insert returned no row');
  if (logoId) await tx.query('UPDATE files SET company_id = $1 WHERE id = $2', [row.id, logoId]);

  const roles = ['OWNER'];
  await tx.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [row.id, user.id, roles]);
  await tx.query(
    `INSERT INTO employees (company_id, user_id, last_name, first_name, middle_name, position, email, roles)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [row.id, user.id, user.last_name, user.first_name, user.middle_name, positionOf(user), user.email, roles],
  );
  return toCompany(row, roles, [roles]);
}

/**
 * `PATCH /companies/{companyId}`. Cross-field rules are checked on the company as it will be stored, and only
 * when the legal form, INN or KPP change (so older rows with missing details can still get a website).
 * Sending a locked detail unchanged is not a change.
 */
export async function patchCompany(tx: Queryable, member: Membership, user: UserRow, patch: CompanyPatch): Promise<Company> {
  const current = await tx.one<CompanyDbRow>('SELECT * FROM companies WHERE id = $1 FOR UPDATE', [member.companyId]);
  if (!current) throw new AppError('notFound', 404);

  const next = {
    legalForm: patch.legalForm ?? current.legal_form,
    name: patch.name ?? current.name,
    inn: patch.inn ?? current.inn,
    kpp: patch.kpp !== undefined ? normalizeKpp(patch.kpp) : current.kpp,
    website: patch.website !== undefined ? emptyToNull(patch.website) : current.website,
    employeeCount: patch.employeeCount !== undefined ? patch.employeeCount : current.employee_count,
    logoImageId: patch.logoImageId !== undefined ? (patch.logoImageId?.toLowerCase() ?? null) : current.logo_image_id,
  };
  const taxChanged = next.legalForm !== current.legal_form || next.inn !== current.inn || next.kpp !== current.kpp;
  const detailsChanged = taxChanged || next.name !== current.name;
  if (detailsChanged && LOCKED_STATES.includes(current.verification_status)) throw new AppError('companyDetailsLocked', 409);
  if (taxChanged) {
    refuseFieldErrors(companyInputErrors({ legalForm: next.legalForm, inn: next.inn ?? '', kpp: next.kpp }));
    if (next.inn !== null && next.inn !== current.inn) await assertInnFree(tx, next.inn, current.id);
  }
  const logoChanged = next.logoImageId !== current.logo_image_id;
  if (logoChanged && next.logoImageId !== null) await claimLogo(tx, user.id, next.logoImageId);

  const changed =
    detailsChanged || logoChanged || next.website !== current.website || next.employeeCount !== current.employee_count;
  let row = current;
  if (changed) {
    const updated = await tx
      .one<CompanyDbRow>(
        `UPDATE companies SET legal_form = $2, name = $3, inn = $4, kpp = $5, website = $6, employee_count = $7, logo_image_id = $8, updated_at = now()
          WHERE id = $1 RETURNING *`,
        [current.id, next.legalForm, next.name, next.inn, next.kpp, next.website, next.employeeCount, next.logoImageId],
      )
      .catch(insertError);
    if (!updated) throw new AppError('notFound', 404);
    row = updated;
    if (logoChanged && next.logoImageId !== null) await tx.query('UPDATE files SET company_id = $1 WHERE id = $2', [current.id, next.logoImageId]);
  }
  return toCompany(row, member.roles, await activeMemberRoles(tx, member.companyId));
}

/**
 * `POST /companies/{companyId}/payment-reported`: UNVERIFIED or REJECTED -> PAYMENT_REPORTED. A previous
 * rejection's decision and comment are cleared, since the new report starts a new review. A company made
 * before invoice numbers existed gets one now.
 */
export async function reportPayment(tx: Queryable, member: Membership): Promise<Company> {
  const row = await tx.one<CompanyDbRow>(
    `UPDATE companies
        SET verification_status = 'PAYMENT_REPORTED', payment_reported_at = now(),
            verification_decided_at = NULL, verification_decided_by = NULL, verification_comment = NULL,
            invoice_number = COALESCE(invoice_number, ${NEXT_INVOICE_NUMBER_SQL}),
            invoice_amount_minor = COALESCE(invoice_amount_minor, $2),
            updated_at = now()
      WHERE id = $1 AND verification_status = ANY($3::text[])
      RETURNING *`,
    [member.companyId, VERIFICATION_AMOUNT_MINOR, [...REPORTABLE_STATES]],
  );
  if (!row) throw new AppError('verificationState', 409);
  return toCompany(row, member.roles, await activeMemberRoles(tx, member.companyId));
}

/** The company's invoice details; a company made before invoice numbers existed gets its number now. */
export async function invoiceOf(db: Queryable, companyId: string): Promise<CompanyDbRow> {
  const assigned = await db.one<CompanyDbRow>(
    `UPDATE companies SET invoice_number = ${NEXT_INVOICE_NUMBER_SQL}, invoice_amount_minor = COALESCE(invoice_amount_minor, $2), updated_at = now()
      WHERE id = $1 AND invoice_number IS NULL RETURNING *`,
    [companyId, VERIFICATION_AMOUNT_MINOR],
  );
  const row = assigned ?? (await db.one<CompanyDbRow>('SELECT * FROM companies WHERE id = $1', [companyId]));
  if (!row) throw new AppError('notFound', 404);
  return row;
}

// ---------------------------------------------------------------------------------------------------
// The platform admin

export const ADMIN_STATUS_FILTERS = ['all', 'UNVERIFIED', 'PAYMENT_REPORTED', 'VERIFIED', 'REJECTED'] as const;
export type AdminStatusFilter = (typeof ADMIN_STATUS_FILTERS)[number];

export function isAdminStatusFilter(value: string): value is AdminStatusFilter {
  return (ADMIN_STATUS_FILTERS as readonly string[]).includes(value);
}

type AdminRow = CompanyDbRow & { owner_name: string | null; owner_email: string | null };

const ADMIN_SELECT = `SELECT c.*, o.owner_name, o.owner_email
  FROM companies c
  LEFT JOIN LATERAL (
    SELECT concat_ws(' ', u.last_name, u.first_name, u.middle_name) AS owner_name, u.email AS owner_email
      FROM company_members m JOIN users u ON u.id = m.user_id
     WHERE m.company_id = c.id AND m.active AND 'OWNER' = ANY(m.roles)
     ORDER BY m.created_at, u.id
     LIMIT 1) o ON true`;

/** Order of each list: the oldest report first while waiting; the latest decision first once decided. */
const ADMIN_ORDER: Record<AdminStatusFilter, string> = {
  PAYMENT_REPORTED: 'c.payment_reported_at ASC, c.id',
  VERIFIED: 'c.verification_decided_at DESC NULLS LAST, c.id',
  REJECTED: 'c.verification_decided_at DESC NULLS LAST, c.id',
  UNVERIFIED: 'c.created_at DESC, c.id',
  all: 'c.created_at DESC, c.id',
};

export function toAdminCompany(row: AdminRow): AdminCompany {
  const reported = isoOrNull(row.payment_reported_at);
  return {
    id: row.id,
    name: row.name,
    inn: row.inn,
    kpp: row.kpp,
    legalForm: row.legal_form,
    verificationStatus: row.verification_status,
    invoiceNumber: row.invoice_number,
    amountMinor: row.invoice_amount_minor === null ? null : Number(row.invoice_amount_minor),
    paymentReportedAt: reported,
    reviewDueAt: reported === null ? null : new Date(Date.parse(reported) + VERIFICATION_REVIEW_DAYS * DAY_MS).toISOString(),
    verificationDecidedAt: isoOrNull(row.verification_decided_at),
    verificationComment: row.verification_comment,
    ownerName: row.owner_name,
    ownerEmail: row.owner_email,
  };
}

export async function listAdminCompanies(db: Queryable, status: AdminStatusFilter): Promise<AdminCompany[]> {
  const rows = await db.query<AdminRow>(`${ADMIN_SELECT} WHERE ($1 = 'all' OR c.verification_status = $1) ORDER BY ${ADMIN_ORDER[status]}`, [status]);
  return rows.map(toAdminCompany);
}

export interface OwnerToNotify {
  email: string;
  first_name: string;
  middle_name: string | null;
  locale: Locale;
}

/**
 * `POST /admin/companies/{companyId}/verification`: PAYMENT_REPORTED -> VERIFIED | REJECTED, by `admin`.
 * Answers the company and the active owners to tell (mailed by the route once the change is committed).
 */
export async function decideVerification(
  tx: Queryable,
  admin: UserRow,
  companyId: string,
  decision: VerificationDecision,
): Promise<{ company: AdminCompany; owners: OwnerToNotify[] }> {
  if (!isUuid(companyId)) throw new AppError('notFound', 404);
  const current = await tx.one<{ verification_status: VerificationStatus }>('SELECT verification_status FROM companies WHERE id = $1 FOR UPDATE', [companyId]);
  if (!current) throw new AppError('notFound', 404);
  if (current.verification_status !== 'PAYMENT_REPORTED') throw new AppError('verificationState', 409);
  await tx.query(
    `UPDATE companies SET verification_status = $2, verification_decided_at = now(), verification_decided_by = $3, verification_comment = $4, updated_at = now()
      WHERE id = $1`,
    [companyId, decision.decision, admin.id, emptyToNull(decision.comment)],
  );
  const row = await tx.one<AdminRow>(`${ADMIN_SELECT} WHERE c.id = $1`, [companyId]);
  if (!row) throw new AppError('notFound', 404);
  const owners = await tx.query<OwnerToNotify>(
    `SELECT u.email, u.first_name, u.middle_name, u.locale
       FROM company_members m JOIN users u ON u.id = m.user_id
      WHERE m.company_id = $1 AND m.active AND u.active AND 'OWNER' = ANY(m.roles)
      ORDER BY m.created_at, u.id`,
    [companyId],
  );
  return { company: toAdminCompany(row), owners };
}
