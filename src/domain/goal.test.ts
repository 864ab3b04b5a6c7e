import { describe, expect, it } from 'vitest';
import { COMPANY_ROLES } from './auth';
import {
  GOAL_ACTIONS,
  GOAL_STATUSES,
  GOAL_TRANSITIONS,
  Goal,
  type GoalAction,
  GoalActionInput,
  type GoalActor,
  GoalInput,
  type GoalStatus,
  type GoalView,
  availableGoalActions,
  canCreateGoal,
  GOAL_CREATE_ROLES,
  canEditGoal,
  goalTransition,
} from './goal';
import { PERMISSIONS } from './permissions';
import { validate } from './validation';

const CUSTOMER = 'user-customer';

function goal(status: GoalStatus, businessCustomerUserId: string | null = CUSTOMER): GoalView {
  return { status, businessCustomerUserId };
}

const ACTORS = {
  owner: { userId: 'user-owner', roles: ['OWNER'] },
  ceo: { userId: 'user-ceo', roles: ['CEO'] },
  businessCustomer: { userId: CUSTOMER, roles: ['EMPLOYEE'] },
  anotherEmployee: { userId: 'user-employee', roles: ['EMPLOYEE'] },
  businessCustomerOwner: { userId: CUSTOMER, roles: ['OWNER'] },
} satisfies Record<string, GoalActor>;
type ActorKind = keyof typeof ACTORS;

/**
 * The expected answer with NO comment, per actor: rows are the goal's state, columns the action, in GOAL_ACTIONS
 * order (TO_WORK, CLARIFICATION, APPROVE, RESEND). F forbidden, W wrongState, OK allowed, COMMENT allowed once a
 * comment is given (commentRequired without it).
 */
const F = 'F';
const W = 'W';
const OK = 'OK';
const COMMENT = 'COMMENT';
type Cell = typeof F | typeof W | typeof OK | typeof COMMENT;
type Grid = Record<GoalStatus, readonly [Cell, Cell, Cell, Cell]>;

const NOBODY: Grid = {
  NEW: [F, F, F, F],
  TO_WORK: [F, F, F, F],
  CLARIFICATION: [F, F, F, F],
  APPROVED: [F, F, F, F],
};

const EXPECTED: Record<ActorKind, Grid> = {
  // The owner approves and resends, but takes no goal to work unless they are its business customer.
  owner: {
    NEW: [F, F, W, W],
    TO_WORK: [F, F, OK, W],
    CLARIFICATION: [F, F, W, OK],
    APPROVED: [F, F, W, W],
  },
  // A CEO may create goals, and takes no action on one.
  ceo: NOBODY,
  businessCustomer: {
    NEW: [OK, COMMENT, F, F],
    TO_WORK: [W, W, F, F],
    CLARIFICATION: [W, W, F, F],
    APPROVED: [W, W, F, F],
  },
  anotherEmployee: NOBODY,
  businessCustomerOwner: {
    NEW: [OK, COMMENT, W, W],
    TO_WORK: [W, W, OK, W],
    CLARIFICATION: [W, W, W, OK],
    APPROVED: [W, W, W, W],
  },
};

const CODE_WITHOUT_COMMENT = { F: 'forbidden', W: 'wrongState', COMMENT: 'commentRequired' } as const;
const TARGET: Record<GoalAction, GoalStatus> = { TO_WORK: 'TO_WORK', CLARIFICATION: 'CLARIFICATION', APPROVE: 'APPROVED', RESEND: 'NEW' };

const CASES = (Object.keys(EXPECTED) as ActorKind[]).flatMap((actor) =>
  GOAL_STATUSES.flatMap((from) => GOAL_ACTIONS.map((action, column) => ({ actor, from, action, cell: EXPECTED[actor][from][column] ?? F }))),
);

