// Test fixtures: a company with departments and members, written straight to the database.

import { randomUUID } from 'node:crypto';
import { missingForStart, type StartRequirement } from '../../../src/domain/company';
import type { Database } from '../../db/database';
import { signUp, type TestApp } from '../../test-support';

export interface Fixture {
  companyId: string;
  departments: Record<string, string>;
}

/** A signed-up, verified, signed-in user with their id, as the route tests use them. */
export type Login = Awaited<ReturnType<typeof signUp>> & { id: string };

export async function signUpMember(t: Pick<TestApp, 'app' | 'db'>, overrides: Parameters<typeof signUp>[1] = {}): Promise<Login> {
  const l = await signUp(t, overrides);
  return { ...l, id: await userIdOf(t.db, l.email) };
}

export async function userIdOf(db: Database, email: string): Promise<string> {
  const row = await db.one<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

export interface CompanyOptions {
  /**
   * Default true: the company meets the start rule (`missingForStart`). An OWNER, a TOP_MANAGER or a
   * FINANCIAL_DIRECTOR the members lack is added as an extra member: a user with no password who never
   * signs in, with an employee row.
   */
  ready?: boolean;
}

/** The role each start requirement is met with when the fixture adds a member for it. */
const ROLE_FOR: Record<StartRequirement, string> = { OWNER: 'OWNER', MANAGER: 'TOP_MANAGER', FINANCIAL_DIRECTOR: 'FINANCIAL_DIRECTOR' };

/**
 * A company named `name` with departments A and B; `members` maps user ids to roles; `heads` department ->
 * user id. Ready to start its improvement flow unless `{ ready: false }`.
 */
export async function createCompany(
  db: Database,
  name: string,
  members: Record<string, string[]>,
  heads: Record<string, string> = {},
  options: CompanyOptions = {},
): Promise<Fixture> {
  return db.transaction(async (tx) => {
    const company = await tx.one<{ id: string }>('INSERT INTO companies (name) VALUES ($1) RETURNING id', [name]);
    if (!company) throw new Error('no company');
    const departments: Record<string, string> = {};
    for (const dep of ['A', 'B']) {
      const row = await tx.one<{ id: string }>('INSERT INTO departments (company_id, name, head_user_id) VALUES ($1, $2, $3) RETURNING id', [company.id, dep, heads[dep] ?? null]);
      departments[dep] = row!.id;
    }
    for (const [userId, roles] of Object.entries(members)) {
      await tx.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [company.id, userId, roles]);
      await tx.query('INSERT INTO employees (company_id, user_id, last_name, first_name, email, roles) VALUES ($1, $2, $3, $4, $5, $6)', [company.id, userId, 'Фамилия', 'Имя', `${userId}@x.test`, roles]);
    }
    if (options.ready ?? true) {
      for (const requirement of missingForStart(Object.values(members))) {
        const role = ROLE_FOR[requirement];
        const email = `${role.toLowerCase()}.${randomUUID()}@fixture.test`;
        const user = await tx.one<{ id: string }>(
          `INSERT INTO users (email, password_hash, first_name, last_name, role, authorities, email_verified_at)
           VALUES ($1, '!', 'Участник', 'Служебный', $2, $3, now()) RETURNING id`,
          [email, role, [`ROLE_${role}`]],
        );
        await tx.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [company.id, user!.id, [role]]);
        await tx.query('INSERT INTO employees (company_id, user_id, last_name, first_name, email, roles) VALUES ($1, $2, $3, $4, $5, $6)', [company.id, user!.id, 'Служебный', 'Участник', email, [role]]);
      }
    }
    return { companyId: company.id, departments };
  });
}

/**
 * A goal of `companyId` (issue 12) a proposal may serve, written straight to the table, its business customer the
 * company's first employee; returns its id.
 */
export async function insertGoal(db: Database, companyId: string, id: string = randomUUID()): Promise<string> {
  await db.query(
    `INSERT INTO goals (company_id, id, direction, scope, description, expected_result, indicator_value, indicator_unit, owner_goal,
       start_date, end_date, business_customer_employee_id, process)
     SELECT $1, $2, 'D', 'S', 'Desc', 'Result', 10, 'MINUTES', 'Goal', '2026-01-01', '2026-12-31', e.id, 'P'
     FROM employees e WHERE e.company_id = $1 ORDER BY e.id LIMIT 1`,
    [companyId, id],
  );
  return id;
}
