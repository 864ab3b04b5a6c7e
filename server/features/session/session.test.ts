import { SignJWT, UnsecuredJWT } from 'jose';
import { assert } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentUser, EnumsData, Unit, buildAppConfig } from '../../../src/domain/user';
import { resolveJwtSecret } from '../../auth/tokens';
import { api, clientAddress, createTestApp, json, signUp, type TestApp } from '../../test-support';

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

describe('PATCH /user (profile)', () => {
  const patch = (token: string | undefined, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'PATCH', url: api('/user'), headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), Language: 'en', ...headers }, payload });
  const userRow = (email: string) => t.db.one('SELECT first_name, last_name, middle_name, phone, locale, role, email, authorities FROM users WHERE email = $1', [email]);

  it('changes any subset of names, phone and language, and answers the current user', async () => {
    const me = await signUp(t);
    const response = await patch(me.access, { firstName: '  Пётр ', lastName: 'Иванов', middleName: 'Ильич', phone: '+7 900 111-22-33', locale: 'en' });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = json<{ data: unknown }>(response);
    assert(data, CurrentUser);
    expect(data).toMatchObject({ firstName: 'Пётр', lastName: 'Иванов', middleName: 'Ильич', fullName: 'Иванов Пётр Ильич', telephone: '+7 900 111-22-33', locale: 'en', email: me.email });
    expect(json<{ data: unknown }>(await get('/user', me.access)).data).toEqual(data);

    const onlyName = await patch(me.access, { firstName: 'Павел' });
    expect(json<{ data: CurrentUser }>(onlyName).data).toMatchObject({ firstName: 'Павел', lastName: 'Иванов', telephone: '+7 900 111-22-33', locale: 'en' });
  });

  it('clears the middle name with null or an empty value, and changes nothing for an empty body', async () => {
    const me = await signUp(t, { middleName: 'Сергеевич' });
    expect(json<{ data: CurrentUser }>(await patch(me.access, { middleName: null })).data.middleName).toBeNull();
    await patch(me.access, { middleName: 'Сергеевич' });
    expect(json<{ data: CurrentUser }>(await patch(me.access, { middleName: '' })).data.middleName).toBeNull();
    const before = await userRow(me.email);
    expect((await patch(me.access, {})).statusCode).toBe(200);
    expect(await userRow(me.email)).toEqual(before);
  });

  it('refuses each invalid value as registration does, and changes nothing', async () => {
    const me = await signUp(t);
    const before = await userRow(me.email);
    for (const [body, field, message] of [
      [{ firstName: '' }, 'firstName', 'Fill in this field.'],
      [{ firstName: '   ' }, 'firstName', 'Fill in this field.'],
      [{ lastName: 'x'.repeat(101) }, 'lastName', 'The value is too long.'],
      [{ middleName: 'x'.repeat(101) }, 'middleName', 'The value is too long.'],
      [{ phone: '12345' }, 'phone', 'Enter a phone number with 10 to 15 digits.'],
      [{ phone: '' }, 'phone', 'Fill in this field.'],
      [{ phone: null }, 'phone', 'Fill in this field.'],
      [{ locale: 'de' }, 'locale', 'locale is not valid.'],
    ] as const) {
      const response = await patch(me.access, body);
      expect(response.statusCode, field).toBe(400);
      expect(json(response).errors, JSON.stringify(body)).toEqual({ [field]: message });
    }
    expect(await userRow(me.email)).toEqual(before);
  });

  it('refuses fields a user may not set on themselves (role, authorities, e-mail, verification), changing nothing', async () => {
    const me = await signUp(t);
    const before = await userRow(me.email);
    for (const [field, value] of [
      ['role', 'ADMIN'],
      ['authorities', ['ROLE_ADMIN']],
      ['email', 'other@example.com'],
      ['emailVerified', true],
      ['active', true],
      ['companies', []],
      ['password', 'new password'],
    ] as const) {
      const response = await patch(me.access, { firstName: 'Взломщик', [field]: value });
      expect(response.statusCode, field).toBe(400);
      expect(json(response).errors, field).toEqual({ [field]: 'This field is not expected.' });
    }
    expect(await userRow(me.email)).toEqual(before);
  });

  it('replays a retried change with the same Idempotency-Key', async () => {
    const me = await signUp(t);
    const key = crypto.randomUUID();
    const first = await patch(me.access, { lastName: 'Первый' }, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(200);
    const replay = await patch(me.access, { lastName: 'Первый' }, { 'Idempotency-Key': key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(json(replay)).toEqual(json(first));
    expect((await patch(me.access, { lastName: 'Второй' }, { 'Idempotency-Key': key })).statusCode).toBe(422);
  });
});

describe('POST /user/password', () => {
  const change = (token: string | undefined, payload: object, headers: Record<string, string> = {}, remoteAddress = clientAddress()) =>
    t.app.inject({
      method: 'POST',
      url: api('/user/password'),
      remoteAddress,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), Language: 'en', ...headers },
      payload,
    });
  const signIn = (email: string, password: string, remoteAddress = clientAddress()) => t.app.inject({ method: 'POST', url: api('/auth/login'), remoteAddress, payload: { email, password } });
  const refresh = (token: string) => t.app.inject({ method: 'POST', url: api('/auth/refresh-token'), headers: { authorization: `Bearer ${token}` } });
  const hashOf = async (email: string) => (await t.db.one<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [email]))?.password_hash;

  it('sets the new password, ends every other session and answers a fresh token pair for this one', async () => {
    const me = await signUp(t);
    const otherDevice = json<{ refresh_token: string }>(await signIn(me.email, me.password)).refresh_token;
    const response = await change(me.access, { currentPassword: me.password, newPassword: 'a brand new secret' });
    expect(response.statusCode, response.body).toBe(200);
    const body = json<{ access_token: string; refresh_token: string; data: null; message: string }>(response);
    expect(body).toMatchObject({ data: null, message: 'The password has been changed. Other devices have been signed out.' });

    expect((await signIn(me.email, me.password)).statusCode).toBe(401);
    expect((await signIn(me.email, 'a brand new secret')).statusCode).toBe(200);
    expect((await refresh(otherDevice)).statusCode).toBe(401);
    expect((await refresh(me.refresh)).statusCode).toBe(401);
    expect((await refresh(body.refresh_token)).statusCode).toBe(200);
    expect((await get('/user', body.access_token)).statusCode).toBe(200);
  });

  it('answers 400 on errors.currentPassword when the current password is wrong, in the request language, changing nothing', async () => {
    const me = await signUp(t);
    const before = await hashOf(me.email);
    const en = await change(me.access, { currentPassword: 'not my password', newPassword: 'whatever 123' });
    expect(en.statusCode).toBe(400);
    expect(json(en)).toEqual({ message: 'Check the highlighted fields.', errors: { currentPassword: 'The current password is wrong.' } });
    const ru = await change(me.access, { currentPassword: 'not my password', newPassword: 'whatever 123' }, { Language: 'ru' });
    expect(json(ru).errors).toEqual({ currentPassword: 'Текущий пароль указан неверно.' });
    expect(await hashOf(me.email)).toBe(before);
    expect((await refresh(me.refresh)).statusCode).toBe(200);
  });

  it('refuses a missing or too short password and unknown fields, changing nothing', async () => {
    const me = await signUp(t);
    const before = await hashOf(me.email);
    for (const [body, field, message] of [
      [{ currentPassword: me.password, newPassword: 'short' }, 'newPassword', 'The password must be 8 to 128 characters long.'],
      [{ currentPassword: me.password, newPassword: 'x'.repeat(129) }, 'newPassword', 'The password must be 8 to 128 characters long.'],
      [{ currentPassword: me.password }, 'newPassword', 'Fill in this field.'],
      [{ newPassword: 'long enough' }, 'currentPassword', 'Fill in this field.'],
      [{ currentPassword: me.password, newPassword: 'long enough', userId: crypto.randomUUID() }, 'userId', 'This field is not expected.'],
    ] as const) {
      const response = await change(me.access, body);
      expect(response.statusCode, field).toBe(400);
      expect(json(response).errors, JSON.stringify(body)).toEqual({ [field]: message });
    }
    expect(await hashOf(me.email)).toBe(before);
  });

  it('counts wrong current passwords with the sign-in failures of that address: after 5 it answers 429 there, even for the right one', async () => {
    const me = await signUp(t);
    const address = clientAddress();
    for (let i = 0; i < 5; i++) expect((await change(me.access, { currentPassword: `wrong ${i}`, newPassword: 'whatever 123' }, {}, address)).statusCode).toBe(400);
    const throttled = await change(me.access, { currentPassword: me.password, newPassword: 'whatever 123' }, {}, address);
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(me.email, me.password, address)).statusCode).toBe(429);
    // Another address is not locked out by them.
    expect((await signIn(me.email, me.password)).statusCode).toBe(200);
  });

  it('replays a retried change with the same Idempotency-Key (the old password no longer matches by then)', async () => {
    const me = await signUp(t);
    const key = crypto.randomUUID();
    const payload = { currentPassword: me.password, newPassword: 'replayed secret' };
    const first = await change(me.access, payload, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(200);
    const hash = await hashOf(me.email);
    const replay = await change(me.access, payload, { 'Idempotency-Key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(json(replay)).toEqual(json(first));
    expect(await hashOf(me.email)).toBe(hash);
  });

  it('requires a session', async () => {
    expect((await change(undefined, { currentPassword: 'x', newPassword: 'long enough' })).statusCode).toBe(401);
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
