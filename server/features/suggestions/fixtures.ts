// Test fixtures: a company with departments and members, written straight to the database.

import type { Database } from '../../db/database';

export interface Fixture {
  companyId: string;
  departments: Record<string, string>;
}

export async function userIdOf(db: Database, email: string): Promise<string> {
  const row = await db.one<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

/** A company named `name` with departments A and B; `members` maps user ids to roles; `heads` department -> user id. */
export async function createCompany(
  db: Database,
  name: string,
  members: Record<string, string[]>,
  heads: Record<string, string> = {},
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
    return { companyId: company.id, departments };
  });
}
