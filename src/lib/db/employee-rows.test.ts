import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EmployeeRow } from '../../domain/suggestion';
import { isEmployeeRow } from './employee-rows';

const FIELDS = {
  id: 'string',
  companyId: 'string',
  userId: 'nullableString',
  lastName: 'string',
  firstName: 'string',
  middleName: 'nullableString',
  position: 'nullableString',
  email: 'nullableString',
  serviceNumber: 'nullableString',
  departmentId: 'nullableString',
  roles: 'strings',
  active: 'boolean',
  imported: 'boolean',
  invitedAt: 'optionalNullableString',
  createdAt: 'string',
  updatedAt: 'string',
} as const;

/** A value of the field's kind most of the time, now and then anything else (or nothing). */
function fieldValue(kind: (typeof FIELDS)[keyof typeof FIELDS]): fc.Arbitrary<unknown> {
  const valid: fc.Arbitrary<unknown> =
    kind === 'string'
      ? fc.string()
      : kind === 'boolean'
        ? fc.boolean()
        : kind === 'strings'
          ? fc.array(fc.string(), { maxLength: 3 })
          : fc.option(fc.string(), { nil: null });
  return fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: fc.anything() }, { weight: 1, arbitrary: fc.array(fc.oneof(fc.string(), fc.integer())) });
}

const rowLike = fc.record(
  Object.fromEntries(Object.entries(FIELDS).map(([name, kind]) => [name, fieldValue(kind)])) as Record<keyof typeof FIELDS, fc.Arbitrary<unknown>>,
  { requiredKeys: Object.keys(FIELDS).filter((name) => name !== 'invitedAt') as (keyof typeof FIELDS)[] },
);

/**
 * The struct's verdict. Superstruct throws (while describing the failure) on a few odd values, such as an
 * object whose `toString` is not a function; such a value is no row, and the fast check says so.
 */
function structAccepts(value: unknown): boolean {
  try {
    return EmployeeRow.is(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return false;
  }
}

describe('the fast employee row check', () => {
  it('agrees with the EmployeeRow struct on generated rows, valid and broken', () => {
    fc.assert(
      fc.property(rowLike, fc.dictionary(fc.string(), fc.anything(), { maxKeys: 2 }), (row, extra) => {
        const value = { ...extra, ...row };
        expect(isEmployeeRow(value)).toBe(structAccepts(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on values that are not rows at all', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(isEmployeeRow(value)).toBe(structAccepts(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('takes a full row, with or without invitedAt, and refuses one broken field', () => {
    const row = {
      id: 'e1',
      companyId: 'c1',
      userId: null,
      lastName: 'Иванов',
      firstName: 'Иван',
      middleName: null,
      position: null,
      email: null,
      serviceNumber: null,
      departmentId: null,
      roles: ['EMPLOYEE'],
      active: true,
      imported: false,
      createdAt: 'x',
      updatedAt: 'y',
    };
    expect(isEmployeeRow(row)).toBe(true);
    expect(isEmployeeRow({ ...row, invitedAt: '2026-01-01' })).toBe(true);
    expect(isEmployeeRow({ ...row, roles: 'EMPLOYEE' })).toBe(false);
    expect(isEmployeeRow({ ...row, active: 'true' })).toBe(false);
    expect(isEmployeeRow({ ...row, lastName: null })).toBe(false);
  });
});
