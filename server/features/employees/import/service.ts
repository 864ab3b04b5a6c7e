// Applying a staff list (docs/api.md "Import"). Guarantees: the whole import is one transaction (the
// caller's), so a file either goes in with its report or not at all; every row is validated with the limits
// of src/domain/company.ts; an existing employee is matched by service number, then by e-mail (case
// ignored), and, for a row with neither, by full name among employees who have neither; a matched employee
// gets only the fields that changed (an empty cell changes nothing), so importing the same file again
// creates nothing and changes nothing. Departments are matched by name (case ignored) and created when
// unknown. The SQL is batched (one statement per kind of write, rows as one JSON parameter read by
// jsonb_to_recordset, so no statement nears PostgreSQL's limit of parameters), so 10,000 rows are a handful
// of round trips; the change-feed trigger still fires per written row.

import { randomUUID } from 'node:crypto';
import {
  DEPARTMENT_NAME_MAX,
  EMAIL_MAX,
  IMPORT_FIELDS,
  NAME_MAX,
  POSITION_MAX,
  SERVICE_NUMBER_MAX,
  isEmail,
  type ImportField,
  type ImportPreview,
  type ImportReport,
} from '../../../../src/domain/company';
import type { Locale } from '../../../../src/domain/auth';
import { canEditEmployeeRecord, type Roles } from '../../../../src/domain/permissions';
import { isUuid } from '../../../../src/domain/suggestion';
import { hasControlCharacters, replaceControlCharacters } from '../../../../src/domain/validation';
import { sql, type Selectable } from 'kysely';
import { isUniqueViolation, type Queryable } from '../../../db/database';
import type { DB } from '../../../db/kysely';
import { AppError } from '../../../errors';
import { translate } from '../../../i18n/messages';
import type { Column } from './mapping';
import type { SheetRow } from './parse';

export const PREVIEW_ROWS = 10;

const MAX_LENGTH: Record<ImportField, number> = {
  lastName: NAME_MAX,
  firstName: NAME_MAX,
  middleName: NAME_MAX,
  position: POSITION_MAX,
  email: EMAIL_MAX,
  serviceNumber: SERVICE_NUMBER_MAX,
  department: DEPARTMENT_NAME_MAX,
};

/** The data rows under the header, cut or padded to the header's width. */
export interface Table {
  columns: Column[];
  rows: SheetRow[];
}

export function previewOf(fileName: string, table: Table, missing: ImportField[]): ImportPreview {
  const width = table.columns.length;
  return {
    fileName,
    totalRows: table.rows.length,
    columns: table.columns.map(({ index, header, field }) => ({ index, header, field })),
    sample: table.rows.slice(0, PREVIEW_ROWS).map((r) => Array.from({ length: width }, (_, i) => r.cells[i] ?? '')),
    missingFields: missing,
  };
}

// ---------------------------------------------------------------------------------------------------
// The stored report: codes and values, so that every reader gets the messages in their own language.

export type RowErrorCode =
  | 'required'
  | 'tooLong'
  | 'email'
  | 'controlCharacters'
  | 'duplicateInFile'
  | 'sameEmployee'
  | 'serviceNumberTaken'
  | 'emailTaken'
  | 'protectedEmployee';

export interface StoredRejection {
  row: number;
  code: RowErrorCode;
  field: ImportField | null;
  values: string[];
  params: Record<string, string | number>;
}

export interface StoredReport {
  totalRows: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: StoredRejection[];
  imported: ImportReport['imported'];
}

export function toImportReport(meta: { id: string; companyId: string; fileName: string; createdAt: Date }, report: StoredReport, locale: Locale): ImportReport {
  return {
    id: meta.id,
    companyId: meta.companyId,
    fileName: meta.fileName,
    createdAt: meta.createdAt.toISOString(),
    result: report.rejected.length === 0 ? 'imported' : 'withErrors',
    totalRows: report.totalRows,
    created: report.created,
    updated: report.updated,
    unchanged: report.unchanged,
    rejected: report.rejected.map((r) => ({
      row: r.row,
      code: r.code,
      message: translate(locale, `error.import.${r.code}`, { ...r.params, column: r.field ? translate(locale, `import.field.${r.field}`) : '' }),
      field: r.field,
      values: r.values,
    })),
    imported: report.imported,
  };
}

// ---------------------------------------------------------------------------------------------------
// Applying the rows

