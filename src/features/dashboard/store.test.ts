import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Invitation } from '../../domain/company';
import type { EmployeeRow } from '../../domain/suggestion';
import { AppDatabase } from '../../lib/db/database';
import { HttpError } from '../../lib/http';
import { createSubmissionKeys } from '../../lib/submission-key';
import { inviteLeader, type InviteContext } from './store';

const AT = '2026-03-01T10:00:00.000Z';
const ME = 'user-owner';

const invitation: Invitation = {
  id: 'i1',
  companyId: 'c1',
  employeeId: 'e1',
  email: 'boss@example.ru',
  roles: ['CEO'],
  status: 'PENDING',
  fullName: 'Петров Пётр',
  invitedByName: 'Иванова Анна',
  expiresAt: AT,
  sentCount: 1,
  lastSentAt: AT,
  acceptedAt: null,
  createdAt: AT,
};

const employee: EmployeeRow = {
  id: 'e1',
  companyId: 'c1',
  userId: null,
  lastName: 'Петров',
  firstName: 'Пётр',
  middleName: null,
  position: null,
  email: 'boss@example.ru',
  serviceNumber: null,
  departmentId: null,
  roles: ['CEO'],
  active: true,
  imported: false,
  invitedAt: AT,
  createdAt: AT,
  updatedAt: AT,
};

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

describe('inviting a leader from the checklist', () => {
  it('sends a retry after no answer under the same key, a new invitation after success or refusal under a new one', async () => {
    const db = new AppDatabase(`dashboard-store-${Math.random()}`);
    opened.push(db);
    const outcomes: unknown[] = [new HttpError(0, null), { data: invitation }, new HttpError(409, { message: 'Already invited' }), { data: invitation }];
    const keys: (string | undefined)[] = [];
    const http = {
      get: vi.fn(() => Promise.resolve({ data: employee })),
      post: vi.fn((_path: string, _body: unknown, options?: { headers?: Record<string, string> }) => {
        keys.push(options?.headers?.['Idempotency-Key']);
        const outcome = outcomes.shift();
        return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome ?? null);
      }),
    } as unknown as InviteContext['http'];
    const context: InviteContext = { db, http, ownerUserId: ME, keys: createSubmissionKeys() };
    const input = { email: 'boss@example.ru', roles: ['CEO' as const], lastName: 'Петров', firstName: 'Пётр' };

    await expect(inviteLeader(context, 'c1', input)).rejects.toMatchObject({ status: 0 });
    await inviteLeader(context, 'c1', input);
    expect(keys[1]).toBe(keys[0]);
    expect(await db.employees.get([ME, 'e1'])).toMatchObject({ invitedAt: AT, ownerUserId: ME });

    await expect(inviteLeader(context, 'c1', input)).rejects.toMatchObject({ status: 409 });
    expect(keys[2]).not.toBe(keys[0]);
    await inviteLeader(context, 'c1', { ...input, email: 'boss2@example.ru' });
    expect(keys[3]).not.toBe(keys[2]);
  });
});
