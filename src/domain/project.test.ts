import { describe, expect, it } from 'vitest';
import type { MemberView } from './permissions';
import {
  PROJECT_FILTER_STATUSES,
  PROJECT_LIST_FILTERS,
  PROJECT_STATUSES,
  PROJECT_TRANSITIONS,
  type ProjectStatus,
  type ProjectTransitionFields,
  ProjectInput,
  ProjectTransitionInput,
  type ProjectView,
  availableProjectTransitions,
  projectMatchesFilter,
  projectTransition,
} from './project';
import { validate } from './validation';

const MANAGER = 'user-manager';
const DEPARTMENT = 'dept-production';

function project(status: ProjectStatus, departmentId: string | null = DEPARTMENT): ProjectView {
  return { status, projectManagerUserId: MANAGER, departmentId };
}

const ACTORS = {
  projectManager: { userId: MANAGER, roles: ['EMPLOYEE'], headOfDepartmentIds: [] },
  headOfItsDepartment: { userId: 'user-head', roles: ['MIDDLE_MANAGER'], headOfDepartmentIds: [DEPARTMENT] },
  headOfAnother: { userId: 'user-other-head', roles: ['MIDDLE_MANAGER'], headOfDepartmentIds: ['dept-logistics'] },
  financialSpecialist: { userId: 'user-finspec', roles: ['FINANCIAL_SPECIALIST'], headOfDepartmentIds: [] },
  financialDirector: { userId: 'user-findir', roles: ['FINANCIAL_DIRECTOR'], headOfDepartmentIds: [] },
  directionManager: { userId: 'user-direction', roles: ['DIRECTION_MANAGER'], headOfDepartmentIds: [] },
  owner: { userId: 'user-owner', roles: ['OWNER', 'CEO'], headOfDepartmentIds: [] },
  employee: { userId: 'user-employee', roles: ['EMPLOYEE'], headOfDepartmentIds: [] },
} satisfies Record<string, MemberView>;
type ActorKind = keyof typeof ACTORS;

/** Everything any move may need. */
const FULL_INPUT: ProjectTransitionFields = {
  comment: 'Recount the costs of the new press.',
  estimatedCostsMinor: 50_000_00,
  expectedEffect12mMinor: 1_200_000_00,
  actualCompletionDate: '2025-06-30',
  actualEffect12mMinor: 1_350_000_00,
};

/**
 * The expected answer with NO input, per actor: rows are the project's state, columns the target, in
 * PROJECT_STATUSES order (NEW, CALCULATING, CALCULATED, APPROVED, FOR_REVISION, COMPLETED).
 * F forbidden, W wrongState, OK allowed, COMMENT / CALC / DONE: allowed once the reason / calculation / completion
 * is given (commentRequired, calculationRequired, completionRequired without it).
 */
const F = 'F';
const W = 'W';
const OK = 'OK';
const COMMENT = 'COMMENT';
const CALC = 'CALC';
const DONE = 'DONE';
type Cell = typeof F | typeof W | typeof OK | typeof COMMENT | typeof CALC | typeof DONE;
type Grid = Record<ProjectStatus, readonly [Cell, Cell, Cell, Cell, Cell, Cell]>;

const NOBODY: Grid = {
  NEW: [F, F, F, F, F, F],
  CALCULATING: [F, F, F, F, F, F],
  CALCULATED: [F, F, F, F, F, F],
  APPROVED: [F, F, F, F, F, F],
  FOR_REVISION: [F, F, F, F, F, F],
  COMPLETED: [F, F, F, F, F, F],
};

const FINANCE: Grid = {
  NEW: [F, F, W, F, F, F],
  CALCULATING: [F, F, CALC, F, F, F],
  CALCULATED: [F, F, W, F, F, F],
  APPROVED: [F, F, W, F, F, F],
  FOR_REVISION: [F, F, W, F, F, F],
  COMPLETED: [F, F, W, F, F, F],
};

