// What the dashboard shows: the signed-in user and the titles of their role and position from the app config
// (both loaded by the default layout before any page renders), and the setup checklist of the current company,
// worked out from the device's mirror (employees, departments, the company row) so it shows offline too.
// Inviting a leader from the checklist and the EBITDA entry are in form-hooks.ts, loaded with their forms.
// The figures (issue 13): the period and department from the URL, the viewer's scope from the mirror, the
// figures from the device at once and from the server on every chance (figures-store.ts), the owner's registries
// waiting for a decision and the XLSX export (its rows and writer loaded when the user exports).

import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { useLocation, useSearch } from 'wouter';
import { dashboardScopeOf, type Dashboard, type DashboardQuery, type DashboardScope } from '../../domain/dashboard';
import { paths } from '../../domain/paths';
import { Registry } from '../../domain/registry';
import { localCalendarDate } from '../../domain/report-schedule';
import { CompanyRow, DepartmentRow } from '../../domain/suggestion';
import { http } from '../../lib/api';
import { HttpError } from '../../lib/http';
import { useConnectivity } from '../../lib/connectivity';
import { useCurrentCompany, type CompanyMembership } from '../../lib/current-company';
import { getAppDatabase, type StoredDashboard } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import { isMirrorComplete } from '../../lib/sync/pull';
import { memberViewOf, useMemberRoles } from '../../lib/member-view';
import { useAppConfig, useCurrentUser } from '../../lib/app-state';
import { hasAuthority, type EnumOption } from '../../domain/user';
import { canManagePeople } from '../../domain/permissions';
import { dashboardKeyOf, fetchDashboard, readStoredDashboard } from './figures-store';
import { queryFromView, viewFromQuery, type DashboardView } from './period';
import { computeSetup, type PendingLeader, type SetupState } from './setup';
import type { WorkbookContext } from './xlsx-rows';

function titleOf(options: readonly EnumOption[] | undefined, id: string | null): string | null {
  if (id === null) return null;
  return options?.find((option) => option.id === id)?.title ?? id;
}

export interface DashboardGreeting {
  /** "Иван Петрович" in Russian when there is a middle name, the first name otherwise. */
  name: string;
  /** The user's roles in the current company; without a company, the role given at registration. */
  roleTitle: string | null;
  /** The current company (not the name typed at registration, which may not be on the platform at all). */
  company: { id: string; name: string } | null;
  /** Platform administrators get a way to their page (company verification review). */
  isAdmin: boolean;
  /** The companies the user is a member of: each gets "Submit a proposal" and "My proposals". */
  memberships: { id: string; name: string }[];
}

export function useDashboardGreeting(): DashboardGreeting {
  const user = useCurrentUser();
  const { enums } = useAppConfig();
  // The language of the messages shown (the app's provider or any other), not only the app's stored choice.
  const { locale } = useIntl();
  const name = locale.startsWith('ru') && user.middleName ? `${user.firstName} ${user.middleName}` : user.firstName || user.fullName;
  const current = useCurrentCompany();
  const memberships = (user.companies ?? []).map(({ id, name: companyName }) => ({ id, name: companyName }));
  const companyRoles = current?.roles.map((role) => titleOf(enums.ROLE, role) ?? role) ?? [];
  return {
    name,
    roleTitle: companyRoles.length > 0 ? companyRoles.join(', ') : titleOf(enums.ROLE, user.role),
    company: current ? { id: current.id, name: current.name } : null,
    isAdmin: hasAuthority(user, 'ROLE_ADMIN'),
    memberships,
  };
}

/* Setup checklist ------------------------------------------------------------------------------- */

export interface SetupChecklist extends SetupState {
  company: CompanyMembership;
  /** The company's verification state from the mirror; null until the first pull brought the company. */
  verificationStatus: string | null;
  /** Asks the server for the pending invitations again (after one was sent). */
  reloadInvitations: () => void;
}

