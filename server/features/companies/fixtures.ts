// Test fixtures of the company calls: fresh checksum-valid INNs (tests sharing a database never collide),
// signed-in users, a platform admin, members added straight to the database, and request shortcuts.

import { randomInt } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { api, json, signUp, type TestApp } from '../../test-support';

const W10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const W11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const W12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const check = (digits: number[], weights: number[]) => (weights.reduce((sum, w, i) => sum + w * (digits[i] ?? 0), 0) % 11) % 10;
const randomDigits = (n: number) => [randomInt(1, 10), ...Array.from({ length: n - 1 }, () => randomInt(0, 10))];

/** A random 10-digit INN of a legal entity with a correct check digit. */
export function legalEntityInn(): string {
  const d = randomDigits(9);
  return [...d, check(d, W10)].join('');
}

/** A random 12-digit INN of an individual entrepreneur with both check digits correct. */
export function entrepreneurInn(): string {
  const d = randomDigits(10);
  const d11 = [...d, check(d, W11)];
  return [...d11, check(d11, W12)].join('');
}

export type Login = Awaited<ReturnType<typeof signUp>> & { id: string };

export async function login(t: TestApp, overrides: Parameters<typeof signUp>[1] = {}): Promise<Login> {
  const session = await signUp(t, overrides);
  const row = await t.db.one<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [session.email]);
  if (!row) throw new Error(`no user ${session.email}`);
  return { ...session, id: row.id };
}

/** A signed-in platform admin (role ADMIN, authority ROLE_ADMIN), as the demo's admin@demo.local. */
export async function adminLogin(t: TestApp): Promise<Login> {
  const admin = await login(t);
  await t.db.query(`UPDATE users SET role = 'ADMIN', authorities = '{ROLE_ADMIN}' WHERE id = $1`, [admin.id]);
  return admin;
}

/** Makes `user` an active member of the company with `roles` (membership and employee row alike). */
export async function addMember(t: TestApp, companyId: string, user: Login, roles: string[]): Promise<void> {
  await t.db.transaction(async (tx) => {
    await tx.query('INSERT INTO company_members (company_id, user_id, roles) VALUES ($1, $2, $3)', [companyId, user.id, roles]);
    await tx.query('INSERT INTO employees (company_id, user_id, last_name, first_name, email, roles) VALUES ($1, $2, $3, $4, $5, $6)', [
      companyId,
      user.id,
      'Фамилия',
      'Имя',
      user.email,
      roles,
    ]);
  });
}

export function companyInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { legalForm: 'LEGAL_ENTITY', name: 'ООО «Ромашка»', inn: legalEntityInn(), kpp: '773601001', website: 'romashka.ru', employeeCount: 120, ...overrides };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A call as `who`, in English unless `headers` say otherwise. */
export function call(
  t: TestApp,
  method: Method,
  path: string,
  who: { access: string } | null,
  payload?: object,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: api(path),
    headers: { Language: 'en', ...(who ? { authorization: `Bearer ${who.access}` } : {}), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
}

/** `POST /companies` as `who`; the created company's id. */
export async function createCompanyAs(t: TestApp, who: Login, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await call(t, 'POST', '/companies', who, companyInput(overrides));
  if (response.statusCode !== 201) throw new Error(`create company: ${response.statusCode} ${response.body}`);
  return json<{ data: { id: string } }>(response).data.id;
}

/** The stored companies row, to compare before and after a refused call. */
export function companyRow(t: TestApp, companyId: string): Promise<Record<string, unknown> | null> {
  return t.db.one('SELECT * FROM companies WHERE id = $1', [companyId]);
}

export const countCompanies = async (t: TestApp): Promise<number> => Number((await t.db.one<{ n: string }>('SELECT count(*)::text AS n FROM companies'))?.n);

/** A real 1×1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Uploads a PNG through `POST /files/upload` as `who`; its imageId. */
export async function uploadImage(t: TestApp, who: Login): Promise<string> {
  const boundary = `----company-test-${randomInt(1e9)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await t.app.inject({
    method: 'POST',
    url: api('/files/upload'),
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${who.access}` },
  });
  if (response.statusCode !== 200) throw new Error(`upload: ${response.statusCode} ${response.body}`);
  return json<{ data: { imageId: string } }>(response).data.imageId;
}
