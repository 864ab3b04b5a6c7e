import { createHash, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_ROLES } from '../../../src/domain/auth';
import { Invitation, InvitationPreview } from '../../../src/domain/company';
import { PERMISSIONS } from '../../../src/domain/permissions';
import { CurrentUser } from '../../../src/domain/user';
import { api, clientAddress, createTestApp, json, lastMailTo, mailsTo, tokenOf, uniqueEmail, type TestApp } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';

let t: TestApp;
let owner: Login;
let hr: Login;
let ceo: Login;
let worker: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;

const login = (overrides: Record<string, unknown> = {}) => signUpMember(t, overrides);

beforeAll(async () => {
  t = await createTestApp();
  [owner, hr, ceo, worker, outsider] = await Promise.all([login(), login(), login(), login(), login()]);
  acme = await createCompany(t.db, 'Acme', { [owner.id]: ['OWNER'], [hr.id]: ['HR'], [ceo.id]: ['CEO'], [worker.id]: ['EMPLOYEE'] });
  rival = await createCompany(t.db, 'Rival', { [outsider.id]: ['OWNER'] });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'DELETE';
function call(who: Login | string | null, method: Method, path: string, payload?: unknown, extra: Record<string, string> = {}) {
  const token = typeof who === 'string' ? who : who?.access;
  return t.app.inject({
    method,
    url: api(path),
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), Language: 'en', ...extra },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}
const invitations = (companyId = acme.companyId) => `/companies/${companyId}/invitations`;
const errorsOf = (res: LightMyRequestResponse) => json<{ errors?: Record<string, string> }>(res).errors ?? {};
const messageOf = (res: LightMyRequestResponse) => json<{ message: string }>(res).message;
const snapshot = async () => ({
  invitations: await t.db.query('SELECT company_id, id, employee_id, email, roles, status, token_hash, sent_count, expires_at FROM invitations ORDER BY company_id, id'),
  employees: await t.db.query('SELECT company_id, id, user_id, email, roles, invited_at, active FROM employees ORDER BY company_id, id'),
  members: await t.db.query('SELECT company_id, user_id, roles, active FROM company_members ORDER BY company_id, user_id'),
  mails: (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox'))?.n,
});

function person(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { email: uniqueEmail('invitee'), roles: ['EMPLOYEE'], lastName: 'Новикова', firstName: 'Мария', middleName: 'Ивановна', position: 'Инженер', departmentId: acme.departments.A, ...overrides };
}

async function invite(body: Record<string, unknown>, who: Login = owner, extra: Record<string, string> = {}): Promise<{ invitation: Invitation; token: string }> {
  const res = await call(who, 'POST', invitations(), body, extra);
  expect(res.statusCode, res.body).toBe(201);
  const invitation = json<{ data: Invitation }>(res).data;
  return { invitation, token: tokenOf((await lastMailTo(t.db, String(body.email))).link) };
}

describe('POST /companies/{companyId}/invitations', () => {
  it('invites a new person: an employee row marked invited, a mail with a link whose token is stored only as a hash', async () => {
    const body = person();
    const res = await call(hr, 'POST', invitations(), body);
    expect(res.statusCode, res.body).toBe(201);
    const { data, message } = json<{ data: Invitation; message: string }>(res);
    expect(Invitation.is(data)).toBe(true);
    expect(message).toBe('The invitation has been sent.');
    expect(data).toMatchObject({ companyId: acme.companyId, email: body.email, roles: ['EMPLOYEE'], status: 'PENDING', fullName: 'Новикова Мария Ивановна', sentCount: 1, acceptedAt: null });
    expect(data.invitedByName).toBe('Петров Иван Сергеевич');
    expect(Date.parse(data.expiresAt) - Date.now()).toBeGreaterThan(13.9 * 24 * 3600 * 1000);

    const employee = await t.db.one<{ last_name: string; position: string; department_id: string; email: string; invited_at: Date | null; user_id: string | null }>(
      'SELECT * FROM employees WHERE company_id = $1 AND id = $2',
      [acme.companyId, data.employeeId],
    );
    expect(employee).toMatchObject({ last_name: 'Новикова', position: 'Инженер', department_id: acme.departments.A, email: body.email, user_id: null });
    expect(employee?.invited_at).not.toBeNull();

    const mail = await lastMailTo(t.db, String(body.email));
    expect(mail.kind).toBe('invitation');
    expect(mail.link).toMatch(/^http:\/\/app\.test\/auth\/invitation\?token=[A-Za-z0-9_-]{43}$/);
    // A new person gets the inviter's request language.
    expect(mail.subject).toBe('Invitation to Acme');
    expect(mail.text_body).toContain('Hello, Мария!');
    expect(mail.text_body).toContain('Петров Иван Сергеевич invites you to join Acme on the improvement platform. Role: Employee. The invitation is valid for 14 days.');
    const token = tokenOf(mail.link);
    const stored = await t.db.one<{ token_hash: string }>('SELECT token_hash FROM invitations WHERE id = $1', [data.id]);
    expect(stored?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await t.db.query('SELECT * FROM invitations'))).not.toContain(token);
  });

  it('invites an existing employee by id, in the language of their account', async () => {
    const person_ = await login({ email: uniqueEmail('ru-account') });
    const created = await t.db.one<{ id: string }>(`INSERT INTO employees (company_id, last_name, first_name, service_number) VALUES ($1, 'Смирнов', 'Семён', 'S-77') RETURNING id`, [acme.companyId]);
    const res = await call(owner, 'POST', invitations(), { email: person_.email, roles: ['FINANCIAL_DIRECTOR', 'EMPLOYEE'], employeeId: created!.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(json<{ data: Invitation }>(res).data).toMatchObject({ employeeId: created!.id, fullName: 'Смирнов Семён', roles: ['FINANCIAL_DIRECTOR', 'EMPLOYEE'] });
    const employee = await t.db.one<{ email: string; invited_at: Date | null }>('SELECT email, invited_at FROM employees WHERE id = $1', [created!.id]);
    expect(employee?.email).toBe(person_.email);
    expect(employee?.invited_at).not.toBeNull();
    const mail = await lastMailTo(t.db, person_.email);
    expect(mail.subject).toBe('Приглашение в компанию Acme');
    expect(mail.text_body).toContain('Здравствуйте, Иван Сергеевич!');
    expect(mail.text_body).toContain('Роли: Финансовый директор, Сотрудник. Приглашение действует 14 дней.');
  });

  it('refuses roles the inviter may not grant (403): HR inviting a financial director, the CEO an owner', async () => {
    const before = await snapshot();
    for (const [who, roles] of [
      [hr, ['FINANCIAL_DIRECTOR']],
      [hr, ['EMPLOYEE', 'TOP_MANAGER']],
      [ceo, ['OWNER']],
    ] as const) {
      const res = await call(who, 'POST', invitations(), person({ roles }));
      expect(res.statusCode, JSON.stringify(roles)).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    expect((await call(ceo, 'POST', invitations(), person({ roles: ['FINANCIAL_DIRECTOR'] }))).statusCode).toBe(201);
  });

  it('is refused to members without people.manage (403) and outside the company (404), changing nothing', async () => {
    const before = await snapshot();
    expect((await call(worker, 'POST', invitations(), person())).statusCode).toBe(403);
    for (const companyId of [rival.companyId, randomUUID(), 'nope']) expect((await call(hr, 'POST', invitations(companyId), person())).statusCode).toBe(404);
    expect((await call(null, 'POST', invitations(), person())).statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad input and mass assignment with 400, changing nothing', async () => {
    const foreignEmployee = (await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 LIMIT 1', [rival.companyId]))!.id;
    const ownEmployee = (await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id IS NULL LIMIT 1', [acme.companyId]))!.id;
    const before = await snapshot();
    for (const [body, field] of [
      [person({ email: 'nope' }), 'email'],
      [person({ email: undefined }), 'email'],
      [person({ roles: [] }), 'roles'],
      [person({ roles: ['KING'] }), 'roles.0'],
      [person({ lastName: undefined }), 'lastName'],
      [person({ firstName: '' }), 'firstName'],
      [person({ departmentId: rival.departments.A }), 'departmentId'],
      [{ email: uniqueEmail(), roles: ['EMPLOYEE'], employeeId: foreignEmployee }, 'employeeId'],
      [{ email: uniqueEmail(), roles: ['EMPLOYEE'], employeeId: randomUUID() }, 'employeeId'],
      [{ email: uniqueEmail(), roles: ['EMPLOYEE'], employeeId: 'nope' }, 'employeeId'],
      [{ email: uniqueEmail(), roles: ['EMPLOYEE'], employeeId: ownEmployee, lastName: 'Другой' }, 'lastName'],
      [person({ companyId: rival.companyId }), 'companyId'],
      [person({ status: 'ACCEPTED' }), 'status'],
      [person({ userId: worker.id }), 'userId'],
      [person({ tokenHash: 'x' }), 'tokenHash'],
      [person({ expiresAt: '2100-01-01T00:00:00.000Z' }), 'expiresAt'],
    ] as const) {
      const res = await call(owner, 'POST', invitations(), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(errorsOf(res)), JSON.stringify(body)).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses someone already in the company and a second pending invitation (409)', async () => {
    const before = await snapshot();
    const member = await call(owner, 'POST', invitations(), person({ email: worker.email.toUpperCase() }));
    expect(member.statusCode).toBe(409);
    expect(messageOf(member)).toBe("This person is already in the company: change their roles on the employee's page instead.");
    const linked = (await t.db.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2', [acme.companyId, worker.id]))!.id;
    expect((await call(owner, 'POST', invitations(), { email: uniqueEmail(), roles: ['EMPLOYEE'], employeeId: linked })).statusCode).toBe(409);
    expect(await snapshot()).toEqual(before);

    const { invitation } = await invite(person({ email: 'twice@invite.test' }));
    const middle = await snapshot();
    const again = await call(owner, 'POST', invitations(), person({ email: 'TWICE@invite.test' }));
    expect(again.statusCode).toBe(409);
    expect(messageOf(again)).toBe('An invitation to this person is already waiting: send it again from the list of invitations instead.');
    const sameEmployee = await call(owner, 'POST', invitations(), { email: uniqueEmail(), roles: ['EMPLOYEE'], employeeId: invitation.employeeId });
    expect(sameEmployee.statusCode).toBe(409);
    expect(await snapshot()).toEqual(middle);
  });

  it('refuses the e-mail of another employee who has no account (409 errors.email)', async () => {
    await t.db.query(`INSERT INTO employees (company_id, last_name, first_name, email) VALUES ($1, 'Есть', 'Уже', 'present@invite.test')`, [acme.companyId]);
    const before = await snapshot();
    const res = await call(owner, 'POST', invitations(), person({ email: 'present@invite.test' }));
    expect(res.statusCode).toBe(409);
    expect(Object.keys(errorsOf(res))).toEqual(['email']);
    expect(await snapshot()).toEqual(before);
  });

  it('replays with the same Idempotency-Key: one invitation, one mail', async () => {
    const body = person();
    const key = randomUUID();
    const first = await call(hr, 'POST', invitations(), body, { 'Idempotency-Key': key });
    expect(first.statusCode).toBe(201);
    const again = await call(hr, 'POST', invitations(), body, { 'Idempotency-Key': key });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    expect(await mailsTo(t.db, String(body.email))).toHaveLength(1);
  });
});

describe('GET /companies/{companyId}/invitations', () => {
  it('lists pending invitations newest first, or those of another status', async () => {
    const a = (await invite(person())).invitation;
    const b = (await invite(person())).invitation;
    const res = await call(hr, 'GET', invitations());
    expect(res.statusCode).toBe(200);
    const list = json<{ data: Invitation[] }>(res).data;
    expect(list.every((i) => Invitation.is(i) && i.status === 'PENDING' && i.companyId === acme.companyId)).toBe(true);
    expect(list.map((i) => i.id).indexOf(b.id)).toBeLessThan(list.map((i) => i.id).indexOf(a.id));
    expect((await call(hr, 'DELETE', `${invitations()}/${a.id}`)).statusCode).toBe(200);
    const revoked = json<{ data: Invitation[] }>(await call(hr, 'GET', `${invitations()}?status=REVOKED`)).data;
    expect(revoked.map((i) => i.id)).toContain(a.id);
    expect(json<{ data: Invitation[] }>(await call(hr, 'GET', invitations())).data.map((i) => i.id)).not.toContain(a.id);
  });

  it('refuses a bad status (400), members without the right (403) and outsiders (404)', async () => {
    expect((await call(hr, 'GET', `${invitations()}?status=OPEN`)).statusCode).toBe(400);
    expect((await call(worker, 'GET', invitations())).statusCode).toBe(403);
    for (const companyId of [rival.companyId, randomUUID(), 'nope']) expect((await call(hr, 'GET', invitations(companyId))).statusCode).toBe(404);
  });
});

describe('resend and revoke', () => {
  it('resends with a new link: the old one stops working, the count and expiry move on', async () => {
    const { invitation, token: old } = await invite(person());
    await t.db.query(`UPDATE invitations SET expires_at = now() + interval '1 day' WHERE id = $1`, [invitation.id]);
    const res = await call(hr, 'POST', `${invitations()}/${invitation.id}/resend`, undefined, { Language: 'ru' });
    expect(res.statusCode, res.body).toBe(200);
    expect(messageOf(res)).toBe('Приглашение отправлено повторно с новой ссылкой; прежняя ссылка больше не работает.');
    const data = json<{ data: Invitation }>(res).data;
    expect(data.sentCount).toBe(2);
    expect(Date.parse(data.expiresAt) - Date.now()).toBeGreaterThan(13.9 * 24 * 3600 * 1000);
    const fresh = tokenOf((await lastMailTo(t.db, invitation.email)).link);
    expect(fresh).not.toBe(old);
    expect((await call(null, 'GET', `/invitations/${old}`)).statusCode).toBe(404);
    expect((await call(null, 'GET', `/invitations/${fresh}`)).statusCode).toBe(200);
  });

  it('revokes: the link stops working and the employee is no longer invited', async () => {
    const { invitation, token } = await invite(person());
    const res = await call(hr, 'DELETE', `${invitations()}/${invitation.id}`);
    expect(res.statusCode).toBe(200);
    expect(messageOf(res)).toBe('The invitation has been revoked: its link no longer works.');
    expect((await call(null, 'GET', `/invitations/${token}`)).statusCode).toBe(404);
    expect(await t.db.one('SELECT invited_at FROM employees WHERE id = $1', [invitation.employeeId])).toEqual({ invited_at: null });
    // Neither can be done again to a revoked invitation.
    for (const [method, path] of [
      ['DELETE', `${invitations()}/${invitation.id}`],
      ['POST', `${invitations()}/${invitation.id}/resend`],
    ] as const) {
      const again = await call(hr, method, path);
      expect(again.statusCode).toBe(409);
      expect(messageOf(again)).toBe('The invitation has already been accepted or revoked.');
    }
    // The person may be invited afresh.
    expect((await call(hr, 'POST', invitations(), { email: invitation.email, roles: ['EMPLOYEE'], employeeId: invitation.employeeId })).statusCode).toBe(201);
  });

  it('leaves leaders’ invitations to those who may grant their roles, and answers 404 for other companies’ ids', async () => {
    const { invitation } = await invite(person({ roles: ['FINANCIAL_DIRECTOR'] }), owner);
    const rivalRes = await call(outsider, 'POST', invitations(rival.companyId), { email: uniqueEmail(), roles: ['EMPLOYEE'], lastName: 'Ч', firstName: 'Ч' });
    const rivalInvitation = json<{ data: Invitation }>(rivalRes).data;
    const before = await snapshot();
    expect((await call(hr, 'POST', `${invitations()}/${invitation.id}/resend`)).statusCode).toBe(403);
    expect((await call(hr, 'DELETE', `${invitations()}/${invitation.id}`)).statusCode).toBe(403);
    expect((await call(worker, 'DELETE', `${invitations()}/${invitation.id}`)).statusCode).toBe(403);
    const missing = await call(owner, 'DELETE', `${invitations()}/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    for (const [method, path] of [
      ['DELETE', `${invitations()}/${rivalInvitation.id}`],
      ['POST', `${invitations()}/${rivalInvitation.id}/resend`],
      ['DELETE', `${invitations(rival.companyId)}/${invitation.id}`],
      ['DELETE', `${invitations()}/nope`],
    ] as const) {
      const res = await call(owner, method, path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).toBe(missing.body);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('replays a revoke with the same Idempotency-Key', async () => {
    const { invitation } = await invite(person());
    const key = randomUUID();
    expect((await call(hr, 'DELETE', `${invitations()}/${invitation.id}`, undefined, { 'Idempotency-Key': key })).statusCode).toBe(200);
    const again = await call(hr, 'DELETE', `${invitations()}/${invitation.id}`, undefined, { 'Idempotency-Key': key });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});

describe('invitations for every role without people.manage', () => {
  it('answers 403 to invite, list, resend and revoke, changing nothing', async () => {
    const { invitation } = await invite(person());
    const before = await snapshot();
    for (const role of COMPANY_ROLES.filter((r) => !(PERMISSIONS['people.manage'] as readonly string[]).includes(r))) {
      await t.db.query('UPDATE company_members SET roles = $3 WHERE company_id = $1 AND user_id = $2', [acme.companyId, worker.id, [role]]);
      expect((await call(worker, 'POST', invitations(), person())).statusCode, role).toBe(403);
      expect((await call(worker, 'GET', invitations())).statusCode, role).toBe(403);
      expect((await call(worker, 'POST', `${invitations()}/${invitation.id}/resend`)).statusCode, role).toBe(403);
      expect((await call(worker, 'DELETE', `${invitations()}/${invitation.id}`)).statusCode, role).toBe(403);
    }
    await t.db.query(`UPDATE company_members SET roles = '{EMPLOYEE}' WHERE company_id = $1 AND user_id = $2`, [acme.companyId, worker.id]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('GET /invitations/{token}', () => {
  it('previews a pending invitation without sign-in', async () => {
    const body = person({ roles: ['HR', 'EMPLOYEE'] });
    const { token } = await invite(body);
    const res = await call(null, 'GET', `/invitations/${token}`);
    expect(res.statusCode).toBe(200);
    const preview = json<{ data: InvitationPreview }>(res).data;
    expect(InvitationPreview.is(preview)).toBe(true);
    expect(preview).toMatchObject({ companyName: 'Acme', email: body.email, roles: ['HR', 'EMPLOYEE'], fullName: 'Новикова Мария Ивановна', hasAccount: false });
    const account = await login();
    const withAccount = await invite(person({ email: account.email }));
    expect(json<{ data: InvitationPreview }>(await call(null, 'GET', `/invitations/${withAccount.token}`)).data.hasAccount).toBe(true);
  });

  it('answers 404 invitationInvalid for an unknown or expired link', async () => {
    const { invitation, token } = await invite(person());
    await t.db.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [invitation.id]);
    for (const link of [token, 'unknown', 'x'.repeat(43)]) {
      const res = await call(null, 'GET', `/invitations/${link}`);
      expect(res.statusCode).toBe(404);
      expect(messageOf(res)).toBe('This invitation link does not work: it has expired, was revoked or has already been used. Ask for a new invitation.');
    }
  });
});

describe('POST /invitations/{token}/accept', () => {
  const accept = (token: string, who: Login | string | null, body?: unknown, extra: Record<string, string> = {}) => call(who, 'POST', `/invitations/${token}/accept`, body, extra);

  it('creates the account of a new person, signs them in and makes them a member with the invited roles', async () => {
    const body = person({ roles: ['FINANCIAL_SPECIALIST', 'EMPLOYEE'] });
    const { invitation, token } = await invite(body);
    const res = await accept(token, null, { password: 'new person password' }, { Language: 'ru' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = json<{ access_token: string; refresh_token: string; data: { companyId: string }; message: string }>(res);
    expect(answer.data).toEqual({ companyId: acme.companyId });
    expect(answer.message).toBe('Добро пожаловать в компанию Acme!');

    const me = await call(answer.access_token, 'GET', '/user');
    expect(me.statusCode).toBe(200);
    const user = json<{ data: CurrentUser }>(me).data;
    expect(CurrentUser.is(user)).toBe(true);
    expect(user).toMatchObject({ email: body.email, lastName: 'Новикова', firstName: 'Мария', middleName: 'Ивановна', role: 'FINANCIAL_SPECIALIST', emailVerified: true, locale: 'ru' });
    expect(user.authorities).toEqual([{ authority: 'ROLE_FINANCIAL_SPECIALIST' }]);
    expect(user.companies).toEqual([{ id: acme.companyId, name: 'Acme', roles: ['FINANCIAL_SPECIALIST', 'EMPLOYEE'] }]);

    const employee = await t.db.one('SELECT user_id, roles, invited_at, active FROM employees WHERE id = $1', [invitation.employeeId]);
    expect(employee).toEqual({ user_id: user.id, roles: ['FINANCIAL_SPECIALIST', 'EMPLOYEE'], invited_at: null, active: true });
    expect(await t.db.one(`SELECT status, accepted_by FROM invitations WHERE id = $1`, [invitation.id])).toEqual({ status: 'ACCEPTED', accepted_by: user.id });
    // The new member sees the company; the refresh token works; the password signs in.
    expect((await call(answer.access_token, 'GET', `/companies/${acme.companyId}/departments`)).statusCode).toBe(200);
    const signIn = await t.app.inject({ method: 'POST', url: api('/auth/login'), remoteAddress: clientAddress(), payload: { email: body.email, password: 'new person password' } });
    expect(signIn.statusCode).toBe(200);

    // The link works once.
    const again = await accept(token, null, { password: 'another password' });
    expect(again.statusCode).toBe(404);
    expect(messageOf(again)).toBe('This invitation link does not work: it has expired, was revoked or has already been used. Ask for a new invitation.');
  });

  it('needs a valid password for a new account and changes nothing without one', async () => {
    const { token } = await invite(person());
    const before = await snapshot();
    for (const [body, field] of [
      [{}, 'password'],
      [undefined, 'password'],
      [{ password: 'short' }, 'password'],
      [{ password: 'long enough', role: 'OWNER' }, 'role'],
    ] as const) {
      const res = await accept(token, null, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(errorsOf(res))).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lets an existing account join only when signed in as that account', async () => {
    const account = await login();
    const { invitation, token } = await invite(person({ email: account.email, roles: ['TOP_MANAGER'] }));
    const before = await snapshot();
    const anonymous = await accept(token, null, { password: 'would be ignored' });
    expect(anonymous.statusCode).toBe(401);
    const someoneElse = await accept(token, worker, {});
    expect(someoneElse.statusCode).toBe(403);
    expect(messageOf(someoneElse)).toBe('This invitation was sent to another e-mail address: sign in with that address to accept it.');
    expect(await snapshot()).toEqual(before);

    const key = randomUUID();
    const res = await accept(token, account, {}, { 'Idempotency-Key': key });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual({ data: { companyId: acme.companyId }, message: 'Welcome to Acme!' });
    // A lost answer retried with the same key gets the same answer; a new attempt finds the link used.
    const replay = await accept(token, account, {}, { 'Idempotency-Key': key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await accept(token, account, {})).statusCode).toBe(404);

    const me = json<{ data: CurrentUser }>(await call(account, 'GET', '/user')).data;
    expect(me.companies).toEqual([{ id: acme.companyId, name: 'Acme', roles: ['TOP_MANAGER'] }]);
    expect(await t.db.one('SELECT user_id, roles FROM employees WHERE id = $1', [invitation.employeeId])).toEqual({ user_id: account.id, roles: ['TOP_MANAGER'] });
  });

  it('adds a second company to a member of another one', async () => {
    const { token } = await invite(person({ email: outsider.email, roles: ['EMPLOYEE'] }));
    expect((await accept(token, outsider, {})).statusCode).toBe(200);
    const me = json<{ data: CurrentUser }>(await call(outsider, 'GET', '/user')).data;
    expect(me.companies?.map((c) => c.name)).toEqual(['Acme', 'Rival']);
  });

  it('refuses a revoked or expired link', async () => {
    const revoked = await invite(person());
    await call(hr, 'DELETE', `${invitations()}/${revoked.invitation.id}`);
    const expired = await invite(person());
    await t.db.query(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.invitation.id]);
    const before = await snapshot();
    for (const token of [revoked.token, expired.token, 'garbage']) expect((await accept(token, null, { password: 'long enough' })).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('makes a company ready once its invited manager and financial director join', async () => {
    const founder = await login();
    const fresh = await createCompany(t.db, 'Fresh', { [founder.id]: ['OWNER'] }, {}, { ready: false });
    const submit = () =>
      call(founder, 'POST', `/companies/${fresh.companyId}/suggestions`, { title: 't', problem: 'p', solution: 's', expectedEffect: 'e', departmentId: fresh.departments.A, imageIds: [] });
    const refused = await submit();
    expect(refused.statusCode).toBe(409);
    expect(messageOf(refused)).toContain('it still needs a manager, a financial director');
    for (const roles of [['CEO'], ['FINANCIAL_DIRECTOR']]) {
      const email = uniqueEmail('joiner');
      const res = await call(founder, 'POST', invitations(fresh.companyId), { email, roles, lastName: 'Новый', firstName: 'Н' });
      expect(res.statusCode, res.body).toBe(201);
      expect((await accept(tokenOf((await lastMailTo(t.db, email)).link), null, { password: 'long enough' })).statusCode).toBe(200);
    }
    expect((await submit()).statusCode).toBe(201);
  });
});