/**
 * The company's pending invitations, for people managers: asked of the server (invitations are not mirrored;
 * an invited person's roles are the invitation's until they join). Empty while offline or on a failure: the
 * checklist then only lacks the names of who was invited. The call (store.ts) is loaded only for a company
 * still getting ready, with the checklist.
 */
function usePendingLeaders(companyId: string | null, enabled: boolean): { pending: readonly PendingLeader[]; reload: () => void } {
  const isOffline = useConnectivity() === 'offline';
  const [loaded, setLoaded] = useState<{ companyId: string; pending: PendingLeader[] } | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!enabled || companyId === null || isOffline) return;
    let isCurrent = true;
    import('./store')
      .then(({ listPendingInvitations }) => listPendingInvitations(http, companyId))
      .then(
        (invitations) => {
          if (isCurrent) setLoaded({ companyId, pending: invitations });
        },
        (error: unknown) => console.warn('Could not load the pending invitations for the checklist', error),
      );
    return () => {
      isCurrent = false;
    };
  }, [companyId, enabled, isOffline, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { pending: loaded !== null && loaded.companyId === companyId ? loaded.pending : NO_PENDING, reload };
}

const NO_PENDING: readonly PendingLeader[] = [];

/**
 * The current company's setup state; null when the user has no company, undefined while loading. Works from
 * the mirror: one read of the company's employees (by the [ownerUserId+companyId] index) and departments.
 */
export function useSetupChecklist(): SetupChecklist | null | undefined {
  const { id: userId } = useCurrentUser();
  const company = useCurrentCompany();
  const companyId = company?.id ?? null;
  const rows = useLiveQuery(async () => {
    if (companyId === null) return null;
    const db = getAppDatabase();
    const [employees, departmentCount, companyRow, syncState] = await Promise.all([
      db.employees.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).count(),
      db.companies.get([userId, companyId]),
      db.syncState.get([userId, companyId]),
    ]);
    return {
      companyId,
      isComplete: isMirrorComplete(syncState),
      employees: checkRows(EmployeeRowCheck, employees, 'employees').rows,
      departmentCount,
      verificationStatus: companyRow ? (checkRows(CompanyRow, [companyRow], 'companies').rows[0]?.verificationStatus ?? null) : null,
    };
  }, [userId, companyId]);
  const setup = useMemo(() => {
    if (!rows || company === null || rows.companyId !== company.id) return null;
    return computeSetup(rows.employees, rows.departmentCount, company.roles);
  }, [rows, company]);
  const { pending, reload } = usePendingLeaders(companyId, setup !== null && setup.isIncomplete && canManagePeople(company?.roles ?? []));
  return useMemo(() => {
    if (company === null) return null;
    // A switch of company shows nothing until the new company's rows are read, never the old ones; a company
    // this device has not pulled whole yet shows nothing either (its checklist would list what is only not here
    // yet, then vanish: the first visit's layout shift).
    if (!rows || rows.companyId !== company.id || !rows.isComplete) return undefined;
    return {
      ...computeSetup(rows.employees, rows.departmentCount, company.roles, pending),
      company,
      verificationStatus: rows.verificationStatus,
      reloadInvitations: reload,
    };
  }, [rows, company, pending, reload]);
}

/** False only when the main-service is known to be out of reach: invitations are not sent then. */
export function useIsOnline(): boolean {
  return useConnectivity() !== 'offline';
}

/**
 * sessionStorage key of an invitation link opened while signed out by a person who has an account (written by
 * the invitation page, src/features/auth/invitation-hooks.ts): once they are signed in, the dashboard takes
 * them back to the link to accept it.
 */
export const PENDING_INVITATION_KEY = 'pendingInvitationToken';

export function useReturnToPendingInvitation(): void {
  const [, navigate] = useLocation();
  useEffect(() => {
    let token: string | null = null;
    try {
      token = sessionStorage.getItem(PENDING_INVITATION_KEY);
      if (token !== null) sessionStorage.removeItem(PENDING_INVITATION_KEY);
    } catch (error) {
      console.warn('sessionStorage is not available', error);
    }
    if (token) navigate(`${paths.auth.invitation}?token=${encodeURIComponent(token)}`, { replace: true });
  }, [navigate]);
}

