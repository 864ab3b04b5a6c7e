// Employees of a company (docs/api.md, "Employees"): list with search and filters, create, read, edit.
// What it guarantees:
// - `employees.roles` is the source of truth of a person's company roles; for an employee linked to a user
//   the membership (company_members.roles, active) is written in the same transaction, so the two never
//   disagree;
// - every added or removed role, and (de)activating someone, needs `canGrantRoles` of the caller;
// - the company never loses its last active OWNER (a per-company advisory lock serialises the check);
// - contacts (e-mail, service number) leave the server only for people managers and the employee
//   themself, here and in the sync pull alike (`toEmployeeRow` is the one mapper of both), and the search
//   never matches a hidden contact.

import { canGrantRoles, canSeeEmployeeContacts, changedRoles, type Roles } from '../../../src/domain/permissions';
import { EMPLOYEE_STATES, type EmployeeInput, type EmployeePatch, type EmployeeState } from '../../../src/domain/company';
import { isUuid, type EmployeeRow } from '../../../src/domain/suggestion';
import type { Queryable, SqlParam } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import { AppError } from '../../errors';
import type { Membership } from '../../auth/access';

/** An `employees` row as the database returns it. */
export interface EmployeeDbRow {
  company_id: string;
  id: string;
  user_id: string | null;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  position: string | null;
  email: string | null;
  service_number: string | null;
  department_id: string | null;
  roles: string[] | null;
  active: boolean;
  imported: boolean;
  invited_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** Who looks at an employee: their roles in the company and their user id. */
export interface Viewer {
  roles: Roles;
  userId: string;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

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
    roles: row.roles ?? [],
    active: row.active,
    imported: row.imported,
    invitedAt: row.invited_at ? iso(row.invited_at) : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
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

/** 400 `errors.departmentId` unless the department is one of the company's. */
export async function requireDepartmentOf(db: Queryable, companyId: string, departmentId: string | null | undefined): Promise<void> {
  if (departmentId === null || departmentId === undefined) return;
  const found = await db.one('SELECT 1 FROM departments WHERE company_id = $1 AND id::text = $2', [companyId, departmentId.toLowerCase()]);
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
  if (contacts.email !== null) {
    const taken = await db.one('SELECT 1 FROM employees WHERE company_id = $1 AND lower(email) = lower($2) AND id::text <> $3', [companyId, contacts.email, exceptEmployeeId ?? '']);
    if (taken) errors.email = 'taken';
  }
  if (contacts.serviceNumber !== null) {
    const taken = await db.one('SELECT 1 FROM employees WHERE company_id = $1 AND service_number = $2 AND id::text <> $3', [companyId, contacts.serviceNumber, exceptEmployeeId ?? '']);
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

export async function readEmployeeRow(db: Queryable, companyId: string, employeeId: string, forUpdate = false): Promise<EmployeeDbRow | null> {
  if (!isUuid(employeeId)) return null;
  return db.one<EmployeeDbRow>(`SELECT * FROM employees WHERE company_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [companyId, employeeId.toLowerCase()]);
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

function decodeCursor(raw: string): NameCursor {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<NameCursor>;
    if (typeof value.l === 'string' && typeof value.f === 'string' && typeof value.i === 'string' && isUuid(value.i)) return { l: value.l, f: value.f, i: value.i };
  } catch {
    // falls through to the 400 below
  }
  throw new AppError('validation', 400, { fieldErrors: { cursor: 'invalid' } });
}

export function isEmployeeState(value: string): value is EmployeeState {
  return (EMPLOYEE_STATES as readonly string[]).includes(value);
}

/** `employeeStateOf` of src/domain/company.ts as SQL on `e`. */
const STATE_CONDITION: Record<EmployeeState, string> = {
  inactive: 'NOT e.active',
  active: 'e.active AND e.user_id IS NOT NULL',
  invited: 'e.active AND e.user_id IS NULL AND e.invited_at IS NOT NULL',
  noAccount: 'e.active AND e.user_id IS NULL AND e.invited_at IS NULL',
};

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

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
  const params: SqlParam[] = [member.companyId];
  const where = ['e.company_id = $1'];
  const terms = (options.search ?? '').trim().split(/\s+/u).filter(Boolean).slice(0, SEARCH_TERMS_MAX);
  const fields = ['e.last_name', 'e.first_name', 'e.middle_name', 'e.position'];
  if (canSeeEmployeeContacts(member.roles)) fields.push('e.email', 'e.service_number');
  for (const term of terms) {
    params.push(likePattern(term));
    where.push(`(${fields.map((f) => `${f} ILIKE $${params.length}`).join(' OR ')})`);
  }
  if (options.departmentId) {
    params.push(options.departmentId.toLowerCase());
    where.push(`e.department_id = $${params.length}::uuid`);
  }
  if (options.state) where.push(`(${STATE_CONDITION[options.state]})`);
  const filters = where.join(' AND ');
  const countParams = [...params];

  if (options.cursor) {
    const cursor = decodeCursor(options.cursor);
    params.push(cursor.l, cursor.f, cursor.i);
    where.push(`(e.last_name, e.first_name, e.id) > ($${params.length - 2}, $${params.length - 1}, $${params.length}::uuid)`);
  }
  params.push(options.limit + 1);
  const rows = await db.query<EmployeeDbRow>(
    `SELECT e.* FROM employees e WHERE ${where.join(' AND ')} ORDER BY e.last_name, e.first_name, e.id LIMIT $${params.length}`,
    params,
  );
  const total = await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM employees e WHERE ${filters}`, countParams);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => toEmployeeRow(r, member)),
    nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null,
    total: total?.n ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------- write

/** 403 unless the caller may grant (or take away) every one of `roles`. */
function requireGrant(member: Membership, roles: Roles): void {
  if (roles.length > 0 && !canGrantRoles(member.roles, roles)) throw new AppError('forbidden', 403);
}

/** 409 `lastOwner` unless another active member of the company holds OWNER. Serialised per company. */
export async function requireAnotherOwner(tx: Queryable, companyId: string, userId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('owners:' || $1::text))`, [companyId]);
  const other = await tx.one(`SELECT 1 FROM company_members WHERE company_id = $1 AND user_id <> $2 AND active AND 'OWNER' = ANY(roles)`, [companyId, userId]);
  if (!other) throw new AppError('lastOwner', 409);
}

export async function createEmployee(tx: Queryable, member: Membership, input: EmployeeInput): Promise<EmployeeRow> {
  const roles = input.roles ?? ['EMPLOYEE'];
  requireGrant(member, roles);
  await requireDepartmentOf(tx, member.companyId, input.departmentId);
  const email = blankToNull(input.email);
  const serviceNumber = blankToNull(input.serviceNumber);
  await requireContactsFree(tx, member.companyId, { email, serviceNumber }, null);
  let row: EmployeeDbRow | null;
  try {
    row = await tx.one<EmployeeDbRow>(
      `INSERT INTO employees (company_id, last_name, first_name, middle_name, position, email, service_number, department_id, roles, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [
        member.companyId,
        input.lastName,
        input.firstName,
        blankToNull(input.middleName),
        blankToNull(input.position),
        email,
        serviceNumber,
        input.departmentId?.toLowerCase() ?? null,
        roles,
        input.active ?? true,
      ],
    );
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
  const before = current.roles ?? [];
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

  const next: Record<string, SqlParam> = {};
  const set = (column: keyof EmployeeDbRow, value: string | null | undefined) => {
    if (value !== undefined && value !== current[column]) next[column] = value;
  };
  set('last_name', patch.lastName);
  set('first_name', patch.firstName);
  if (patch.middleName !== undefined) set('middle_name', blankToNull(patch.middleName));
  if (patch.position !== undefined) set('position', blankToNull(patch.position));
  const email = patch.email === undefined ? undefined : blankToNull(patch.email);
  const serviceNumber = patch.serviceNumber === undefined ? undefined : blankToNull(patch.serviceNumber);
  set('email', email);
  set('service_number', serviceNumber);
  if (patch.departmentId !== undefined) set('department_id', patch.departmentId?.toLowerCase() ?? null);
  if (!sameRoles(before, roles)) next.roles = roles;
  if (active !== current.active) next.active = active;
  if ('email' in next || 'service_number' in next) {
    await requireContactsFree(
      tx,
      member.companyId,
      { email: 'email' in next ? (email ?? null) : null, serviceNumber: 'service_number' in next ? (serviceNumber ?? null) : null },
      current.id,
    );
  }
  const columns = Object.keys(next);
  if (columns.length === 0) return toEmployeeRow(current, member);

  let row: EmployeeDbRow | null;
  try {
    row = await tx.one<EmployeeDbRow>(
      `UPDATE employees SET ${columns.map((c, i) => `${c} = $${i + 3}`).join(', ')}, updated_at = now()
        WHERE company_id = $1 AND id = $2 RETURNING *`,
      [member.companyId, current.id, ...columns.map((c) => next[c] ?? null)],
    );
  } catch (error) {
    throw mapEmployeeWriteError(error);
  }
  if (!row) throw new AppError('notFound', 404);
  if (current.user_id !== null && ('roles' in next || 'active' in next)) {
    await tx.query('UPDATE company_members SET roles = $3, active = $4, updated_at = now() WHERE company_id = $1 AND user_id = $2', [
      member.companyId,
      current.user_id,
      roles,
      active,
    ]);
  }
  return toEmployeeRow(row, member);
}
