import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppDatabase } from '../../lib/db/database';
import { HttpError, type RequestOptions } from '../../lib/http';
import { createSubmissionKeys } from '../../lib/submission-key';
import {
  DashboardAnswerError,
  KEPT_DASHBOARDS,
  dashboardKeyOf,
  fetchDashboard,
  readStoredDashboard,
  type FiguresContext,
} from './figures-store';
import { listEbitda, saveEbitda, type EbitdaTransport } from './ebitda-store';
import { COMPANY, PRODUCTION, dashboardOf } from './test-fixtures';

const ME = 'user-findir';
const YEAR = { from: '2026-01-01', to: '2026-12-31' };
const KEY = dashboardKeyOf(YEAR.from, YEAR.to, undefined);

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`dashboard-figures-${Math.random()}`);
  opened.push(db);
  return db;
}

/** A transport answering each GET with the next outcome (an Error rejects). */
function contextOf(db: AppDatabase, outcomes: unknown[], now = () => 1_000): FiguresContext & { asked: unknown[] } {
  const asked: unknown[] = [];
  const get = vi.fn((path: string, params?: unknown) => {
    asked.push({ path, params });
    const outcome = outcomes.shift();
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome ?? null);
  });
  return { db, http: { get } as FiguresContext['http'], ownerUserId: ME, now, asked };
}

describe('the dashboard figures on the device', () => {
  it('keys a dashboard by its period and the department asked for', () => {
    expect(dashboardKeyOf('2026-01-01', '2026-03-31', null)).toBe('2026-01-01|2026-03-31|');
    expect(dashboardKeyOf('2026-01-01', '2026-03-31', undefined)).toBe('2026-01-01|2026-03-31|');
    expect(dashboardKeyOf('2026-01-01', '2026-03-31', PRODUCTION)).toBe(`2026-01-01|2026-03-31|${PRODUCTION}`);
  });

  it('asks for the period and department, checks the answer and keeps it under its key for this user', async () => {
    const db = openDb();
    const answer = dashboardOf({ departmentId: PRODUCTION });
    const context = contextOf(db, [{ data: answer, message: 'OK' }]);
    const row = await fetchDashboard(context, COMPANY, { ...YEAR, departmentId: PRODUCTION });
    expect(context.asked).toEqual([{ path: `/api/v1/companies/${COMPANY}/dashboard`, params: { ...YEAR, departmentId: PRODUCTION } }]);
    expect(row.key).toBe(dashboardKeyOf(YEAR.from, YEAR.to, PRODUCTION));
    expect(await readStoredDashboard(db, ME, COMPANY, row.key)).toEqual({ ownerUserId: ME, companyId: COMPANY, key: row.key, dashboard: answer, fetchedAt: 1_000 });
    expect(await readStoredDashboard(db, 'someone-else', COMPANY, row.key)).toBeNull();
  });

  it('keeps the stored figures when the request fails, and when the answer fails its struct or answers another question', async () => {
    const db = openDb();
    const first = dashboardOf();
    await fetchDashboard(contextOf(db, [{ data: first }]), COMPANY, YEAR);

    await expect(fetchDashboard(contextOf(db, [new HttpError(0, null)]), COMPANY, YEAR)).rejects.toMatchObject({ status: 0 });
    await expect(fetchDashboard(contextOf(db, [new HttpError(503, { message: 'Down' })]), COMPANY, YEAR)).rejects.toMatchObject({ status: 503 });
    const { reports: _reports, ...withoutReports } = dashboardOf({ computedAt: '2026-03-16T00:00:00.000Z' });
    await expect(fetchDashboard(contextOf(db, [{ data: withoutReports }]), COMPANY, YEAR)).rejects.toBeInstanceOf(DashboardAnswerError);
    await expect(fetchDashboard(contextOf(db, [{ data: dashboardOf({ from: '2025-01-01' }) }]), COMPANY, YEAR)).rejects.toBeInstanceOf(DashboardAnswerError);
    await expect(fetchDashboard(contextOf(db, [{ data: dashboardOf({ companyId: 'other' }) }]), COMPANY, YEAR)).rejects.toBeInstanceOf(DashboardAnswerError);
    await expect(fetchDashboard(contextOf(db, [{ data: dashboardOf() }]), COMPANY, { ...YEAR, departmentId: PRODUCTION })).rejects.toBeInstanceOf(DashboardAnswerError);

    expect((await readStoredDashboard(db, ME, COMPANY, KEY))?.dashboard).toEqual(first);
  });

  it('replaces the figures of a period with the newer answer', async () => {
    const db = openDb();
    await fetchDashboard(contextOf(db, [{ data: dashboardOf() }], () => 1), COMPANY, YEAR);
    const newer = dashboardOf({ computedAt: '2026-03-16T08:00:00.000Z', reports: { due: 0, late: 0 } });
    await fetchDashboard(contextOf(db, [{ data: newer }], () => 2), COMPANY, YEAR);
    expect(await readStoredDashboard(db, ME, COMPANY, KEY)).toMatchObject({ dashboard: newer, fetchedAt: 2 });
    expect(await db.dashboards.count()).toBe(1);
  });

  it('takes a head\u2019s own department in an answer to a question without one', async () => {
    const db = openDb();
    const row = await fetchDashboard(contextOf(db, [{ data: dashboardOf({ departmentId: PRODUCTION }) }]), COMPANY, YEAR);
    expect(row.key).toBe(KEY);
  });

  it('reads a stored row that fails its struct as none', async () => {
    const db = openDb();
    const { money: _money, ...broken } = dashboardOf();
    await db.dashboards.put({ ownerUserId: ME, companyId: COMPANY, key: KEY, dashboard: broken as never, fetchedAt: 1 });
    expect(await readStoredDashboard(db, ME, COMPANY, KEY)).toBeNull();
  });

  it(`keeps the ${KEPT_DASHBOARDS} periods fetched last per user and company`, async () => {
    const db = openDb();
    for (let month = 1; month <= KEPT_DASHBOARDS + 2; month += 1) {
      const from = `2025-${String(((month - 1) % 12) + 1).padStart(2, '0')}-01`;
      const to = month <= 12 ? `2025-${String(month).padStart(2, '0')}-28` : `2026-${String(month - 12).padStart(2, '0')}-28`;
      await fetchDashboard(contextOf(db, [{ data: dashboardOf({ from, to }) }], () => month), COMPANY, { from, to });
    }
    await db.dashboards.put({ ownerUserId: 'other-user', companyId: COMPANY, key: KEY, dashboard: dashboardOf(), fetchedAt: 0 });
    const mine = await db.dashboards.where('[ownerUserId+companyId]').equals([ME, COMPANY]).toArray();
    expect(mine).toHaveLength(KEPT_DASHBOARDS);
    expect(Math.min(...mine.map((row) => row.fetchedAt))).toBe(3);
    expect(await db.dashboards.get(['other-user', COMPANY, KEY])).toBeDefined();
  });
});