type Values = Record<ImportField, string>;

/** The employee columns the import writes (and compares): the `id` and the fields of a file's row. */
const RECORD_FIELDS = ['id', 'last_name', 'first_name', 'middle_name', 'position', 'email', 'service_number', 'department_id'] as const;
type EmployeeRecord = Pick<Selectable<DB['employees']>, (typeof RECORD_FIELDS)[number]>;

/** An employee of the company as the import matches it: its record and its roles (protected records). */
type ExistingEmployee = EmployeeRecord & Pick<Selectable<DB['employees']>, 'roles'>;

/**
 * Rows of one JSON parameter as a table `r` with the employee record's columns: one parameter however many
 * rows. The column definition list is what Kysely cannot write, hence the `sql` fragment (no values in it).
 */
function employeeRecords(records: readonly EmployeeRecord[]) {
  return sql<EmployeeRecord>`jsonb_to_recordset(${JSON.stringify(records.map(toRecord))}::jsonb)`.as<'r'>(
    sql`r(id uuid, last_name text, first_name text, middle_name text, position text, email text, service_number text, department_id uuid)`,
  );
}

/** New departments as a table `d` (id, name), in the same way. */
function departmentRecords(records: readonly { id: string; name: string }[]) {
  return sql<{ id: string; name: string }>`jsonb_to_recordset(${JSON.stringify(records)}::jsonb)`.as<'d'>(sql`d(id uuid, name text)`);
}

const fold = (s: string) => s.toLowerCase();
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
const fullNameOf = (e: { last_name: string; first_name: string; middle_name: string | null }) => [e.last_name, e.first_name, e.middle_name].filter(Boolean).join(' ');
const nameKey = (last: string, first: string, middle: string) => fold([last, first, middle].filter(Boolean).join(' '));

function valuesOf(columns: readonly Column[], cells: readonly string[]): Values {
  const values = Object.fromEntries(IMPORT_FIELDS.map((f) => [f, ''])) as Values;
  for (const column of columns) if (column.field) values[column.field] = collapse(cells[column.index] ?? '');
  return values;
}

/** The first problem of a row on its own (before it is compared with other rows and the database). */
function fieldProblem(values: Values): Pick<StoredRejection, 'code' | 'field' | 'params'> | null {
  for (const field of ['lastName', 'firstName'] as const) {
    if (values[field] === '') return { code: 'required', field, params: {} };
  }
  // The rule of every text the service takes (src/domain/validation.ts); an XLSX can carry NUL as `_x0000_`.
  for (const field of IMPORT_FIELDS) {
    if (hasControlCharacters(values[field])) return { code: 'controlCharacters', field, params: {} };
  }
  for (const field of IMPORT_FIELDS) {
    if (field !== 'email' && values[field].length > MAX_LENGTH[field]) return { code: 'tooLong', field, params: { max: MAX_LENGTH[field] } };
  }
  if (values.email !== '' && !isEmail(values.email)) return { code: 'email', field: 'email', params: { value: values.email } };
  return null;
}

export interface ImportInput {
  companyId: string;
  userId: string;
  /** The importer's roles in the company: an OWNER's or a CEO's row changes only if they may edit it. */
  editorRoles: Roles;
  fileName: string;
  table: Table;
}

