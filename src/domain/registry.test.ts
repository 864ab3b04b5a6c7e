import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPANY_ROLES, type CompanyRole } from './auth';
import {
  REGISTRY_ACTIONS,
  REGISTRY_STATUSES,
  REGISTRY_TRANSITIONS,
  RegistryApproveInput,
  RegistryReturnInput,
  RegistrySendInput,
  availableRegistryActions,
  finalCostOf,
  ratioBasisPoints,
  registryTotals,
  registryTransition,
  type RegistryAction,
  type RegistryItemFigures,
  type RegistryStatus,
} from './registry';
import { CURRENCIES } from './suggestion';
import { validate } from './validation';

const ID = '00000000-0000-4000-8000-000000000001';

describe('the registry transition table', () => {
  it('names every action exactly once', () => {
    expect(REGISTRY_TRANSITIONS.map((rule) => rule.action).sort()).toEqual([...REGISTRY_ACTIONS].sort());
  });

  // The one table, as a grid: who may take which action from which state (a role alone, with a comment and one
  // project). F forbidden, W wrong state, the target state when allowed.
  const EXPECTED: Record<RegistryAction, { roles: readonly CompanyRole[]; from: RegistryStatus; to: RegistryStatus }> = {
    SEND: { roles: ['DIRECTION_MANAGER', 'FINANCIAL_DIRECTOR'], from: 'OPEN', to: 'SENT' },
    APPROVE: { roles: ['OWNER'], from: 'SENT', to: 'APPROVED' },
    RETURN: { roles: ['OWNER'], from: 'SENT', to: 'RETURNED' },
  };

  for (const action of REGISTRY_ACTIONS) {
    it(`allows ${action} only to its roles and only from its state`, () => {
      const expected = EXPECTED[action];
      for (const role of COMPANY_ROLES) {
        for (const status of REGISTRY_STATUSES) {
          const result = registryTransition(action, { status, projectCount: 1 }, [role], { comment: 'Recount the press line' });
          const want = !expected.roles.includes(role) ? { ok: false, code: 'forbidden' } : status !== expected.from ? { ok: false, code: 'wrongState' } : { ok: true, from: status, to: expected.to };
          expect(result, `${action} by ${role} from ${status}`).toEqual(want);
        }
      }
    });
  }

  it('refuses in a fixed order: forbidden, wrong state, then the missing input', () => {
    expect(registryTransition('RETURN', { status: 'OPEN', projectCount: 0 }, ['EMPLOYEE'])).toEqual({ ok: false, code: 'forbidden' });
    expect(registryTransition('RETURN', { status: 'OPEN', projectCount: 0 }, ['OWNER'])).toEqual({ ok: false, code: 'wrongState' });
    expect(registryTransition('RETURN', { status: 'SENT', projectCount: 3 }, ['OWNER'], { comment: '   ' })).toEqual({ ok: false, code: 'commentRequired' });
    expect(registryTransition('SEND', { status: 'OPEN', projectCount: 0 }, ['FINANCIAL_DIRECTOR'])).toEqual({ ok: false, code: 'empty' });
    expect(registryTransition('APPROVE', { status: 'APPROVED', projectCount: 3 }, ['OWNER'])).toEqual({ ok: false, code: 'wrongState' });
  });

  it('offers exactly the actions the table accepts (given a comment)', () => {
    for (const status of REGISTRY_STATUSES) {
      for (const projectCount of [0, 2]) {
        for (const role of COMPANY_ROLES) {
          const offered = availableRegistryActions({ status, projectCount }, [role]);
          const accepted = REGISTRY_ACTIONS.filter((action) => registryTransition(action, { status, projectCount }, [role], { comment: 'Why' }).ok);
          expect(offered, `${role} on ${status} with ${projectCount}`).toEqual(accepted);
        }
      }
    }
  });
});

const item = (fields: Partial<RegistryItemFigures> = {}): RegistryItemFigures => ({
  projectId: ID,
  currency: 'RUB',
  estimatedCostsMinor: 100_000_00,
  expectedEffect12mMinor: 1_000_000_00,
  remunerationMinor: 50_000_00,
  finalCostMinor: null,
  ...fields,
});

