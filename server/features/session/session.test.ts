import { SignJWT, UnsecuredJWT } from 'jose';
import { assert } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentUser, EnumsData, Unit, buildAppConfig } from '../../../src/domain/user';
import { resolveJwtSecret } from '../../auth/tokens';
import { api, createTestApp, json, signUp, type TestApp } from '../../test-support';

let t: TestApp;
let session: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestApp();
  session = await signUp(t, { middleName: '', position: 'OTHER', otherPosition: 'Технолог' });
});
afterAll(() => t.close());

const get = (path: string, token: string | undefined, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: api(path), headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

async function userIdOf(email: string): Promise<string> {
  const row = await t.db.one<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  return row!.id;
}

describe('GET /user', () => {
  it('answers every field of the current user, checked with the shared struct', async () => {
    const response = await get('/user', session.access);
    expect(response.statusCode).toBe(200);
    const { data } = json<{ data: unknown }>(response);
    assert(data, CurrentUser);
    expect(data).toMatchObject({
      email: session.email,
      username: session.email,
      telephone: '+7 (912) 345-67-89',
      fullName: 'Петров Иван',
      middleName: null,
      position: 'OTHER',
      otherPosition: 'Технолог',
      company: { name: 'ООО «Ромашка»', inn: '7707083893' },
      role: 'OWNER',
      authorities: [{ authority: 'ROLE_OWNER' }],
      emailVerified: true,
      active: true,
      enabled: true,
      accountNonExpired: true,
      accountNonLocked: true,
      credentialsNonExpired: true,
      hrInviterData: null,
      department: null,
      locale: 'ru',
    });
    expect(Date.parse(data.email_verified_at ?? '')).not.toBeNaN();
  });

  it('refuses a request without a token, with 401', async () => {
    const response = await get('/user', undefined, { Language: 'en' });
    expect(response.statusCode).toBe(401);
    expect(json(response)).toEqual({ message: 'Sign in to continue.' });
  });

  it('answers an expired access token with 403 and exactly "Token Expired."', async () => {
    const secret = await resolveJwtSecret(t.db, t.config.jwtSecret);
    const expired = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(await userIdOf(session.email))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 16 * 60)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    for (const language of ['ru', 'en']) {
      const response = await get('/user', expired, { Language: language });
      expect(response.statusCode).toBe(403);
      expect(json(response)).toEqual({ message: 'Token Expired.' });
    }
  });

  it('refuses a token signed with another secret', async () => {
    const forged = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(await userIdOf(session.email))
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    expect((await get('/user', forged)).statusCode).toBe(401);
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const unsigned = new UnsecuredJWT({ typ: 'access' }).setSubject(await userIdOf(session.email)).setExpirationTime('15m').encode();
    expect((await get('/user', unsigned)).statusCode).toBe(401);
  });

  it('refuses an expired token of another algorithm with 401, not 403', async () => {
    const secret = await resolveJwtSecret(t.db, t.config.jwtSecret);
    const hs512 = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(await userIdOf(session.email))
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new Uint8Array([...secret, ...secret]));
    expect((await get('/user', hs512)).statusCode).toBe(401);
  });

  it('refuses a refresh token used as an access token', async () => {
    expect((await get('/user', session.refresh)).statusCode).toBe(401);
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = session.access.split('.');
    const payload = Buffer.from(JSON.stringify({ typ: 'access', sub: crypto.randomUUID(), exp: 9999999999 })).toString('base64url');
    expect((await get('/user', `${header}.${payload}.${signature}`)).statusCode).toBe(401);
  });

  it('refuses the token of a deactivated user', async () => {
    const other = await signUp(t);
    await t.db.query('UPDATE users SET active = false WHERE email = $1', [other.email]);
    expect((await get('/user', other.access)).statusCode).toBe(401);
  });
});

describe('PATCH /user', () => {
  it('stores the language the user chose', async () => {
    const response = await t.app.inject({ method: 'PATCH', url: api('/user'), headers: { authorization: `Bearer ${session.access}` }, payload: { locale: 'en' } });
    expect(response.statusCode).toBe(200);
    expect(json<{ data: { locale: string } }>(await get('/user', session.access)).data.locale).toBe('en');
  });

  it('refuses other languages and other fields', async () => {
    const bad = await t.app.inject({ method: 'PATCH', url: api('/user'), headers: { authorization: `Bearer ${session.access}` }, payload: { locale: 'de' } });
    expect(bad.statusCode).toBe(400);
    const extra = await t.app.inject({ method: 'PATCH', url: api('/user'), headers: { authorization: `Bearer ${session.access}` }, payload: { locale: 'ru', role: 'ADMIN' } });
    expect(extra.statusCode).toBe(400);
    expect(json(extra).errors).toEqual({ role: 'Это поле не ожидается.' });
  });

  it('requires a session', async () => {
    expect((await t.app.inject({ method: 'PATCH', url: api('/user'), payload: { locale: 'en' } })).statusCode).toBe(401);
  });
});

describe('GET /enums and GET /units', () => {
  it('answer the app config with titles in the requested language', async () => {
    const enums = json<{ data: unknown }>(await get('/enums', session.access, { Language: 'en' })).data;
    assert(enums, EnumsData);
    expect(enums.enums.REGISTRATION_ROLE).toEqual([
      { id: 'OWNER', title: 'Owner' },
      { id: 'CEO', title: 'CEO' },
      { id: 'TOP_MANAGER', title: 'Top management' },
      { id: 'FIRST_LINE_MANAGER', title: 'First-line managers' },
      { id: 'MIDDLE_MANAGER', title: 'Middle managers' },
    ]);
    expect(enums.enums.CURRENCY?.map((c) => c.id)).toEqual(['RUB', 'USD', 'AUD']);
    expect(Object.keys(enums.enums).sort()).toEqual(['CURRENCY', 'IMPLEMENTATION_GOAL', 'POSITION', 'REGISTRATION_ROLE', 'ROLE']);
    expect(enums.supportLink).toMatch(/^https:\/\/t\.me\//);

    const units = json<{ data: unknown[] }>(await get('/units', session.access)).data;
    for (const unit of units) assert(unit, Unit);
    expect(units).toEqual([
      { id: 'MINUTES', title: 'Минуты', type: 'BASE_INDICATOR' },
      { id: 'HOURS', title: 'Часы', type: 'BASE_INDICATOR' },
      { id: 'DAYS', title: 'Дни', type: 'BASE_INDICATOR' },
    ]);
    expect(buildAppConfig(enums, units as Unit[]).units).toHaveLength(3);
  });

  it('have a title for every option in both languages', async () => {
    for (const language of ['ru', 'en']) {
      const { data } = json<{ data: { enums: Record<string, { id: string; title: string }[]> } }>(await get('/enums', session.access, { Language: language }));
      for (const [name, options] of Object.entries(data.enums)) {
        for (const option of options) expect(option.title, `${language} ${name}.${option.id}`).not.toMatch(/^enum\./);
      }
    }
  });

  it('require a session', async () => {
    expect((await get('/enums', undefined)).statusCode).toBe(401);
    expect((await get('/units', undefined)).statusCode).toBe(401);
  });
});

describe('GET /health', () => {
  it('answers ok without a session and is never cached', async () => {
    const response = await get('/health', undefined);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(json(response)).toMatchObject({ data: { status: 'ok' } });
  });
});
