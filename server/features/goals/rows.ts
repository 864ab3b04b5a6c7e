// A goal row as the API and the pull carry it (src/domain/goal.ts `Goal`): one select for every read (the
// service's, the sync's), with the user account of the business customer's employee record joined in.

import type { Goal, GoalHistoryEntry, GoalStatus } from '../../../src/domain/goal';
import type { Queryable } from '../../db/database';

/** The columns the schema keeps narrower than its types say (the migration's CHECKs). */
type Narrowed = { status: GoalStatus; history: GoalHistoryEntry[] };

/** Every column of a goal (`g`) and `business_customer_user_id`. */
export function selectGoals(db: Queryable) {
  return db.kysely
    .selectFrom('goals as g')
    .leftJoin('employees as bc', (join) => join.onRef('bc.company_id', '=', 'g.company_id').onRef('bc.id', '=', 'g.business_customer_employee_id'))
    .selectAll('g')
    .select('bc.user_id as business_customer_user_id')
    .$narrowType<Narrowed>();
}

export type GoalRow = Awaited<ReturnType<ReturnType<typeof selectGoals>['executeTakeFirstOrThrow']>>;

export function toGoal(row: GoalRow): Goal {
  return {
    id: row.id,
    companyId: row.company_id,
    direction: row.direction,
    scope: row.scope,
    description: row.description,
    expectedResult: row.expected_result,
    indicator: { value: row.indicator_value, unitId: row.indicator_unit },
    ownerGoal: row.owner_goal,
    startDate: row.start_date,
    endDate: row.end_date,
    businessCustomerEmployeeId: row.business_customer_employee_id,
    businessCustomerUserId: row.business_customer_user_id ?? null,
    process: row.process,
    status: row.status,
    history: row.history,
    createdBy: row.created_by ?? '',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
