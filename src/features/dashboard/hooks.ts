// What the dashboard shows: the signed-in user and the titles of their role and position from the app config
// (both loaded by the default layout before any page renders), and the setup checklist of the current company,
// worked out from the device's mirror (employees, departments, the company row) so it shows offline too.
// Inviting a leader from the checklist is online-only and goes through store.ts.

import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import type { Invitation, InvitationInput } from '../../domain/company';
import { paths } from '../../domain/paths';
import { CompanyRow } from '../../domain/suggestion';
import { http } from '../../lib/api';
import { HttpError } from '../../lib/http';
import { FormError } from '../../ui/form';
import { useConnectivity } from '../../lib/connectivity';
import { useCurrentCompany, type CompanyMembership } from '../../lib/current-company';
import { getAppDatabase } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import { useLocale } from '../../lib/intl';
import { useAppConfig, useCurrentUser } from '../../lib/app-state';
import { hasAuthority, type EnumOption } from '../../domain/user';
import { canManagePeople } from '../../domain/permissions';
import { computeSetup, type PendingLeader, type SetupState } from './setup';
import { inviteLeader, listPendingInvitations } from './store';

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
  const { locale } = useLocale();
  const name = locale === 'ru' && user.middleName ? `${user.firstName} ${user.middleName}` : user.firstName || user.fullName;
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
 * checklist then only lacks the names of who was invited.
 */
function usePendingLeaders(companyId: string | null, enabled: boolean): { pending: readonly PendingLeader[]; reload: () => void } {
  const isOffline = useConnectivity() === 'offline';
  const [loaded, setLoaded] = useState<{ companyId: string; pending: PendingLeader[] } | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!enabled || companyId === null || isOffline) return;
    let isCurrent = true;
    listPendingInvitations(http, companyId).then(
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
    const [employees, departmentCount, companyRow] = await Promise.all([
      db.employees.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).count(),
      db.companies.get([userId, companyId]),
    ]);
    return {
      companyId,
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
    // A switch of company shows nothing until the new company's rows are read, never the old ones.
    if (!rows || rows.companyId !== company.id) return undefined;
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

/** Invites a person to a leading role of the company; a refusal (403, 409, field errors) comes as a `FormError`. */
export function useInviteLeader(companyId: string): (input: InvitationInput) => Promise<Invitation> {
  const { id: ownerUserId } = useCurrentUser();
  return useCallback(
    async (input: InvitationInput) => {
      try {
        return await inviteLeader({ db: getAppDatabase(), http, ownerUserId }, companyId, input);
      } catch (error) {
        if (error instanceof HttpError) {
          if (error.status === 0) throw new FormError({ isOffline: true });
          throw new FormError({ message: error.body?.message, fieldErrors: error.body?.errors ?? {} });
        }
        throw error;
      }
    },
    [companyId, ownerUserId],
  );
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
