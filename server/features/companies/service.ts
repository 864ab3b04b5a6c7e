// Companies (docs/api.md, "Companies"): create, read and edit a company, the verification payment ("I paid")
// and the platform admin's review. What it guarantees:
// - every call runs after the route's one access check (requireAccess / requireAdmin) and inside the
//   route's transaction, so a refused call changes nothing;
// - the creator becomes an OWNER member with an employee row holding the same roles, in the same transaction;
// - the legal details (legal form, name, INN, KPP) cannot change while a payment is reported or the company
//   is verified, and the verification state only moves UNVERIFIED | REJECTED -> PAYMENT_REPORTED ->
//   VERIFIED | REJECTED;
// - a logo is the caller's own upload that belongs to nothing yet; it then belongs to the company;
// - the time zone is stored as the name this server lists (an alias as the zone it names), so every reader
//   formats it alike; it may change in any state, since it says how times are printed, not who the company is.

import { expressionBuilder, type Expression, type Selectable } from 'kysely';
import { is } from 'superstruct';
import {
  companyInputErrors,
  LEGAL_FORMS,
  missingForStart,
  VERIFICATION_AMOUNT_MINOR,
  VERIFICATION_REVIEW_DAYS,
  VERIFICATION_STATUSES,
  type AdminCompany,
  type Company,
  type CompanyInput,
  type CompanyPatch,
  type VerificationDecision,
  type VerificationStatus,
} from '../../../src/domain/company';
import { isUuid } from '../../../src/domain/suggestion';
import { DEFAULT_TIME_ZONE, canonicalTimeZone } from '../../../src/domain/time-format';
import { Locale } from '../../../src/domain/auth';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import type { UserRow } from '../../auth/users';
import { activeMemberRoles, type Membership } from '../../auth/access';

/** A `companies` row as the database answers it. */
export type CompanyRecord = Selectable<DB['companies']>;

/** States in which the legal details are locked (the admin is checking them, or has confirmed them). */
export const LOCKED_STATES: readonly VerificationStatus[] = ['PAYMENT_REPORTED', 'VERIFIED'];
/** States from which "I paid" may be pressed. */
export const REPORTABLE_STATES: readonly VerificationStatus[] = ['UNVERIFIED', 'REJECTED'];

const DAY_MS = 24 * 60 * 60 * 1000;

const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * A text column that a CHECK constraint holds to `values`, typed as one of them. Anything else means the
 * schema and the domain disagree, which no caller could answer sensibly: it fails loudly.
 */
function oneOf<const T extends string>(values: readonly T[], value: string, column: string): T {
  const found = values.find((v) => v === value);
  if (found === undefined) throw new Error(`${column} holds ${JSON.stringify(value)}, which the domain does not know`);
  return found;
}

/** The next invoice number: `INV-` and the next value of the `invoice_numbers` sequence. */
function nextInvoiceNumber(): Expression<string> {
  const eb = expressionBuilder<DB>();
  // nextval takes a regclass: PostgreSQL reads the sequence's name as one.
  return eb(eb.cast<string>(eb.val('INV-'), 'text'), '||', eb.fn<string>('nextval', [eb.val('invoice_numbers')]));
}

export function toCompany(row: CompanyRecord, roles: readonly string[], memberRoles: readonly (readonly string[])[]): Company {
  return {
    id: row.id,
    name: row.name,
    inn: row.inn,
    kpp: row.kpp,
    legalForm: oneOf(LEGAL_FORMS, row.legal_form, 'companies.legal_form'),
    website: row.website,
    employeeCount: row.employee_count,
    logoImageId: row.logo_image_id,
    timeZone: row.time_zone,
    verificationStatus: oneOf(VERIFICATION_STATUSES, row.verification_status, 'companies.verification_status'),
    invoiceNumber: row.invoice_number,
    paymentReportedAt: isoOrNull(row.payment_reported_at),
    verificationDecidedAt: isoOrNull(row.verification_decided_at),
    verificationComment: row.verification_comment,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    roles: [...roles],
    missingForStart: missingForStart(memberRoles),
  };
}