describe('goalTransition: every action, from every state, by every kind of actor', () => {
  it('covers 4 actions x 4 states x 5 actors', () => {
    expect(CASES).toHaveLength(80);
  });

  it.each(CASES)('$actor: $action on $from with no comment is $cell', ({ actor, from, action, cell }) => {
    const result = goalTransition(action, goal(from), ACTORS[actor]);
    expect(result).toEqual(cell === OK ? { ok: true, from, to: TARGET[action] } : { ok: false, code: CODE_WITHOUT_COMMENT[cell] });
  });

  it.each(CASES)('$actor: $action on $from with a comment is $cell', ({ actor, from, action, cell }) => {
    const result = goalTransition(action, goal(from), ACTORS[actor], { comment: 'Which line is meant?' });
    const allowed = cell === OK || cell === COMMENT;
    expect(result).toEqual(allowed ? { ok: true, from, to: TARGET[action] } : { ok: false, code: CODE_WITHOUT_COMMENT[cell] });
  });

  it.each(CASES)('$actor on $from is offered $action exactly when it may take it', ({ actor, from, action, cell }) => {
    expect(availableGoalActions(goal(from), ACTORS[actor]).includes(action)).toBe(cell === OK || cell === COMMENT);
  });
});

describe('goalTransition: the business customer', () => {
  it('is nobody when their employee has no account: the goal can be neither taken to work nor questioned', () => {
    const noAccount = goal('NEW', null);
    for (const actor of Object.values(ACTORS)) {
      expect(goalTransition('TO_WORK', noAccount, actor)).toEqual({ ok: false, code: 'forbidden' });
      expect(goalTransition('CLARIFICATION', noAccount, actor, { comment: 'Why?' })).toEqual({ ok: false, code: 'forbidden' });
      expect(availableGoalActions(noAccount, actor)).not.toContain('TO_WORK');
    }
  });

  it('is one user, not a role: the business customer of another goal may not act on this one', () => {
    const elsewhere = goal('NEW', 'user-someone-else');
    expect(goalTransition('TO_WORK', elsewhere, ACTORS.businessCustomer)).toEqual({ ok: false, code: 'forbidden' });
    expect(availableGoalActions(elsewhere, ACTORS.businessCustomer)).toEqual([]);
  });

  it('asks for clarification only with a comment that is more than blanks', () => {
    const asked = (comment: string | null) => goalTransition('CLARIFICATION', goal('NEW'), ACTORS.businessCustomer, { comment });
    expect(asked('  \n\t ')).toEqual({ ok: false, code: 'commentRequired' });
    expect(asked(null)).toEqual({ ok: false, code: 'commentRequired' });
    expect(asked('Which line is meant?')).toEqual({ ok: true, from: 'NEW', to: 'CLARIFICATION' });
  });

  it('is offered both actions on a new goal, in table order', () => {
    expect(availableGoalActions(goal('NEW'), ACTORS.businessCustomer)).toEqual(['TO_WORK', 'CLARIFICATION']);
  });
});

describe('GOAL_TRANSITIONS', () => {
  it('names every action exactly once', () => {
    expect(GOAL_TRANSITIONS.map((rule) => rule.action).sort()).toEqual([...GOAL_ACTIONS].sort());
  });

  it('leaves an approved goal by no action', () => {
    expect(GOAL_TRANSITIONS.filter((rule) => rule.from === 'APPROVED')).toEqual([]);
  });

  it('sends a clarified goal back to NEW, where its business customer decides again', () => {
    const resent = goalTransition('RESEND', goal('CLARIFICATION'), ACTORS.owner);
    expect(resent).toEqual({ ok: true, from: 'CLARIFICATION', to: 'NEW' });
    if (!resent.ok) return;
    expect(availableGoalActions(goal(resent.to), ACTORS.businessCustomer)).toEqual(['TO_WORK', 'CLARIFICATION']);
  });
});

