// No text with a control character, DEL or an unpaired surrogate reaches the database, wherever it comes in:
// a body (400 with the field named `controlCharacters`, in the request's language), a query (400), a path
// (404), a pushed operation (its own 400 inside the batch) or an imported file (the row rejected). Before,
// each of these answered 500 (PostgreSQL refuses NUL in text) or stored U+FFFD in place of a lone surrogate.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../src/domain/company';
import { api, createTestApp, json, registrationInput, type TestApp } from './test-support';
import { createCompany, signUpMember, type Fixture, type Login } from './features/suggestions/fixtures';
import { handmadeXlsx } from './features/employees/import/test-files';

let t: TestApp;
let owner: Login;
let acme: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpMember(t);
  acme = await createCompany(t.db, 'Acme', { [owner.id]: ['OWNER'] });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH';
function call(method: Method, path: string, payload?: unknown, language = 'en') {
  return t.app.inject({
    method,
    url: api(path),
    headers: { authorization: `Bearer ${owner.access}`, Language: language },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}
const errorsOf = (body: string) => json<{ errors?: Record<string, string> }>({ body } as Parameters<typeof json>[0]).errors ?? {};
const count = async (table: string) => Number((await t.db.one<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`))?.n);

const EN = 'The text holds characters that are not allowed here (invisible control characters, or line breaks in a one-line field): remove them.';
const RU = 'В тексте есть недопустимые символы (невидимые управляющие символы или переносы строк в однострочном поле): удалите их.';
const REFUSED = ['\u0000', '\u0001', '\u001b', '\u007f', '\ud800', '\udfff'];

function proposal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'Стеллаж', problem: 'Долго ищем', solution: 'Купить стеллаж', expectedEffect: 'Быстрее', departmentId: acme.departments.A, imageIds: [], ...overrides };
}

describe('bodies', () => {
  it('refuses a registration with a NUL in a name, in the request language, creating no account', async () => {
    const users = await count('users');
    const en = await t.app.inject({ method: 'POST', url: api('/auth/register'), headers: { Language: 'en' }, payload: registrationInput({ firstName: 'Ив\u0000ан' }) });
    expect(en.statusCode, en.body).toBe(400);
    expect(errorsOf(en.body)).toEqual({ firstName: EN });
    const ru = await t.app.inject({ method: 'POST', url: api('/auth/register'), headers: { Language: 'ru' }, payload: registrationInput({ company: 'ООО\u0000' }) });
    expect(errorsOf(ru.body)).toEqual({ company: RU });
    expect(await count('users')).toBe(users);
  });

  it('refuses every refused character in PATCH /user, keeping the stored name', async () => {
    const before = await t.db.one('SELECT first_name, last_name, middle_name FROM users WHERE id = $1', [owner.id]);
    for (const c of REFUSED) {
      const res = await call('PATCH', '/user', { firstName: `Иван${c}`, middleName: `X${c}Y` });
      expect(res.statusCode, JSON.stringify(c)).toBe(400);
      expect(errorsOf(res.body)).toEqual({ firstName: EN, middleName: EN });
    }
    expect(await t.db.one('SELECT first_name, last_name, middle_name FROM users WHERE id = $1', [owner.id])).toEqual(before);
  });

  it('refuses departments and employees with control characters, storing nothing', async () => {
    const departments = await count('departments');
    const employees = await count('employees');
    const department = await call('POST', `/companies/${acme.companyId}/departments`, { name: 'Цех\u0000' });
    expect(department.statusCode, department.body).toBe(400);
    expect(errorsOf(department.body)).toEqual({ name: EN });
    const employee = await call('POST', `/companies/${acme.companyId}/employees`, { lastName: 'Петров', firstName: 'Пётр', position: 'Мастер\u0007', email: 'p\u0000@acme.test' });
    expect(employee.statusCode, employee.body).toBe(400);
    expect(Object.keys(errorsOf(employee.body)).sort()).toEqual(['email', 'position']);
    // A line break inside a one-line field is refused too; around it, it is trimmed as before.
    expect((await call('POST', `/companies/${acme.companyId}/departments`, { name: 'Цех\n№2' })).statusCode).toBe(400);
    expect(await count('departments')).toBe(departments);
    expect(await count('employees')).toBe(employees);
    const trimmed = await call('POST', `/companies/${acme.companyId}/departments`, { name: '\tЦех №2\r\n' });
    expect(trimmed.statusCode, trimmed.body).toBe(201);
    expect(json<{ data: { name: string } }>(trimmed).data.name).toBe('Цех №2');
  });

  it('keeps line breaks and tabs in a proposal’s text, and refuses them in its title', async () => {
    const multiLine = 'Детали лежат на полу.\r\n\tИщем по 10 минут.';
    const created = await call('POST', `/companies/${acme.companyId}/suggestions`, proposal({ problem: multiLine }));
    expect(created.statusCode, created.body).toBe(201);
    expect(json<{ data: { problem: string } }>(created).data.problem).toBe(multiLine);
    const suggestions = await count('suggestions');
    for (const body of [proposal({ title: 'Два\nзаголовка' }), proposal({ problem: 'NUL\u0000' }), proposal({ solution: 'lone \ud83d' })]) {
      const res = await call('POST', `/companies/${acme.companyId}/suggestions`, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.values(errorsOf(res.body))).toEqual([EN]);
    }
    expect(await count('suggestions')).toBe(suggestions);
  });

  it('answers a pushed operation with a NUL like its direct call, the batch itself succeeding', async () => {
    const suggestions = await count('suggestions');
    const res = await call('POST', '/sync/push', {
      operations: [{ id: randomUUID(), method: 'POST', path: `/api/v1/companies/${acme.companyId}/suggestions`, body: proposal({ id: randomUUID(), title: 'NUL\u0000' }) }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = json<{ data: { results: { status: number; body: { errors?: Record<string, string> } }[] } }>(res).data.results;
    expect(result?.status).toBe(400);
    expect(result?.body.errors).toEqual({ title: EN });
    expect(await count('suggestions')).toBe(suggestions);
  });
});

describe('queries and paths', () => {
  it('answers 400 naming the query parameter, for a value or a name with a refused character', async () => {
    const search = await call('GET', `/companies/${acme.companyId}/employees?search=%00`);
    expect(search.statusCode, search.body).toBe(400);
    expect(errorsOf(search.body)).toEqual({ search: EN });
    const list = await call('GET', `/companies/${acme.companyId}/suggestions?scope=all&status=%7F`, undefined, 'ru');
    expect(list.statusCode, list.body).toBe(400);
    expect(errorsOf(list.body)).toEqual({ status: RU });
    const named = await call('GET', `/companies/${acme.companyId}/employees?se%01arch=x`);
    expect(named.statusCode).toBe(400);
    expect(errorsOf(named.body)).toEqual({ _: EN });
    expect((await call('GET', `/sync/pull?companyId=${acme.companyId}&cursor=%00`)).statusCode).toBe(400);
  });

  it('answers 404 for a path parameter with a refused character, API or not', async () => {
    for (const path of [`/companies/${acme.companyId}/suggestions/%00`, '/companies/%00', `/companies/%00/employees`, '/invitations/%1B', '/uploads/a%00.png']) {
      const res = await call('GET', path);
      expect(res.statusCode, `${path} ${res.body}`).toBe(404);
    }
    const site = await t.app.inject({ method: 'GET', url: '/some%00page' });
    expect(site.statusCode).toBe(404);
  });
});

describe('imports', () => {
  it('rejects a row whose cell holds a NUL (an XLSX can, as _x0000_), shows its cells and imports the rest', async () => {
    const strings = ['Фамилия', 'Имя', 'Ива_x0000_нов', 'Иван', 'Петров', 'Пётр'];
    const cell = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
    const sheet = [
      `<row r="1">${cell('A1', 0)}${cell('B1', 1)}</row>`,
      `<row r="2">${cell('A2', 2)}${cell('B2', 3)}</row>`,
      `<row r="3">${cell('A3', 4)}${cell('B3', 5)}</row>`,
    ].join('');
    const boundary = `----cc${randomBytes(6).toString('hex')}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="staff.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.from(handmadeXlsx(sheet, strings)),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${acme.companyId}/employees/import`),
      headers: { authorization: `Bearer ${owner.access}`, Language: 'en', 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const report = json<{ data: ImportReport }>(res).data;
    expect(report.rejected).toEqual([
      { row: 2, code: 'controlCharacters', field: 'lastName', message: '“Last name” holds characters that cannot be imported (invisible control characters).', values: ['Ива\ufffdнов', 'Иван'] },
    ]);
    expect(report.imported).toMatchObject([{ row: 3, fullName: 'Петров Пётр', action: 'created' }]);
  });
});
