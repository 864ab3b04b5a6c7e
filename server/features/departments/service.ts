// Departments of a company (docs/api.md, "Departments"). What it guarantees: names are unique per company
// in any case (the unique index departments_name_key backs the check); a head is an active member of the
// company; a department is deleted only when nothing points at it any more: no employee and no proposal
// (proposals keep their department for good, so one that has ever received a proposal stays; it can be
// renamed). The delete locks the department row, so a concurrent insert of an employee or a proposal into it
// either commits first and is counted, or waits and then fails its foreign key.

import type { Selectable } from 'kysely';
import type { DepartmentInput, DepartmentPatch } from '../../../src/domain/company';
import { isUuid, type DepartmentRow } from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';

type DepartmentRecord = Selectable<DB['departments']>;

export interface DepartmentListItem extends DepartmentRow {
  /** Employees (active or not) whose department it is. */
  employeeCount: number;
  /** Its proposals under consideration. */
  openSuggestionCount: number;
}

const OPEN = 'UNDER_CONSIDERATION';

export function toDepartmentRow(row: DepartmentRecord): DepartmentRow {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    headUserId: row.head_user_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listDepartments(db: Queryable, companyId: string): Promise<DepartmentListItem[]> {
  const rows = await db.kysely
    .selectFrom('departments as d')
    .selectAll('d')
    .select((eb) => [
      eb
        .selectFrom('employees as e')
        .whereRef('e.company_id', '=', 'd.company_id')
        .whereRef('e.department_id', '=', 'd.id')
        .select(eb.fn.countAll<string>().as('n'))
        .as('employee_count'),
      eb
        .selectFrom('suggestions as s')
        .whereRef('s.company_id', '=', 'd.company_id')
        .whereRef('s.department_id', '=', 'd.id')
        .where('s.status', '=', OPEN)
        .select(eb.fn.countAll<string>().as('n'))
        .as('open_count'),
    ])
    .where('d.company_id', '=', companyId)
    .orderBy((eb) => eb.fn('lower', ['d.name']))
    .orderBy('d.id')
    .execute();
  return rows.map(({ employee_count, open_count, ...row }) => ({
    ...toDepartmentRow(row),
    employeeCount: Number(employee_count ?? 0),
    openSuggestionCount: Number(open_count ?? 0),
  }));
}

/** 400 `errors.headUserId` = `notMember` unless the user is an active member of the company. */
async function requireHead(db: Queryable, companyId: string, headUserId: string | null | undefined): Promise<void> {
  if (headUserId === null || headUserId === undefined) return;
  // Not a uuid: nobody's id, so no member (and no cast error from the uuid column).
  const member = isUuid(headUserId)
    ? await db.kysely
        .selectFrom('company_members')
        .select('user_id')
        .where('company_id', '=', companyId)
        .where('user_id', '=', headUserId.toLowerCase())
        .where('active', '=', true)
        .executeTakeFirst()
    : undefined;
  if (!member) throw new AppError('validation', 400, { fieldErrors: { headUserId: 'notMember' } });
}

const nameTaken = () => new AppError('departmentNameTaken', 409, { fieldErrors: { name: 'taken' } });

async function requireNameFree(db: Queryable, companyId: string, name: string, exceptId: string | null): Promise<void> {
  let query = db.kysely
    .selectFrom('departments')
    .select('id')
    .where('company_id', '=', companyId)
    // lower(name) on both sides: the expression of the unique index departments_name_key.
    .where((eb) => eb(eb.fn('lower', ['name']), '=', eb.fn('lower', [eb.val(name)])));
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  if (await query.executeTakeFirst()) throw nameTaken();
}

/** Runs a write of a department row; a concurrent twin's name (the unique index) is a 409 too. */
async function writeDepartment(write: Promise<DepartmentRecord | undefined>): Promise<DepartmentRecord | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function createDepartment(tx: Queryable, companyId: string, input: DepartmentInput): Promise<DepartmentRow> {
  await requireHead(tx, companyId, input.headUserId);
  await requireNameFree(tx, companyId, input.name, null);
  const row = await writeDepartment(
    tx.kysely
      .insertInto('departments')
      .values({ company_id: companyId, name: input.name, head_user_id: input.headUserId?.toLowerCase() ?? null })
      .returningAll()
      .executeTakeFirst(),
  );
  if (!row) throw new Error('department insert returned no row');
  return toDepartmentRow(row);
}

/** The department, locked for the rest of the transaction; 404 for another company's, a missing or a malformed id. */
async function lockDepartment(tx: Queryable, companyId: string, departmentId: string): Promise<DepartmentRecord> {
  const row = isUuid(departmentId)
    ? await tx.kysely
        .selectFrom('departments')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', departmentId.toLowerCase())
        .forUpdate()
        .executeTakeFirst()
    : undefined;
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
  const row = await writeDepartment(
    tx.kysely
      .updateTable('departments')
      .set((eb) => ({ name, head_user_id: head, updated_at: eb.fn<Date>('now') }))
      .where('company_id', '=', companyId)
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirst(),
  );
  if (!row) throw new AppError('notFound', 404);
  return toDepartmentRow(row);
}

/** Deletes an empty department; 409 `departmentNotEmpty` with the counts of what is still in it. */
export async function deleteDepartment(tx: Queryable, companyId: string, departmentId: string): Promise<void> {
  const current = await lockDepartment(tx, companyId, departmentId);
  const counts = await tx.kysely
    .selectNoFrom((eb) => [
      eb
        .selectFrom('employees')
        .where('company_id', '=', companyId)
        .where('department_id', '=', current.id)
        .select(eb.fn.countAll<string>().as('n'))
        .as('employees'),
      eb
        .selectFrom('suggestions')
        .where('company_id', '=', companyId)
        .where('department_id', '=', current.id)
        .select((s) => [s.fn.countAll<string>().filterWhere('status', '=', OPEN).as('n')])
        .as('open'),
      eb
        .selectFrom('suggestions')
        .where('company_id', '=', companyId)
        .where('department_id', '=', current.id)
        .select((s) => [s.fn.countAll<string>().filterWhere('status', '<>', OPEN).as('n')])
        .as('decided'),
    ])
    .executeTakeFirstOrThrow();
  const employees = Number(counts.employees ?? 0);
  const open = Number(counts.open ?? 0);
  const decided = Number(counts.decided ?? 0);
  if (employees + open + decided > 0) throw new AppError('departmentNotEmpty', 409, { values: { employees, open, decided } });
  await tx.kysely.deleteFrom('departments').where('company_id', '=', companyId).where('id', '=', current.id).execute();
}