const EXPECTED: Record<ActorKind, Grid> = {
  projectManager: {
    NEW: [F, OK, F, F, F, W],
    CALCULATING: [F, W, F, F, F, W],
    CALCULATED: [F, W, F, F, F, W],
    APPROVED: [F, W, F, F, F, DONE],
    FOR_REVISION: [F, OK, F, F, F, W],
    COMPLETED: [F, W, F, F, F, W],
  },
  headOfItsDepartment: {
    NEW: [F, OK, F, F, F, F],
    CALCULATING: [F, W, F, F, F, F],
    CALCULATED: [F, W, F, F, F, F],
    APPROVED: [F, W, F, F, F, F],
    // Only the project manager resends a project returned for revision.
    FOR_REVISION: [F, F, F, F, F, F],
    COMPLETED: [F, W, F, F, F, F],
  },
  headOfAnother: NOBODY,
  financialSpecialist: FINANCE,
  financialDirector: FINANCE,
  directionManager: {
    NEW: [F, F, F, W, W, F],
    CALCULATING: [F, F, F, W, W, F],
    CALCULATED: [F, F, F, OK, COMMENT, F],
    APPROVED: [F, F, F, W, W, F],
    FOR_REVISION: [F, F, F, W, W, F],
    COMPLETED: [F, F, F, W, W, F],
  },
  owner: NOBODY,
  employee: NOBODY,
};

const CODE_WITHOUT_INPUT = { F: 'forbidden', W: 'wrongState', COMMENT: 'commentRequired', CALC: 'calculationRequired', DONE: 'completionRequired' } as const;

const CASES = (Object.keys(EXPECTED) as ActorKind[]).flatMap((actor) =>
  PROJECT_STATUSES.flatMap((from) => PROJECT_STATUSES.map((to, column) => ({ actor, from, to, cell: EXPECTED[actor][from][column] ?? F }))),
);

describe('projectTransition: every target, from every state, by every kind of actor', () => {
  it('covers 6 targets x 6 states x 8 actors', () => {
    expect(CASES).toHaveLength(288);
  });

  it.each(CASES)('$actor: $from -> $to with no input is $cell', ({ actor, from, to, cell }) => {
    const result = projectTransition(to, project(from), ACTORS[actor], {});
    expect(result).toEqual(cell === OK ? { ok: true, from, to } : { ok: false, code: CODE_WITHOUT_INPUT[cell] });
  });

  it.each(CASES)('$actor: $from -> $to with every input given is $cell', ({ actor, from, to, cell }) => {
    const result = projectTransition(to, project(from), ACTORS[actor], FULL_INPUT);
    const allowed = cell === OK || cell === COMMENT || cell === CALC || cell === DONE;
    expect(result).toEqual(allowed ? { ok: true, from, to } : { ok: false, code: CODE_WITHOUT_INPUT[cell] });
  });

  it.each(CASES)('$actor in $from is offered exactly the targets it may move to', ({ actor, from, to, cell }) => {
    expect(availableProjectTransitions(project(from), ACTORS[actor]).includes(to)).toBe(cell !== F && cell !== W);
  });
});

