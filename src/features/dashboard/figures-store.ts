// The dashboard's figures on the device: what the main-service computed for one period and scope
// (`GET /companies/{companyId}/dashboard?from=&to=&departmentId=`), kept in `db.dashboards` so the last figures
// show at once and offline with the time they were computed. The financial director's EBITDA months are in
// ebitda-store.ts, loaded with their form.
// What it stores and why: one row per (user, company, period and department asked for), keyed by
// `dashboardKeyOf`, tagged with the signed-in user (another user on the device never reads it; sign-out and a
// company leaving the user's list drop it with the rest of the mirror, src/lib).
// Guarantees:
// - an answer is stored only when it passes the `Dashboard` struct and is the answer to the question asked
//   (same company, period and, when one was asked for, department); anything else is refused and the stored
//   figures stay as they were;
// - a failed request (no answer, a refusal, a bad answer) never deletes or changes what is stored;
// - rows read back are checked with the struct again (IndexedDB is untrusted): a bad row reads as none;
// - at most `KEPT_DASHBOARDS` periods are kept per user and company (the oldest fetched go first), so custom
//   periods tried one after another do not pile up.
import { type } from 'superstruct';
import { Dashboard, type DashboardQuery } from '../../domain/dashboard';
import type { AppDatabase, StoredDashboard } from '../../lib/db/database';
import type { HttpClient } from '../../lib/http';

/** How many periods (and departments) the device keeps per user and company. */
export const KEPT_DASHBOARDS = 12;

/** The key of one stored dashboard: the period and the department asked for ('' for none). */
export function dashboardKeyOf(from: string, to: string, departmentId: string | null | undefined): string {
  return `${from}|${to}|${departmentId ?? ''}`;
}

export interface FiguresContext {
  db: AppDatabase;
  http: Pick<HttpClient, 'get'>;
  ownerUserId: string;
  now?: () => number;
}

/** The server answered something that is not the dashboard asked for: nothing of it was stored. */
export class DashboardAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DashboardAnswerError';
  }
}

const DashboardAnswer = type({ data: Dashboard });

/** The company's part of the API paths (the dashboard's and the EBITDA calls). */
export function companyPath(companyId: string): string {
  return `/api/v1/companies/${encodeURIComponent(companyId)}`;
}

/** Whether `dashboard` answers `query` about `companyId` (a head's own department may come without asking). */
function answersQuery(dashboard: Dashboard, companyId: string, query: DashboardQuery): boolean {
  if (dashboard.companyId !== companyId || dashboard.from !== query.from || dashboard.to !== query.to) return false;
  return query.departmentId === undefined || dashboard.departmentId === query.departmentId;
}

/**
 * Asks the server for the dashboard of `query`, checks the answer and keeps it; resolves with the stored row.
 * Rejects (storing nothing) with the transport's `HttpError` or a `DashboardAnswerError`.
 */
export async function fetchDashboard(context: FiguresContext, companyId: string, query: DashboardQuery): Promise<StoredDashboard> {
  const answer = await context.http.get(
    `${companyPath(companyId)}/dashboard`,
    { from: query.from, to: query.to, departmentId: query.departmentId },
    { minDuration: 0 },
  );
  if (!DashboardAnswer.is(answer)) throw new DashboardAnswerError('The server answered a dashboard that does not match its struct');
  if (!answersQuery(answer.data, companyId, query)) throw new DashboardAnswerError('The server answered the dashboard of another period or scope');
  const row: StoredDashboard = {
    ownerUserId: context.ownerUserId,
    companyId,
    key: dashboardKeyOf(query.from, query.to, query.departmentId),
    dashboard: answer.data,
    fetchedAt: (context.now ?? Date.now)(),
  };
  await storeDashboard(context.db, row);
  return row;
}

/** Puts `row` and drops the oldest rows of its user and company beyond `KEPT_DASHBOARDS`, in one transaction. */
async function storeDashboard(db: AppDatabase, row: StoredDashboard): Promise<void> {
  await db.transaction('rw', db.dashboards, async () => {
    await db.dashboards.put(row);
    const rows = await db.dashboards.where('[ownerUserId+companyId]').equals([row.ownerUserId, row.companyId]).toArray();
    if (rows.length <= KEPT_DASHBOARDS) return;
    const oldest = rows
      .filter((stored) => stored.key !== row.key)
      .sort((a, b) => (typeof a.fetchedAt === 'number' ? a.fetchedAt : 0) - (typeof b.fetchedAt === 'number' ? b.fetchedAt : 0))
      .slice(0, rows.length - KEPT_DASHBOARDS);
    await db.dashboards.bulkDelete(oldest.map((stored) => [stored.ownerUserId, stored.companyId, stored.key] as [string, string, string]));
  });
}

/** The stored dashboard of `key`, checked; null when there is none or it fails its struct. */
export async function readStoredDashboard(db: AppDatabase, ownerUserId: string, companyId: string, key: string): Promise<StoredDashboard | null> {
  const row = await db.dashboards.get([ownerUserId, companyId, key]);
  if (!row) return null;
  if (!Dashboard.is(row.dashboard) || typeof row.fetchedAt !== 'number') {
    console.warn('A stored dashboard does not match its struct; it is shown as none until fetched again', key);
    return null;
  }
  return row;
}
