import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_FIELDS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, ImportPreview, ImportReport } from '../../../../src/domain/company';
import { api, createTestApp, json, type TestApp } from '../../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../../suggestions/fixtures';
import { parseSpreadsheet } from './parse';
import { deflatedZeros, employeeLines, encodeCp1251, handmadeXlsx, staffCsv, staffXlsx, utf8, withBom, xlsxOf } from './test-files';

let t: TestApp;
let hr: Login;
let owner: Login;
let ceo: Login;
let worker: Login;
let findir: Login;
let manager: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;

const login = () => signUpMember(t);

beforeAll(async () => {
  t = await createTestApp();
  [hr, owner, ceo, worker, findir, manager, outsider] = await Promise.all([login(), login(), login(), login(), login(), login(), login()]);
  acme = await createCompany(t.db, 'Acme', {
    [hr.id]: ['HR'],
    [owner.id]: ['OWNER'],
    [ceo.id]: ['CEO'],
    [worker.id]: ['EMPLOYEE'],
    [findir.id]: ['FINANCIAL_DIRECTOR'],
    [manager.id]: ['TOP_MANAGER', 'DIRECTION_MANAGER'],
  });
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
});
afterAll(() => t.close());

type Part = { name: string; value: string } | { name: string; filename: string; data: Uint8Array; type?: string };