/** Applies the rows in `tx` and stores the report; answers the report's id, its time and content. */
export async function importEmployees(tx: Queryable, input: ImportInput): Promise<{ id: string; createdAt: Date; report: StoredReport }> {
  const { companyId, table } = input;
  // Two imports into one company queue up instead of racing for the same service numbers and e-mails.
  await tx.kysely
    .selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.fn('hashtext', [eb.val(`employee-import:${companyId}`)])]).as('locked'))
    .execute();
  const existing: ExistingEmployee[] = await tx.kysely
    .selectFrom('employees')
    .select([...RECORD_FIELDS, 'roles'])
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const departments = await tx.kysely
    .selectFrom('departments')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

  const bySn = new Map<string, ExistingEmployee>();
  const byEmail = new Map<string, ExistingEmployee>();
  const byName = new Map<string, ExistingEmployee[]>();
  for (const e of existing) {
    if (e.service_number !== null) bySn.set(e.service_number, e);
    if (e.email !== null) byEmail.set(fold(e.email), e);
    if (e.service_number === null && e.email === null) {
      const key = nameKey(e.last_name, e.first_name, e.middle_name ?? '');
      byName.set(key, [...(byName.get(key) ?? []), e]);
    }
  }
  const departmentIds = new Map<string, string>();
  for (const d of departments) if (!departmentIds.has(fold(d.name))) departmentIds.set(fold(d.name), d.id);
  const newDepartments = new Map<string, string>();

  const rejected: StoredRejection[] = [];
  const imported: ImportReport['imported'] = [];
  const creates: (EmployeeRecord & { row: number; department: string })[] = [];
  const updates: (EmployeeRecord & { department: string })[] = [];
  const seenSn = new Map<string, number>();
  const seenEmail = new Map<string, number>();
  const claimed = new Map<string, number>();
  let unchanged = 0;

  for (const { row, cells } of table.rows) {
    const values = valuesOf(table.columns, cells);
    // Shown back in the stored report, so made storable (a NUL would fail the whole import).
    const shown = Array.from({ length: table.columns.length }, (_, i) => replaceControlCharacters(cells[i] ?? ''));
    const reject = (problem: Pick<StoredRejection, 'code' | 'field' | 'params'>) => rejected.push({ row, values: shown, ...problem });

    const problem = fieldProblem(values);
    if (problem) {
      reject(problem);
      continue;
    }
    const sn = values.serviceNumber;
    const email = values.email;
    const emailKey = fold(email);
    const snRow = sn ? seenSn.get(sn) : undefined;
    if (snRow !== undefined) {
      reject({ code: 'duplicateInFile', field: 'serviceNumber', params: { row: snRow } });
      continue;
    }
    const emailRow = email ? seenEmail.get(emailKey) : undefined;
    if (emailRow !== undefined) {
      reject({ code: 'duplicateInFile', field: 'email', params: { row: emailRow } });
      continue;
    }

    let match = sn ? bySn.get(sn) : undefined;
    if (!match && email) match = byEmail.get(emailKey);
    if (!match && !sn && !email) {
      match = byName.get(nameKey(values.lastName, values.firstName, values.middleName))?.find((e) => !claimed.has(e.id));
    }
    const emailOwner = email ? byEmail.get(emailKey) : undefined;
    if (match && emailOwner && emailOwner !== match) {
      reject({ code: 'emailTaken', field: 'email', params: { value: email, name: fullNameOf(emailOwner) } });
      continue;
    }
    // Unreachable while service numbers match first; kept so that a change of the order above can never
    // move one employee's service number onto another.
    const snOwner = sn ? bySn.get(sn) : undefined;
    if (match && snOwner && snOwner !== match) {
      reject({ code: 'serviceNumberTaken', field: 'serviceNumber', params: { value: sn, name: fullNameOf(snOwner) } });
      continue;
    }
    const claimedRow = match ? claimed.get(match.id) : undefined;
    if (claimedRow !== undefined) {
      reject({ code: 'sameEmployee', field: null, params: { row: claimedRow } });
      continue;
    }

    if (sn) seenSn.set(sn, row);
    if (email) seenEmail.set(emailKey, row);
    let departmentId: string | null = null;
    if (values.department) {
      const key = fold(values.department);
      departmentId = departmentIds.get(key) ?? null;
      if (!departmentId) {
        departmentId = newDepartments.get(key) ?? randomUUID();
        newDepartments.set(key, departmentId);
      }
    }
    const fullName = [values.lastName, values.firstName, values.middleName].filter(Boolean).join(' ');

    if (!match) {
      const id = randomUUID();
      creates.push({
        row,
        id,
        last_name: values.lastName,
        first_name: values.firstName,
        middle_name: values.middleName || null,
        position: values.position || null,
        email: email || null,
        service_number: sn || null,
        department_id: departmentId,
        department: values.department,
      });
      imported.push({ row, employeeId: id, fullName, action: 'created' });
      continue;
    }
    claimed.set(match.id, row);
    // An empty cell (or a column the file does not have) leaves the stored value as it is.
    const next: EmployeeRecord = {
      id: match.id,
      last_name: values.lastName,
      first_name: values.firstName,
      middle_name: values.middleName || match.middle_name,
      position: values.position || match.position,
      // An e-mail differing only in case is the same address: the stored spelling stays.
      email: email && (match.email === null || fold(match.email) !== emailKey) ? email : match.email,
      service_number: sn || match.service_number,
      department_id: departmentId ?? match.department_id,
    };
    const changed = (Object.keys(next) as (keyof EmployeeRecord)[]).some((k) => next[k] !== match[k]);
    // As PATCH: HR's file may list the OWNER and the CEO (unchanged rows pass), but not change their records.
    if (changed && !canEditEmployeeRecord(input.editorRoles, match.roles)) {
      reject({ code: 'protectedEmployee', field: null, params: { name: fullNameOf(match) } });
      continue;
    }
    if (changed) updates.push({ ...next, department: values.department });
    else unchanged += 1;
    imported.push({ row, employeeId: match.id, fullName: changed ? fullName : fullNameOf(match), action: changed ? 'updated' : 'unchanged' });
  }

  try {
    if (newDepartments.size > 0) {
      // The department's display name is the spelling of the first row that named it.
      const names = new Map<string, string>();
      for (const r of [...creates, ...updates]) if (r.department && !names.has(fold(r.department))) names.set(fold(r.department), r.department);
      const rows = [...newDepartments].map(([key, id]) => ({ id, name: names.get(key) ?? key }));
      await tx.kysely
        .insertInto('departments')
        .columns(['company_id', 'id', 'name'])
        .expression(
          tx.kysely
            .selectFrom(departmentRecords(rows))
            .select((eb) => [eb.val(companyId).as('company_id'), 'd.id', 'd.name']),
        )
        .execute();
    }
    if (creates.length > 0) {
      await tx.kysely
        .insertInto('employees')
        .columns(['company_id', ...RECORD_FIELDS, 'imported'])
        .expression(
          tx.kysely
            .selectFrom(employeeRecords(creates))
            .select((eb) => [
              eb.val(companyId).as('company_id'),
              'r.id',
              'r.last_name',
              'r.first_name',
              'r.middle_name',
              'r.position',
              'r.email',
              'r.service_number',
              'r.department_id',
              eb.lit(true).as('imported'),
            ]),
        )
        .execute();
    }
    if (updates.length > 0) {
      await tx.kysely
        .updateTable('employees as e')
        .from(employeeRecords(updates))
        .set((eb) => ({
          last_name: eb.ref('r.last_name'),
          first_name: eb.ref('r.first_name'),
          middle_name: eb.ref('r.middle_name'),
          position: eb.ref('r.position'),
          email: eb.ref('r.email'),
          service_number: eb.ref('r.service_number'),
          department_id: eb.ref('r.department_id'),
          updated_at: eb.fn<Date>('now'),
        }))
        .where('e.company_id', '=', companyId)
        .whereRef('e.id', '=', 'r.id')
        .execute();
    }
  } catch (error) {
    // Only a write made by someone else since the rows were read (the import itself never collides).
    if (isUniqueViolation(error)) throw new AppError('importConflict', 409);
    throw error;
  }

  const report: StoredReport = {
    totalRows: table.rows.length,
    created: creates.length,
    updated: updates.length,
    unchanged,
    rejected,
    imported,
  };
  const stored = await tx.kysely
    .insertInto('employee_imports')
    .values({ company_id: companyId, created_by: input.userId, file_name: input.fileName, report: JSON.stringify(report) })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: stored.id, createdAt: stored.created_at, report };
}

function toRecord(r: EmployeeRecord): EmployeeRecord {
  return {
    id: r.id,
    last_name: r.last_name,
    first_name: r.first_name,
    middle_name: r.middle_name,
    position: r.position,
    email: r.email,
    service_number: r.service_number,
    department_id: r.department_id,
  };
}

/** A stored report of the company, or null (a malformed id too). */
export async function readImport(db: Queryable, companyId: string, importId: string): Promise<{ id: string; companyId: string; fileName: string; createdAt: Date; report: StoredReport } | null> {
  if (!isUuid(importId)) return null;
  const row = await db.kysely
    .selectFrom('employee_imports')
    // The column holds only what importEmployees stored: a StoredReport, never anything a client sent.
    .select((eb) => ['id', 'file_name', 'created_at', eb.ref('report').$castTo<StoredReport>().as('report')])
    .where('company_id', '=', companyId)
    .where('id', '=', importId.toLowerCase())
    .executeTakeFirst();
  return row ? { id: row.id, companyId, fileName: row.file_name, createdAt: row.created_at, report: row.report } : null;
}