describe('canCreateGoal and canEditGoal', () => {
  it('lets the same roles set a goal as the route permission the server checks first', () => {
    expect([...PERMISSIONS['goal.create']].sort()).toEqual([...GOAL_CREATE_ROLES].sort());
  });

  it('lets OWNER, CEO and TOP_MANAGER create a goal, and no other role', () => {
    for (const role of COMPANY_ROLES) expect(canCreateGoal([role]), role).toBe(role === 'OWNER' || role === 'CEO' || role === 'TOP_MANAGER');
    expect(canCreateGoal([])).toBe(false);
    expect(canCreateGoal(['EMPLOYEE', 'TOP_MANAGER'])).toBe(true);
  });

  it('lets only the OWNER edit, and only a goal not yet taken to work or one waiting on clarification', () => {
    for (const role of COMPANY_ROLES) {
      for (const status of GOAL_STATUSES) {
        const editable = role === 'OWNER' && (status === 'NEW' || status === 'CLARIFICATION');
        expect(canEditGoal([role], { status }), `${role} ${status}`).toBe(editable);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Structs.

const GOOD_INPUT = {
  direction: '  Производство ',
  scope: 'Сборочный цех',
  description: 'Сократить время переналадки линии.\nСейчас 90 минут.',
  expectedResult: 'Переналадка за 30 минут',
  indicator: { value: 30, unitId: 'MINUTES' },
  ownerGoal: 'Выпуск +10 % без новых смен',
  startDate: '2026-03-01',
  endDate: '2026-09-30',
  businessCustomerEmployeeId: '0b6c6f8e-3f2a-4d5e-9f1a-2b3c4d5e6f70',
  process: 'Переналадка линии 2',
};

describe('GoalInput', () => {
  it('accepts a complete goal, its texts trimmed and line breaks kept where text may span lines', () => {
    const result = validate(GoalInput, GOOD_INPUT);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.direction).toBe('Производство');
    expect(result.value.description).toBe(GOOD_INPUT.description);
  });

  it('refuses an end date before the start, on the end date', () => {
    expect(validate(GoalInput, { ...GOOD_INPUT, startDate: '2026-09-30', endDate: '2026-03-01' })).toEqual({ ok: false, errors: { endDate: 'afterStart' } });
  });

  it('refuses an end date equal to the start: the end must be strictly after it', () => {
    expect(validate(GoalInput, { ...GOOD_INPUT, startDate: '2026-03-01', endDate: '2026-03-01' })).toEqual({ ok: false, errors: { endDate: 'afterStart' } });
  });

  it('accepts an end date one day after the start, across a month and a year', () => {
    expect(validate(GoalInput, { ...GOOD_INPUT, startDate: '2026-12-31', endDate: '2027-01-01' }).ok).toBe(true);
  });

  it('refuses impossible and malformed dates as invalid', () => {
    expect(validate(GoalInput, { ...GOOD_INPUT, startDate: '2026-02-30' })).toEqual({ ok: false, errors: { startDate: 'invalid' } });
    expect(validate(GoalInput, { ...GOOD_INPUT, endDate: '2026-02-29' })).toEqual({ ok: false, errors: { endDate: 'invalid' } });
    expect(validate(GoalInput, { ...GOOD_INPUT, endDate: '2026-13-01' })).toEqual({ ok: false, errors: { endDate: 'invalid' } });
    expect(validate(GoalInput, { ...GOOD_INPUT, endDate: '30.09.2026' })).toEqual({ ok: false, errors: { endDate: 'invalid' } });
    expect(validate(GoalInput, { ...GOOD_INPUT, startDate: '2028-02-29', endDate: '2028-03-01' }).ok).toBe(true);
  });

  it('names every missing field required', () => {
    expect(validate(GoalInput, {})).toEqual({
      ok: false,
      errors: {
        direction: 'required',
        scope: 'required',
        description: 'required',
        expectedResult: 'required',
        indicator: 'required',
        ownerGoal: 'required',
        startDate: 'required',
        endDate: 'required',
        businessCustomerEmployeeId: 'required',
        process: 'required',
      },
    });
  });

  it('counts blank text as missing and refuses text over its size', () => {
    expect(validate(GoalInput, { ...GOOD_INPUT, direction: '   ', ownerGoal: '\n' })).toEqual({ ok: false, errors: { direction: 'required', ownerGoal: 'required' } });
    expect(validate(GoalInput, { ...GOOD_INPUT, scope: 'x'.repeat(201) })).toEqual({ ok: false, errors: { scope: 'size' } });
    expect(validate(GoalInput, { ...GOOD_INPUT, scope: 'x'.repeat(200) }).ok).toBe(true);
  });

  it('refuses a line break inside a one-line field', () => {
    expect(validate(GoalInput, { ...GOOD_INPUT, process: 'Переналадка\nлинии' })).toEqual({ ok: false, errors: { process: 'controlCharacters' } });
  });

  it('takes an indicator value of zero or more, finite, with a unit', () => {
    expect(validate(GoalInput, { ...GOOD_INPUT, indicator: { value: 0, unitId: 'HOURS' } }).ok).toBe(true);
    expect(validate(GoalInput, { ...GOOD_INPUT, indicator: { value: 2.5, unitId: 'HOURS' } }).ok).toBe(true);
    expect(validate(GoalInput, { ...GOOD_INPUT, indicator: { value: -1, unitId: 'HOURS' } })).toEqual({ ok: false, errors: { 'indicator.value': 'invalid' } });
    expect(validate(GoalInput, { ...GOOD_INPUT, indicator: { value: Number.POSITIVE_INFINITY, unitId: 'HOURS' } })).toEqual({
      ok: false,
      errors: { 'indicator.value': 'invalid' },
    });
    expect(validate(GoalInput, { ...GOOD_INPUT, indicator: { value: 5, unitId: ' ' } })).toEqual({ ok: false, errors: { 'indicator.unitId': 'required' } });
  });

  it('refuses a business customer that is not an id, and fields it does not know', () => {
    expect(validate(GoalInput, { ...GOOD_INPUT, businessCustomerEmployeeId: 'Иванов' })).toEqual({ ok: false, errors: { businessCustomerEmployeeId: 'invalid' } });
    expect(validate(GoalInput, { ...GOOD_INPUT, status: 'APPROVED' })).toEqual({ ok: false, errors: { status: 'unknown' } });
  });
});

describe('GoalActionInput', () => {
  it('requires a comment to ask for clarification, on the comment field', () => {
    expect(validate(GoalActionInput, { action: 'CLARIFICATION' })).toEqual({ ok: false, errors: { comment: 'required' } });
    expect(validate(GoalActionInput, { action: 'CLARIFICATION', comment: '   ' })).toEqual({ ok: false, errors: { comment: 'required' } });
    expect(validate(GoalActionInput, { action: 'CLARIFICATION', comment: null })).toEqual({ ok: false, errors: { comment: 'required' } });
    expect(validate(GoalActionInput, { action: 'CLARIFICATION', comment: 'Which line?' })).toEqual({ ok: true, value: { action: 'CLARIFICATION', comment: 'Which line?' } });
  });

  it('takes every other action with or without a comment', () => {
    for (const action of GOAL_ACTIONS.filter((candidate) => candidate !== 'CLARIFICATION')) {
      expect(validate(GoalActionInput, { action }).ok, action).toBe(true);
      expect(validate(GoalActionInput, { action, comment: 'Agreed.' }).ok, action).toBe(true);
    }
  });

  it('refuses an action it does not know and a comment over its size', () => {
    expect(validate(GoalActionInput, { action: 'REJECT' })).toEqual({ ok: false, errors: { action: 'invalid' } });
    expect(validate(GoalActionInput, { action: 'TO_WORK', comment: 'x'.repeat(2001) })).toEqual({ ok: false, errors: { comment: 'size' } });
  });
});

describe('Goal (a row of the API and the mirror)', () => {
  const row = {
    ...GOOD_INPUT,
    id: '3f1d0b7a-9c2e-4b8a-8f0e-5a6b7c8d9e01',
    companyId: '7a1d0b7a-9c2e-4b8a-8f0e-5a6b7c8d9e02',
    businessCustomerUserId: null,
    status: 'NEW',
    history: [{ at: '2026-03-01T09:00:00.000Z', action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: 'user-owner', byName: 'Иванов Иван', comment: null }],
    createdBy: 'user-owner',
    createdAt: '2026-03-01T09:00:00.000Z',
    updatedAt: '2026-03-01T09:00:00.000Z',
  };

  it('reads a stored row, with a business customer who has no account', () => {
    expect(validate(Goal, row)).toMatchObject({ ok: true });
  });

  it('refuses a row with a status or history action it does not know', () => {
    expect(validate(Goal, { ...row, status: 'DONE' }).ok).toBe(false);
    expect(validate(Goal, { ...row, history: [{ ...row.history[0], action: 'DELETED' }] }).ok).toBe(false);
  });
});
