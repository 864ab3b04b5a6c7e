// The OWNER's and the CEO's employee records are guarded as a whole, not only their roles: HR (and anyone who
// may not grant those roles) can neither rename them nor change their e-mail, by a PATCH or by an import.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../../src/domain/company';
import { canEditEmployeeRecord } from '../../../src/domain/permissions';
import { api, createTestApp, json, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';
import { utf8 } from './import/test-files';

let t: TestApp;
let owner: Login;
let ceo: Login;
let hr: Login;
let manager: Login;
let acme: Fixture;

beforeAll(async () => {
  t = await createTestApp();
  [owner, ceo, hr, manager] = await Promise.all([signUpMember(t), signUpMember(t), signUpMember(t), signUpMember(t)]);
  acme = await createCompany(t.db, 'Acme', { [owner.id]: ['OWNER'], [ceo.id]: ['CEO'], [hr.id]: ['HR'], [manager.id]: ['TOP_MANAGER'] });
});
afterAll(() => t.close());

const rowOf = async (userId: string) =>
  (await t.db.one<{ id: string; last_name: string; first_name: string; email: string | null; position: string | null }>(
    'SELECT id, last_name, first_name, email, position FROM employees WHERE company_id = $1 AND user_id = $2',
    [acme.companyId, userId],
  ))!;

function patch(who: Login, employeeId: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'PATCH',
    url: api(`/companies/${acme.companyId}/employees/${employeeId}`),
    headers: { authorization: `Bearer ${who.access}`, Language: 'en' },
    payload: body,
  });
}

/** A CSV import (semicolons, as Excel in a Russian locale saves it) as `who`. */
async function importCsv(who: Login, text: string): Promise<ImportReport> {
  const boundary = `----records${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="staff.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(utf8(text)),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: api(`/companies/${acme.companyId}/employees/import`),
    headers: { authorization: `Bearer ${who.access}`, Language: 'en', 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: ImportReport }>(res).data;
}

describe('canEditEmployeeRecord', () => {
  it('lets an OWNER edit anyone, a CEO anyone but an OWNER, HR anyone but an OWNER or a CEO', () => {
    expect(canEditEmployeeRecord(['OWNER'], ['OWNER'])).toBe(true);
    expect(canEditEmployeeRecord(['OWNER'], ['CEO'])).toBe(true);
    expect(canEditEmployeeRecord(['CEO'], ['OWNER', 'CEO'])).toBe(false);
    expect(canEditEmployeeRecord(['CEO'], ['CEO'])).toBe(true);
    expect(canEditEmployeeRecord(['HR'], ['OWNER'])).toBe(false);
    expect(canEditEmployeeRecord(['HR'], ['CEO'])).toBe(false);
    expect(canEditEmployeeRecord(['HR'], ['TOP_MANAGER'])).toBe(true);
    expect(canEditEmployeeRecord(['HR'], ['EMPLOYEE'])).toBe(true);
    expect(canEditEmployeeRecord(['TOP_MANAGER'], ['EMPLOYEE'])).toBe(false);
  });
});

describe("PATCH of the OWNER's and the CEO's employee records", () => {
  it("refuses HR any change to the owner's or the CEO's record (403), changing nothing", async () => {
    for (const target of [owner, ceo]) {
      const before = await rowOf(target.id);
      for (const body of [{ lastName: 'Подменный' }, { firstName: 'Другой' }, { email: 'hijack@evil.test' }, { position: 'Уволен' }, { middleName: 'X' }]) {
        const res = await patch(hr, before.id, body);
        expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(403);
      }
      expect(await rowOf(target.id)).toEqual(before);
    }
  });

  it("refuses the CEO a change to the owner's record (403)", async () => {
    const before = await rowOf(owner.id);
    expect((await patch(ceo, before.id, { lastName: 'Подменный' })).statusCode).toBe(403);
    expect(await rowOf(owner.id)).toEqual(before);
  });

  it("lets the owner edit the CEO's record and their own, the CEO their own, and HR a top manager's", async () => {
    const ceoRow = await rowOf(ceo.id);
    expect((await patch(owner, ceoRow.id, { position: 'Генеральный директор' })).statusCode).toBe(200);
    expect((await patch(ceo, ceoRow.id, { lastName: 'Директоров' })).statusCode).toBe(200);
    expect(await rowOf(ceo.id)).toMatchObject({ position: 'Генеральный директор', last_name: 'Директоров' });
    const ownerRow = await rowOf(owner.id);
    expect((await patch(owner, ownerRow.id, { firstName: 'Хозяин' })).statusCode).toBe(200);
    expect((await rowOf(owner.id)).first_name).toBe('Хозяин');
    const managerRow = await rowOf(manager.id);
    expect((await patch(hr, managerRow.id, { position: 'Директор по производству' })).statusCode).toBe(200);
    expect((await rowOf(manager.id)).position).toBe('Директор по производству');
  });
});

describe("an import touching the OWNER's and the CEO's records", () => {
  it("rejects HR's rows that would change them, applies the rest, and passes them when unchanged", async () => {
    const ownerBefore = await rowOf(owner.id);
    const ceoBefore = await rowOf(ceo.id);
    const managerBefore = await rowOf(manager.id);
    const report = await importCsv(
      hr,
      [
        'Фамилия;Имя;Email',
        `Подменный;Владелец;${ownerBefore.email}`,
        `${ceoBefore.last_name};${ceoBefore.first_name};${ceoBefore.email}`,
        `Управленцев;Топ;${managerBefore.email}`,
      ].join('\r\n'),
    );
    expect(report.rejected).toHaveLength(1);
    expect(report.rejected[0]).toMatchObject({ row: 2, code: 'protectedEmployee', field: null });
    expect(report.rejected[0]?.message).toContain('only the owner');
    expect(report.imported.map((r) => [r.row, r.action])).toEqual([
      [3, 'unchanged'],
      [4, 'updated'],
    ]);
    expect(await rowOf(owner.id)).toEqual(ownerBefore);
    expect(await rowOf(ceo.id)).toEqual(ceoBefore);
    expect((await rowOf(manager.id)).last_name).toBe('Управленцев');
  });

  it("applies the owner's import to the CEO's record", async () => {
    const ceoBefore = await rowOf(ceo.id);
    const report = await importCsv(owner, ['Фамилия;Имя;Email', `Новиков;${ceoBefore.first_name};${ceoBefore.email}`].join('\r\n'));
    expect(report.rejected).toEqual([]);
    expect((await rowOf(ceo.id)).last_name).toBe('Новиков');
  });
});
