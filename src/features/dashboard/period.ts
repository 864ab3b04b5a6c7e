// What the dashboard is asked about, as the URL query keeps it (`/dashboard?from=&to=&departmentId=`, so a reload or
// the back button brings the same figures back), and which departments the viewer may narrow it to. Pure.
// Guarantees: a query read from the URL is always one the server accepts (`DashboardQuery`): a missing,
// malformed or too long period falls back to "this year" of `today`; a department is asked for only when the
// viewer's scope lets them choose it (whole-company viewers: any department of the company; a head of several
// departments: one of theirs; a department id that is not a UUID is dropped); otherwise the server's own scope
// applies (no department in the request).
import { DashboardQuery, periodPreset, type DashboardPreset, type DashboardScope } from '../../domain/dashboard';
import { Uuid } from '../../domain/suggestion';

/** The period shown when the URL names none. */
export const DEFAULT_PRESET: DashboardPreset = 'year';

export interface DashboardView {
  from: string;
  to: string;
  /** The department asked for from the URL, unchecked against the scope (see `allowedDepartmentId`). */
  departmentId: string | null;
}

/** The view the URL query holds; the default period when it holds none (or one the server would refuse). */
export function viewFromQuery(search: string, today: string): DashboardView {
  const params = new URLSearchParams(search);
  const from = params.get('from');
  const to = params.get('to');
  const departmentId = params.get('departmentId');
  const period = from !== null && to !== null && DashboardQuery.is({ from, to }) ? { from, to } : periodPreset(DEFAULT_PRESET, today);
  return { ...period, departmentId: Uuid.is(departmentId) ? departmentId : null };
}

/** The URL query of `view` (with its leading '?'). */
export function queryFromView(view: DashboardView): string {
  const params = new URLSearchParams({ from: view.from, to: view.to });
  if (view.departmentId !== null) params.set('departmentId', view.departmentId);
  return `?${params.toString()}`;
}

/** The departments the viewer chooses among: none to choose (null), or the ids offered after "all of my scope". */
export function choosableDepartmentIds(scope: DashboardScope | undefined, companyDepartmentIds: readonly string[]): readonly string[] | null {
  if (scope === undefined || scope.kind === 'none') return null;
  if (scope.kind === 'company') return companyDepartmentIds;
  return scope.departmentIds.length > 1 ? scope.departmentIds : null;
}

/**
 * The department to ask the server for: the URL's when the viewer may choose it, else none. A whole-company
 * viewer may name a department the device has not pulled yet (the server checks it).
 */
export function allowedDepartmentId(requested: string | null, scope: DashboardScope | undefined): string | null {
  if (requested === null || scope === undefined || scope.kind === 'none') return null;
  if (scope.kind === 'company') return requested;
  return scope.departmentIds.length > 1 && scope.departmentIds.includes(requested) ? requested : null;
}

/** The request of `view` for a viewer of `scope`. */
export function queryOf(view: DashboardView, scope: DashboardScope | undefined): DashboardQuery {
  const departmentId = allowedDepartmentId(view.departmentId, scope);
  return departmentId === null ? { from: view.from, to: view.to } : { from: view.from, to: view.to, departmentId };
}

/** The ranges of the period presets holding `today`. */
export function presetRanges(today: string): Record<DashboardPreset, { from: string; to: string }> {
  return { month: periodPreset('month', today), quarter: periodPreset('quarter', today), year: periodPreset('year', today) };
}