/** The caller's companies (active memberships), by name. */
export async function listCompanies(db: Queryable, userId: string): Promise<Company[]> {
  const rows = await db.kysely
    .selectFrom('company_members as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .selectAll('c')
    .select('m.roles as my_roles')
    .select((eb) =>
      eb
        .selectFrom('company_members as x')
        .whereRef('x.company_id', '=', 'c.id')
        .where('x.active', '=', true)
        // json_agg, not array_agg: members hold role lists of different lengths, which no 2-d array can.
        .select((x) => x.fn.agg<string[][]>('json_agg', ['x.roles']).as('roles'))
        .as('member_roles'),
    )
    .where('m.user_id', '=', userId)
    .where('m.active', '=', true)
    .orderBy('c.name')
    .orderBy('c.id')
    .execute();
  return rows.map(({ my_roles, member_roles, ...row }) => toCompany(row, my_roles, member_roles ?? []));
}

function findCompany(db: Queryable, companyId: string): Promise<CompanyRecord | undefined> {
  return db.kysely.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst();
}

/**
 * The zone `companyId` prints its times in (DEFAULT_TIME_ZONE for a company that is gone): read by the
 * features that print a company's times (the registry's exports and conflict messages).
 */
export async function companyTimeZone(db: Queryable, companyId: string): Promise<string> {
  const row = await db.kysely.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst();
  return row?.time_zone ?? DEFAULT_TIME_ZONE;
}

/**
 * The stored form of a zone the struct (`TimeZone`) accepted: the name this server lists. The struct and this
 * read the same list, so a zone that passed it always has one.
 */
function storedTimeZone(zone: string): string {
  const stored = canonicalTimeZone(zone);
  if (stored === null) throw new AppError('validation', 400, { fieldErrors: { timeZone: 'timeZone' } });
  return stored;
}

/** The company of `member`, as its member sees it. */
export async function readCompany(db: Queryable, member: Membership): Promise<Company> {
  const row = await findCompany(db, member.companyId);
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
  let query = tx.kysely.selectFrom('companies').select('id').where('inn', '=', inn);
  if (exceptCompanyId !== null) query = query.where('id', '<>', exceptCompanyId);
  if (await query.executeTakeFirst()) throw innTaken();
}

/** Locks the caller's own upload that belongs to nothing yet (no company, no proposal), or answers 400 `logoImageId`. */
async function claimLogo(tx: Queryable, userId: string, imageId: string): Promise<string> {
  const id = imageId.toLowerCase();
  const file = isUuid(id)
    ? await tx.kysely
        .selectFrom('files as f')
        .select('f.id')
        .where('f.id', '=', id)
        .where('f.owner_id', '=', userId)
        .where('f.company_id', 'is', null)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('suggestion_images as si').select('si.file_id').whereRef('si.file_id', '=', 'f.id'))))
        .where((eb) => eb.not(eb.exists(eb.selectFrom('project_images as pi').select('pi.file_id').whereRef('pi.file_id', '=', 'f.id'))))
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  if (!file) throw new AppError('validation', 400, { fieldErrors: { logoImageId: 'logoImage' } });
  return file.id;
}

/** The logo now belongs to the company (claimLogo has locked it). */
async function attachLogo(tx: Queryable, companyId: string, fileId: string): Promise<void> {
  await tx.kysely.updateTable('files').set({ company_id: companyId }).where('id', '=', fileId).execute();
}

/** What the employee row says the creator's position is: the free text of OTHER, else the position's title. */
function positionOf(user: UserRow): string | null {
  if (!user.position) return null;
  if (user.position === 'OTHER') return user.other_position;
  return translate(user.locale, `enum.position.${user.position}`);
}

/** Runs a write of a company row; a concurrent twin's INN (the unique index companies_inn_key) is a 409 too. */
async function writeCompany(write: Promise<CompanyRecord | undefined>): Promise<CompanyRecord | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw innTaken();
    throw error;
  }
}

/** `POST /companies`: the company, its invoice number, and the creator as OWNER member and employee. */
export async function createCompany(tx: Queryable, user: UserRow, input: CompanyInput): Promise<Company> {
  const kpp = normalizeKpp(input.kpp);
  refuseFieldErrors(companyInputErrors({ legalForm: input.legalForm, inn: input.inn, kpp }));
  await assertInnFree(tx, input.inn, null);
  const logoId = input.logoImageId ? await claimLogo(tx, user.id, input.logoImageId) : null;

  const row = await writeCompany(
    tx.kysely
      .insertInto('companies')
      .values({
        name: input.name,
        inn: input.inn,
        kpp,
        legal_form: input.legalForm,
        website: emptyToNull(input.website),
        employee_count: input.employeeCount ?? null,
        logo_image_id: logoId,
        ...(input.timeZone !== undefined ? { time_zone: storedTimeZone(input.timeZone) } : {}),
        created_by: user.id,
        invoice_number: nextInvoiceNumber(),
        invoice_amount_minor: VERIFICATION_AMOUNT_MINOR,
      })
      .returningAll()
      .executeTakeFirst(),
  );
  if (!row) throw new Error('companies insert returned no row');
  if (logoId) await attachLogo(tx, row.id, logoId);

  const roles = ['OWNER'];
  await tx.kysely.insertInto('company_members').values({ company_id: row.id, user_id: user.id, roles }).execute();
  await tx.kysely
    .insertInto('employees')
    .values({
      company_id: row.id,
      user_id: user.id,
      last_name: user.last_name,
      first_name: user.first_name,
      middle_name: user.middle_name,
      position: positionOf(user),
      email: user.email,
      roles,
    })
    .execute();
  return toCompany(row, roles, [roles]);
}