describe('the EBITDA calls', () => {
  const ROW = { month: '2026-02', currency: 'RUB' as const, amountMinor: -35_000_050, updatedAt: '2026-03-01T10:00:00.000Z' };

  it('lists the months entered, refusing an answer that fails its struct', async () => {
    const get = vi.fn().mockResolvedValueOnce({ data: [ROW] }).mockResolvedValueOnce({ data: [{ month: '2026-02' }] });
    const http = { get };
    expect(await listEbitda(http, COMPANY, '2025-03', '2026-02')).toEqual([ROW]);
    expect(get).toHaveBeenCalledWith(`/api/v1/companies/${COMPANY}/ebitda`, { from: '2025-03', to: '2026-02' }, { minDuration: 0 });
    await expect(listEbitda(http, COMPANY, '2025-03', '2026-02')).rejects.toBeInstanceOf(DashboardAnswerError);
  });

  it('sends a retry after no answer under the same key, the next entry under a new one', async () => {
    const keys: string[] = [];
    const outcomes: unknown[] = [new HttpError(0, null), { data: ROW }, { data: null }];
    const put = vi.fn((_path: string, _body: unknown, options?: RequestOptions) => {
      keys.push(options?.headers?.['Idempotency-Key'] ?? '');
      const outcome = outcomes.shift();
      // The answer as the server sent it; the store checks its shape.
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    });
    // HttpClient.put's answer type is the caller's to name; the store checks the shape itself.
    const transport = { put } as unknown as Pick<EbitdaTransport, 'put'>;
    const submissions = createSubmissionKeys();
    const input = { month: '2026-02', currency: 'RUB' as const, amountMinor: -35_000_050 };
    await expect(saveEbitda(transport, COMPANY, input, submissions)).rejects.toMatchObject({ status: 0 });
    expect(await saveEbitda(transport, COMPANY, input, submissions)).toEqual(ROW);
    expect(keys[1]).toBe(keys[0]);
    expect(put).toHaveBeenLastCalledWith(`/api/v1/companies/${COMPANY}/ebitda`, input, { headers: { 'Idempotency-Key': keys[0] } });
    expect(await saveEbitda(transport, COMPANY, { ...input, amountMinor: null }, submissions)).toBeNull();
    expect(keys[2]).not.toBe(keys[0]);
  });
});
