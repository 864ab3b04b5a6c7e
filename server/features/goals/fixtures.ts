// Test fixtures of goals: employees written straight to the database, and a goal's body as the API takes it.
// Companies and signed-in members come from the proposals' fixtures (../suggestions/fixtures).

import type { Database } from '../../db/database';

/** The employee record of `userId` in `companyId` (createCompany writes one per member). */
export async function employeeIdOf(db: Database, companyId: string, userId: string): Promise<string> {
  const row = await db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2', [companyId, userId]);
  if (!row) throw new Error(`no employee of ${userId}`);
  return row.id;
}

/** An employee of `companyId` with no user account (or inactive), as HR's import writes them. */
export async function addEmployee(db: Database, companyId: string, options: { active?: boolean; lastName?: string } = {}): Promise<string> {
  const row = await db.one<{ id: string }>('INSERT INTO employees (company_id, last_name, first_name, active) VALUES ($1, $2, $3, $4) RETURNING id', [
    companyId,
    options.lastName ?? 'Безучётный',
    'Пётр',
    options.active ?? true,
  ]);
  if (!row) throw new Error('no employee');
  return row.id;
}

/** A valid `GoalInput` for the business customer `employeeId`, with `overrides`. */
export function goalBody(employeeId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    direction: 'Производство',
    scope: 'Переналадка линии',
    description: 'Переналадка линии занимает слишком много времени.',
    expectedResult: 'Переналадка за 20 минут.',
    indicator: { value: 20, unitId: 'MINUTES' },
    ownerGoal: 'Больше выпуска на той же линии.',
    startDate: '2026-12-01',
    endDate: '2027-03-31',
    businessCustomerEmployeeId: employeeId,
    process: 'Переналадка',
    ...overrides,
  };
}
