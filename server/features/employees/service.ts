// Employees of a company (docs/api.md, "Employees"): list with search and filters, create, read, edit.
// What it guarantees:
// - `employees.roles` is the source of truth of a person's company roles; for an employee linked to a user
//   the membership (company_members.roles, active) is written in the same transaction, so the two never
//   disagree;
// - every added or removed role, and (de)activating someone, needs `canGrantRoles` of the caller;
// - the record of an OWNER or a CEO (any field) is edited only by whoever may grant those roles
//   (`canEditEmployeeRecord`: an OWNER's by an OWNER, a CEO's by an OWNER or a CEO), never by HR;
// - the company never loses its last active OWNER (a per-company advisory lock serialises the check);
// - contacts (e-mail, service number) leave the server only for people managers and the employee
//   themself, here and in the sync pull alike (`toEmployeeRow` is the one mapper of both), and the search
//   never matches a hidden contact.

import { canEditEmployeeRecord, canGrantRoles, canSeeEmployeeContacts, changedRoles, type Roles } from '../../../src/domain/permissions';
import { EMPLOYEE_STATES, type EmployeeInput, type EmployeePatch, type EmployeeState } from '../../../src/domain/company';
import type { ExpressionBuilder, Selectable, Updateable } from 'kysely';
import { isUuid, type EmployeeRow } from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import type { Membership } from '../../auth/access';

/** An `employees` row as the database returns it. */
export type EmployeeDbRow = Selectable<DB['employees']>;

/** Who looks at an employee: their roles in the company and their user id. */
export interface Viewer {
  roles: Roles;
  userId: string;
}

/** The row every employee call answers and the sync pull sends; contacts only for those who may see them. */
export function toEmployeeRow(row: EmployeeDbRow, viewer: Viewer): EmployeeRow {
  const contacts = canSeeEmployeeContacts(viewer.roles) || (row.user_id !== null && row.user_id === viewer.userId);
  return {
    id: row.id,
    companyId: row.company_id,
    userId: row.user_id,
    lastName: row.last_name,
    firstName: row.first_name,
    middleName: row.middle_name,
    position: row.position,
    email: contacts ? row.email : null,
    serviceNumber: contacts ? row.service_number : null,
    departmentId: row.department_id,
    roles: row.roles,
    active: row.active,
    imported: row.imported,
    invitedAt: row.invited_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** `null` for an empty optional text, so '' and null mean the same: no value. */
function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}

function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23503';
}

function constraintOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'constraint' in error && typeof error.constraint === 'string' ? error.constraint : '';
}

/** 400 `errors.departmentId` unless the department is one of the company's (a malformed id is none of them). */
export async function requireDepartmentOf(db: Queryable, companyId: string, departmentId: string | null | undefined): Promise<void> {
  if (departmentId === null || departmentId === undefined) return;
  const found = isUuid(departmentId)
    ? await db.kysely
        .selectFrom('departments')
        .select('id')
        .where('company_id', '=', companyId)
        .where('id', '=', departmentId.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!found) throw new AppError('validation', 400, { fieldErrors: { departmentId: 'invalid' } });
}

/**
 * 409 `employeeTaken` with `errors.email` / `errors.serviceNumber` = `taken` when another employee of the
 * company already has the e-mail (any case) or the service number.
 */
export async function requireContactsFree(
  db: Queryable,
  companyId: string,
  contacts: { email: string | null; serviceNumber: string | null },
  exceptEmployeeId: string | null,
): Promise<void> {
  const errors: Record<string, string> = {};
  // The employee being edited is not "another" one; an id that is no uuid is nobody's, so it excludes no one.
  const except = exceptEmployeeId !== null && isUuid(exceptEmployeeId) ? exceptEmployeeId.toLowerCase() : null;
  const others = () => {
    const query = db.kysely.selectFrom('employees').select('id').where('company_id', '=', companyId);
    return except === null ? query : query.where('id', '<>', except);
  };
  if (contacts.email !== null) {
    const email = contacts.email;
    // lower(email) on both sides: the expression of the unique index employees_email_key.
    const taken = await others()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', eb.fn('lower', [eb.val(email)])))
      .executeTakeFirst();
    if (taken) errors.email = 'taken';
  }
  if (contacts.serviceNumber !== null) {
    const taken = await others().where('service_number', '=', contacts.serviceNumber).executeTakeFirst();
    if (taken) errors.serviceNumber = 'taken';
  }
  if (Object.keys(errors).length > 0) throw new AppError('employeeTaken', 409, { fieldErrors: errors });
}