/** The role titles of the app config (`ROLE` enum); an unknown id shows as itself. */
export function useRoleTitle(): (role: string) => string {
  const { enums } = useAppConfig();
  return useCallback((role: string) => titleOf(enums.ROLE, role) ?? role, [enums]);
}

/* Figures ---------------------------------------------------------------------------------------- */

/** The device's calendar date when the page opened (periods are the user's calendar, not UTC's). */
export function useToday(): string {
  const [today] = useState(() => localCalendarDate(new Date()));
  return today;
}

/** The period and department the URL asks for, and how to change them (the URL follows, replacing its entry). */
export function useDashboardView(): { view: DashboardView; today: string; setView: (changes: Partial<DashboardView>) => void } {
  const search = useSearch();
  const [, navigate] = useLocation();
  const today = useToday();
  const view = useMemo(() => viewFromQuery(search, today), [search, today]);
  const setView = useCallback(
    (changes: Partial<DashboardView>) => navigate(`${paths.dashboard}${queryFromView({ ...view, ...changes })}`, { replace: true }),
    [navigate, view],
  );
  return { view, today, setView };
}

export interface DashboardScopeInfo {
  scope: DashboardScope;
  /** The company's departments on the device, by name. */
  departments: readonly { id: string; name: string }[];
  /** The department of the signed-in user's own employee row, if the device has it. */
  ownDepartmentId: string | null;
}

/**
 * Who sees what (`dashboardScopeOf`) from the mirror: roles from the session, headed departments and the own
 * department from the mirrored departments and employees. Undefined while they are read.
 */
export function useDashboardScope(companyId: string): DashboardScopeInfo | undefined {
  const member = useMemberRoles(companyId);
  const { userId } = member;
  const rows = useLiveQuery(async () => {
    const db = getAppDatabase();
    const [departments, employees] = await Promise.all([
      db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.employees.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
    ]);
    const own = checkRows(EmployeeRowCheck, employees, 'employees').rows.find((employee) => employee.userId === userId && employee.active);
    return { departments: checkRows(DepartmentRow, departments, 'departments').rows, ownDepartmentId: own?.departmentId ?? null };
  }, [userId, companyId]);
  return useMemo(() => {
    if (!rows) return undefined;
    const view = memberViewOf(member, rows.departments);
    const departments = rows.departments.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
    return { scope: dashboardScopeOf(view, rows.ownDepartmentId), departments, ownDepartmentId: rows.ownDepartmentId };
  }, [rows, member]);
}

/**
 * 'loading': asked, no answer yet; 'fresh': the stored figures are the answer just received; 'offline': the
 * server is out of reach (nothing asked); 'failed': no answer or a bad one (the stored figures may be old);
 * 'noScope': the viewer has no department and no company-wide role; 'refused': the server refused the question
 * (a department outside the viewer's scope, a period it does not take): `refusal` holds its message.
 */
export type FiguresStatus = 'loading' | 'fresh' | 'offline' | 'failed' | 'noScope' | 'refused';

export interface DashboardFiguresState {
  /** The device's figures for the query: undefined while read, null when there are none. */
  stored: StoredDashboard | null | undefined;
  status: FiguresStatus;
  refusal: string | null;
  /** Asks the server again (after an EBITDA change). */
  refresh: () => void;
}

interface FetchOutcome {
  request: string;
  status: Exclude<FiguresStatus, 'loading' | 'offline'>;
  refusal: string | null;
}