/**
 * `PATCH /companies/{companyId}`. Cross-field rules are checked on the company as it will be stored, and only
 * when the legal form, INN or KPP change (so older rows with missing details can still get a website).
 * Sending a locked detail unchanged is not a change.
 */
export async function patchCompany(tx: Queryable, member: Membership, user: UserRow, patch: CompanyPatch): Promise<Company> {
  const current = await tx.kysely.selectFrom('companies').selectAll().where('id', '=', member.companyId).forUpdate().executeTakeFirst();
  if (!current) throw new AppError('notFound', 404);
  const currentStatus = oneOf(VERIFICATION_STATUSES, current.verification_status, 'companies.verification_status');
  const currentForm = oneOf(LEGAL_FORMS, current.legal_form, 'companies.legal_form');

  const next = {
    legalForm: patch.legalForm ?? currentForm,
    name: patch.name ?? current.name,
    inn: patch.inn ?? current.inn,
    kpp: patch.kpp !== undefined ? normalizeKpp(patch.kpp) : current.kpp,
    website: patch.website !== undefined ? emptyToNull(patch.website) : current.website,
    employeeCount: patch.employeeCount !== undefined ? patch.employeeCount : current.employee_count,
    logoImageId: patch.logoImageId !== undefined ? (patch.logoImageId?.toLowerCase() ?? null) : current.logo_image_id,
    timeZone: patch.timeZone !== undefined ? storedTimeZone(patch.timeZone) : current.time_zone,
  };
  const taxChanged = next.legalForm !== currentForm || next.inn !== current.inn || next.kpp !== current.kpp;
  const detailsChanged = taxChanged || next.name !== current.name;
  if (detailsChanged && LOCKED_STATES.includes(currentStatus)) throw new AppError('companyDetailsLocked', 409);
  if (taxChanged) {
    refuseFieldErrors(companyInputErrors({ legalForm: next.legalForm, inn: next.inn ?? '', kpp: next.kpp }));
    if (next.inn !== null && next.inn !== current.inn) await assertInnFree(tx, next.inn, current.id);
  }
  const logoChanged = next.logoImageId !== current.logo_image_id;
  if (logoChanged && next.logoImageId !== null) await claimLogo(tx, user.id, next.logoImageId);

  const changed =
    detailsChanged ||
    logoChanged ||
    next.website !== current.website ||
    next.employeeCount !== current.employee_count ||
    next.timeZone !== current.time_zone;
  let row = current;
  if (changed) {
    const updated = await writeCompany(
      tx.kysely
        .updateTable('companies')
        .set((eb) => ({
          legal_form: next.legalForm,
          name: next.name,
          inn: next.inn,
          kpp: next.kpp,
          website: next.website,
          employee_count: next.employeeCount,
          logo_image_id: next.logoImageId,
          time_zone: next.timeZone,
          updated_at: eb.fn<Date>('now'),
        }))
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirst(),
    );
    if (!updated) throw new AppError('notFound', 404);
    row = updated;
    if (logoChanged && next.logoImageId !== null) await attachLogo(tx, current.id, next.logoImageId);
  }
  return toCompany(row, member.roles, await activeMemberRoles(tx, member.companyId));
}

/**
 * `POST /companies/{companyId}/payment-reported`: UNVERIFIED or REJECTED -> PAYMENT_REPORTED. A previous
 * rejection's decision and comment are cleared, since the new report starts a new review. A company made
 * before invoice numbers existed gets one now.
 */
export async function reportPayment(tx: Queryable, member: Membership): Promise<Company> {
  const row = await tx.kysely
    .updateTable('companies')
    .set((eb) => ({
      verification_status: 'PAYMENT_REPORTED',
      payment_reported_at: eb.fn<Date>('now'),
      verification_decided_at: null,
      verification_decided_by: null,
      verification_comment: null,
      // coalesce stops at the first value that is not null: a company with a number draws none from the sequence.
      invoice_number: eb.fn.coalesce('invoice_number', nextInvoiceNumber()),
      invoice_amount_minor: eb.fn.coalesce('invoice_amount_minor', eb.val(VERIFICATION_AMOUNT_MINOR)),
      updated_at: eb.fn<Date>('now'),
    }))
    .where('id', '=', member.companyId)
    .where('verification_status', 'in', REPORTABLE_STATES)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError('verificationState', 409);
  return toCompany(row, member.roles, await activeMemberRoles(tx, member.companyId));
}