/** Maps what the unique indexes and the department foreign key refuse (a race past the checks) to 4xx. */
export function mapEmployeeWriteError(error: unknown): unknown {
  if (isUniqueViolation(error)) {
    const constraint = constraintOf(error);
    if (constraint === 'employees_email_key') return new AppError('employeeTaken', 409, { fieldErrors: { email: 'taken' } });
    if (constraint === 'employees_service_number_key') return new AppError('employeeTaken', 409, { fieldErrors: { serviceNumber: 'taken' } });
  }
  if (isForeignKeyViolation(error)) return new AppError('validation', 400, { fieldErrors: { departmentId: 'invalid' } });
  return error;
}

/** The employee of the company, locked for the rest of the transaction when `forUpdate`; null for a malformed id too. */
export async function readEmployeeRow(db: Queryable, companyId: string, employeeId: string, forUpdate = false): Promise<EmployeeDbRow | null> {
  if (!isUuid(employeeId)) return null;
  const query = db.kysely.selectFrom('employees').selectAll().where('company_id', '=', companyId).where('id', '=', employeeId.toLowerCase());
  return (await (forUpdate ? query.forUpdate() : query).executeTakeFirst()) ?? null;
}

export async function readEmployee(db: Queryable, member: Membership, employeeId: string): Promise<EmployeeRow> {
  const row = await readEmployeeRow(db, member.companyId, employeeId);
  if (!row) throw new AppError('notFound', 404);
  return toEmployeeRow(row, member);
}

// ---------------------------------------------------------------------------------------------- list

export const EMPLOYEE_SEARCH_MAX = 200;
const SEARCH_TERMS_MAX = 8;

export interface EmployeeListOptions {
  search: string | undefined;
  departmentId: string | undefined;
  state: EmployeeState | undefined;
  cursor: string | undefined;
  limit: number;
}

interface NameCursor {
  l: string;
  f: string;
  i: string;
}

function encodeCursor(row: EmployeeDbRow): string {
  return Buffer.from(JSON.stringify({ l: row.last_name, f: row.first_name, i: row.id } satisfies NameCursor)).toString('base64url');
}

/**
 * Text a stored name can hold: PostgreSQL text has no NUL (the query would fail with a 500) and, being UTF-8,
 * no lone surrogate (the driver would send U+FFFD, another position than the one asked).
 */
const isStorableText = (value: unknown): value is string => typeof value === 'string' && !value.includes('\u0000') && !/[\uD800-\uDFFF]/u.test(value);

/** A cursor this list made, or 400 `errors.cursor` (never a value the query would choke on). */
function decodeCursor(raw: string): NameCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null && 'l' in value && 'f' in value && 'i' in value) {
      const { l, f, i } = value;
      if (isStorableText(l) && isStorableText(f) && isUuid(i)) return { l, f, i: i.toLowerCase() };
    }
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('validation', 400, { fieldErrors: { cursor: 'invalid' } });
}

export function isEmployeeState(value: string): value is EmployeeState {
  return (EMPLOYEE_STATES as readonly string[]).includes(value);
}

type EmployeeScope = ExpressionBuilder<DB & { e: DB['employees'] }, 'e'>;

