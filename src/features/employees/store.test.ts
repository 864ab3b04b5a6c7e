import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invitation } from '../../domain/company';
import type { EmployeeRow } from '../../domain/suggestion';
import { AppDatabase } from '../../lib/db/database';
import { HttpError } from '../../lib/http';
import { UnexpectedAnswerError } from '../../lib/request-errors';
import { createEmployee, createInvitation, revokeInvitation, type PeopleHttp } from './store';

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