describe('projectTransition: the input each move needs', () => {
  const direction = ACTORS.directionManager;
  const finspec = ACTORS.financialSpecialist;
  const manager = ACTORS.projectManager;

  it('returns for revision only with a reason that is more than blanks', () => {
    expect(projectTransition('FOR_REVISION', project('CALCULATED'), direction, { comment: '  \n ' })).toEqual({ ok: false, code: 'commentRequired' });
    expect(projectTransition('FOR_REVISION', project('CALCULATED'), direction, { comment: null })).toEqual({ ok: false, code: 'commentRequired' });
    expect(projectTransition('FOR_REVISION', project('CALCULATED'), direction, { comment: 'Effect overstated' })).toEqual({ ok: true, from: 'CALCULATED', to: 'FOR_REVISION' });
  });

  it('calculates only with both the estimated costs and the expected effect; zero counts as given', () => {
    expect(projectTransition('CALCULATED', project('CALCULATING'), finspec, { estimatedCostsMinor: 100 })).toEqual({ ok: false, code: 'calculationRequired' });
    expect(projectTransition('CALCULATED', project('CALCULATING'), finspec, { expectedEffect12mMinor: 100 })).toEqual({ ok: false, code: 'calculationRequired' });
    expect(projectTransition('CALCULATED', project('CALCULATING'), finspec, { estimatedCostsMinor: 0, expectedEffect12mMinor: 0 })).toEqual({
      ok: true,
      from: 'CALCULATING',
      to: 'CALCULATED',
    });
  });

  it('completes only with both the actual completion date and the actual effect', () => {
    expect(projectTransition('COMPLETED', project('APPROVED'), manager, { actualCompletionDate: '2025-06-30' })).toEqual({ ok: false, code: 'completionRequired' });
    expect(projectTransition('COMPLETED', project('APPROVED'), manager, { actualEffect12mMinor: 5 })).toEqual({ ok: false, code: 'completionRequired' });
    expect(projectTransition('COMPLETED', project('APPROVED'), manager, { actualCompletionDate: '2025-06-30', actualEffect12mMinor: 0 })).toEqual({
      ok: true,
      from: 'APPROVED',
      to: 'COMPLETED',
    });
  });

  it('answers forbidden before wrongState, and wrongState before missing input', () => {
    expect(projectTransition('FOR_REVISION', project('NEW'), ACTORS.employee, {})).toEqual({ ok: false, code: 'forbidden' });
    expect(projectTransition('FOR_REVISION', project('APPROVED'), direction, {})).toEqual({ ok: false, code: 'wrongState' });
  });
});

