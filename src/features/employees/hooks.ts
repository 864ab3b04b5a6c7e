// What the employee screens read and do. Reads come from the device's mirror through `useLiveQuery` (so the
// list and the employee's page work offline), checked with their structs; the list is built once per change
// of the mirror (one query by the [ownerUserId+companyId] index) and filtered in memory. Writes are
// online-only and go through store.ts; their failures reach the screens as `FormError` (forms) or as a
// message to show (buttons).
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import type { EmployeeInput, EmployeePatch, Invitation, InvitationInput } from '../../domain/company';
import { canManagePeople } from '../../domain/permissions';
import { DepartmentRow, type EmployeeRow } from '../../domain/suggestion';
import { http } from '../../lib/api';
import { useAppConfig, useCurrentUser } from '../../lib/app-state';
import { useConnectivity } from '../../lib/connectivity';
import { getAppDatabase } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import { HttpError } from '../../lib/http';
import { failureMessage, toFormError } from '../../lib/request-errors';
import { buildEntries, filterEntries, fullNameOf, type EmployeeEntry, type EmployeeFilter } from './directory';
import {
  createEmployee,
  createInvitation,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  updateEmployee,
  type PeopleContext,
} from './store';

/* Who the user is in the company ------------------------------------------------------------------ */

const NO_ROLES: readonly string[] = [];

/** The signed-in user's roles in the company (from `GET /user`); none when not a member. */
export function useMyCompanyRoles(companyId: string): readonly string[] {
  const user = useCurrentUser();
  return useMemo(() => user.companies?.find((company) => company.id === companyId)?.roles ?? NO_ROLES, [user.companies, companyId]);
}

/** The company's name as the signed-in user's membership gives it (`GET /user`); empty when not a member. */
export function useCompanyName(companyId: string): string {
  const user = useCurrentUser();
  return user.companies?.find((company) => company.id === companyId)?.name ?? '';
}

/** HR, OWNER and CEO manage departments, employees and invitations. */
export function useCanManagePeople(companyId: string): boolean {
  return canManagePeople(useMyCompanyRoles(companyId));
}

/** The role titles of the app config (`ROLE` enum), by id; an unknown id shows as itself. */
export function useRoleTitle(): (role: string) => string {
  const { enums } = useAppConfig();
  return useMemo(() => {
    const titles = new Map((enums.ROLE ?? []).map((option) => [option.id, option.title]));
    return (role: string) => titles.get(role) ?? role;
  }, [enums]);
}

/** False only when the main-service is known to be out of reach; writes are refused then. */
export function useIsOnline(): boolean {
  return useConnectivity() !== 'offline';
}

/* Reads ----------------------------------------------------------------------------------------- */

interface MirrorRows {
  employees: EmployeeRow[];
  departments: DepartmentRow[];
}

function useCompanyMirror(companyId: string): MirrorRows | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const [employees, departments] = await Promise.all([
      db.employees.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
    ]);
    return {
      employees: checkRows(EmployeeRowCheck, employees, 'employees').rows,
      departments: checkRows(DepartmentRow, departments, 'departments').rows,
    };
  }, [userId, companyId]);
}

export interface EmployeeDirectory {
  /** Every employee of the company, sorted by name. */
  entries: readonly EmployeeEntry[];
  departments: readonly DepartmentRow[];
}

/**
 * The last directory built, for the screen to show at once when the user comes back to the list within the
 * app (the mirror is read again behind it and replaces it). One company's, keyed by user, company and language.
 */
let lastDirectory: { key: string; directory: EmployeeDirectory } | null = null;

/** The company's employees as list entries, rebuilt when the mirror changes; undefined while loading. */
export function useEmployeeDirectory(companyId: string): EmployeeDirectory | undefined {
  const { id: userId } = useCurrentUser();
  const rows = useCompanyMirror(companyId);
  const { locale } = useIntl();
  const key = `${userId}\n${companyId}\n${locale}`;
  const built = useMemo(() => {
    if (!rows) return undefined;
    const departments = [...rows.departments].sort((a, b) => a.name.localeCompare(b.name, locale));
    return { entries: buildEntries(rows.employees, departments, locale), departments };
  }, [rows, locale]);
  useEffect(() => {
    if (built) lastDirectory = { key, directory: built };
  }, [built, key]);
  return built ?? (lastDirectory?.key === key ? lastDirectory.directory : undefined);
}

export interface EmployeeList extends EmployeeDirectory {
  /** The entries that pass the filter. */
  visible: readonly EmployeeEntry[];
}

/** The directory and the entries passing `filter` (memoized on both). */
export function useEmployeeList(companyId: string, filter: EmployeeFilter): EmployeeList | undefined {
  const directory = useEmployeeDirectory(companyId);
  const { search, departmentId, state } = filter;
  return useMemo(() => {
    if (!directory) return undefined;
    return { ...directory, visible: filterEntries(directory.entries, { search, departmentId, state }) };
  }, [directory, search, departmentId, state]);
}

