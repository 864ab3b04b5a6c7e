// Departments of a company (docs/api.md, "Departments"). What it guarantees: names are unique per company
// in any case (the unique index departments_name_key backs the check); a head is an active member of the
// company; a department is deleted only when nothing points at it any more: no employee and no proposal
// (proposals keep their department for good, so one that has ever received a proposal stays; it can be
// renamed). The delete locks the department row, so a concurrent insert of an employee or a proposal into it
// either commits first and is counted, or waits and then fails its foreign key.

import type { DepartmentInput, DepartmentPatch } from '../../../src/domain/company';
import { isUuid, type DepartmentRow } from '../../../src/domain/suggestion';
import type { Queryable, SqlParam } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import { AppError } from '../../errors';

interface DepartmentDbRow {
  company_id: string;
  id: string;
  name: string;
  head_user_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface DepartmentListItem extends DepartmentRow {
  /** Employees (active or not) whose department it is. */
  employeeCount: number;
  /** Its proposals under consideration. */
  openSuggestionCount: number;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toDepartmentRow(row: DepartmentDbRow): DepartmentRow {
  return { id: row.id, companyId: row.company_id, name: row.name, headUserId: row.head_user_id, createdAt: iso(row.created_at), updatedAt: iso(row.updated_at) };
}

export async function listDepartments(db: Queryable, companyId: string): Promise<DepartmentListItem[]> {
  const rows = await db.query<DepartmentDbRow & { employee_count: number; open_count: number }>(
    `SELECT d.*,
            (SELECT count(*) FROM employees e WHERE e.company_id = d.company_id AND e.department_id = d.id)::int AS employee_count,
            (SELECT count(*) FROM suggestions s WHERE s.company_id = d.company_id AND s.department_id = d.id AND s.status = 'UNDER_CONSIDERATION')::int AS open_count
       FROM departments d WHERE d.company_id = $1
      ORDER BY lower(d.name), d.id`,
    [companyId],
  );
  return rows.map((r) => ({ ...toDepartmentRow(r), employeeCount: r.employee_count, openSuggestionCount: r.open_count }));
}

/** 400 `errors.headUserId` = `notMember` unless the user is an active member of the company. */
async function requireHead(db: Queryable, companyId: string, headUserId: string | null | undefined): Promise<void> {
  if (headUserId === null || headUserId === undefined) return;
  const member = await db.one('SELECT 1 FROM company_members WHERE company_id = $1 AND user_id::text = $2 AND active', [companyId, headUserId.toLowerCase()]);
  if (!member) throw new AppError('validation', 400, { fieldErrors: { headUserId: 'notMember' } });
}

const nameTaken = () => new AppError('departmentNameTaken', 409, { fieldErrors: { name: 'taken' } });

async function requireNameFree(db: Queryable, companyId: string, name: string, exceptId: string | null): Promise<void> {
  const taken = await db.one('SELECT 1 FROM departments WHERE company_id = $1 AND lower(name) = lower($2) AND id::text <> $3', [companyId, name, exceptId ?? '']);
  if (taken) throw nameTaken();
}

async function writeDepartment(db: Queryable, sql: string, params: SqlParam[]): Promise<DepartmentDbRow | null> {
  try {
    return await db.one<DepartmentDbRow>(sql, params);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function createDepartment(tx: Queryable, companyId: string, input: DepartmentInput): Promise<DepartmentRow> {
  await requireHead(tx, companyId, input.headUserId);
  await requireNameFree(tx, companyId, input.name, null);
  const row = await writeDepartment(tx, 'INSERT INTO departments (company_id, name, head_user_id) VALUES ($1, $2, $3) RETURNING *', [
    companyId,
    input.name,
    input.headUserId?.toLowerCase() ?? null,
  ]);
  if (!row) throw new Error('department insert returned no row');
  return toDepartmentRow(row);
}

async function lockDepartment(tx: Queryable, companyId: string, departmentId: string): Promise<DepartmentDbRow> {
  const row = isUuid(departmentId)
    ? await tx.one<DepartmentDbRow>('SELECT * FROM departments WHERE company_id = $1 AND id = $2 FOR UPDATE', [companyId, departmentId.toLowerCase()])
    : null;
  if (!row) throw new AppError('notFound', 404);
  return row;
}

export async function updateDepartment(tx: Queryable, companyId: string, departmentId: string, patch: DepartmentPatch): Promise<DepartmentRow> {
  const current = await lockDepartment(tx, companyId, departmentId);
  const name = patch.name ?? current.name;
  const head = patch.headUserId === undefined ? current.head_user_id : (patch.headUserId?.toLowerCase() ?? null);
  if (name === current.name && head === current.head_user_id) return toDepartmentRow(current);
  if (head !== current.head_user_id) await requireHead(tx, companyId, head);
  if (name !== current.name) await requireNameFree(tx, companyId, name, current.id);
  const row = await writeDepartment(tx, 'UPDATE departments SET name = $3, head_user_id = $4, updated_at = now() WHERE company_id = $1 AND id = $2 RETURNING *', [
    companyId,
    current.id,
    name,
    head,
  ]);
  if (!row) throw new AppError('notFound', 404);
  return toDepartmentRow(row);
}

/** Deletes an empty department; 409 `departmentNotEmpty` with the counts of what is still in it. */
export async function deleteDepartment(tx: Queryable, companyId: string, departmentId: string): Promise<void> {
  const current = await lockDepartment(tx, companyId, departmentId);
  const counts = await tx.one<{ employees: number; open: number; decided: number }>(
    `SELECT (SELECT count(*) FROM employees WHERE company_id = $1 AND department_id = $2)::int AS employees,
            (SELECT count(*) FROM suggestions WHERE company_id = $1 AND department_id = $2 AND status = 'UNDER_CONSIDERATION')::int AS open,
            (SELECT count(*) FROM suggestions WHERE company_id = $1 AND department_id = $2 AND status <> 'UNDER_CONSIDERATION')::int AS decided`,
    [companyId, current.id],
  );
  const { employees = 0, open = 0, decided = 0 } = counts ?? {};
  if (employees + open + decided > 0) throw new AppError('departmentNotEmpty', 409, { values: { employees, open, decided } });
  await tx.query('DELETE FROM departments WHERE company_id = $1 AND id = $2', [companyId, current.id]);
}
