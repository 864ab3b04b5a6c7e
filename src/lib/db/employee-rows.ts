// A fast check of mirrored employee rows. Screens read every employee of a company at once (10,000 and more),
// and superstruct's `EmployeeRow.is` costs several microseconds a row; this is the same rule written out by
// hand, about ten times faster. Its test (employee-rows.test.ts) checks that both agree on generated rows, so
// a change of the struct that is not made here fails there.
import type { EmployeeRow } from '../../domain/suggestion';
import type { RowCheck } from './rows';

const isString = (value: unknown): value is string => typeof value === 'string';
const isNullableString = (value: unknown): value is string | null => value === null || typeof value === 'string';

export function isEmployeeRow(value: unknown): value is EmployeeRow {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  const { roles } = row;
  return (
    isString(row.id) &&
    isString(row.companyId) &&
    isNullableString(row.userId) &&
    isString(row.lastName) &&
    isString(row.firstName) &&
    isNullableString(row.middleName) &&
    isNullableString(row.position) &&
    isNullableString(row.email) &&
    isNullableString(row.serviceNumber) &&
    isNullableString(row.departmentId) &&
    Array.isArray(roles) &&
    roles.every(isString) &&
    typeof row.active === 'boolean' &&
    typeof row.imported === 'boolean' &&
    (row.invitedAt === undefined || isNullableString(row.invitedAt)) &&
    isString(row.createdAt) &&
    isString(row.updatedAt)
  );
}

/** `isEmployeeRow` in the shape `checkRows` takes. */
export const EmployeeRowCheck: RowCheck<EmployeeRow> = { is: isEmployeeRow };