/** The company's invoice details; a company made before invoice numbers existed gets its number now. */
export async function invoiceOf(db: Queryable, companyId: string): Promise<CompanyRecord> {
  const assigned = await db.kysely
    .updateTable('companies')
    .set((eb) => ({
      invoice_number: nextInvoiceNumber(),
      invoice_amount_minor: eb.fn.coalesce('invoice_amount_minor', eb.val(VERIFICATION_AMOUNT_MINOR)),
      updated_at: eb.fn<Date>('now'),
    }))
    .where('id', '=', companyId)
    .where('invoice_number', 'is', null)
    .returningAll()
    .executeTakeFirst();
  const row = assigned ?? (await findCompany(db, companyId));
  if (!row) throw new AppError('notFound', 404);
  return row;
}

// ---------------------------------------------------------------------------------------------------
// The platform admin

export const ADMIN_STATUS_FILTERS = ['all', 'UNVERIFIED', 'PAYMENT_REPORTED', 'VERIFIED', 'REJECTED'] as const;
export type AdminStatusFilter = (typeof ADMIN_STATUS_FILTERS)[number];

/** The companies with their first active owner (by membership age): the admin's rows. */
function adminCompanies(db: Queryable) {
  return db.kysely
    .selectFrom('companies as c')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('company_members as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select((u) => [u.fn<string>('concat_ws', [u.val(' '), 'u.last_name', 'u.first_name', 'u.middle_name']).as('owner_name'), 'u.email as owner_email'])
          .whereRef('m.company_id', '=', 'c.id')
          .where('m.active', '=', true)
          .where((w) => w(w.val('OWNER'), '=', w.fn.any('m.roles')))
          .orderBy('m.created_at')
          .orderBy('u.id')
          .limit(1)
          .as('o'),
      (join) => join.onTrue(),
    )
    .selectAll('c')
    .select(['o.owner_name', 'o.owner_email']);
}

type AdminRow = CompanyRecord & { owner_name: string | null; owner_email: string | null };

export function toAdminCompany(row: AdminRow): AdminCompany {
  const reported = isoOrNull(row.payment_reported_at);
  return {
    id: row.id,
    name: row.name,
    inn: row.inn,
    kpp: row.kpp,
    legalForm: oneOf(LEGAL_FORMS, row.legal_form, 'companies.legal_form'),
    verificationStatus: oneOf(VERIFICATION_STATUSES, row.verification_status, 'companies.verification_status'),
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

/** Each list in its order: the oldest report first while waiting; the latest decision first once decided. */
export async function listAdminCompanies(db: Queryable, status: AdminStatusFilter): Promise<AdminCompany[]> {
  let query = adminCompanies(db);
  if (status !== 'all') query = query.where('c.verification_status', '=', status);
  switch (status) {
    case 'PAYMENT_REPORTED':
      query = query.orderBy('c.payment_reported_at', 'asc');
      break;
    case 'VERIFIED':
    case 'REJECTED':
      query = query.orderBy('c.verification_decided_at', (order) => order.desc().nullsLast());
      break;
    case 'UNVERIFIED':
    case 'all':
      query = query.orderBy('c.created_at', 'desc');
      break;
  }
  const rows = await query.orderBy('c.id').execute();
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
  const current = await tx.kysely.selectFrom('companies').select('verification_status').where('id', '=', companyId).forUpdate().executeTakeFirst();
  if (!current) throw new AppError('notFound', 404);
  if (current.verification_status !== 'PAYMENT_REPORTED') throw new AppError('verificationState', 409);
  await tx.kysely
    .updateTable('companies')
    .set((eb) => ({
      verification_status: decision.decision,
      verification_decided_at: eb.fn<Date>('now'),
      verification_decided_by: admin.id,
      verification_comment: emptyToNull(decision.comment),
      updated_at: eb.fn<Date>('now'),
    }))
    .where('id', '=', companyId)
    .execute();
  const row = await adminCompanies(tx).where('c.id', '=', companyId).executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  const owners = await tx.kysely
    .selectFrom('company_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email', 'u.first_name', 'u.middle_name', 'u.locale'])
    .where('m.company_id', '=', companyId)
    .where('m.active', '=', true)
    .where('u.active', '=', true)
    .where((eb) => eb(eb.val('OWNER'), '=', eb.fn.any('m.roles')))
    .orderBy('m.created_at')
    .orderBy('u.id')
    .execute();
  return {
    company: toAdminCompany(row),
    owners: owners.map((owner) => {
      if (!is(owner.locale, Locale)) throw new Error(`users.locale holds ${JSON.stringify(owner.locale)}, which the domain does not know`);
      return { ...owner, locale: owner.locale };
    }),
  };
}
