import { assert } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentUser } from '../../../src/domain/user';
import { api, clientAddress, createTestApp, json, type TestApp } from '../../test-support';
import { DEMO_COMPANY, DEMO_LOGINS, DEMO_PASSWORD, listDemoLogins, seedDemo } from './seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo data', () => {
  it('creates one verified login per role of DESIGN.md, and nothing more on a second run', async () => {
    expect(await seedDemo(t.db, t.config.passwordScryptLogN)).toBe(DEMO_LOGINS.length);
    expect(await seedDemo(t.db, t.config.passwordScryptLogN)).toBe(0);
    expect((await listDemoLogins(t.db)).map((l) => l.email)).toEqual([
      'owner@demo.local',
      'ceo@demo.local',
      'findir@demo.local',
      'finspec@demo.local',
      'direction@demo.local',
      'head@demo.local',
      'hr@demo.local',
      'employee@demo.local',
      'admin@demo.local',
    ]);
  });

  it('lets every demo login sign in with demo1234 and see its role', async () => {
    const expected: Record<string, [string, string]> = {
      'owner@demo.local': ['OWNER', 'ROLE_OWNER'],
      'findir@demo.local': ['FINANCIAL_DIRECTOR', 'ROLE_FINANCIAL_DIRECTOR'],
      'hr@demo.local': ['HR', 'ROLE_HR'],
      'admin@demo.local': ['ADMIN', 'ROLE_ADMIN'],
    };
    for (const [email, [role, authority]] of Object.entries(expected)) {
      const login = await t.app.inject({ method: 'POST', url: api('/auth/login'), remoteAddress: clientAddress(), payload: { email, password: DEMO_PASSWORD } });
      expect(login.statusCode, email).toBe(200);
      const user = await t.app.inject({ method: 'GET', url: api('/user'), headers: { authorization: `Bearer ${json(login).access_token as string}` } });
      const { data } = json<{ data: unknown }>(user);
      assert(data, CurrentUser);
      expect(data).toMatchObject({ role, authorities: [{ authority }], emailVerified: true, company: DEMO_COMPANY });
      expect(data.fullName).toMatch(/^[А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+ [А-ЯЁ][а-яё]+$/);
    }
  });

  it('leaves a changed demo account as it is', async () => {
    await t.db.query(`UPDATE users SET first_name = 'Изменено' WHERE email = 'ceo@demo.local'`);
    await seedDemo(t.db, t.config.passwordScryptLogN);
    expect(await t.db.one(`SELECT first_name FROM users WHERE email = 'ceo@demo.local'`)).toEqual({ first_name: 'Изменено' });
  });
});