/** `employeeStateOf` of src/domain/company.ts as a condition on `e`. */
function stateCondition(eb: EmployeeScope, state: EmployeeState) {
  switch (state) {
    case 'inactive':
      return eb('e.active', '=', false);
    case 'active':
      return eb.and([eb('e.active', '=', true), eb('e.user_id', 'is not', null)]);
    case 'invited':
      return eb.and([eb('e.active', '=', true), eb('e.user_id', 'is', null), eb('e.invited_at', 'is not', null)]);
    case 'noAccount':
      return eb.and([eb('e.active', '=', true), eb('e.user_id', 'is', null), eb('e.invited_at', 'is', null)]);
  }
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const NAME_FIELDS = ['e.last_name', 'e.first_name', 'e.middle_name', 'e.position'] as const;
const CONTACT_FIELDS = ['e.email', 'e.service_number'] as const;

/**
 * One page by (last name, first name, id), with a keyset cursor on the same columns (the index
 * employees_name_idx), and the number of rows matching the filters. Each word of `search` must match a
 * name, the position, or (for those who may see contacts) the e-mail or service number, in any case.
 */
export async function listEmployees(
  db: Queryable,
  member: Membership,
  options: EmployeeListOptions,
): Promise<{ items: EmployeeRow[]; nextCursor: string | null; total: number }> {
  const terms = (options.search ?? '').trim().split(/\s+/u).filter(Boolean).slice(0, SEARCH_TERMS_MAX);
  const fields = canSeeEmployeeContacts(member.roles) ? [...NAME_FIELDS, ...CONTACT_FIELDS] : [...NAME_FIELDS];
  const departmentId = options.departmentId ? options.departmentId.toLowerCase() : undefined;
  // The route takes only a uuid here; anything else names no department of the company.
  if (departmentId !== undefined && !isUuid(departmentId)) throw new AppError('validation', 400, { fieldErrors: { departmentId: 'invalid' } });
  const cursor = options.cursor ? decodeCursor(options.cursor) : null;

  let filtered = db.kysely.selectFrom('employees as e').where('e.company_id', '=', member.companyId);
  for (const term of terms) {
    const pattern = likePattern(term);
    filtered = filtered.where((eb) => eb.or(fields.map((field) => eb(field, 'ilike', pattern))));
  }
  if (departmentId !== undefined) filtered = filtered.where('e.department_id', '=', departmentId);
  const state = options.state;
  if (state) filtered = filtered.where((eb) => stateCondition(eb, state));

  let paged = filtered.selectAll('e');
  if (cursor) paged = paged.where((eb) => eb(eb.refTuple('e.last_name', 'e.first_name', 'e.id'), '>', eb.tuple(cursor.l, cursor.f, cursor.i)));
  const rows = await paged
    .orderBy('e.last_name')
    .orderBy('e.first_name')
    .orderBy('e.id')
    .limit(options.limit + 1)
    .execute();
  const total = await filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst();
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => toEmployeeRow(r, member)),
    nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null,
    total: Number(total?.n ?? 0),
  };
}

// ---------------------------------------------------------------------------------------------- write

/** 403 unless the caller may grant (or take away) every one of `roles`. */
function requireGrant(member: Membership, roles: Roles): void {
  if (roles.length > 0 && !canGrantRoles(member.roles, roles)) throw new AppError('forbidden', 403);
}

/** 409 `lastOwner` unless another active member of the company holds OWNER. Serialised per company. */
export async function requireAnotherOwner(tx: Queryable, companyId: string, userId: string): Promise<void> {
  await tx.kysely
    .selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.fn('hashtext', [eb.val(`owners:${companyId}`)])]).as('locked'))
    .execute();
  const other = await tx.kysely
    .selectFrom('company_members')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('user_id', '<>', userId)
    .where('active', '=', true)
    .where((eb) => eb(eb.val('OWNER'), '=', eb.fn.any('roles')))
    .executeTakeFirst();
  if (!other) throw new AppError('lastOwner', 409);
}