describe('projectTransition: who the actor is', () => {
  it('makes no one a department head of a project without a department', () => {
    expect(projectTransition('CALCULATING', project('NEW', null), ACTORS.headOfItsDepartment, {})).toEqual({ ok: false, code: 'forbidden' });
    expect(projectTransition('CALCULATING', project('NEW', null), ACTORS.projectManager, {})).toEqual({ ok: true, from: 'NEW', to: 'CALCULATING' });
  });

  it('lets one person act in each of their parts: a financial director who manages the project', () => {
    const both: MemberView = { userId: MANAGER, roles: ['FINANCIAL_DIRECTOR'], headOfDepartmentIds: [] };
    expect(availableProjectTransitions(project('NEW'), both)).toEqual(['CALCULATING']);
    expect(availableProjectTransitions(project('CALCULATING'), both)).toEqual(['CALCULATED']);
    expect(availableProjectTransitions(project('APPROVED'), both)).toEqual(['COMPLETED']);
  });

  it('offers the direction manager both decisions on a calculated project, in table order', () => {
    expect(availableProjectTransitions(project('CALCULATED'), ACTORS.directionManager)).toEqual(['APPROVED', 'FOR_REVISION']);
    expect(availableProjectTransitions(project('COMPLETED'), ACTORS.directionManager)).toEqual([]);
  });

  it('names each (from, to) pair once in the table', () => {
    const pairs = PROJECT_TRANSITIONS.map((rule) => `${rule.from}->${rule.to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });
});

describe('ProjectTransitionInput', () => {
  it('asks per field for what the target needs', () => {
    expect(validate(ProjectTransitionInput, { to: 'FOR_REVISION' })).toEqual({ ok: false, errors: { comment: 'required' } });
    expect(validate(ProjectTransitionInput, { to: 'FOR_REVISION', comment: '   ' })).toEqual({ ok: false, errors: { comment: 'required' } });
    expect(validate(ProjectTransitionInput, { to: 'CALCULATED', estimatedCostsMinor: null })).toEqual({
      ok: false,
      errors: { estimatedCostsMinor: 'required', expectedEffect12mMinor: 'required' },
    });
    expect(validate(ProjectTransitionInput, { to: 'COMPLETED', actualEffect12mMinor: 10 })).toEqual({ ok: false, errors: { actualCompletionDate: 'required' } });
  });

  it('accepts a move with what it needs, and a comment with any move', () => {
    expect(validate(ProjectTransitionInput, { to: 'CALCULATING' })).toEqual({ ok: true, value: { to: 'CALCULATING' } });
    expect(validate(ProjectTransitionInput, { to: 'APPROVED', comment: 'Good value' })).toEqual({ ok: true, value: { to: 'APPROVED', comment: 'Good value' } });
    const calculated = { to: 'CALCULATED', estimatedCostsMinor: 0, expectedEffect12mMinor: 120_000_00 };
    expect(validate(ProjectTransitionInput, calculated)).toEqual({ ok: true, value: calculated });
    const completed = { to: 'COMPLETED', actualCompletionDate: '2024-02-29', actualEffect12mMinor: 1 };
    expect(validate(ProjectTransitionInput, completed)).toEqual({ ok: true, value: completed });
  });

  it('refuses fractions and negatives of minor units, dates that do not exist, unknown targets and fields', () => {
    expect(validate(ProjectTransitionInput, { to: 'CALCULATED', estimatedCostsMinor: -1, expectedEffect12mMinor: 10.5 })).toEqual({
      ok: false,
      errors: { estimatedCostsMinor: 'invalid', expectedEffect12mMinor: 'invalid' },
    });
    for (const date of ['2025-02-29', '2025-13-01', '30.06.2025', '2025-06-30T00:00:00Z']) {
      expect(validate(ProjectTransitionInput, { to: 'COMPLETED', actualCompletionDate: date, actualEffect12mMinor: 1 }), date).toEqual({
        ok: false,
        errors: { actualCompletionDate: 'invalid' },
      });
    }
    expect(validate(ProjectTransitionInput, { to: 'ARCHIVED' })).toEqual({ ok: false, errors: { to: 'invalid' } });
    expect(validate(ProjectTransitionInput, { to: 'APPROVED', approved: true })).toEqual({ ok: false, errors: { approved: 'unknown' } });
  });

  it('agrees with projectTransition on what is missing, for every target', () => {
    const refusalFields: Record<string, string[]> = {
      commentRequired: ['comment'],
      calculationRequired: ['estimatedCostsMinor', 'expectedEffect12mMinor'],
      completionRequired: ['actualCompletionDate', 'actualEffect12mMinor'],
    };
    for (const rule of PROJECT_TRANSITIONS) {
      const actor = ACTORS[(Object.keys(EXPECTED) as ActorKind[]).find((kind) => availableProjectTransitions(project(rule.from), ACTORS[kind]).includes(rule.to)) ?? 'employee'];
      const result = projectTransition(rule.to, project(rule.from), actor, {});
      const validated = validate(ProjectTransitionInput, { to: rule.to });
      const missing = validated.ok ? [] : Object.keys(validated.errors);
      expect(missing, `${rule.from} -> ${rule.to}`).toEqual((result.ok ? undefined : refusalFields[result.code]) ?? []);
    }
  });
});

describe('PROJECT_LIST_FILTERS', () => {
  it('maps the filters of spec section 4 to statuses', () => {
    expect(PROJECT_FILTER_STATUSES).toEqual({
      all: ['NEW', 'CALCULATING', 'CALCULATED', 'APPROVED', 'FOR_REVISION', 'COMPLETED'],
      calculating: ['CALCULATING', 'CALCULATED'],
      approved: ['APPROVED', 'COMPLETED'],
      forRevision: ['FOR_REVISION'],
      new: ['NEW'],
    });
  });

  it('puts every status under all and under exactly one other filter', () => {
    for (const status of PROJECT_STATUSES) {
      expect(projectMatchesFilter(status, 'all')).toBe(true);
      expect(PROJECT_LIST_FILTERS.filter((filter) => filter !== 'all' && projectMatchesFilter(status, filter)), status).toHaveLength(1);
    }
  });
});

describe('ProjectInput payments', () => {
  it('refuses employee ids of the wrong type as field errors, never by throwing', () => {
    const payments = [
      { employeeId: 7, amountMinor: 1 },
      { employeeId: 7, amountMinor: 1 },
    ];
    expect(() => validate(ProjectInput, { payments })).not.toThrow();
    expect(validate(ProjectInput, { payments }).ok).toBe(false);
  });
});