export interface EmployeeView {
  employee: EmployeeRow;
  fullName: string;
  department: DepartmentRow | null;
}

/** One employee of the company from the mirror; null when not there, undefined while loading. */
export function useEmployee(companyId: string, employeeId: string | null): EmployeeView | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    if (!employeeId) return null;
    const db = getAppDatabase();
    const stored = await db.employees.get([userId, employeeId]);
    const employee = stored ? checkRows(EmployeeRowCheck, [stored], 'employees').rows[0] : undefined;
    if (!employee || employee.companyId !== companyId) return null;
    const storedDepartment = employee.departmentId ? await db.departments.get([userId, employee.departmentId]) : undefined;
    const department = storedDepartment ? (checkRows(DepartmentRow, [storedDepartment], 'departments').rows[0] ?? null) : null;
    return { employee, fullName: fullNameOf(employee), department };
  }, [userId, companyId, employeeId]);
}

/** The company's departments from the mirror, by name; undefined while loading. */
export function useDepartmentOptions(companyId: string): { id: string; title: string }[] | undefined {
  const { id: userId } = useCurrentUser();
  const { locale } = useIntl();
  return useLiveQuery(async () => {
    const stored = await getAppDatabase().departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray();
    return checkRows(DepartmentRow, stored, 'departments')
      .rows.map((row) => ({ id: row.id, title: row.name }))
      .sort((a, b) => a.title.localeCompare(b.title, locale));
  }, [userId, companyId, locale]);
}

/* Failures -------------------------------------------------------------------------------------- */



/* Writes ------------------------------------------------------------------------------------------ */

function usePeopleContext(): PeopleContext {
  const { id: ownerUserId } = useCurrentUser();
  return useMemo(() => ({ db: getAppDatabase(), http, ownerUserId }), [ownerUserId]);
}

export interface EmployeeWrites {
  /** Creates the employee; a `FormError` carries the server's refusal. */
  create(input: EmployeeInput): Promise<EmployeeRow>;
  update(employeeId: string, patch: EmployeePatch): Promise<EmployeeRow>;
}

export function useEmployeeWrites(companyId: string): EmployeeWrites {
  const context = usePeopleContext();
  return useMemo(
    () => ({
      async create(input) {
        try {
          return await createEmployee(context, companyId, input);
        } catch (error) {
          throw toFormError(error);
        }
      },
      async update(employeeId, patch) {
        try {
          return await updateEmployee(context, companyId, employeeId, patch);
        } catch (error) {
          throw toFormError(error);
        }
      },
    }),
    [context, companyId],
  );
}

export interface InvitationActions {
  invite(input: InvitationInput): Promise<Invitation>;
  resend(invitationId: string): Promise<Invitation>;
  revoke(invitation: Pick<Invitation, 'id' | 'employeeId'>): Promise<void>;
  /** The pending invitation of an employee, asked of the server (online only); null when there is none. */
  findPending(employeeId: string): Promise<Invitation | null>;
}

/** Invitation calls; failures are thrown as they come (show them with `failureMessage`). */
export function useInvitationActions(companyId: string): InvitationActions {
  const context = usePeopleContext();
  return useMemo(
    () => ({
      invite: (input) => createInvitation(context, companyId, input),
      resend: (invitationId) => resendInvitation(context, companyId, invitationId),
      revoke: (invitation) => revokeInvitation(context, companyId, invitation),
      findPending: async (employeeId) => (await listInvitations(context.http, companyId)).find((invitation) => invitation.employeeId === employeeId) ?? null,
    }),
    [context, companyId],
  );
}

export type PendingInvitations =
  | { status: 'loading' }
  | { status: 'offline' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; invitations: Invitation[] };

/**
 * The company's pending invitations, asked of the server (they are not mirrored): loaded when `enabled`,
 * again when the connection returns and on `reload()`.
 */
export function usePendingInvitations(companyId: string, enabled: boolean): { state: PendingInvitations; reload: () => void } {
  const intl = useIntl();
  const connectivity = useConnectivity();
  const [state, setState] = useState<PendingInvitations>({ status: 'loading' });
  const [round, setRound] = useState(0);
  const isOffline = connectivity === 'offline';

  useEffect(() => {
    if (!enabled) return;
    if (isOffline) {
      setState({ status: 'offline' });
      return;
    }
    let isCurrent = true;
    setState((current) => (current.status === 'ready' ? current : { status: 'loading' }));
    listInvitations(http, companyId).then(
      (invitations) => {
        if (isCurrent) setState({ status: 'ready', invitations });
      },
      (error: unknown) => {
        if (!isCurrent) return;
        if (error instanceof HttpError && error.status === 0) setState({ status: 'offline' });
        else setState({ status: 'failed', message: failureMessage(intl, error) });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [companyId, enabled, isOffline, round, intl]);

  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { state, reload };
}

export { failureMessage, toFormError };
