// Test fixtures of the project tests: a company whose members play every part of a project (the suggestions'
// fixtures make the company), employees without an account, goals, approved proposals, and a project's body.

import { randomInt, randomUUID } from 'node:crypto';
import type { Database } from '../../db/database';
import { PNG } from '../files/test-http';
import { api, json, type TestApp } from '../../test-support';
import type { Login } from '../suggestions/fixtures';

export { createCompany, signUpMember, userIdOf, type Fixture, type Login } from '../suggestions/fixtures';

/** The employee record of `userId` in the company (the fixtures give every member one). */
export async function employeeIdOf(db: Database, companyId: string, userId: string): Promise<string> {
  const row = await db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2', [companyId, userId]);
  if (!row) throw new Error(`no employee for ${userId}`);
  return row.id;
}

export interface EmployeeOptions {
  lastName?: string;
  firstName?: string;
  middleName?: string | null;
  serviceNumber?: string | null;
  active?: boolean;
}

/** An employee with no user account (a shop-floor worker on the staff list). */
export async function addEmployee(db: Database, companyId: string, options: EmployeeOptions = {}): Promise<string> {
  const row = await db.one<{ id: string }>(
    'INSERT INTO employees (company_id, last_name, first_name, middle_name, service_number, active) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [companyId, options.lastName ?? 'Рабочий', options.firstName ?? 'Пётр', options.middleName ?? null, options.serviceNumber ?? null, options.active ?? true],
  );
  return row!.id;
}

/** A goal of the company, its business customer `customerEmployeeId`. */
export async function addGoal(db: Database, companyId: string, customerEmployeeId: string): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO goals (company_id, id, direction, scope, description, expected_result, indicator_value, indicator_unit, owner_goal,
       start_date, end_date, business_customer_employee_id, process)
     VALUES ($1, $2, 'Качество', 'Цех 1', 'Меньше брака', 'Брак ниже 1 %', 10, 'HOURS', 'Рост', '2026-01-01', '2026-12-31', $3, 'Сборка')`,
    [companyId, id, customerEmployeeId],
  );
  return id;
}

/** An upload of `who`, attached to nothing yet. */
export async function uploadImage(t: TestApp, who: Login): Promise<string> {
  const boundary = `----project-test-${randomInt(1e9)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await t.app.inject({
    method: 'POST',
    url: api('/files/upload'),
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${who.access}` },
  });
  if (response.statusCode !== 200) throw new Error(`upload: ${response.statusCode} ${response.body}`);
  return json<{ data: { imageId: string } }>(response).data.imageId;
}

/** A proposal of `author` to `departmentId` with `imageIds`, approved by `head` unless `approve` is false. */
export async function proposal(t: TestApp, companyId: string, departmentId: string, author: Login, head: Login, imageIds: string[] = [], approve = true): Promise<string> {
  const submitted = await t.app.inject({
    method: 'POST',
    url: api(`/companies/${companyId}/suggestions`),
    headers: { authorization: `Bearer ${author.access}` },
    payload: { title: 'Меньше шагов', problem: 'Слишком много шагов', solution: 'Убрать два', expectedEffect: 'Быстрее', departmentId, imageIds },
  });
  if (submitted.statusCode !== 201) throw new Error(`submit: ${submitted.statusCode} ${submitted.body}`);
  const id = json<{ data: { id: string } }>(submitted).data.id;
  if (approve) {
    const reviewed = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${companyId}/suggestions/${id}/review`),
      headers: { authorization: `Bearer ${head.access}` },
      payload: { decision: 'APPROVED' },
    });
    if (reviewed.statusCode !== 200) throw new Error(`review: ${reviewed.statusCode} ${reviewed.body}`);
  }
  return id;
}

export { projectBody } from './project-body';
