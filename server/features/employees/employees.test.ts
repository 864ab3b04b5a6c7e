import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_ROLES } from '../../../src/domain/auth';
import { PERMISSIONS } from '../../../src/domain/permissions';
import { EmployeeRow } from '../../../src/domain/suggestion';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';

let t: TestApp;
let owner: Login;
let hr: Login;
let ceo: Login;
let worker: Login;
let manager: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;

const login = () => signUpMember(t);

beforeAll(async () => {
  t = await createTestApp();
  [owner, hr, ceo, worker, manager, outsider] = await Promise.all([login(), login(), login(), login(), login(), login()]);
  acme = await createCompany(t.db, 'Acme', { [owner.id]: ['OWNER'], [hr.id]: ['HR'], [ceo.id]: ['CEO'], [worker.id]: ['EMPLOYEE'], [manager.id]: ['MIDDLE_MANAGER'] });
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH';
function call(who: Login | null, method: Method, path: string, payload?: unknown, extra: Record<string, string> = {}) {
  return t.app.inject({
    method,
    url: api(path),
    headers: { ...(who ? { authorization: `Bearer ${who.access}` } : {}), Language: 'en', ...extra },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}
const employees = (companyId = acme.companyId) => `/companies/${companyId}/employees`;
const employee = (id: string, companyId = acme.companyId) => `/companies/${companyId}/employees/${id}`;
const errorsOf = (res: LightMyRequestResponse) => json<{ errors?: Record<string, string> }>(res).errors ?? {};
const snapshot = () =>
  t.db.query(`SELECT company_id, id, user_id, last_name, first_name, email, service_number, department_id, roles, active, updated_at FROM employees ORDER BY company_id, id`);
const members = () => t.db.query('SELECT company_id, user_id, roles, active FROM company_members ORDER BY company_id, user_id');
const employeeOfUser = async (userId: string) => (await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2', [acme.companyId, userId]))!.id;

async function create(body: Record<string, unknown>, who: Login = hr): Promise<EmployeeRow> {
  const res = await call(who, 'POST', employees(), body);
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: EmployeeRow }>(res).data;
}

describe('POST /companies/{companyId}/employees', () => {
  it('creates an employee with the EMPLOYEE role by default', async () => {
    const res = await call(hr, 'POST', employees(), {
      lastName: ' Кузнецова ',
      firstName: 'Анна',
      middleName: 'Сергеевна',
      position: 'Технолог',
      email: 'anna.k@acme.test',
      serviceNumber: 'A-001',
      departmentId: acme.departments.A,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = json<{ data: EmployeeRow; message: string }>(res);
    expect(EmployeeRow.is(body.data)).toBe(true);
    expect(body.message).toBe('The employee has been added.');
    expect(body.data).toMatchObject({
      companyId: acme.companyId,
      userId: null,
      lastName: 'Кузнецова',
      firstName: 'Анна',
      email: 'anna.k@acme.test',
      serviceNumber: 'A-001',
      departmentId: acme.departments.A,
      roles: ['EMPLOYEE'],
      active: true,
      imported: false,
      invitedAt: null,
    });
  });

  it('stores empty optional fields as absent and takes roles the caller may grant', async () => {
    const e = await create({ lastName: 'Орлов', firstName: 'Олег', email: '', serviceNumber: '', middleName: '', roles: ['FINANCIAL_DIRECTOR', 'EMPLOYEE'], active: false }, owner);
    expect(e).toMatchObject({ email: null, serviceNumber: null, middleName: null, roles: ['FINANCIAL_DIRECTOR', 'EMPLOYEE'], active: false });
    expect((await create({ lastName: 'Лебедев', firstName: 'Лев', roles: ['HR', 'FINANCIAL_SPECIALIST'] }, hr)).roles).toEqual(['HR', 'FINANCIAL_SPECIALIST']);
  });

  it('refuses roles the caller may not grant (403), changing nothing', async () => {
    const before = await snapshot();
    for (const [who, roles] of [
      [hr, ['FINANCIAL_DIRECTOR']],
      [hr, ['EMPLOYEE', 'CEO']],
      [hr, ['OWNER']],
      [ceo, ['OWNER']],
    ] as const) {
      const res = await call(who, 'POST', employees(), { lastName: 'Нельзя', firstName: 'Нельзя', roles });
      expect(res.statusCode, JSON.stringify(roles)).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a duplicate e-mail (in any case) or service number with 409 naming the fields', async () => {
    await create({ lastName: 'Первый', firstName: 'П', email: 'dup@acme.test', serviceNumber: 'DUP-1' });
    const before = await snapshot();
    const both = await call(hr, 'POST', employees(), { lastName: 'Второй', firstName: 'В', email: 'DUP@acme.test', serviceNumber: 'DUP-1' });
    expect(both.statusCode).toBe(409);
    expect(json<{ message: string }>(both).message).toBe('Another employee of the company already has this e-mail or service number.');
    expect(errorsOf(both)).toEqual({ email: 'This value is already in use in the company.', serviceNumber: 'This value is already in use in the company.' });
    expect(Object.keys(errorsOf(await call(hr, 'POST', employees(), { lastName: 'В', firstName: 'В', serviceNumber: 'DUP-1' })))).toEqual(['serviceNumber']);
    expect(await snapshot()).toEqual(before);
    // Another company may use the same e-mail and number.
    expect((await call(outsider, 'POST', employees(rival.companyId), { lastName: 'В', firstName: 'В', email: 'dup@acme.test', serviceNumber: 'DUP-1' })).statusCode).toBe(201);
  });

  it('refuses bad input and mass assignment with 400, storing nothing', async () => {
    const before = await snapshot();
    const ok = { lastName: 'Иванов', firstName: 'Иван' };
    for (const [body, field] of [
      [{ firstName: 'Иван' }, 'lastName'],
      [{ ...ok, lastName: '  ' }, 'lastName'],
      [{ ...ok, firstName: 'x'.repeat(101) }, 'firstName'],
      [{ ...ok, email: 'not-an-email' }, 'email'],
      [{ ...ok, serviceNumber: 'x'.repeat(51) }, 'serviceNumber'],
      [{ ...ok, departmentId: 'nope' }, 'departmentId'],
      [{ ...ok, departmentId: rival.departments.A }, 'departmentId'],
      [{ ...ok, departmentId: randomUUID() }, 'departmentId'],
      [{ ...ok, roles: [] }, 'roles'],
      [{ ...ok, roles: ['KING'] }, 'roles.0'],
      [{ ...ok, roles: ['EMPLOYEE', 'EMPLOYEE'] }, 'roles'],
      [{ ...ok, active: 'yes' }, 'active'],
      [{ ...ok, companyId: rival.companyId }, 'companyId'],
      [{ ...ok, userId: owner.id }, 'userId'],
      [{ ...ok, id: randomUUID() }, 'id'],
      [{ ...ok, invitedAt: new Date().toISOString() }, 'invitedAt'],
      [{ ...ok, imported: true }, 'imported'],
    ] as const) {
      const res = await call(hr, 'POST', employees(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(errorsOf(res)), JSON.stringify(body)).toContain(field);
    }
    expect(errorsOf(await call(hr, 'POST', employees(), { ...ok, userId: owner.id })).userId).toBe('This field is not expected.');
    expect(await snapshot()).toEqual(before);
  });

  it('is refused to members without people.manage (403) and outside the company (404), changing nothing', async () => {
    const before = await snapshot();
    for (const who of [worker, manager]) expect((await call(who, 'POST', employees(), { lastName: 'Н', firstName: 'Н' })).statusCode).toBe(403);
    for (const companyId of [rival.companyId, randomUUID(), 'nope']) expect((await call(hr, 'POST', employees(companyId), { lastName: 'Н', firstName: 'Н' })).statusCode).toBe(404);
    expect((await call(null, 'POST', employees(), { lastName: 'Н', firstName: 'Н' })).statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('replays with the same Idempotency-Key and creates one employee', async () => {
    const key = randomUUID();
    const body = { lastName: 'Повторов', firstName: 'Пётр', serviceNumber: 'IDEM-1' };
    const first = await call(hr, 'POST', employees(), body, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(201);
    const again = await call(hr, 'POST', employees(), body, { 'Idempotency-Key': key });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    expect((await t.db.query(`SELECT 1 FROM employees WHERE service_number = 'IDEM-1'`)).length).toBe(1);
  });
});

describe('employees for every role without people.manage', () => {
  it('answers 403 to create and edit, changing nothing, while reading stays open', async () => {
    const target = await create({ lastName: 'Цель', firstName: 'Ц' });
    const probe = await login();
    await t.db.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [acme.companyId, probe.id, ['EMPLOYEE']]);
    const before = await snapshot();
    const beforeMembers = await members();
    for (const role of COMPANY_ROLES.filter((r) => !(PERMISSIONS['people.manage'] as readonly string[]).includes(r))) {
      await t.db.query('UPDATE company_members SET roles = $3 WHERE company_id = $1 AND user_id = $2', [acme.companyId, probe.id, [role]]);
      expect((await call(probe, 'POST', employees(), { lastName: 'Н', firstName: 'Н' })).statusCode, role).toBe(403);
      expect((await call(probe, 'PATCH', employee(target.id), { lastName: 'Н' })).statusCode, role).toBe(403);
      expect((await call(probe, 'GET', employee(target.id))).statusCode, role).toBe(200);
      expect((await call(probe, 'GET', employees())).statusCode, role).toBe(200);
    }
    await t.db.query('DELETE FROM company_members WHERE company_id = $1 AND user_id = $2', [acme.companyId, probe.id]);
    expect(await snapshot()).toEqual(before);
    expect((await members()).length).toBe(beforeMembers.length - 1);
  });
});

describe('GET /companies/{companyId}/employees/{employeeId}', () => {
  it('shows contacts to people managers and to the employee themself only', async () => {
    const e = await create({ lastName: 'Контактов', firstName: 'К', email: 'contacts@acme.test', serviceNumber: 'C-1' });
    const asHr = json<{ data: EmployeeRow }>(await call(hr, 'GET', employee(e.id))).data;
    expect(asHr).toMatchObject({ email: 'contacts@acme.test', serviceNumber: 'C-1' });
    const asWorker = await call(worker, 'GET', employee(e.id));
    expect(asWorker.statusCode).toBe(200);
    expect(json<{ data: EmployeeRow }>(asWorker).data).toMatchObject({ id: e.id, lastName: 'Контактов', email: null, serviceNumber: null });
    const self = json<{ data: EmployeeRow }>(await call(worker, 'GET', employee(await employeeOfUser(worker.id)))).data;
    expect(self.email).not.toBeNull();
  });

  it('answers 404 alike for a missing id, a malformed id, another company’s employee and another company', async () => {
    const e = await create({ lastName: 'Свой', firstName: 'С' });
    const foreignEmployee = (await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 LIMIT 1', [rival.companyId]))!.id;
    const missing = await call(hr, 'GET', employee(randomUUID()));
    expect(missing.statusCode).toBe(404);
    for (const path of [employee('nope'), employee(foreignEmployee), employee(e.id, rival.companyId)]) {
      const res = await call(hr, 'GET', path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).toBe(missing.body);
    }
    expect((await call(null, 'GET', employee(e.id))).statusCode).toBe(401);
  });
});

describe('PATCH /companies/{companyId}/employees/{employeeId}', () => {
  it('edits the fields given and leaves the others', async () => {
    const e = await create({ lastName: 'Старый', firstName: 'С', position: 'Токарь', email: 'old@acme.test', serviceNumber: 'P-1', departmentId: acme.departments.A });
    const res = await call(hr, 'PATCH', employee(e.id), { lastName: 'Новый', position: null, email: 'NEW@acme.test', departmentId: acme.departments.B });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ message: string }>(res).message).toBe("The employee's details have been saved.");
    expect(json<{ data: EmployeeRow }>(res).data).toMatchObject({ lastName: 'Новый', firstName: 'С', position: null, email: 'NEW@acme.test', serviceNumber: 'P-1', departmentId: acme.departments.B });
    // Its own e-mail and number are not "taken"; an empty patch changes nothing.
    expect((await call(hr, 'PATCH', employee(e.id), { email: 'new@acme.test', serviceNumber: 'P-1' })).statusCode).toBe(200);
    const before = await snapshot();
    expect((await call(hr, 'PATCH', employee(e.id), {})).statusCode).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  it('moves a linked user’s membership with the roles and the active flag, in the same write', async () => {
    const member = await login();
    await t.db.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [acme.companyId, member.id, ['EMPLOYEE']]);
    const row = await t.db.one<{ id: string }>(`INSERT INTO employees (company_id, user_id, last_name, first_name, roles) VALUES ($1, $2, 'Связанный', 'С', '{EMPLOYEE}') RETURNING id`, [
      acme.companyId,
      member.id,
    ]);
    const res = await call(hr, 'PATCH', employee(row!.id), { roles: ['EMPLOYEE', 'FINANCIAL_SPECIALIST'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ data: EmployeeRow }>(res).data.roles).toEqual(['EMPLOYEE', 'FINANCIAL_SPECIALIST']);
    const membership = () => t.db.one<{ roles: string[]; active: boolean }>('SELECT roles, active FROM company_members WHERE company_id = $1 AND user_id = $2', [acme.companyId, member.id]);
    expect(await membership()).toEqual({ roles: ['EMPLOYEE', 'FINANCIAL_SPECIALIST'], active: true });
    expect((await call(member, 'GET', `/companies/${acme.companyId}/departments`)).statusCode).toBe(200);

    expect((await call(hr, 'PATCH', employee(row!.id), { active: false })).statusCode).toBe(200);
    expect(await membership()).toEqual({ roles: ['EMPLOYEE', 'FINANCIAL_SPECIALIST'], active: false });
    // Switched off: the company is gone for them, like any company they are not in.
    expect((await call(member, 'GET', `/companies/${acme.companyId}/departments`)).statusCode).toBe(404);
    expect((await call(hr, 'PATCH', employee(row!.id), { active: true })).statusCode).toBe(200);
    expect((await membership())?.active).toBe(true);
  });

  it('needs canGrantRoles for every role added or removed and for switching a leader off (403, nothing changed)', async () => {
    const managerRow = await employeeOfUser(manager.id);
    const ceoRow = await employeeOfUser(ceo.id);
    const before = await snapshot();
    const beforeMembers = await members();
    for (const [who, id, body] of [
      [hr, managerRow, { roles: ['EMPLOYEE'] }],
      [hr, managerRow, { roles: ['MIDDLE_MANAGER', 'TOP_MANAGER'] }],
      [hr, managerRow, { active: false }],
      [hr, ceoRow, { active: false }],
      [ceo, managerRow, { roles: ['MIDDLE_MANAGER', 'OWNER'] }],
      [worker, managerRow, { lastName: 'X' }],
      [manager, managerRow, { lastName: 'X' }],
    ] as const) {
      const res = await call(who, 'PATCH', employee(id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    expect(await members()).toEqual(beforeMembers);
    // Keeping a leader role while adding a staff role is within HR's reach; the CEO may promote.
    expect((await call(hr, 'PATCH', employee(managerRow), { roles: ['MIDDLE_MANAGER', 'HR'] })).statusCode).toBe(200);
    expect((await call(ceo, 'PATCH', employee(managerRow), { roles: ['TOP_MANAGER'] })).statusCode).toBe(200);
  });

  it('never takes the OWNER role from, or switches off, the last active owner (409)', async () => {
    const ownerRow = await employeeOfUser(owner.id);
    const before = await snapshot();
    for (const body of [{ roles: ['CEO'] }, { active: false }]) {
      const res = await call(owner, 'PATCH', employee(ownerRow), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(json<{ message: string }>(res).message).toBe('The company must keep at least one active owner: give the owner role to someone else first.');
    }
    const ru = await call(owner, 'PATCH', employee(ownerRow), { active: false }, { Language: 'ru' });
    expect(json<{ message: string }>(ru).message).toBe('В компании должен остаться хотя бы один действующий собственник: сначала передайте роль собственника другому сотруднику.');
    expect(await snapshot()).toEqual(before);

    // With a second active owner the first may step down.
    const ceoRow = await employeeOfUser(ceo.id);
    expect((await call(owner, 'PATCH', employee(ceoRow), { roles: ['CEO', 'OWNER'] })).statusCode).toBe(200);
    const stepDown = await call(owner, 'PATCH', employee(ownerRow), { roles: ['EMPLOYEE'] });
    expect(stepDown.statusCode, stepDown.body).toBe(200);
    expect(await t.db.one('SELECT roles FROM company_members WHERE company_id = $1 AND user_id = $2', [acme.companyId, owner.id])).toEqual({ roles: ['EMPLOYEE'] });
    // Now the CEO is the last owner.
    expect((await call(ceo, 'PATCH', employee(ceoRow), { roles: ['CEO'] })).statusCode).toBe(409);
    // As an owner now, the CEO may make the first one owner again.
    expect((await call(ceo, 'PATCH', employee(ownerRow), { roles: ['OWNER'] })).statusCode).toBe(200);
  });

  it('refuses duplicates, bad input and mass assignment, changing nothing', async () => {
    await create({ lastName: 'Занят', firstName: 'З', email: 'busy@acme.test', serviceNumber: 'BUSY' });
    const e = await create({ lastName: 'Свободен', firstName: 'С' });
    const before = await snapshot();
    const dup = await call(hr, 'PATCH', employee(e.id), { email: 'Busy@Acme.test', serviceNumber: 'BUSY' });
    expect(dup.statusCode).toBe(409);
    expect(Object.keys(errorsOf(dup)).sort()).toEqual(['email', 'serviceNumber']);
    for (const [body, field] of [
      [{ lastName: '' }, 'lastName'],
      [{ email: 'x@' }, 'email'],
      [{ departmentId: rival.departments.A }, 'departmentId'],
      [{ roles: [] }, 'roles'],
      [{ userId: worker.id }, 'userId'],
      [{ companyId: rival.companyId }, 'companyId'],
      [{ invitedAt: null }, 'invitedAt'],
    ] as const) {
      const res = await call(hr, 'PATCH', employee(e.id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(errorsOf(res))).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 for another company’s employee or company, changing nothing', async () => {
    const e = await create({ lastName: 'Наш', firstName: 'Н' });
    const foreignEmployee = (await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 LIMIT 1', [rival.companyId]))!.id;
    const before = await snapshot();
    expect((await call(hr, 'PATCH', employee(foreignEmployee), { lastName: 'X' })).statusCode).toBe(404);
    expect((await call(hr, 'PATCH', employee(e.id, rival.companyId), { lastName: 'X' })).statusCode).toBe(404);
    expect((await call(outsider, 'PATCH', employee(e.id), { lastName: 'X' })).statusCode).toBe(404);
    expect((await call(hr, 'PATCH', employee(randomUUID()), { lastName: 'X' })).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('replays an edit with the same Idempotency-Key', async () => {
    const e = await create({ lastName: 'Правка', firstName: 'П' });
    const key = randomUUID();
    const first = await call(hr, 'PATCH', employee(e.id), { position: 'Мастер' }, { 'Idempotency-Key': key });
    const again = await call(hr, 'PATCH', employee(e.id), { position: 'Мастер' }, { 'Idempotency-Key': key });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
  });
});

describe('GET /companies/{companyId}/employees', () => {
  let company: Fixture;
  let boss: Login;
  let staff: Login;
  const people: Record<string, string> = {};
  const list = (who: Login, query: string) => call(who, 'GET', `/companies/${company.companyId}/employees${query}`);
  const page = async (who: Login, query: string) => {
    const res = await list(who, query);
    expect(res.statusCode, res.body).toBe(200);
    return json<{ data: { items: EmployeeRow[]; nextCursor: string | null; total: number } }>(res).data;
  };
  const names = async (who: Login, query: string) => (await page(who, query)).items.map((e) => e.lastName);

  beforeAll(async () => {
    [boss, staff] = await Promise.all([login(), login()]);
    company = await createCompany(t.db, 'Directory', { [boss.id]: ['HR'], [staff.id]: ['EMPLOYEE'] }, {}, { ready: false });
    await t.db.query(`UPDATE employees SET last_name = 'Кадрова', first_name = 'Алла' WHERE company_id = $1 AND user_id = $2`, [company.companyId, boss.id]);
    await t.db.query(`UPDATE employees SET last_name = 'Штатный', first_name = 'Сергей' WHERE company_id = $1 AND user_id = $2`, [company.companyId, staff.id]);
    const rows: [string, string, string | null, string | null, string | null, string | null, boolean, boolean][] = [
      ['Абрамов', 'Андрей', 'Токарь', 'abramov@dir.test', 'T-100', 'A', true, false],
      ['Борисова', 'Вера', 'Технолог', 'vera@dir.test', 'T-200', 'B', true, true],
      ['Воронов', 'Глеб', 'Мастер участка', null, 'T-300', 'A', false, false],
      ['Гаврилов', 'Денис', 'Токарь-расточник', 'denis@dir.test', null, null, true, false],
      ['Абрамова', 'Ева', null, 'eva_abr@dir.test', 'T-101', 'B', true, false],
    ];
    for (const [last, first, position, email, number, dep, active, invited] of rows) {
      const row = await t.db.one<{ id: string }>(
        `INSERT INTO employees (company_id, last_name, first_name, position, email, service_number, department_id, active, invited_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [company.companyId, last, first, position, email, number, dep ? company.departments[dep]! : null, active, invited ? new Date() : null],
      );
      people[last] = row!.id;
    }
  });

  it('lists by last name, then first name, with the total', async () => {
    const data = await page(boss, '');
    expect(data.items.map((e) => e.lastName)).toEqual(['Абрамов', 'Абрамова', 'Борисова', 'Воронов', 'Гаврилов', 'Кадрова', 'Штатный']);
    expect(data.total).toBe(7);
    expect(data.nextCursor).toBeNull();
    expect(data.items.every((e) => EmployeeRow.is(e))).toBe(true);
  });

  it('searches names, position, e-mail and service number in any case, every word', async () => {
    expect(await names(boss, '?search=абрамов')).toEqual(['Абрамов', 'Абрамова']);
    expect(await names(boss, '?search=ТОКАРЬ')).toEqual(['Абрамов', 'Гаврилов']);
    expect(await names(boss, `?search=${encodeURIComponent('мастер УЧАСТКА')}`)).toEqual(['Воронов']);
    expect(await names(boss, '?search=VERA%40DIR')).toEqual(['Борисова']);
    expect(await names(boss, '?search=t-10')).toEqual(['Абрамов', 'Абрамова']);
    expect(await names(boss, `?search=${encodeURIComponent('абрамов ева')}`)).toEqual(['Абрамова']);
    // LIKE wildcards are plain characters.
    expect(await names(boss, '?search=_')).toEqual(['Абрамова']);
    expect(await names(boss, '?search=%25')).toEqual([]);
    expect((await page(boss, '?search=токарь')).total).toBe(2);
  });

  it('never matches a contact the caller may not see', async () => {
    expect(await names(staff, '?search=vera%40dir')).toEqual([]);
    expect(await names(staff, '?search=T-100')).toEqual([]);
    expect(await names(staff, '?search=Вера')).toEqual(['Борисова']);
    const items = (await page(staff, '')).items;
    for (const e of items) {
      if (e.userId === staff.id) expect(e.email).not.toBeNull();
      else expect([e.email, e.serviceNumber]).toEqual([null, null]);
    }
  });

  it('filters by department and by state', async () => {
    expect(await names(boss, `?departmentId=${company.departments.A}`)).toEqual(['Абрамов', 'Воронов']);
    expect(await names(boss, '?state=inactive')).toEqual(['Воронов']);
    expect(await names(boss, '?state=invited')).toEqual(['Борисова']);
    expect(await names(boss, '?state=active')).toEqual(['Кадрова', 'Штатный']);
    expect(await names(boss, '?state=noAccount')).toEqual(['Абрамов', 'Абрамова', 'Гаврилов']);
    const combined = await page(boss, `?state=noAccount&departmentId=${company.departments.B}&search=ева`);
    expect(combined.items.map((e) => e.lastName)).toEqual(['Абрамова']);
    expect(combined.total).toBe(1);
    expect(await names(boss, `?departmentId=${acme.departments.A}`)).toEqual([]);
  });

  it('pages with a keyset cursor without doubles or gaps, the total counting every page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const data = await page(boss, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(data.total).toBe(7);
      expect(data.items.length).toBeLessThanOrEqual(2);
      seen.push(...data.items.map((e) => e.lastName));
      cursor = data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Абрамов', 'Абрамова', 'Борисова', 'Воронов', 'Гаврилов', 'Кадрова', 'Штатный']);
  });

  it('refuses bad query values with 400', async () => {
    for (const q of ['?limit=0', '?limit=201', '?limit=x', '?state=gone', '?departmentId=nope', '?cursor=%%%', '?cursor=e30', `?search=${'x'.repeat(201)}`]) {
      const res = await list(boss, q);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('answers 404 to outsiders and for unknown companies', async () => {
    for (const companyId of [company.companyId, randomUUID(), 'nope']) expect((await call(outsider, 'GET', employees(companyId))).statusCode).toBe(404);
  });

  it('stays fast with 10,000 employees: first page, a deep page, a search and a filter', async () => {
    const big = await createCompany(t.db, 'Big', { [boss.id]: ['HR'] }, {}, { ready: false });
    await t.db.query(
      `INSERT INTO employees (company_id, last_name, first_name, position, email, service_number, department_id, imported)
       SELECT $1, 'Фамилия' || lpad(g::text, 5, '0'), 'Имя' || (g % 97), 'Должность ' || (g % 13), 'e' || g || '@big.test', 'N-' || g,
              CASE WHEN g % 2 = 0 THEN $2::uuid ELSE $3::uuid END, true
         FROM generate_series(1, 10000) AS g`,
      [big.companyId, big.departments.A!, big.departments.B!],
    );
    const timed = async (query: string) => {
      const started = performance.now();
      const res = await call(boss, 'GET', `/companies/${big.companyId}/employees${query}`);
      const ms = performance.now() - started;
      expect(res.statusCode, res.body).toBe(200);
      return { ms, data: json<{ data: { items: EmployeeRow[]; nextCursor: string | null; total: number } }>(res).data };
    };
    await timed(''); // warm-up: plans and caches
    const first = await timed('?limit=50');
    expect(first.data.total).toBe(10_001);
    // The HR member's own row ('Фамилия' of the fixture) sorts first.
    expect(first.data.items.slice(0, 2).map((e) => e.lastName)).toEqual(['Фамилия', 'Фамилия00001']);
    // Walk to a deep page through the cursor, then time that page.
    let cursor = first.data.nextCursor;
    for (let i = 0; i < 5 && cursor; i++) cursor = (await timed(`?limit=200&cursor=${cursor}`)).data.nextCursor;
    const deep = await timed(`?limit=50&cursor=${cursor}`);
    expect(deep.data.items[0]?.lastName).toBe('Фамилия01050');
    const search = await timed(`?search=${encodeURIComponent('фамилия0999')}`);
    expect(search.data.total).toBe(10);
    const filtered = await timed(`?departmentId=${big.departments.A}&state=noAccount&limit=200`);
    expect(filtered.data.total).toBe(5000);
    // Measured here: about 25 ms a page and 100 ms a search on PGlite, 10 and 45 ms on PostgreSQL; the bound
    // is generous for a loaded test machine and still far below what an OFFSET walk or per-row queries cost.
    for (const [name, { ms }] of Object.entries({ first, deep, search, filtered })) expect(ms, name).toBeLessThan(1500);
  });
});