function outcomeOfFailure(request: string, error: unknown, query: DashboardQuery): FetchOutcome {
  if (error instanceof HttpError && (error.status === 403 || error.status === 400)) {
    if (error.status === 403 && query.departmentId === undefined) return { request, status: 'noScope', refusal: null };
    return { request, status: 'refused', refusal: error.body?.message ?? null };
  }
  if (!(error instanceof HttpError && error.status === 0)) console.warn('The dashboard could not be fetched; the stored figures stay', error);
  return { request, status: 'failed', refusal: null };
}

/**
 * The figures of `query` in `companyId`: the device's last ones at once (useLiveQuery), and a request to the
 * server on mount, on every change of the query, when the connection comes back and on `refresh`. A failed
 * request never blanks the stored figures. `query` null: not asked yet (the scope is still being read).
 */
export function useDashboardFigures(companyId: string, query: DashboardQuery | null): DashboardFiguresState {
  const { id: ownerUserId } = useCurrentUser();
  const isOffline = useConnectivity() === 'offline';
  const key = query === null ? null : dashboardKeyOf(query.from, query.to, query.departmentId);
  const stored = useLiveQuery(
    () => (key === null ? Promise.resolve(null) : readStoredDashboard(getAppDatabase(), ownerUserId, companyId, key)),
    [ownerUserId, companyId, key],
  );
  const [round, setRound] = useState(0);
  // Coming back online asks again: a new round (adjusted while rendering, not in an effect).
  const [wasOffline, setWasOffline] = useState(isOffline);
  if (wasOffline !== isOffline) {
    setWasOffline(isOffline);
    if (!isOffline) setRound((value) => value + 1);
  }
  const request = key === null ? null : `${ownerUserId}|${companyId}|${key}|${round}`;
  const [outcome, setOutcome] = useState<FetchOutcome | null>(null);
  const from = query?.from;
  const to = query?.to;
  const departmentId = query?.departmentId;
  useEffect(() => {
    if (request === null || from === undefined || to === undefined || isOffline) return;
    const asked: DashboardQuery = departmentId === undefined ? { from, to } : { from, to, departmentId };
    let isCurrent = true;
    fetchDashboard({ db: getAppDatabase(), http, ownerUserId }, companyId, asked).then(
      () => {
        if (isCurrent) setOutcome({ request, status: 'fresh', refusal: null });
      },
      (error: unknown) => {
        if (isCurrent) setOutcome(outcomeOfFailure(request, error, asked));
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [request, from, to, departmentId, isOffline, ownerUserId, companyId]);
  const refresh = useCallback(() => setRound((value) => value + 1), []);
  const status: FiguresStatus = isOffline ? 'offline' : outcome !== null && outcome.request === request ? outcome.status : 'loading';
  return { stored, status, refusal: status === 'refused' ? (outcome?.refusal ?? null) : null, refresh };
}

/** The owner's count of registries waiting for their decision (SENT), from the mirror; null for anyone else. */
export function useRegistriesToApprove(companyId: string, isOwner: boolean): number | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    if (!isOwner) return null;
    const rows = await getAppDatabase().registries.where('[ownerUserId+companyId+status]').equals([userId, companyId, 'SENT']).toArray();
    return checkRows(Registry, rows, 'registries').rows.length;
  }, [userId, companyId, isOwner]);
}

/** The app config's title of an indicator unit; the id itself when unknown. */
export function useUnitTitle(): (unitId: string) => string {
  const { units } = useAppConfig();
  return useCallback((unitId: string) => units.find((unit) => unit.id === unitId)?.title ?? unitId, [units]);
}

/**
 * Writes the XLSX of `dashboard`. The rows builder and write-excel-file are loaded on the first export, not with
 * the page; a failed load rejects like a failed export (the page says the file could not be made).
 */
export function useExportDashboard(): (dashboard: Dashboard, context: WorkbookContext) => Promise<void> {
  const intl = useIntl();
  return useCallback(
    async (dashboard: Dashboard, context: WorkbookContext) => {
      const { exportDashboardXlsx } = await import('./xlsx-export');
      await exportDashboardXlsx(intl, dashboard, context);
    },
    [intl],
  );
}
