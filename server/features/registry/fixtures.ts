// Test fixtures of the registry tests: a company whose members hold every role the registry knows (two owners, a
// CEO, a direction manager, a financial director and specialist, a department head, an employee), a rival company,
// and projects brought to APPROVED (or COMPLETED) through the API, so they enter the open registry as in real use.

import { expect } from 'vitest';
import type { Project } from '../../../src/domain/project';
import { api, json, type TestApp } from '../../test-support';
import { createCompany, employeeIdOf, projectBody, signUpMember, type Fixture, type Login } from '../projects/fixtures';

export type { Fixture, Login } from '../projects/fixtures';

export interface RegistryCompany {
  acme: Fixture;
  rival: Fixture;
  owner: Login;
  owner2: Login;
  ceo: Login;
  direction: Login;
  findir: Login;
  finspec: Login;
  head: Login;
  employee: Login;
  /** The project manager of every project made here. */
  pm: Login;
  /** The owner of the rival company, a stranger to acme. */
  outsider: Login;
  /** The employee record of `pm`, named «Рабочий Пётр Ильич». */
  managerEmployeeId: string;
}

export const MANAGER_NAME = 'Рабочий Пётр Ильич';

/** A member's name as the registry writes it (`fullNameOf` of the sign-up's names). */
export const nameOf = (lastName: string) => `${lastName} Иван Сергеевич`;

export async function registryCompany(t: Pick<TestApp, 'app' | 'db'>): Promise<RegistryCompany> {
  const member = (lastName: string) => signUpMember(t, { lastName });
  const [owner, owner2, ceo, direction, findir, finspec, head, employee, pm, outsider] = await Promise.all([
    member('Хозяинов'),
    member('Совладельцев'),
    member('Директоров'),
    member('Направленцев'),
    member('Финансов'),
    member('Счётов'),
    member('Головин'),
    member('Рядовой'),
    member('Менеджеров'),
    member('Чужой'),
  ]);
  const acme = await createCompany(
    t.db,
    'Acme',
    {
      [owner.id]: ['OWNER'],
      [owner2.id]: ['OWNER'],
      [ceo.id]: ['CEO'],
      [direction.id]: ['DIRECTION_MANAGER'],
      [findir.id]: ['FINANCIAL_DIRECTOR'],
      [finspec.id]: ['FINANCIAL_SPECIALIST'],
      [head.id]: ['MIDDLE_MANAGER'],
      [employee.id]: ['EMPLOYEE'],
      [pm.id]: ['EMPLOYEE'],
    },
    { A: head.id },
  );
  const rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
  const managerEmployeeId = await employeeIdOf(t.db, acme.companyId, pm.id);
  await t.db.query("UPDATE employees SET last_name = 'Рабочий', first_name = 'Пётр', middle_name = 'Ильич' WHERE id = $1", [managerEmployeeId]);
  return { acme, rival, owner, owner2, ceo, direction, findir, finspec, head, employee, pm, outsider, managerEmployeeId };
}

export interface ProjectFigures {
  name?: string;
  currency?: 'RUB' | 'USD' | 'AUD';
  estimatedCostsMinor?: number;
  expectedEffect12mMinor?: number;
  profitBasisPoints?: number;
  maxPerProjectMinor?: number | null;
}

/** The actual completion date of a COMPLETED project (not after the tests' clock). */
const completionDate = '2026-11-01';

const bearer = (who: Login) => ({ authorization: `Bearer ${who.access}`, Language: 'en' });

async function call(t: Pick<TestApp, 'app'>, who: Login, method: 'POST' | 'PATCH', path: string, payload: Record<string, unknown>, status: number): Promise<Project> {
  const res = await t.app.inject({ method, url: api(path), headers: bearer(who), payload });
  expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(status);
  return json<{ data: Project }>(res).data;
}

/** A project of department A made by its head, calculated and brought to `stop` (CALCULATED, APPROVED or COMPLETED). */
export async function projectAt(
  t: Pick<TestApp, 'app'>,
  c: RegistryCompany,
  stop: 'CALCULATED' | 'APPROVED' | 'COMPLETED',
  figures: ProjectFigures = {},
): Promise<Project> {
  const base = `/companies/${c.acme.companyId}/projects`;
  const body = projectBody(c.managerEmployeeId, {
    name: figures.name ?? 'Быстрая переналадка',
    currency: figures.currency ?? 'RUB',
    profitBasisPoints: figures.profitBasisPoints ?? 1000,
    maxPerProjectMinor: figures.maxPerProjectMinor ?? null,
  });
  const created = await call(t, c.head, 'POST', base, body, 201);
  await call(t, c.head, 'POST', `${base}/${created.id}/transitions`, { to: 'CALCULATING' }, 200);
  const calculation = { estimatedCostsMinor: figures.estimatedCostsMinor ?? 5_000_000, expectedEffect12mMinor: figures.expectedEffect12mMinor ?? 100_000_000 };
  let project = await call(t, c.finspec, 'POST', `${base}/${created.id}/transitions`, { to: 'CALCULATED', ...calculation }, 200);
  if (stop === 'CALCULATED') return project;
  project = await call(t, c.direction, 'POST', `${base}/${created.id}/transitions`, { to: 'APPROVED' }, 200);
  if (stop === 'APPROVED') return project;
  return call(t, c.pm, 'POST', `${base}/${created.id}/complete`, { actualCompletionDate: completionDate, actualEffect12mMinor: 90_000_000 }, 200);
}
