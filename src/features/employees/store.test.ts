import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invitation } from '../../domain/company';
import type { EmployeeRow } from '../../domain/suggestion';
import { AppDatabase } from '../../lib/db/database';
import { HttpError } from '../../lib/http';
import { UnexpectedAnswerError } from '../../lib/request-errors';
import { createSubmissionKeys } from '../../lib/submission-key';
import { createEmployee, createInvitation, resendInvitation, revokeInvitation, updateEmployee, type PeopleHttp } from './store';

const AT = '2026-03-01T10:00:00.000Z';
const ME = 'user-hr';

const opened: AppDatabase[] = [];
async function openDatabase(): Promise<AppDatabase> {
  const db = new AppDatabase(`employees-store-${opened.length}-${Date.now()}`);
  await db.open();
  opened.push(db);
  return db;
}
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

const row: EmployeeRow = {
  id: 'e1',
  companyId: 'c1',
  userId: null,
  lastName: 'Иванова',
  firstName: 'Анна',
  middleName: null,
  position: null,
  email: 'anna@example.ru',
  serviceNumber: '42',
  departmentId: null,
  roles: ['EMPLOYEE'],
  active: true,
  imported: false,
  invitedAt: null,
  createdAt: AT,
  updatedAt: AT,
};

const invitation: Invitation = {
  id: 'i1',
  companyId: 'c1',
  employeeId: 'e1',
  email: 'anna@example.ru',
  roles: ['EMPLOYEE'],
  status: 'PENDING',
  fullName: 'Иванова Анна',
  invitedByName: 'Кадрова Ольга',
  expiresAt: AT,
  sentCount: 1,
  lastSentAt: AT,
  acceptedAt: null,
  createdAt: AT,
};

function fakeHttp(answers: Partial<Record<'get' | 'post' | 'patch' | 'delete', unknown>>) {
  const respond = (method: keyof typeof answers) =>
    vi.fn((..._args: unknown[]) => {
      const answer = answers[method];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? null);
    });
  return { get: respond('get'), post: respond('post'), patch: respond('patch'), delete: respond('delete') };
}

