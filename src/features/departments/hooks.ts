// What the departments screen reads and does. Reads: the company's departments and employees from the
// device's mirror (`useLiveQuery`, checked with their structs), so the list and the structure work offline;
// the people counts and heads are worked out here from the mirrored employees. Writes are online-only and go
// through store.ts; failures reach the screen as `FormError` (forms) or as a message to show (buttons).
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import type { DepartmentInput, DepartmentPatch } from '../../domain/company';
import { canManagePeople } from '../../domain/permissions';
import { DepartmentRow } from '../../domain/suggestion';
import { http } from '../../lib/api';
import { useCurrentUser } from '../../lib/app-state';
import { useConnectivity } from '../../lib/connectivity';
import { getAppDatabase } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import { failureMessage, toFormError } from '../../lib/request-errors';
import { buildStructure, type DepartmentsOverview } from './structure';
import { createDepartment, deleteDepartment, updateDepartment, type DepartmentsContext } from './store';

/** HR, OWNER and CEO manage departments. */
export function useCanManageDepartments(companyId: string): boolean {
  const user = useCurrentUser();
  return canManagePeople(user.companies?.find((company) => company.id === companyId)?.roles ?? []);
}

/** False only when the main-service is known to be out of reach; writes are refused then. */
export function useIsOnline(): boolean {
  return useConnectivity() !== 'offline';
}

/** The departments with their heads and people, and the people who may head one; undefined while loading. */
export function useDepartmentsOverview(companyId: string): DepartmentsOverview | undefined {
  const { id: userId } = useCurrentUser();
  const { locale } = useIntl();
  const rows = useLiveQuery(async () => {
    const db = getAppDatabase();
    const [departments, employees] = await Promise.all([
      db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.employees.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
    ]);
    return {
      departments: checkRows(DepartmentRow, departments, 'departments').rows,
      employees: checkRows(EmployeeRowCheck, employees, 'employees').rows,
    };
  }, [userId, companyId]);
  return useMemo(() => (rows ? buildStructure(rows.departments, rows.employees, locale) : undefined), [rows, locale]);
}



export interface DepartmentWrites {
  /** Creates a department; a `FormError` carries the server's refusal. */
  create(input: DepartmentInput): Promise<DepartmentRow>;
  /** Renames it and/or sets its head; a `FormError` carries the server's refusal. */
  update(departmentId: string, patch: DepartmentPatch): Promise<DepartmentRow>;
  /** Deletes it; failures are thrown as they come (show them with `failureMessage`). */
  remove(departmentId: string): Promise<void>;
}

export function useDepartmentWrites(companyId: string): DepartmentWrites {
  const { id: ownerUserId } = useCurrentUser();
  return useMemo(() => {
    const context: DepartmentsContext = { db: getAppDatabase(), http, ownerUserId };
    return {
      async create(input) {
        try {
          return await createDepartment(context, companyId, input);
        } catch (error) {
          throw toFormError(error);
        }
      },
      async update(departmentId, patch) {
        try {
          return await updateDepartment(context, companyId, departmentId, patch);
        } catch (error) {
          throw toFormError(error);
        }
      },
      remove: (departmentId) => deleteDepartment(context, companyId, departmentId),
    };
  }, [ownerUserId, companyId]);
}

export { failureMessage, toFormError };