export async function createEmployee(tx: Queryable, member: Membership, input: EmployeeInput): Promise<EmployeeRow> {
  const roles = input.roles ?? ['EMPLOYEE'];
  requireGrant(member, roles);
  await requireDepartmentOf(tx, member.companyId, input.departmentId);
  const email = blankToNull(input.email);
  const serviceNumber = blankToNull(input.serviceNumber);
  await requireContactsFree(tx, member.companyId, { email, serviceNumber }, null);
  let row: EmployeeDbRow | undefined;
  try {
    row = await tx.kysely
      .insertInto('employees')
      .values({
        company_id: member.companyId,
        last_name: input.lastName,
        first_name: input.firstName,
        middle_name: blankToNull(input.middleName),
        position: blankToNull(input.position),
        email,
        service_number: serviceNumber,
        department_id: input.departmentId?.toLowerCase() ?? null,
        roles: [...roles],
        active: input.active ?? true,
      })
      .returningAll()
      .executeTakeFirst();
  } catch (error) {
    throw mapEmployeeWriteError(error);
  }
  if (!row) throw new Error('employee insert returned no row');
  return toEmployeeRow(row, member);
}

const sameRoles = (a: Roles, b: Roles) => a.length === b.length && a.every((r) => b.includes(r));

export async function updateEmployee(tx: Queryable, member: Membership, employeeId: string, patch: EmployeePatch): Promise<EmployeeRow> {
  const current = await readEmployeeRow(tx, member.companyId, employeeId, true);
  if (!current) throw new AppError('notFound', 404);
  const before = current.roles;
  // Every field of an OWNER's or a CEO's record, not only their roles: HR may not rename them or change their e-mail.
  if (!canEditEmployeeRecord(member.roles, before)) throw new AppError('forbidden', 403);
  const roles = patch.roles ?? before;
  const active = patch.active ?? current.active;
  const rolesChange = changedRoles(before, roles);
  requireGrant(member, rolesChange);
  // Switching someone off (or on) is as strong as taking all their roles away (or giving them back).
  if (active !== current.active) requireGrant(member, before);
  if (current.user_id !== null && current.active && before.includes('OWNER') && (!roles.includes('OWNER') || !active)) {
    await requireAnotherOwner(tx, member.companyId, current.user_id);
  }
  if (patch.departmentId !== undefined) await requireDepartmentOf(tx, member.companyId, patch.departmentId);

  const next: Updateable<DB['employees']> = {};
  const setName = (column: 'last_name' | 'first_name', value: string | undefined) => {
    if (value !== undefined && value !== current[column]) next[column] = value;
  };
  const set = (column: 'middle_name' | 'position' | 'email' | 'service_number' | 'department_id', value: string | null | undefined) => {
    if (value !== undefined && value !== current[column]) next[column] = value;
  };
  setName('last_name', patch.lastName);
  setName('first_name', patch.firstName);
  if (patch.middleName !== undefined) set('middle_name', blankToNull(patch.middleName));
  if (patch.position !== undefined) set('position', blankToNull(patch.position));
  const email = patch.email === undefined ? undefined : blankToNull(patch.email);
  const serviceNumber = patch.serviceNumber === undefined ? undefined : blankToNull(patch.serviceNumber);
  set('email', email);
  set('service_number', serviceNumber);
  if (patch.departmentId !== undefined) set('department_id', patch.departmentId?.toLowerCase() ?? null);
  if (!sameRoles(before, roles)) next.roles = [...roles];
  if (active !== current.active) next.active = active;
  if ('email' in next || 'service_number' in next) {
    await requireContactsFree(
      tx,
      member.companyId,
      { email: 'email' in next ? (email ?? null) : null, serviceNumber: 'service_number' in next ? (serviceNumber ?? null) : null },
      current.id,
    );
  }
  if (Object.keys(next).length === 0) return toEmployeeRow(current, member);

  let row: EmployeeDbRow | undefined;
  try {
    row = await tx.kysely
      .updateTable('employees')
      .set((eb) => ({ ...next, updated_at: eb.fn<Date>('now') }))
      .where('company_id', '=', member.companyId)
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirst();
  } catch (error) {
    throw mapEmployeeWriteError(error);
  }
  if (!row) throw new AppError('notFound', 404);
  if (current.user_id !== null && ('roles' in next || 'active' in next)) {
    await tx.kysely
      .updateTable('company_members')
      .set((eb) => ({ roles: [...roles], active, updated_at: eb.fn<Date>('now') }))
      .where('company_id', '=', member.companyId)
      .where('user_id', '=', current.user_id)
      .execute();
  }
  return toEmployeeRow(row, member);
}
