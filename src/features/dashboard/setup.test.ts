import { describe, expect, it } from 'vitest';
import { computeSetup } from './setup';
import { employeeRow as employee } from '../../../tests/fixtures/rows';

const AT = '2026-03-01T10:00:00.000Z';


const owner = employee('e-owner', { userId: 'u-owner', roles: ['OWNER'], lastName: 'Собственников' });

describe('the setup checklist', () => {
  it('asks a new company (only its owner) for a manager and a financial director', () => {
    const setup = computeSetup([owner], 0, ['OWNER']);
    expect(setup.isIncomplete).toBe(true);
    expect(setup.missing.map((item) => item.requirement)).toEqual(['MANAGER', 'FINANCIAL_DIRECTOR']);
    expect(setup.employeeCount).toBe(1);
    expect(setup.departmentCount).toBe(0);
  });

  it('counts only people who have joined and are active, with their roles', () => {
    const setup = computeSetup(
      [
        owner,
        employee('e1', { roles: ['FINANCIAL_DIRECTOR'] }),
        employee('e2', { roles: ['FINANCIAL_DIRECTOR'], userId: 'u2', active: false }),
        employee('e3', { roles: ['CEO'], invitedAt: AT }),
      ],
      2,
      ['OWNER'],
    );
    expect(setup.missing.map((item) => item.requirement)).toEqual(['MANAGER', 'FINANCIAL_DIRECTOR']);
  });

  it('accepts any manager role and is complete with an owner, a manager and a financial director', () => {
    const setup = computeSetup(
      [owner, employee('e1', { userId: 'u1', roles: ['EMPLOYEE', 'DIRECTION_MANAGER'] }), employee('e2', { userId: 'u2', roles: ['FINANCIAL_DIRECTOR'] })],
      1,
      ['OWNER'],
    );
    expect(setup.missing).toEqual([]);
    expect(setup.isIncomplete).toBe(false);
  });

  it('names the people with a pending invitation to a missing role', () => {
    const setup = computeSetup([owner, employee('e1', { lastName: 'Финансова', firstName: 'Дарья', invitedAt: AT })], 0, ['OWNER'], [
      { fullName: 'Финансова Дарья', roles: ['FINANCIAL_DIRECTOR'] },
      { fullName: 'Кадрова Ольга', roles: ['HR'] },
    ]);
    expect(setup.missing.find((item) => item.requirement === 'FINANCIAL_DIRECTOR')?.invited).toEqual(['Финансова Дарья']);
    expect(setup.missing.find((item) => item.requirement === 'MANAGER')?.invited).toEqual([]);
  });

  it('offers each user only the roles they may invite to', () => {
    const forOwner = computeSetup([], 0, ['OWNER']);
    expect(forOwner.missing.map((item) => [item.requirement, item.grantableRoles])).toEqual([
      ['OWNER', ['OWNER']],
      ['MANAGER', ['CEO', 'TOP_MANAGER', 'MIDDLE_MANAGER', 'FIRST_LINE_MANAGER', 'DIRECTION_MANAGER']],
      ['FINANCIAL_DIRECTOR', ['FINANCIAL_DIRECTOR']],
    ]);
    const forCeo = computeSetup([], 0, ['CEO']);
    expect(forCeo.missing.find((item) => item.requirement === 'OWNER')?.grantableRoles).toEqual([]);
    expect(forCeo.missing.find((item) => item.requirement === 'FINANCIAL_DIRECTOR')?.grantableRoles).toEqual(['FINANCIAL_DIRECTOR']);
    const forHr = computeSetup([], 0, ['HR']);
    expect(forHr.canManagePeople).toBe(true);
    expect(forHr.missing.every((item) => item.grantableRoles.length === 0)).toBe(true);
    const forEmployee = computeSetup([], 0, ['EMPLOYEE']);
    expect(forEmployee.canManagePeople).toBe(false);
    expect(forEmployee.missing.every((item) => item.grantableRoles.length === 0)).toBe(true);
  });
});