/** A multipart/form-data body, framed by hand as a browser frames it. */
function form(parts: readonly Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----import${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`));
      chunks.push(Buffer.from(part.data));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface SendOptions {
  who?: Login;
  companyId?: string;
  dryRun?: boolean;
  name?: string;
  mapping?: string;
  language?: string;
  headers?: Record<string, string>;
}

function upload(data: Uint8Array, options: SendOptions = {}) {
  const parts: Part[] = [];
  if (options.mapping !== undefined) parts.push({ name: 'mapping', value: options.mapping });
  parts.push({ name: 'file', filename: options.name ?? 'staff.xlsx', data });
  return send(parts, options);
}

function send(parts: readonly Part[], options: SendOptions = {}) {
  const { payload, contentType } = form(parts);
  const who = options.who ?? hr;
  return t.app.inject({
    method: 'POST',
    url: api(`/companies/${options.companyId ?? acme.companyId}/employees/import${options.dryRun ? '?dryRun=1' : ''}`),
    headers: { authorization: `Bearer ${who.access}`, Language: options.language ?? 'en', 'content-type': contentType, ...options.headers },
    payload,
  });
}

const reportOf = (res: LightMyRequestResponse) => json<{ data: ImportReport }>(res).data;

/** What an import may change, for "nothing changed" checks. */
async function snapshot(companyId = acme.companyId) {
  const one = async (sql: string) => (await t.db.one<{ v: string }>(sql, [companyId]))?.v;
  return {
    employees: await one(`SELECT md5(string_agg(e::text, ',' ORDER BY id)) AS v FROM employees e WHERE company_id = $1`),
    departments: await one(`SELECT md5(string_agg(d::text, ',' ORDER BY id)) AS v FROM departments d WHERE company_id = $1`),
    imports: await one(`SELECT count(*)::text AS v FROM employee_imports WHERE company_id = $1`),
    changes: await one(`SELECT count(*)::text AS v FROM changes WHERE company_id = $1`),
  };
}

async function employeeBySn(serviceNumber: string) {
  return t.db.one<{ id: string; last_name: string; first_name: string; middle_name: string | null; position: string | null; email: string | null; department: string | null; imported: boolean; roles: string[]; active: boolean }>(
    `SELECT e.id, e.last_name, e.first_name, e.middle_name, e.position, e.email, d.name AS department, e.imported, e.roles, e.active
       FROM employees e LEFT JOIN departments d ON d.company_id = e.company_id AND d.id = e.department_id
      WHERE e.company_id = $1 AND e.service_number = $2`,
    [acme.companyId, serviceNumber],
  );
}

const countWhere = async (sql: string, params: string[]) => Number((await t.db.one<{ n: string }>(`SELECT count(*)::text AS n FROM ${sql}`, params))?.n);

describe('POST .../employees/import?dryRun=1 (preview)', () => {
  it('shows how the columns were read and the first 10 rows, and stores nothing', async () => {
    const before = await snapshot();
    const res = await upload(await staffXlsx(employeeLines(25, 'pv')), { dryRun: true, name: 'Штат.xlsx' });
    expect(res.statusCode, res.body).toBe(200);
    const preview = json<{ data: ImportPreview }>(res).data;
    expect(ImportPreview.is(preview)).toBe(true);
    expect(preview.totalRows).toBe(25);
    expect(preview.columns.map((c) => c.field)).toEqual([...IMPORT_FIELDS]);
    expect(preview.columns.map((c) => c.header)).toEqual(['Фамилия', 'Имя', 'Отчество', 'Должность', 'E-mail', 'Таб. №', 'Подразделение']);
    expect(preview.sample).toHaveLength(10);
    expect(preview.sample[0]).toEqual(['Иванов0', 'Иван', 'Петрович', 'Слесарь', 'pv.0@example.com', 'pv-00000', 'Цех 1']);
    expect(preview.missingFields).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('names the required fields it could not find', async () => {
    const res = await upload(utf8('Колонка 1;Колонка 2\nИванов;Иван\n'), { dryRun: true, name: 'x.csv' });
    expect(res.statusCode).toBe(200);
    const preview = json<{ data: ImportPreview }>(res).data;
    expect(preview.columns.map((c) => c.field)).toEqual([null, null]);
    expect(preview.missingFields).toEqual(['lastName', 'firstName']);
  });

  it('is allowed to OWNER and CEO as well as HR', async () => {
    for (const who of [owner, ceo]) {
      expect((await upload(staffCsv(employeeLines(2, 'pv2')), { who, dryRun: true, name: 'a.csv' })).statusCode).toBe(200);
    }
  });
});

describe('POST .../employees/import', () => {
  it('imports 200 employees from an XLSX with their departments, as imported employees with the role EMPLOYEE', async () => {
    const res = await upload(await staffXlsx(employeeLines(200, 'big', ['Литейный цех', 'Склад', 'ОТК'])), { name: 'Штат.xlsx' });
    expect(res.statusCode, res.body).toBe(201);
    const report = reportOf(res);
    expect(ImportReport.is(report)).toBe(true);
    expect(report).toMatchObject({ companyId: acme.companyId, fileName: 'Штат.xlsx', result: 'imported', totalRows: 200, created: 200, updated: 0, unchanged: 0, rejected: [] });
    expect(report.imported).toHaveLength(200);
    expect(report.imported[0]).toMatchObject({ row: 2, action: 'created', fullName: 'Иванов0 Иван Петрович' });
    const stored = await employeeBySn('big-00007');
    expect(stored).toMatchObject({ last_name: 'Иванов7', first_name: 'Иван', middle_name: 'Петрович', position: 'Слесарь', email: 'big.7@example.com', department: 'Склад', imported: true, roles: ['EMPLOYEE'], active: true });
    expect(stored?.id).toBe(report.imported[7]?.employeeId);
    expect(await countWhere(`departments WHERE company_id = $1 AND name IN ('Литейный цех', 'Склад', 'ОТК')`, [acme.companyId])).toBe(3);
    // Every new row is in the change feed, so the clients' pull brings it.
    expect(await countWhere(`changes c JOIN employees e ON e.id = c.row_id WHERE e.company_id = $1 AND e.service_number LIKE 'big-%'`, [acme.companyId])).toBe(200);
  });

  it('creates nothing when the same file is imported again: every row is unchanged', async () => {
    const file = await staffXlsx(employeeLines(30, 'again'));
    expect(reportOf(await upload(file)).created).toBe(30);
    const before = await snapshot();
    const res = await upload(file);
    expect(res.statusCode).toBe(201);
    expect(reportOf(res)).toMatchObject({ result: 'imported', created: 0, updated: 0, unchanged: 30 });
    const after = await snapshot();
    expect({ ...after, imports: before.imports }).toEqual(before);
    expect(Number(after.imports)).toBe(Number(before.imports) + 1);
  });

  it('updates only what changed; an empty cell keeps the stored value; matches by e-mail without case when there is no service number', async () => {
    const lines = employeeLines(5, 'upd');
    await upload(staffCsv(lines), { name: 'a.csv' });
    const changed = lines.map((l, i) => (i === 1 ? { ...l, position: 'Мастер', department: 'Новый участок' } : i === 2 ? { ...l, middleName: '' } : l));
    const report = reportOf(await upload(staffCsv(changed), { name: 'b.csv' }));
    expect(report).toMatchObject({ created: 0, updated: 1, unchanged: 4 });
    expect(await employeeBySn('upd-00001')).toMatchObject({ position: 'Мастер', department: 'Новый участок', middle_name: 'Петрович' });
    expect(await employeeBySn('upd-00002')).toMatchObject({ middle_name: 'Петрович' });

    // The same people by e-mail only, in capitals, with a new position for one of them.
    const byEmail = utf8(`Фамилия,Имя,Почта,Должность\nИванов3,Иван,UPD.3@EXAMPLE.COM,Бригадир\nИванов4,Иван,upd.4@example.com,Слесарь\n`);
    expect(reportOf(await upload(byEmail, { name: 'c.csv' }))).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(await employeeBySn('upd-00003')).toMatchObject({ position: 'Бригадир', email: 'upd.3@example.com' });
  });

  it('matches rows with neither service number nor e-mail by full name, so such a file also imports once', async () => {
    const file = utf8('Фамилия;Имя;Отчество;Должность\nБезномерова;Анна;Ивановна;Кладовщик\nБезномерова;Анна;Ивановна;Кладовщик\nБезномеров;Олег;;Водитель\n');
    expect(reportOf(await upload(file, { name: 'n.csv' }))).toMatchObject({ created: 3 });
    expect(reportOf(await upload(file, { name: 'n.csv' }))).toMatchObject({ created: 0, unchanged: 3 });
    expect(await countWhere(`employees WHERE company_id = $1 AND last_name LIKE 'Безномеров%'`, [acme.companyId])).toBe(3);
  });

  it('rejects each bad row with its row number, reason, field and values, and imports the rest', async () => {
    const [taken] = await t.db.query<{ email: string }>(`SELECT email FROM employees WHERE company_id = $1 AND user_id = $2`, [acme.companyId, worker.id]);
    await upload(staffCsv([{ lastName: 'Старый', firstName: 'Сотрудник', serviceNumber: 'rej-old', email: 'rej.old@example.com' }]), { name: 'o.csv' });
    const csv = [
      'Фамилия;Имя;E-mail;Таб. №;Должность',
      'Хороший;Работник;rej.ok@example.com;rej-1;Слесарь', // row 2: fine
      ';Безфамильный;rej.a@example.com;rej-2;', // row 3: no last name
      'Плохой;Адрес;not-an-email;rej-3;', // row 4: bad e-mail
      `Длинный;${'Я'.repeat(101)};rej.b@example.com;rej-4;`, // row 5: first name too long
      'Двойник;Номера;rej.c@example.com;rej-1;', // row 6: service number of row 2
      'Двойник;Почты;REJ.OK@example.com;rej-6;', // row 7: e-mail of row 2
      `Чужой;Адрес;${taken?.email ?? ''};rej-old;`, // row 8: matched by service number, e-mail of another employee
      'Старый;Сотрудник;rej.old@example.com;;', // row 9: the employee of row 8's service number... matched again by e-mail
      '',
      'Последний;Хороший;rej.last@example.com;rej-9;Кладовщик', // row 11: fine
    ].join('\n');
    const res = await upload(utf8(csv), { name: 'rej.csv' });
    expect(res.statusCode, res.body).toBe(201);
    const report = reportOf(res);
    expect(report).toMatchObject({ result: 'withErrors', totalRows: 9, created: 2, updated: 0, unchanged: 1 });
    expect(report.rejected.map((r) => [r.row, r.code, r.field])).toEqual([
      [3, 'required', 'lastName'],
      [4, 'email', 'email'],
      [5, 'tooLong', 'firstName'],
      [6, 'duplicateInFile', 'serviceNumber'],
      [7, 'duplicateInFile', 'email'],
      [8, 'emailTaken', 'email'],
    ]);
    expect(report.rejected[0]).toMatchObject({ message: '“Last name” is empty.', values: ['', 'Безфамильный', 'rej.a@example.com', 'rej-2', ''] });
    expect(report.rejected[1]?.message).toBe('“not-an-email” is not a valid e-mail address.');
    expect(report.rejected[2]?.message).toBe('“First name” is longer than 100 characters.');
    expect(report.rejected[3]?.message).toBe('The same “Service number” as in row 2.');
    expect(report.rejected[5]?.message).toBe(`The e-mail ${taken?.email} belongs to another employee: Фамилия Имя.`);
    expect(report.imported.map((r) => [r.row, r.action])).toEqual([
      [2, 'created'],
      [9, 'unchanged'],
      [11, 'created'],
    ]);
    expect(await employeeBySn('rej-2')).toBeNull();
    expect(await employeeBySn('rej-9')).toMatchObject({ last_name: 'Последний', position: 'Кладовщик' });
  });

  it('says the reasons in the request’s language, and GET .../imports/{id} says them in the reader’s', async () => {
    const res = await upload(utf8('Фамилия;Имя\n;Без фамилии\n'), { name: 'ru.csv', language: 'ru' });
    const report = reportOf(res);
    expect(report.rejected[0]?.message).toBe('Не заполнено поле «Фамилия».');
    const read = await t.app.inject({ method: 'GET', url: api(`/companies/${acme.companyId}/employees/imports/${report.id}`), headers: { authorization: `Bearer ${owner.access}`, Language: 'en' } });
    expect(read.statusCode).toBe(200);
    const again = reportOf(read);
    expect(ImportReport.is(again)).toBe(true);
    expect({ ...again, rejected: [] }).toEqual({ ...report, rejected: [] });
    expect(again.rejected[0]?.message).toBe('“Last name” is empty.');
  });

  it('a shared department name is matched without case and created once, in the spelling first seen', async () => {
    const lines = [
      { lastName: 'Отделов', firstName: 'А', serviceNumber: 'dep-1', department: 'Участок Сборки' },
      { lastName: 'Отделов', firstName: 'Б', serviceNumber: 'dep-2', department: 'УЧАСТОК СБОРКИ' },
      { lastName: 'Отделов', firstName: 'В', serviceNumber: 'dep-3', department: 'a' },
    ];
    const res = await upload(staffCsv(lines), { name: 'd.csv' });
    expect(res.statusCode).toBe(201);
    expect(await countWhere(`departments WHERE company_id = $1 AND lower(name) = lower('Участок Сборки')`, [acme.companyId])).toBe(1);
    expect((await employeeBySn('dep-2'))?.department).toBe('Участок Сборки');
    // "a" is the fixture's existing department A.
    expect(await countWhere(`employees WHERE company_id = $1 AND service_number = 'dep-3' AND department_id = $2`, [acme.companyId, acme.departments.A ?? ''])).toBe(1);
  });

  it('ignores columns that are not employee fields: roles, activity or a company cannot be set by a file', async () => {
    const file = utf8('Фамилия;Имя;Таб. №;roles;Роли;active;companyId\nМассов;Назначенный;mass-1;OWNER;OWNER;false;' + rival.companyId + '\n');
    expect((await upload(file, { name: 'm.csv' })).statusCode).toBe(201);
    expect(await employeeBySn('mass-1')).toMatchObject({ roles: ['EMPLOYEE'], active: true });
    expect(await countWhere(`employees WHERE company_id = $1 AND service_number = 'mass-1'`, [rival.companyId])).toBe(0);
  });

  it('takes the client’s mapping over the detected one, and refuses a bad mapping with errors.mapping', async () => {
    const file = utf8('Колонка 1;Колонка 2;Колонка 3\nКартов;Маппинг;map-1\n');
    const missing = await upload(file, { name: 'map.csv' });
    expect(missing.statusCode).toBe(400);
    expect(json<{ message: string }>(missing).message).toBe('Columns not found: Last name, First name. Check the header row or choose the columns yourself.');
    const res = await upload(file, { name: 'map.csv', mapping: '["lastName","firstName","serviceNumber"]' });
    expect(res.statusCode, res.body).toBe(201);
    expect(await employeeBySn('map-1')).toMatchObject({ last_name: 'Картов', first_name: 'Маппинг' });
    for (const mapping of ['["lastName","lastName"]', '["roles"]', 'not json', '[null,null,null,null]']) {
      const bad = await upload(file, { name: 'map.csv', mapping });
      expect(bad.statusCode, mapping).toBe(400);
      expect(Object.keys(json<{ errors: Record<string, string> }>(bad).errors)).toEqual(['mapping']);
    }
  });

  it('replays an import sent again with the same Idempotency-Key, and refuses the key for another file', async () => {
    const key = randomUUID();
    const file = staffCsv(employeeLines(3, 'idem'));
    const first = await upload(file, { name: 'i.csv', headers: { 'idempotency-key': key } });
    expect(first.statusCode).toBe(201);
    const before = await snapshot();
    const replay = await upload(file, { name: 'i.csv', headers: { 'idempotency-key': key } });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(reportOf(replay)).toEqual(reportOf(first));
    expect(await snapshot()).toEqual(before);
    const other = await upload(staffCsv(employeeLines(3, 'idem2')), { name: 'i.csv', headers: { 'idempotency-key': key } });
    expect(other.statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
  });
});

describe('refusals of the import (nothing stored)', () => {
  it('413 for a file over 5 MiB; exactly 5 MiB is read', async () => {
    const header = 'Фамилия;Имя\nИванов;Иван\n';
    const exact = Buffer.alloc(IMPORT_MAX_BYTES, ' ');
    exact.write(header, 0, 'utf8');
    const before = await snapshot();
    const ok = await upload(new Uint8Array(exact), { name: 'exact.csv', dryRun: true });
    expect(ok.statusCode, ok.body).toBe(200);
    const over = await upload(new Uint8Array(Buffer.concat([exact, Buffer.from(' ')])), { name: 'big.csv' });
    expect(over.statusCode).toBe(413);
    expect(json<{ message: string }>(over).message).toBe('The file is too large: at most 5 MB.');
    expect(await snapshot()).toEqual(before);
  });

  it('400 importBroken for a zip bomb (honest or lying about its size), with nothing changed', async () => {
    const zeros = await deflatedZeros(200);
    const sheet = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c></row>';
    const bombOf = (size: number) =>
      handmadeXlsx(sheet, ['Фамилия', 'Имя'], [{ name: 'xl/theme/theme1.xml', data: zeros.data, method: 8, crc: zeros.crc, size }]);
    const before = await snapshot();
    for (const bomb of [bombOf(zeros.size), bombOf(64 * 1024)]) {
      for (const dryRun of [true, false]) {
        const res = await upload(bomb, { name: 'bomb.xlsx', dryRun });
        expect(res.statusCode).toBe(400);
        expect(json<{ message: string }>(res).message).toContain('cannot be read');
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('400 importBroken for a truncated XLSX and junk behind a zip signature; 415 for files that are neither CSV nor XLSX', async () => {
    const good = await xlsxOf([['Фамилия', 'Имя'], ['Иванов', 'Иван']]);
    const before = await snapshot();
    for (const bytes of [good.subarray(0, good.length - 40), new Uint8Array(Buffer.concat([Buffer.from('PK\u0003\u0004'), randomBytes(500)]))]) {
      const res = await upload(bytes, { name: 'staff.xlsx' });
      expect(res.statusCode).toBe(400);
    }
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52);
    const wrongType = await upload(png, { name: 'staff.csv' });
    expect(wrongType.statusCode).toBe(415);
    expect(json<{ message: string }>(wrongType).message).toContain('neither a CSV nor an XLSX');
    expect(await snapshot()).toEqual(before);
  });

  it(`400 importTooManyRows for more than ${IMPORT_MAX_ROWS} rows`, async () => {
    const csv = `Фамилия;Имя;Таб. №\n${Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `Много;Строк;many-${i}`).join('\n')}\n`;
    const before = await snapshot();
    const res = await upload(utf8(csv), { name: 'many.csv' });
    expect(res.statusCode).toBe(400);
    expect(json<{ message: string }>(res).message).toBe('The file has more than 20,000 rows. Split it into several files.');
    expect(await snapshot()).toEqual(before);
  });

  it('400 importFileMissing without a file (or without a multipart body); 400 for two files', async () => {
    const before = await snapshot();
    const noFile = await send([{ name: 'mapping', value: '[]' }]);
    expect(noFile.statusCode).toBe(400);
    expect(json<{ message: string }>(noFile).message).toContain('Attach a CSV or XLSX file');
    const asJson = await t.app.inject({ method: 'POST', url: api(`/companies/${acme.companyId}/employees/import`), headers: { authorization: `Bearer ${hr.access}` }, payload: { file: 'x' } });
    expect(asJson.statusCode).toBe(400);
    const file = staffCsv(employeeLines(1, 'two'));
    const two = await send([{ name: 'file', filename: 'a.csv', data: file }, { name: 'file', filename: 'b.csv', data: file }]);
    expect(two.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('401 without a token', async () => {
    const { payload, contentType } = form([{ name: 'file', filename: 'a.csv', data: staffCsv(employeeLines(1, 'anon')) }]);
    const res = await t.app.inject({ method: 'POST', url: api(`/companies/${acme.companyId}/employees/import`), headers: { 'content-type': contentType }, payload });
    expect(res.statusCode).toBe(401);
  });

  it('403 for members without people.manage, before the file is read, with nothing changed', async () => {
    const before = await snapshot();
    for (const who of [worker, findir, manager]) {
      for (const dryRun of [true, false]) {
        const res = await upload(staffCsv(employeeLines(2, 'forbidden')), { who, dryRun, name: 'f.csv' });
        expect(res.statusCode).toBe(403);
      }
      // Even a file that would be refused for itself is answered 403 first.
      expect((await upload(new Uint8Array(Buffer.alloc(IMPORT_MAX_BYTES + 10, 'x')), { who, name: 'big.csv' })).statusCode).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('404 for another company, a missing company and a malformed id, exactly alike', async () => {
    const before = await snapshot();
    const beforeRival = await snapshot(rival.companyId);
    const bodies = new Set<string>();
    for (const [who, companyId] of [
      [hr, rival.companyId],
      [outsider, acme.companyId],
      [hr, randomUUID()],
      [hr, 'nope'],
    ] as const) {
      const res = await upload(staffCsv(employeeLines(2, 'tenant')), { who, companyId, name: 't.csv' });
      expect(res.statusCode).toBe(404);
      bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
    expect(await snapshot()).toEqual(before);
    expect(await snapshot(rival.companyId)).toEqual(beforeRival);
  });
});

describe('GET .../employees/imports/{importId}', () => {
  let importId: string;
  beforeAll(async () => {
    importId = reportOf(await upload(staffCsv(employeeLines(2, 'get')), { name: 'g.csv' })).id;
  });
  const read = (who: Login, companyId: string, id: string) =>
    t.app.inject({ method: 'GET', url: api(`/companies/${companyId}/employees/imports/${id}`), headers: { authorization: `Bearer ${who.access}`, Language: 'en' } });

  it('answers the stored report to those who manage people', async () => {
    for (const who of [hr, owner, ceo]) {
      const res = await read(who, acme.companyId, importId);
      expect(res.statusCode).toBe(200);
      expect(reportOf(res)).toMatchObject({ id: importId, created: 2, fileName: 'g.csv' });
    }
  });

  it('403 for members without people.manage', async () => {
    for (const who of [worker, findir, manager]) expect((await read(who, acme.companyId, importId)).statusCode).toBe(403);
  });

  it('404 for another company’s report, a missing one and a malformed id, exactly alike', async () => {
    const responses = [await read(outsider, rival.companyId, importId), await read(outsider, acme.companyId, importId), await read(hr, acme.companyId, randomUUID()), await read(hr, acme.companyId, 'nope'), await read(hr, rival.companyId, importId)];
    expect(responses.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404]);
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
  });
});

describe('GET .../employees/import-template', () => {
  const template = (who: Login, query: string, language = 'en', companyId = acme.companyId) =>
    t.app.inject({ method: 'GET', url: api(`/companies/${companyId}/employees/import-template${query}`), headers: { authorization: `Bearer ${who.access}`, Language: language } });

  it('gives an XLSX with the headers in the request’s language and one example row, which the import reads back', async () => {
    for (const [language, headers, example] of [
      ['ru', ['Фамилия', 'Имя', 'Отчество', 'Должность', 'Электронная почта', 'Табельный номер', 'Подразделение'], 'Иванов'],
      ['en', ['Last name', 'First name', 'Middle name', 'Position', 'E-mail', 'Service number', 'Department'], 'Smith'],
    ] as const) {
      const res = await template(hr, '?format=xlsx', language);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="employees-template-${language}.xlsx"`);
      const rows = (await parseSpreadsheet(new Uint8Array(res.rawPayload))).rows;
      expect(rows[0]?.cells).toEqual(headers);
      expect(rows[1]?.cells[0]).toBe(example);
      expect(rows[1]?.cells[5]).toBe('000123');
      expect(rows).toHaveLength(2);
      const preview = json<{ data: ImportPreview }>(await upload(new Uint8Array(res.rawPayload), { dryRun: true, name: 'template.xlsx' })).data;
      expect(preview.columns.map((c) => c.field)).toEqual([...IMPORT_FIELDS]);
    }
    expect((await template(hr, '')).statusCode).toBe(200);
  });

  it('gives a CSV for Excel in a Russian locale: UTF-8 with a BOM, semicolons', async () => {
    const res = await template(owner, '?format=csv', 'ru');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = res.rawPayload.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe('Фамилия;Имя;Отчество;Должность;Электронная почта;Табельный номер;Подразделение');
    const preview = json<{ data: ImportPreview }>(await upload(new Uint8Array(res.rawPayload), { dryRun: true, name: 'template.csv' })).data;
    expect(preview.columns.map((c) => c.field)).toEqual([...IMPORT_FIELDS]);
    expect(preview.sample).toEqual([['Иванов', 'Иван', 'Иванович', 'Слесарь-ремонтник', 'ivanov@example.ru', '000123', 'Механический цех']]);
  });

  it('400 errors.format for another format', async () => {
    const res = await template(hr, '?format=pdf');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: Record<string, string> }>(res).errors)).toEqual(['format']);
  });

  it('403 for members without people.manage; 404 for another company', async () => {
    for (const who of [worker, findir, manager]) expect((await template(who, '?format=csv')).statusCode).toBe(403);
    expect((await template(outsider, '?format=csv')).statusCode).toBe(404);
    expect((await template(hr, '?format=csv', 'en', rival.companyId)).statusCode).toBe(404);
  });
});

describe('CSV encodings through the route', () => {
  it('imports the same people from UTF-8 with BOM, UTF-8 and Windows-1251 files as one set of employees', async () => {
    const text = 'Фамилия,Имя,Таб. №,Подразделение\r\nЁжиков,Семён,enc-1,Цех №5\r\n';
    const first = reportOf(await upload(withBom(text), { name: 'bom.csv' }));
    expect(first.created).toBe(1);
    for (const bytes of [utf8(text), encodeCp1251(text)]) {
      expect(reportOf(await upload(bytes, { name: 'enc.csv' }))).toMatchObject({ created: 0, unchanged: 1 });
    }
    expect(await employeeBySn('enc-1')).toMatchObject({ last_name: 'Ёжиков', first_name: 'Семён', department: 'Цех №5' });
  });
});
