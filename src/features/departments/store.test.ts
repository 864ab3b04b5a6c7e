import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DepartmentRow } from '../../domain/suggestion';
import { AppDatabase } from '../../lib/db/database';
import { HttpError } from '../../lib/http';
import { createSubmissionKeys } from '../../lib/submission-key';
import { createDepartment, deleteDepartment, updateDepartment, type DepartmentsContext } from './store';

const AT = '2026-03-01T10:00:00.000Z';
const ME = 'user-owner';
const department: DepartmentRow = { id: 'd1', companyId: 'c1', name: 'Цех 1', headUserId: null, createdAt: AT, updatedAt: AT };

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

/** A context whose writes answer `outcomes` in turn (an Error is thrown); `keys` are the Idempotency-Keys sent. */
function scriptedContext(outcomes: unknown[]): { context: DepartmentsContext; keys: (string | undefined)[]; db: AppDatabase } {
  const db = new AppDatabase(`departments-store-${Math.random()}`);
  opened.push(db);
  const keys: (string | undefined)[] = [];
  const write = (...args: unknown[]) => {
    const options = args[args.length - 1] as { headers?: Record<string, string> } | undefined;
    keys.push(options?.headers?.['Idempotency-Key']);
    const outcome = outcomes.shift();
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome ?? null);
  };
  const http = { post: vi.fn(write), patch: vi.fn(write), delete: vi.fn(write) } as unknown as DepartmentsContext['http'];
  return { context: { db, http, ownerUserId: ME, keys: createSubmissionKeys() }, keys, db };
}

describe('department writes', () => {
  it('send a retried department after no answer under the same key, and the next one under a new key', async () => {
    const { context, keys, db } = scriptedContext([new HttpError(0, null), { data: department }, { data: { ...department, id: 'd2' } }]);
    await expect(createDepartment(context, 'c1', { name: 'Цех 1' })).rejects.toMatchObject({ status: 0 });
    expect(await db.departments.count()).toBe(0);
    await createDepartment(context, 'c1', { name: 'Цех 1' });
    await createDepartment(context, 'c1', { name: 'Цех 1' });
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(await db.departments.get([ME, 'd1'])).toMatchObject({ name: 'Цех 1', ownerUserId: ME });
  });

  it('send a renamed department after a refusal under a new key', async () => {
    const { context, keys } = scriptedContext([new HttpError(400, { message: 'Validation failed', errors: { name: 'tooLong' } }), { data: department }]);
    await expect(updateDepartment(context, 'c1', 'd1', { name: 'Ц'.repeat(300) })).rejects.toMatchObject({ status: 400 });
    await updateDepartment(context, 'c1', 'd1', { name: 'Цех 1' });
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('delete under one key until the server confirms, then drop the department from the mirror', async () => {
    const { context, keys, db } = scriptedContext([new HttpError(0, null), null]);
    await db.departments.put({ ...department, ownerUserId: ME });
    await expect(deleteDepartment(context, 'c1', 'd1')).rejects.toMatchObject({ status: 0 });
    expect(await db.departments.count()).toBe(1);
    await deleteDepartment(context, 'c1', 'd1');
    expect(keys[1]).toBe(keys[0]);
    expect(await db.departments.count()).toBe(0);
  });
});
