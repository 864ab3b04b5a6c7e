// The goal calls of docs/api.md, "Goals" (issue 12). The reads are declared routes (server/route.ts); the writes
// (set, the owner's edit, the actions) are declared as operations (server/operation.ts), so a push batch of the
// outbox runs the same code as the direct call. Who may do what is the goal's own rule (src/domain/goal.ts),
// checked by the service on the goal: at the company's level any active member passes.
import { type } from 'superstruct';
import { canCreateGoal, GOAL_STATUSES, GoalActionInput, GoalInput } from '../../../src/domain/goal';
import { requireReadyToStart } from '../../auth/access';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import { defineOperation, type Operation } from '../../operation';
import { access, defineRoute, idParams, ok, queryEnum, queryId, queryLimit, queryText, type DeclaredRoute } from '../../route';
import { actOnGoal, createGoal, editGoal, listGoals, readGoal } from './service';

export const DEFAULT_GOAL_LIST_LIMIT = 50;
export const MAX_GOAL_LIST_LIMIT = 200;

/** Setting a goal: OWNER, CEO, TOP_MANAGER, once the company may start its improvement flow. */
export const createGoalOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/goals',
  permission: 'goal.create',
  input: GoalInput,
  async run(tx, { user, member, input, locale, once, now }) {
    // The role first: whoever may never set a goal hears so, whatever the company's readiness.
    if (!canCreateGoal(member.roles)) throw new AppError('forbidden', 403);
    await once(`ready:${member.companyId}`, () => requireReadyToStart(tx, member.companyId));
    const data = await createGoal(tx, member, user, input, { once, now });
    return { status: 201, body: { data, message: translate(locale, 'mail.notice.goalCreated') } };
  },
});

/** The owner's edit of a goal that is NEW or waits on their clarification. */
export const editGoalOperation = defineOperation({
  method: 'PATCH',
  path: '/companies/:companyId/goals/:goalId',
  permission: 'goal.act',
  input: GoalInput,
  async run(tx, { user, member, params, input, locale, now }) {
    const outcome = await editGoal(tx, member, user, params.goalId ?? '', input, now);
    return { status: 200, body: { data: outcome.goal, message: translate(locale, outcome.message) } };
  },
});

/** An action of GOAL_TRANSITIONS: to work, for clarification (comment), approve, the owner's resend. */
export const goalActionOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/goals/:goalId/actions',
  permission: 'goal.act',
  input: GoalActionInput,
  async run(tx, { user, member, params, input, locale, once, now }) {
    await once(`ready:${member.companyId}`, () => requireReadyToStart(tx, member.companyId));
    const outcome = await actOnGoal(tx, member, user, params.goalId ?? '', input, now);
    return { status: 200, body: { data: outcome.goal, message: translate(locale, outcome.message) } };
  },
});

/** The writes of this feature the outbox may push in a batch (app.ts lists them in PUSHABLE_OPERATIONS). */
export const GOAL_OPERATIONS: readonly Operation[] = [createGoalOperation, editGoalOperation, goalActionOperation];

const GoalListQuery = type({
  status: queryEnum(GOAL_STATUSES),
  direction: queryText(200),
  businessCustomerEmployeeId: queryId,
  q: queryText(200),
  cursor: queryText(1000),
  limit: queryLimit(DEFAULT_GOAL_LIST_LIMIT, MAX_GOAL_LIST_LIMIT),
});

export const goalRoutes: readonly DeclaredRoute[] = [
  ...GOAL_OPERATIONS.map((operation) => operation.route),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/goals',
    access: access.company('company.read'),
    params: idParams('companyId'),
    query: GoalListQuery,
    handler: async ({ db, member, query }) => ok(await listGoals(db, member, query)),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/goals/:goalId',
    access: access.company('company.read'),
    params: idParams('companyId', 'goalId'),
    handler: async ({ db, member, params }) => ok(await readGoal(db, member, params.goalId)),
  }),
];
