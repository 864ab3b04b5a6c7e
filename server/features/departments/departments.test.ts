import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_ROLES } from '../../../src/domain/auth';
import { PERMISSIONS } from '../../../src/domain/permissions';
import { DepartmentRow } from '../../../src/domain/suggestion';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';

let t: TestApp;
let owner: Login;
let hr: Login;
let ceo: Login;
let worker: Login;
let gone: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;

const login = () => signUpMember(t);

beforeAll(async () => {
  t = await createTestApp();
  [owner, hr, ceo, worker, gone, outsider] = await Promise.all([login(), login(), login(), login(), login(), login()]);
  acme = await createCompany(t.db, 'Acme', { [owner.id]: ['OWNER'], [hr.id]: ['HR'], [ceo.id]: ['CEO'], [worker.id]: ['EMPLOYEE'], [gone.id]: ['EMPLOYEE'] });
  await t.db.query('UPDATE company_members SET active = false WHERE company_id = $1 AND user_id = $2', [acme.companyId, gone.id]);
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
function call(who: Login | null, method: Method, path: string, payload?: unknown, extra: Record<string, string> = {}) {
  return t.app.inject({
    method,
    url: api(path),
    headers: { ...(who ? { authorization: `Bearer ${who.access}` } : {}), Language: 'en', ...extra },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}
const departments = (companyId = acme.companyId) => `/companies/${companyId}/departments`;
const department = (id: string, companyId = acme.companyId) => `/companies/${companyId}/departments/${id}`;

/** Every department row of every company, to prove a refused call changed nothing. */
const snapshot = () => t.db.query('SELECT company_id, id, name, head_user_id, updated_at FROM departments ORDER BY company_id, id');
/** Every company role without people.manage. */
const NON_MANAGERS = COMPANY_ROLES.filter((r) => !(PERMISSIONS['people.manage'] as readonly string[]).includes(r));
/** Runs `check` with `who` holding each role without people.manage in turn, then gives back EMPLOYEE. */
async function asEachNonManager(who: Login, check: (role: string) => Promise<void>): Promise<void> {
  for (const role of NON_MANAGERS) {
    await t.db.query('UPDATE company_members SET roles = $3 WHERE company_id = $1 AND user_id = $2', [acme.companyId, who.id, [role]]);
    await check(role);
  }
  await t.db.query(`UPDATE company_members SET roles = '{EMPLOYEE}' WHERE company_id = $1 AND user_id = $2`, [acme.companyId, who.id]);
}
const errorsOf = (res: LightMyRequestResponse) => json<{ errors?: Record<string, string> }>(res).errors ?? {};

async function createDepartment(name: string): Promise<DepartmentRow> {
  const res = await call(hr, 'POST', departments(), { name });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: DepartmentRow }>(res).data;
}

describe('GET /companies/{companyId}/departments', () => {
  it('lists departments by name with their employees and proposals under consideration, to any member', async () => {
    const dep = await createDepartment('Ассемблея');
    await t.db.query(`INSERT INTO employees (company_id, last_name, first_name, department_id) VALUES ($1, 'Иванов', 'Иван', $2), ($1, 'Петров', 'Пётр', $2)`, [acme.companyId, dep.id]);
    const submit = (title: string) =>
      call(worker, 'POST', `/companies/${acme.companyId}/suggestions`, { title, problem: 'p', solution: 's', expectedEffect: 'e', departmentId: dep.id, imageIds: [] });
    expect((await submit('open')).statusCode).toBe(201);
    const decided = json<{ data: { id: string } }>(await submit('decided')).data.id;
    await t.db.query(`UPDATE suggestions SET status = 'APPROVED' WHERE id = $1`, [decided]);

    const res = await call(worker, 'GET', departments());
    expect(res.statusCode, res.body).toBe(200);
    const list = json<{ data: (DepartmentRow & { employeeCount: number; openSuggestionCount: number })[] }>(res).data;
    expect(list.every((d) => DepartmentRow.is(d) && d.companyId === acme.companyId)).toBe(true);
    expect(list.map((d) => d.name)).toEqual([...list.map((d) => d.name)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(list.find((d) => d.id === dep.id)).toMatchObject({ name: 'Ассемблея', employeeCount: 2, openSuggestionCount: 1 });
    expect(list.find((d) => d.id === acme.departments.B)).toMatchObject({ employeeCount: 0, openSuggestionCount: 0 });
  });

  it('answers 404 for another company, a missing and a malformed id, 401 without a token', async () => {
    for (const companyId of [rival.companyId, randomUUID(), 'nope']) expect((await call(worker, 'GET', departments(companyId))).statusCode).toBe(404);
    expect((await call(gone, 'GET', departments())).statusCode).toBe(404);
    expect((await call(null, 'GET', departments())).statusCode).toBe(401);
  });
});

describe('POST /companies/{companyId}/departments', () => {
  it('creates a department with a head, for HR, the owner and the CEO', async () => {
    for (const [who, name] of [
      [hr, 'Склад'],
      [owner, 'Цех 2'],
      [ceo, 'Цех 3'],
    ] as const) {
      const res = await call(who, 'POST', departments(), { name: `  ${name}  `, headUserId: worker.id });
      expect(res.statusCode, res.body).toBe(201);
      const body = json<{ data: DepartmentRow; message: string }>(res);
      expect(DepartmentRow.is(body.data)).toBe(true);
      expect(body.data).toMatchObject({ name, headUserId: worker.id, companyId: acme.companyId });
      expect(body.message).toBe('The department has been created.');
    }
  });

  it('refuses a name the company already has, in any case, naming the field', async () => {
    await createDepartment('Логистика');
    const before = await snapshot();
    const res = await call(hr, 'POST', departments(), { name: 'ЛОГИСТИКА' });
    expect(res.statusCode).toBe(409);
    expect(json<{ message: string }>(res).message).toBe('The company already has a department with this name.');
    expect(errorsOf(res)).toEqual({ name: 'This value is already in use in the company.' });
    expect(await snapshot()).toEqual(before);
    // Another company may have the same name.
    expect((await call(outsider, 'POST', departments(rival.companyId), { name: 'Логистика' })).statusCode).toBe(201);
  });

  it('refuses bad input and fields the caller may not set, storing nothing', async () => {
    const before = await snapshot();
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{}, 'name'],
      [{ name: 5 }, 'name'],
      [{ name: 'Ok', headUserId: 'nope' }, 'headUserId'],
      [{ name: 'Ok', headUserId: outsider.id }, 'headUserId'],
      [{ name: 'Ok', headUserId: gone.id }, 'headUserId'],
      [{ name: 'Ok', headUserId: randomUUID() }, 'headUserId'],
      [{ name: 'Ok', companyId: rival.companyId }, 'companyId'],
      [{ name: 'Ok', id: randomUUID() }, 'id'],
    ] as const) {
      const res = await call(hr, 'POST', departments(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(errorsOf(res)), JSON.stringify(body)).toContain(field);
    }
    expect(errorsOf(await call(hr, 'POST', departments(), { name: 'Ok', headUserId: outsider.id })).headUserId).toBe('Choose an active member of the company.');
    expect(errorsOf(await call(hr, 'POST', departments(), { name: 'Ok', companyId: rival.companyId })).companyId).toBe('This field is not expected.');
    for (const raw of ['[]', '"x"', '{']) {
      const res = await t.app.inject({ method: 'POST', url: api(departments()), headers: { authorization: `Bearer ${hr.access}`, 'content-type': 'application/json' }, payload: raw });
      expect(res.statusCode, raw).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('is refused to a member without people.manage (403), to outsiders (404) and without a token (401), changing nothing', async () => {
    const before = await snapshot();
    const res = await call(worker, 'POST', departments(), { name: 'Нельзя' });
    expect(res.statusCode).toBe(403);
    expect(json<{ message: string }>(res).message).toBe('You do not have the right to do this.');
    // A bad body from a member without the right is still a 403: the access check comes first.
    expect((await call(worker, 'POST', departments(), { name: '' })).statusCode).toBe(403);
    for (const companyId of [rival.companyId, randomUUID(), 'nope']) expect((await call(hr, 'POST', departments(companyId), { name: 'Нельзя' })).statusCode).toBe(404);
    expect((await call(gone, 'POST', departments(), { name: 'Нельзя' })).statusCode).toBe(404);
    expect((await call(null, 'POST', departments(), { name: 'Нельзя' })).statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('replays a request with the same Idempotency-Key without creating a second department', async () => {
    const key = randomUUID();
    const first = await call(hr, 'POST', departments(), { name: 'Повтор' }, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(201);
    const again = await call(hr, 'POST', departments(), { name: 'Повтор' }, { 'Idempotency-Key': key });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    expect((await t.db.query(`SELECT 1 FROM departments WHERE company_id = $1 AND name = 'Повтор'`, [acme.companyId])).length).toBe(1);
    expect((await call(hr, 'POST', departments(), { name: 'Другое' }, { 'Idempotency-Key': key })).statusCode).toBe(422);
  });
});

describe('PATCH /companies/{companyId}/departments/{departmentId}', () => {
  it('renames, sets and clears the head', async () => {
    const dep = await createDepartment('Старое имя');
    const renamed = await call(hr, 'PATCH', department(dep.id), { name: 'Новое имя' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json<{ data: DepartmentRow }>(renamed).data).toMatchObject({ id: dep.id, name: 'Новое имя', headUserId: null });
    const headed = json<{ data: DepartmentRow }>(await call(owner, 'PATCH', department(dep.id), { headUserId: hr.id })).data;
    expect(headed).toMatchObject({ name: 'Новое имя', headUserId: hr.id });
    const cleared = json<{ data: DepartmentRow }>(await call(ceo, 'PATCH', department(dep.id.toUpperCase()), { headUserId: null })).data;
    expect(cleared.headUserId).toBeNull();
    // Its own name in another case is not "taken".
    expect((await call(hr, 'PATCH', department(dep.id), { name: 'НОВОЕ ИМЯ' })).statusCode).toBe(200);
  });

  it('refuses a taken name, a head who is not an active member and unknown fields, changing nothing', async () => {
    const dep = await createDepartment('Первый');
    await createDepartment('Второй');
    const before = await snapshot();
    const taken = await call(hr, 'PATCH', department(dep.id), { name: 'второй' });
    expect(taken.statusCode).toBe(409);
    expect(Object.keys(errorsOf(taken))).toEqual(['name']);
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ headUserId: outsider.id }, 'headUserId'],
      [{ headUserId: gone.id }, 'headUserId'],
      [{ companyId: rival.companyId }, 'companyId'],
      [{ createdAt: new Date().toISOString() }, 'createdAt'],
    ] as const) {
      const res = await call(hr, 'PATCH', department(dep.id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(errorsOf(res))).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 403 to a member without the right and 404 for another company’s department, changing nothing', async () => {
    const dep = await createDepartment('Чужим нельзя');
    const before = await snapshot();
    expect((await call(worker, 'PATCH', department(dep.id), { name: 'x' })).statusCode).toBe(403);
    const missing = await call(hr, 'PATCH', department(randomUUID()), { name: 'x' });
    expect(missing.statusCode).toBe(404);
    // Another company's department through our company, and our department through theirs: like a missing id.
    const foreign = await call(hr, 'PATCH', department(rival.departments.A!), { name: 'x' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    expect((await call(hr, 'PATCH', department(dep.id, rival.companyId), { name: 'x' })).statusCode).toBe(404);
    expect((await call(hr, 'PATCH', department('nope'), { name: 'x' })).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });
});

describe('departments for every role without people.manage', () => {
  it('answers 403 to create, edit and delete, changing nothing, while the list stays readable', async () => {
    const dep = await createDepartment('Для ролей');
    const before = await snapshot();
    await asEachNonManager(worker, async (role) => {
      expect((await call(worker, 'POST', departments(), { name: 'Нельзя' })).statusCode, role).toBe(403);
      expect((await call(worker, 'PATCH', department(dep.id), { name: 'Нельзя' })).statusCode, role).toBe(403);
      expect((await call(worker, 'DELETE', department(dep.id))).statusCode, role).toBe(403);
      expect((await call(worker, 'GET', departments())).statusCode, role).toBe(200);
    });
    expect(await snapshot()).toEqual(before);
  });
});

describe('DELETE /companies/{companyId}/departments/{departmentId}', () => {
  it('deletes an empty department', async () => {
    const dep = await createDepartment('Удаляемый');
    const res = await call(hr, 'DELETE', department(dep.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ message: string }>(res).message).toBe('The department has been deleted.');
    expect(await t.db.one('SELECT 1 FROM departments WHERE id = $1', [dep.id])).toBeNull();
    expect((await call(hr, 'DELETE', department(dep.id))).statusCode).toBe(404);
  });

  it('refuses while it has people or proposals, saying how many in the request’s language', async () => {
    const dep = await createDepartment('Занятый');
    const employee = await t.db.one<{ id: string }>(`INSERT INTO employees (company_id, last_name, first_name, department_id, active) VALUES ($1, 'Сидоров', 'Сидор', $2, false) RETURNING id`, [
      acme.companyId,
      dep.id,
    ]);
    const refused = async (language: string) => {
      const res = await call(hr, 'DELETE', department(dep.id), undefined, { Language: language });
      expect(res.statusCode).toBe(409);
      return json<{ message: string }>(res).message;
    };
    expect(await refused('en')).toBe('The department cannot be deleted while people or proposals belong to it. It has 1 person and no proposals under consideration.');
    expect(await refused('ru')).toBe('Подразделение нельзя удалить, пока в нём есть сотрудники или предложения. Сейчас в нём сотрудников: 1, предложений на рассмотрении: 0.');

    const submitted = await call(worker, 'POST', `/companies/${acme.companyId}/suggestions`, { title: 't', problem: 'p', solution: 's', expectedEffect: 'e', departmentId: dep.id, imageIds: [] });
    const suggestionId = json<{ data: { id: string } }>(submitted).data.id;
    await t.db.query('UPDATE employees SET department_id = NULL WHERE id = $1', [employee!.id]);
    expect(await refused('en')).toBe('The department cannot be deleted while people or proposals belong to it. It has no people and 1 proposal under consideration.');
    expect(await refused('ru')).toBe('Подразделение нельзя удалить, пока в нём есть сотрудники или предложения. Сейчас в нём сотрудников: 0, предложений на рассмотрении: 1.');

    // A decided proposal keeps its department for good.
    await t.db.query(`UPDATE suggestions SET status = 'REJECTED' WHERE id = $1`, [suggestionId]);
    expect(await refused('en')).toBe(
      'The department cannot be deleted while people or proposals belong to it. It has no people and no proposals under consideration, and 1 decided proposal. Decided proposals stay with their department for good, so it can only be renamed.',
    );
    expect(await refused('ru')).toBe(
      'Подразделение нельзя удалить, пока в нём есть сотрудники или предложения. Сейчас в нём сотрудников: 0, предложений на рассмотрении: 0, рассмотренных: 1. Рассмотренные предложения навсегда остаются за подразделением, поэтому его можно только переименовать.',
    );
    expect(await t.db.one('SELECT 1 FROM departments WHERE id = $1', [dep.id])).not.toBeNull();
  });

  it('is refused to a member without the right (403) and for another company’s department (404), changing nothing', async () => {
    const dep = await createDepartment('Защищённый');
    const before = await snapshot();
    expect((await call(worker, 'DELETE', department(dep.id))).statusCode).toBe(403);
    expect((await call(outsider, 'DELETE', department(dep.id, rival.companyId))).statusCode).toBe(404);
    expect((await call(hr, 'DELETE', department(rival.departments.B!))).statusCode).toBe(404);
    expect((await call(outsider, 'DELETE', department(dep.id))).statusCode).toBe(404);
    expect((await call(null, 'DELETE', department(dep.id))).statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('replays a delete with the same Idempotency-Key', async () => {
    const dep = await createDepartment('Дважды');
    const key = randomUUID();
    const first = await call(hr, 'DELETE', department(dep.id), undefined, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(200);
    const again = await call(hr, 'DELETE', department(dep.id), undefined, { 'Idempotency-Key': key });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
