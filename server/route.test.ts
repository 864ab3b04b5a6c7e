// Declared routes (route.ts) through real ones: the order of the checks is what an outsider can observe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, call, createCompanyAs, login, type Login } from './features/companies/fixtures';
import { createTestApp, json, type TestApp } from './test-support';

let t: TestApp;
let owner: Login;
let outsider: Login;
let employee: Login;
let companyId: string;
let departmentId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await login(t);
  outsider = await login(t);
  employee = await login(t);
  companyId = await createCompanyAs(t, owner);
  await addMember(t, companyId, employee, ['EMPLOYEE']);
  const created = await call(t, 'POST', `/companies/${companyId}/departments`, owner, { name: 'Цех 1' });
  expect(created.statusCode).toBe(201);
  departmentId = json<{ data: { id: string } }>(created).data.id;
});
afterAll(() => t.close());

describe('declared routes', () => {
  it('answers a non-member 404 before looking at the body, exactly like a missing company', async () => {
    const bad = await call(t, 'PATCH', `/companies/${companyId}/departments/${departmentId}`, outsider, { name: 42, extra: true });
    const missing = await call(t, 'PATCH', `/companies/00000000-0000-4000-8000-000000000000/departments/${departmentId}`, outsider, { name: 42 });
    expect(bad.statusCode).toBe(404);
    expect(bad.body).toBe(missing.body);
    expect(json(bad)).not.toHaveProperty('errors');
  });

  it('checks access before the body for operations too: a non-member submitting a bad proposal gets 404', async () => {
    const direct = await call(t, 'POST', `/companies/${companyId}/suggestions`, outsider, { title: 42 });
    expect(direct.statusCode).toBe(404);
    expect(json(direct)).not.toHaveProperty('errors');
    const pushed = await call(t, 'POST', '/sync/push', outsider, {
      operations: [{ id: crypto.randomUUID(), method: 'POST', path: `/api/v1/companies/${companyId}/suggestions`, body: { title: 42 } }],
    });
    expect(pushed.statusCode).toBe(200);
    expect(json<{ data: { results: { status: number; body: object }[] } }>(pushed).data.results[0]).toMatchObject({ status: 404 });
    expect(json<{ data: { results: { body: object }[] } }>(pushed).data.results[0]?.body).not.toHaveProperty('errors');
  });

  it('answers a member without the permission 403 before looking at the body', async () => {
    const response = await call(t, 'POST', `/companies/${companyId}/departments`, employee, { name: 42 });
    expect(response.statusCode).toBe(403);
    expect(json(response)).not.toHaveProperty('errors');
  });

  it('answers a malformed path id 404, and a permitted bad body 400 with field errors', async () => {
    expect((await call(t, 'PATCH', `/companies/${companyId}/departments/not-an-id`, owner, { name: 'X' })).statusCode).toBe(404);
    expect((await call(t, 'PATCH', `/companies/not-an-id/departments/${departmentId}`, owner, { name: 'X' })).statusCode).toBe(404);
    const bad = await call(t, 'PATCH', `/companies/${companyId}/departments/${departmentId}`, owner, { name: 42 });
    expect(bad.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string> }>(bad).errors).toHaveProperty('name');
  });

  it('takes upper-case ids in the path as the same ids', async () => {
    const response = await call(t, 'PATCH', `/companies/${companyId.toUpperCase()}/departments/${departmentId.toUpperCase()}`, owner, { name: 'Цех 2' });
    expect(response.statusCode).toBe(200);
    expect(json<{ data: { name: string } }>(response).data.name).toBe('Цех 2');
  });

  it('runs a write under its Idempotency-Key: a replay answers the stored result and changes nothing', async () => {
    const key = crypto.randomUUID();
    const first = await call(t, 'POST', `/companies/${companyId}/departments`, owner, { name: 'Склад' }, { 'Idempotency-Key': key });
    const again = await call(t, 'POST', `/companies/${companyId}/departments`, owner, { name: 'Склад' }, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    const rows = await t.db.query("SELECT 1 FROM departments WHERE company_id = $1 AND name = 'Склад'", [companyId]);
    expect(rows).toHaveLength(1);
  });

  it('refuses a caller without a token 401 before anything else', async () => {
    const response = await call(t, 'PATCH', `/companies/${companyId}/departments/${departmentId}`, null, { name: 42 });
    expect(response.statusCode).toBe(401);
  });
});