describe('registryTotals', () => {
  it('sums per currency, in CURRENCIES order, with the adjusted costs flowing into the final costs', () => {
    const totals = registryTotals([
      item({ currency: 'USD', estimatedCostsMinor: 1_000_00, expectedEffect12mMinor: 9_000_00, remunerationMinor: 500_00 }),
      item(),
      item({ estimatedCostsMinor: 200_000_00, finalCostMinor: 150_000_00, expectedEffect12mMinor: 500_000_00, remunerationMinor: 25_000_00 }),
    ]);
    expect(totals).toEqual([
      { currency: 'RUB', projects: 2, estimatedCostsMinor: 300_000_00, finalCostsMinor: 250_000_00, expectedEffect12mMinor: 1_500_000_00, remunerationMinor: 75_000_00 },
      { currency: 'USD', projects: 1, estimatedCostsMinor: 1_000_00, finalCostsMinor: 1_000_00, expectedEffect12mMinor: 9_000_00, remunerationMinor: 500_00 },
    ]);
    expect(registryTotals([])).toEqual([]);
  });

  it('agrees with a plain sum of every field for any items (property)', () => {
    const amount = fc.integer({ min: 0, max: 2 ** 40 });
    const anItem = fc.record({
      projectId: fc.constant(ID),
      currency: fc.constantFrom(...CURRENCIES),
      estimatedCostsMinor: amount,
      expectedEffect12mMinor: amount,
      remunerationMinor: amount,
      finalCostMinor: fc.option(amount, { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(anItem, { maxLength: 40 }), (items) => {
        const totals = registryTotals(items);
        for (const total of totals) {
          const mine = items.filter((one) => one.currency === total.currency);
          expect(total.projects).toBe(mine.length);
          expect(total.finalCostsMinor).toBe(mine.reduce((sum, one) => sum + finalCostOf(one), 0));
          expect(total.estimatedCostsMinor).toBe(mine.reduce((sum, one) => sum + one.estimatedCostsMinor, 0));
        }
        expect(totals.reduce((sum, total) => sum + total.projects, 0)).toBe(items.length);
      }),
    );
  });

  it('refuses a total it could not hold exactly', () => {
    expect(() => registryTotals([item({ remunerationMinor: Number.MAX_SAFE_INTEGER }), item({ remunerationMinor: 1 })])).toThrow(RangeError);
  });
});

describe('ratioBasisPoints', () => {
  it('is effect over costs in basis points, rounded down, and none without costs', () => {
    expect(ratioBasisPoints(250_000_00, 100_000_00)).toBe(25_000);
    expect(ratioBasisPoints(1, 3)).toBe(3_333);
    expect(ratioBasisPoints(0, 5)).toBe(0);
    expect(ratioBasisPoints(5, 0)).toBeNull();
    expect(() => ratioBasisPoints(-1, 5)).toThrow(RangeError);
    expect(() => ratioBasisPoints(1.5, 5)).toThrow(RangeError);
    // Beyond a safe integer the ratio is held at the largest one rather than rounded silently.
    expect(ratioBasisPoints(Number.MAX_SAFE_INTEGER, 1)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('is the floor of the exact ratio for any amounts (property)', () => {
    fc.assert(
      // Numerators up to 2^39 minor units (5.5 billion roubles) keep every exact ratio a safe integer.
      fc.property(fc.integer({ min: 0, max: 2 ** 39 }), fc.integer({ min: 1, max: 2 ** 45 }), (numerator, denominator) => {
        const ratio = ratioBasisPoints(numerator, denominator) ?? -1;
        const scaled = BigInt(numerator) * 10_000n;
        expect(BigInt(ratio) * BigInt(denominator) <= scaled).toBe(true);
        expect((BigInt(ratio) + 1n) * BigInt(denominator) > scaled).toBe(true);
      }),
    );
  });
});

describe('the bodies', () => {
  it('takes adjustments each with a reason, each project once, and a return only with a comment', () => {
    expect(validate(RegistryApproveInput, { adjustments: [{ projectId: ID, finalCostMinor: 90_000_00, reason: 'Цена пресса снизилась' }] }).ok).toBe(true);
    expect(validate(RegistryApproveInput, { adjustments: [] }).ok).toBe(true);
    const noReason = validate(RegistryApproveInput, { adjustments: [{ projectId: ID, finalCostMinor: 1, reason: '  ' }] });
    expect(noReason.ok).toBe(false);
    const twice = validate(RegistryApproveInput, {
      adjustments: [
        { projectId: ID, finalCostMinor: 1, reason: 'a' },
        { projectId: ID.toUpperCase(), finalCostMinor: 2, reason: 'b' },
      ],
    });
    expect(twice.ok).toBe(false);
    expect(validate(RegistryApproveInput, { adjustments: [{ projectId: ID, finalCostMinor: -1, reason: 'a' }] }).ok).toBe(false);
    expect(validate(RegistryReturnInput, { comment: 'Пересчитайте оснастку' }).ok).toBe(true);
    expect(validate(RegistryReturnInput, { comment: ' ' }).ok).toBe(false);
  });

  it('refuses ids of the wrong type in a send or an approval as field errors, never by throwing', () => {
    expect(validate(RegistrySendInput, { id: ID, projectIds: [ID] }).ok).toBe(true);
    expect(validate(RegistrySendInput, { id: ID, projectIds: [ID, ID.toUpperCase()] }).ok).toBe(false);
    for (const projectIds of [[0, ''], [null, null], [{}, 1]]) {
      expect(() => validate(RegistrySendInput, { id: ID, projectIds })).not.toThrow();
      expect(validate(RegistrySendInput, { id: ID, projectIds }).ok).toBe(false);
    }
    expect(() => validate(RegistryApproveInput, { adjustments: [{ projectId: 7, finalCostMinor: 1, reason: 'a' }, { projectId: 7, finalCostMinor: 1, reason: 'a' }] })).not.toThrow();
  });
});