describe('the employee writes', () => {
  it('put the created employee into the mirror, tagged with the user, with an Idempotency-Key sent', async () => {
    const db = await openDatabase();
    const http = fakeHttp({ post: { data: row, message: 'OK' } });
    const created = await createEmployee({ db, http: http as unknown as PeopleHttp, ownerUserId: ME }, 'c1', { lastName: 'Иванова', firstName: 'Анна' });
    expect(created).toEqual(row);
    expect(await db.employees.get([ME, 'e1'])).toEqual({ ...row, ownerUserId: ME });
    const [url, body, options] = (http.post.mock.calls[0] ?? []) as [string?, unknown?, { headers: Record<string, string> }?];
    expect(url).toBe('/api/v1/companies/c1/employees');
    expect(body).toEqual({ lastName: 'Иванова', firstName: 'Анна' });
    expect(options?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('store nothing when the answer does not match its struct, and say so', async () => {
    const db = await openDatabase();
    const http = fakeHttp({ post: { data: { ...row, roles: 'EMPLOYEE' } } });
    await expect(createEmployee({ db, http: http as unknown as PeopleHttp, ownerUserId: ME }, 'c1', { lastName: 'Иванова', firstName: 'Анна' })).rejects.toBeInstanceOf(
      UnexpectedAnswerError,
    );
    expect(await db.employees.count()).toBe(0);
  });

  it('store nothing when the server refuses', async () => {
    const db = await openDatabase();
    const http = fakeHttp({ post: new HttpError(409, { message: 'Taken', errors: { email: 'taken' } }) });
    await expect(createEmployee({ db, http: http as unknown as PeopleHttp, ownerUserId: ME }, 'c1', { lastName: 'Иванова', firstName: 'Анна' })).rejects.toBeInstanceOf(HttpError);
    expect(await db.employees.count()).toBe(0);
  });

  it('mirror the invited employee after an invitation, and clear “invited” after a revocation', async () => {
    const db = await openDatabase();
    const http = fakeHttp({ post: { data: invitation }, get: { data: { ...row, invitedAt: AT } } });
    const context = { db, http: http as unknown as PeopleHttp, ownerUserId: ME };
    await createInvitation(context, 'c1', { email: 'anna@example.ru', roles: ['EMPLOYEE'], employeeId: 'e1' });
    expect((await db.employees.get([ME, 'e1']))?.invitedAt).toBe(AT);
    await revokeInvitation(context, 'c1', invitation);
    expect((await db.employees.get([ME, 'e1']))?.invitedAt).toBeNull();
    expect(http.delete.mock.calls[0]?.[0]).toBe('/api/v1/companies/c1/invitations/i1');
  });
});

describe('one Idempotency-Key per submission of the people screens', () => {
  /** An HTTP client whose writes answer `outcomes` in turn (an Error is thrown); `keys` are the keys sent. */
  function scriptedHttp(outcomes: unknown[], reads: unknown = { data: row }) {
    const keys: (string | undefined)[] = [];
    const write = (..._args: unknown[]) => {
      const options = _args[_args.length - 1] as { headers?: Record<string, string> } | undefined;
      keys.push(options?.headers?.['Idempotency-Key']);
      const outcome = outcomes.shift();
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome ?? null);
    };
    const http = { get: vi.fn(() => Promise.resolve(reads)), post: vi.fn(write), patch: vi.fn(write), delete: vi.fn(write) };
    return { http: http as unknown as PeopleHttp, keys };
  }

  it('sends a retried employee after no answer under the same key, and the next one under a new key', async () => {
    const db = await openDatabase();
    const { http, keys } = scriptedHttp([new HttpError(0, null), { data: row }, { data: { ...row, id: 'e2' } }]);
    const context = { db, http, ownerUserId: ME, keys: createSubmissionKeys() };
    const input = { lastName: 'Иванова', firstName: 'Анна' };
    await expect(createEmployee(context, 'c1', input)).rejects.toMatchObject({ status: 0 });
    await createEmployee(context, 'c1', input);
    await createEmployee(context, 'c1', input);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('sends a changed employee under a new key, and keeps the key of an answer that failed its struct', async () => {
    const db = await openDatabase();
    const { http, keys } = scriptedHttp([new HttpError(0, null), { data: { ...row, roles: 'EMPLOYEE' } }, { data: row }]);
    const context = { db, http, ownerUserId: ME, keys: createSubmissionKeys() };
    await expect(updateEmployee(context, 'c1', 'e1', { position: 'Токарь' })).rejects.toMatchObject({ status: 0 });
    await expect(updateEmployee(context, 'c1', 'e1', { position: 'Фрезеровщик' })).rejects.toBeInstanceOf(UnexpectedAnswerError);
    await updateEmployee(context, 'c1', 'e1', { position: 'Фрезеровщик' });
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
  });

  it('invites once: a retry after no answer is the same invitation, a new one after success or refusal gets its own key', async () => {
    const db = await openDatabase();
    const { http, keys } = scriptedHttp([
      new HttpError(0, null),
      { data: invitation },
      { data: invitation },
      new HttpError(400, { message: 'Validation failed', errors: { email: 'invalid' } }),
      new HttpError(0, null),
    ]);
    const context = { db, http, ownerUserId: ME, keys: createSubmissionKeys() };
    const input = { email: 'anna@example.ru', roles: ['EMPLOYEE' as const], employeeId: 'e1' };
    await expect(createInvitation(context, 'c1', input)).rejects.toMatchObject({ status: 0 });
    await createInvitation(context, 'c1', input);
    await createInvitation(context, 'c1', input);
    await expect(createInvitation(context, 'c1', input)).rejects.toMatchObject({ status: 400 });
    await expect(createInvitation(context, 'c1', input)).rejects.toMatchObject({ status: 0 });
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys.slice(1)).size).toBe(4);
  });

  it('resends and revokes under one key per submission', async () => {
    const db = await openDatabase();
    const { http, keys } = scriptedHttp([new HttpError(0, null), { data: invitation }, new HttpError(0, null), null]);
    const context = { db, http, ownerUserId: ME, keys: createSubmissionKeys() };
    await expect(resendInvitation(context, 'c1', 'i1')).rejects.toMatchObject({ status: 0 });
    await resendInvitation(context, 'c1', 'i1');
    await expect(revokeInvitation(context, 'c1', invitation)).rejects.toMatchObject({ status: 0 });
    await revokeInvitation(context, 'c1', invitation);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});
