import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, clientAddress, createTestApp, createTestDatabase, json, lastMailTo, mailsTo, registrationInput, signUp, tokenOf, uniqueEmail, type TestApp, type TestDatabase } from '../../test-support';

let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp({}, database);
});
afterAll(async () => {
  await t.close();
  await database.close();
});

const post = (path: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: api(path),
    remoteAddress: clientAddress(),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    headers,
  });

describe('POST /auth/register', () => {
  it('creates an unverified owner and mails a confirmation link to the app', async () => {
    const input = registrationInput();
    const response = await post('/auth/register', input);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ data: null, message: 'Проверьте почту: мы отправили письмо для завершения регистрации.' });
    const mail = await lastMailTo(t.db, String(input.email));
    expect(mail.kind).toBe('verify');
    expect(mail.link).toMatch(/^http:\/\/app\.test\/auth\/register\/verified\?token=[\w-]{43}$/);
    expect(mail.text_body).toContain(mail.link);
    expect(mail.subject).toBe('Подтвердите адрес электронной почты');
    const user = await t.db.one<{ role: string; authorities: string[]; email_verified_at: Date | null }>(
      'SELECT role, authorities, email_verified_at FROM users WHERE email = $1',
      [String(input.email)],
    );
    expect(user).toEqual({ role: 'OWNER', authorities: ['ROLE_OWNER'], email_verified_at: null });
  });

  it('answers a known e-mail exactly like a new one and mails "you already have an account" instead', async () => {
    const email = uniqueEmail();
    const first = await post('/auth/register', registrationInput({ email }));
    const again = await post('/auth/register', registrationInput({ email: email.toUpperCase(), firstName: 'Пётр' }));
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    const mails = await mailsTo(t.db, email);
    expect(mails.map((m) => m.kind)).toEqual(['verify', 'existing']);
    expect(mails[1]?.link).toBe('http://app.test/auth/login');
    expect(await t.db.one('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [email])).toEqual({ n: 1 });
  });

  it('stores the language of the request and writes the mail in it', async () => {
    const input = registrationInput();
    const response = await post('/auth/register', input, { Language: 'en-US' });
    expect(json(response).message).toBe('Check your mail: we sent a message to finish registration.');
    const mail = await lastMailTo(t.db, String(input.email));
    expect(mail.subject).toBe('Confirm your e-mail address');
    expect(mail.text_body).toMatch(/^Hello, Иван!/);
  });

  it('requires the other position when the position is OTHER', async () => {
    const response = await post('/auth/register', registrationInput({ position: 'OTHER' }));
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual({ otherPosition: 'Заполните это поле.' });
    const ok = await post('/auth/register', registrationInput({ position: 'OTHER', otherPosition: 'Технолог' }));
    expect(ok.statusCode).toBe(200);
  });

  it('refuses missing fields with a message beside each field', async () => {
    const response = await post('/auth/register', { email: uniqueEmail() });
    expect(response.statusCode).toBe(400);
    const body = json<{ message: string; errors: Record<string, string> }>(response);
    expect(body.message).toBe('Проверьте выделенные поля.');
    for (const field of ['firstName', 'lastName', 'position', 'company', 'inn', 'mainGoal', 'phone', 'role', 'password']) {
      expect(body.errors[field], field).toBeTruthy();
    }
    expect(body.errors.email).toBeUndefined();
  });

  it('refuses an INN with a wrong check digit, a bad phone, a short password and a bad role', async () => {
    const response = await post(
      '/auth/register',
      registrationInput({ inn: '7712345672', phone: '12', password: 'short', role: 'HR', email: 'not-an-email' }),
      { Language: 'en' },
    );
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual({
      inn: 'The taxpayer number is not valid: check the digits.',
      phone: 'Enter a phone number with 10 to 15 digits.',
      password: 'The password must be 8 to 128 characters long.',
      role: 'role is not valid.',
      email: 'Enter a valid e-mail address.',
    });
  });

  it('refuses fields it does not know', async () => {
    const response = await post('/auth/register', registrationInput({ isAdmin: true } as Record<string, unknown>));
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual({ isAdmin: 'Это поле не ожидается.' });
  });

  it('refuses a 1 MB password quickly, before any hashing', async () => {
    const started = Date.now();
    const response = await post('/auth/register', registrationInput({ password: 'x'.repeat(1_000_000) }));
    expect(response.statusCode).toBe(400);
    expect(Object.keys(json(response).errors as object)).toEqual(['password']);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('POST /auth/register/hr', () => {
  it('registers HR with role HR and authority ROLE_HR, without role or goal fields', async () => {
    const { role: _role, mainGoal: _goal, ...input } = registrationInput({ position: 'HR_SPECIALIST' });
    const response = await post('/auth/register/hr', input);
    expect(response.statusCode).toBe(200);
    const user = await t.db.one('SELECT role, authorities FROM users WHERE email = $1', [input.email as string]);
    expect(user).toEqual({ role: 'HR', authorities: ['ROLE_HR'] });
  });

  it('does not let HR choose a role', async () => {
    const response = await post('/auth/register/hr', registrationInput());
    expect(response.statusCode).toBe(400);
    expect(json(response).errors).toEqual({ mainGoal: 'Это поле не ожидается.', role: 'Это поле не ожидается.' });
  });
});

describe('malformed requests', () => {
  it('answers malformed JSON with 400, not 500', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: api('/auth/login'),
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.c", ',
    });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toEqual({ message: 'Тело запроса не является корректным JSON.' });
  });

  it('answers a body that is not an object with 400', async () => {
    for (const payload of ['[]', '"text"', 'null', '42']) {
      const response = await t.app.inject({ method: 'POST', url: api('/auth/login'), headers: { 'content-type': 'application/json' }, payload });
      expect(response.statusCode, payload).toBe(400);
    }
  });

  it('refuses a prototype-poisoning body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: api('/auth/login'),
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.cd","password":"12345678","__proto__":{"isAdmin":true}}',
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await post('/auth/register', registrationInput({ password: 'x'.repeat(1024 * 1024) }), { Language: 'en' });
    expect(response.statusCode).toBe(413);
    expect(json(response)).toEqual({ message: 'The request is too large.' });
  });

  it('answers a body that is not JSON with 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: api('/auth/login'),
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a@b.c&password=x',
    });
    expect(response.statusCode).toBe(415);
    expect(json(response).message).toBe('Отправьте запрос в формате JSON (Content-Type: application/json).');
  });

  it('answers a missing body with a validation error', async () => {
    const response = await post('/auth/login');
    expect(response.statusCode).toBe(400);
  });

  it('answers an unknown API path with 404 JSON in the requested language', async () => {
    const response = await t.app.inject({ method: 'GET', url: api('/no-such-thing'), headers: { Language: 'en' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(json(response)).toEqual({ message: 'Not found.' });
    const post404 = await post('/auth/no-such-call', {});
    expect(post404.statusCode).toBe(404);
    expect(json(post404)).toEqual({ message: 'Не найдено.' });
  });
});

describe('POST /auth/verify-email and /auth/resend-verification', () => {
  it('confirms the address once; the same link then fails', async () => {
    const input = registrationInput();
    await post('/auth/register', input);
    const token = tokenOf((await lastMailTo(t.db, String(input.email))).link);
    const verified = await post('/auth/verify-email', { token });
    expect(verified.statusCode).toBe(200);
    expect(json(verified).data).toEqual({ email: input.email });
    const again = await post('/auth/verify-email', { token }, { Language: 'en' });
    expect(again.statusCode).toBe(400);
    expect(json(again).message).toBe('The link is invalid or has expired. Request a new one.');
  });

  it('refuses unknown and expired tokens', async () => {
    expect((await post('/auth/verify-email', { token: 'x'.repeat(43) })).statusCode).toBe(400);
    const input = registrationInput();
    await post('/auth/register', input);
    const token = tokenOf((await lastMailTo(t.db, String(input.email))).link);
    await t.db.query(`UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = $1)`, [input.email as string]);
    expect((await post('/auth/verify-email', { token })).statusCode).toBe(400);
  });

  it('keeps only a hash of the mailed token', async () => {
    const input = registrationInput();
    await post('/auth/register', input);
    const token = tokenOf((await lastMailTo(t.db, String(input.email))).link);
    const rows = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM email_tokens WHERE token_hash = $1', [token]);
    expect(rows).toEqual([]);
  });

  it('mails a new link to an unverified account and answers alike for any address', async () => {
    const input = registrationInput();
    await post('/auth/register', input);
    const known = await post('/auth/resend-verification', { email: input.email });
    const unknown = await post('/auth/resend-verification', { email: uniqueEmail() });
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect((await mailsTo(t.db, String(input.email))).map((m) => m.kind)).toEqual(['verify', 'verify']);
  });

  it('validates its input', async () => {
    expect((await post('/auth/verify-email', {})).statusCode).toBe(400);
    expect((await post('/auth/verify-email', { token: 'short' })).statusCode).toBe(400);
    expect((await post('/auth/resend-verification', { email: 'nope' })).statusCode).toBe(400);
  });
});

describe('POST /auth/login', () => {
  it('answers a token pair for the right password, unverified or not', async () => {
    const input = registrationInput();
    await post('/auth/register', input);
    const response = await post('/auth/login', { email: input.email, password: input.password });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(typeof body.access_token).toBe('string');
    expect(typeof body.refresh_token).toBe('string');
  });

  it('gives one message for a wrong password and an unknown e-mail', async () => {
    const { email } = await signUp(t);
    const wrong = await post('/auth/login', { email, password: 'wrong password' }, { Language: 'en' });
    const unknown = await post('/auth/login', { email: uniqueEmail(), password: 'wrong password' }, { Language: 'en' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(json(wrong)).toEqual({ message: 'Wrong e-mail or password.' });
    expect(unknown.body).toBe(wrong.body);
  });

  it('refuses missing and extra fields', async () => {
    expect(json(await post('/auth/login', { email: 'a@b.cd' })).errors).toEqual({ password: 'Заполните это поле.' });
    expect(json(await post('/auth/login', { email: 'a@b.cd', password: 'x', remember: true })).errors).toEqual({ remember: 'Это поле не ожидается.' });
  });

  it('refuses a 1 MB password quickly', async () => {
    const started = Date.now();
    const response = await post('/auth/login', { email: 'a@b.cd', password: 'x'.repeat(1_000_000) });
    expect(response.statusCode).toBe(400);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  // Throttling (per account and client address, the owner never locked out) is specified in throttle.test.ts.
});

describe('POST /auth/refresh-token', () => {
  const refresh = (token: string | undefined, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: api('/auth/refresh-token'), headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

  it('rotates the refresh token into a new pair', async () => {
    const session = await signUp(t);
    const response = await refresh(session.refresh);
    expect(response.statusCode).toBe(200);
    const pair = json<{ access_token: string; refresh_token: string }>(response);
    expect(pair.refresh_token).not.toBe(session.refresh);
    const user = await t.app.inject({ method: 'GET', url: api('/user'), headers: { authorization: `Bearer ${pair.access_token}` } });
    expect(user.statusCode).toBe(200);
    expect((await refresh(pair.refresh_token)).statusCode).toBe(200);
  });

  it('accepts an empty JSON body, as the client sends it', async () => {
    const session = await signUp(t);
    const response = await t.app.inject({
      method: 'POST',
      url: api('/auth/refresh-token'),
      headers: { authorization: `Bearer ${session.refresh}`, 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 401 without a token, with an access token or with garbage', async () => {
    const session = await signUp(t);
    expect((await refresh(undefined)).statusCode).toBe(401);
    expect((await refresh(session.access)).statusCode).toBe(401);
    expect((await refresh('not.a.token')).statusCode).toBe(401);
  });

  it('revokes the whole family when a rotated token is used again after the grace window', async () => {
    const session = await signUp(t);
    const first = json<{ refresh_token: string }>(await refresh(session.refresh));
    const second = json<{ refresh_token: string }>(await refresh(first.refresh_token));
    await t.db.query(`UPDATE refresh_tokens SET rotated_at = rotated_at - interval '1 minute' WHERE rotated_at IS NOT NULL`);
    const reuse = await refresh(session.refresh);
    expect(reuse.statusCode).toBe(401);
    // The newest token of that family, held by the legitimate user or the thief, is dead too.
    expect((await refresh(second.refresh_token)).statusCode).toBe(401);
  });

  it('inside the grace window a reused token only fails, the family lives on', async () => {
    const session = await signUp(t);
    const next = json<{ refresh_token: string }>(await refresh(session.refresh));
    expect((await refresh(session.refresh)).statusCode).toBe(401);
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });

  it('rotates a token exactly once when it is used 10 times in parallel', async () => {
    const session = await signUp(t);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(session.refresh)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 401, 401, 401, 401, 401, 401, 401, 401, 401]);
    const rows = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [session.email],
    );
    expect(rows[0]?.n).toBe(2); // the original and its one successor
    const winner = answers.find((a) => a.statusCode === 200);
    expect((await refresh(json<{ refresh_token: string }>(winner!).refresh_token)).statusCode).toBe(200);
  });

  it('says "Token expired" when the refresh token has expired', async () => {
    const { SignJWT } = await import('jose');
    const { resolveJwtSecret } = await import('../../auth/tokens');
    const secret = await resolveJwtSecret(t.db, t.config.jwtSecret);
    const expired = await new SignJWT({ typ: 'refresh', fam: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(crypto.randomUUID())
      .setJti(crypto.randomUUID())
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(secret);
    for (const language of ['ru', 'en']) {
      const response = await refresh(expired, { Language: language });
      expect(response.statusCode).toBe(401);
      expect(String(json(response).message)).toContain('Token expired');
    }
  });
});

describe('POST /auth/logout', () => {
  it('ends the session of that refresh token', async () => {
    const session = await signUp(t);
    const response = await post('/auth/logout', { refresh_token: session.refresh });
    expect(response.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: api('/auth/refresh-token'), headers: { authorization: `Bearer ${session.refresh}` } });
    expect(again.statusCode).toBe(401);
  });

  it('answers 200 for an unknown token and 400 without one', async () => {
    expect((await post('/auth/logout', { refresh_token: 'whatever' })).statusCode).toBe(200);
    expect((await post('/auth/logout', {})).statusCode).toBe(400);
  });
});

describe('password recovery', () => {
  it('answers alike for known and unknown addresses and mails only the known one', async () => {
    const { email } = await signUp(t);
    const stranger = uniqueEmail();
    const known = await post('/auth/recovery-password', { email });
    const unknown = await post('/auth/recovery-password', { email: stranger });
    expect(known.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect((await lastMailTo(t.db, email)).kind).toBe('recovery');
    expect(await mailsTo(t.db, stranger)).toEqual([]);
  });

  it('sets the new password once and ends every session', async () => {
    const session = await signUp(t);
    await post('/auth/recovery-password', { email: session.email });
    const mail = await lastMailTo(t.db, session.email);
    expect(mail.link).toMatch(/^http:\/\/app\.test\/auth\/recovery-password-confirm\?token=/);
    const token = tokenOf(mail.link);
    const confirm = await post('/auth/recovery-password/confirm', { token, password: 'brand new password' });
    expect(confirm.statusCode).toBe(200);
    expect((await post('/auth/recovery-password/confirm', { token, password: 'another password' })).statusCode).toBe(400);
    const old = await t.app.inject({ method: 'POST', url: api('/auth/refresh-token'), headers: { authorization: `Bearer ${session.refresh}` } });
    expect(old.statusCode).toBe(401);
    expect((await post('/auth/login', { email: session.email, password: session.password })).statusCode).toBe(401);
    expect((await post('/auth/login', { email: session.email, password: 'brand new password' })).statusCode).toBe(200);
  });

  it('validates the new password and the token', async () => {
    expect(json(await post('/auth/recovery-password/confirm', { token: 'x'.repeat(43), password: 'short' })).errors).toEqual({
      password: 'Пароль должен содержать от 8 до 128 символов.',
    });
    expect((await post('/auth/recovery-password/confirm', { token: 'x'.repeat(43), password: 'long enough' })).statusCode).toBe(400);
    expect((await post('/auth/recovery-password', {})).statusCode).toBe(400);
  });
});

describe('the whole journey', () => {
  it('register -> verify -> login -> /user -> recovery -> login', async () => {
    const input = registrationInput({ role: 'CEO' });
    const email = String(input.email);
    expect((await post('/auth/register', input)).statusCode).toBe(200);

    const first = await post('/auth/login', { email, password: input.password });
    const unverified = await t.app.inject({ method: 'GET', url: api('/user'), headers: { authorization: `Bearer ${json(first).access_token as string}` } });
    expect(json<{ data: { emailVerified: boolean } }>(unverified).data.emailVerified).toBe(false);

    const verifyToken = tokenOf((await lastMailTo(t.db, email)).link);
    expect((await post('/auth/verify-email', { token: verifyToken })).statusCode).toBe(200);

    const login = await post('/auth/login', { email, password: input.password });
    const user = await t.app.inject({ method: 'GET', url: api('/user'), headers: { authorization: `Bearer ${json(login).access_token as string}` } });
    const data = json<{ data: Record<string, unknown> }>(user).data;
    expect(data).toMatchObject({ email, role: 'CEO', emailVerified: true, authorities: [{ authority: 'ROLE_CEO' }], fullName: 'Петров Иван Сергеевич' });

    await post('/auth/recovery-password', { email });
    const recoveryToken = tokenOf((await lastMailTo(t.db, email)).link);
    expect((await post('/auth/recovery-password/confirm', { token: recoveryToken, password: 'a new secret' })).statusCode).toBe(200);
    expect((await post('/auth/login', { email, password: 'a new secret' })).statusCode).toBe(200);
  });
});
