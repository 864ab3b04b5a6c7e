// What the departments screen reads and does. Reads: the company's departments and employees from the
// device's mirror (`useLiveQuery`, checked with their structs), so the list and the structure work offline;
// the people counts and heads are worked out here from the mirrored employees. Writes are online-only and go
// through store.ts; failures reach the screen as `FormError` (forms) or as a message to show (buttons).
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { DepartmentInput, DepartmentPatch } from '../../domain/company';
import { canManagePeople } from '../../domain/permissions';
import { DepartmentRow } from '../../domain/suggestion';
import { http } from '../../lib/api';
import { useCurrentUser } from '../../lib/app-state';
import { useConnectivity } from '../../lib/connectivity';
import { getAppDatabase } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import { HttpError } from '../../lib/http';
import { FormError } from '../../ui/form';
import { buildStructure, type DepartmentsOverview } from './structure';
import { UnexpectedDepartmentAnswerError, createDepartment, deleteDepartment, updateDepartment, type DepartmentsContext } from './store';

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

/** A failed write as a form shows it: offline, field errors beside the fields, the rest in the dialog. */
export function toFormError(error: unknown): Error {
  if (error instanceof FormError) return error;
  if (error instanceof HttpError) {
    if (error.status === 0) return new FormError({ isOffline: true });
    return new FormError({ message: error.body?.message, fieldErrors: error.body?.errors ?? {} });
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** A failed action as a sentence in the user's language (the server's message when it sent one). */
export function failureMessage(intl: IntlShape, error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === 0) return intl.formatMessage({ id: 'people.error.offline', defaultMessage: 'The server cannot be reached. Check the connection and try again.' });
    const parts = [error.body?.message ?? '', ...Object.values(error.body?.errors ?? {})].filter((part) => part !== '');
    if (parts.length > 0) return parts.join(' ');
  }
  if (error instanceof UnexpectedDepartmentAnswerError) {
    return intl.formatMessage({ id: 'people.error.unexpectedAnswer', defaultMessage: 'The change was sent, but the answer could not be read. It will appear after the next sync.' });
  }
  console.error(error);
  return intl.formatMessage({ id: 'people.error.unknown', defaultMessage: 'Something went wrong. Try again.' });
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
