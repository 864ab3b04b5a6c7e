// What the project page and its decision pages read and do. Reads go through `useLiveQuery` over the device's
// mirror only (they work offline), reading just the rows the page names (the project, its departments, the few
// employees and goals it refers to), so a company of 10,000 employees costs nothing here; stored rows are checked
// with their structs before use. Writes go through transition-store.ts; its refusals come back as a `FormError`
// in the user's language.
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { Goal } from '../../../domain/goal';
import type { Payment } from '../../../domain/money';
import type { MemberView } from '../../../domain/permissions';
import { Project, type ProjectCompleteInput, type ProjectIndicatorInput, type ProjectTransitionInput } from '../../../domain/project';
import { DepartmentRow, type EmployeeRow } from '../../../domain/suggestion';
import { useCurrentUser } from '../../../lib/app-state';
import { getAppDatabase, type OutboxStatus } from '../../../lib/db/database';
import { EmployeeRowCheck } from '../../../lib/db/employee-rows';
import { checkRows } from '../../../lib/db/rows';
import { afterEnqueue } from '../../../lib/offline';
import { unsentStateOf } from '../../../lib/outbox/entity-state';
import { StorageQuotaError, entityKeyOf } from '../../../lib/outbox/outbox';
import { FormError } from '../../../ui/form';
import {
  completeProject,
  reportProjectIndicator,
  saveProjectPayments,
  transitionProject,
  type ProjectActionContext,
} from '../transition-store';
import { ProjectRefusedError } from '../refusal';

export interface ProjectView {
  project: Project;
  /** The state of its most troubled unsent change, null when the server has it all. */
  unsent: OutboxStatus | null;
}

/** One project with its unsent state; null when not on the device (or of another company), undefined while loading. */
export function useProjectView(companyId: string, projectId: string): ProjectView | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const stored = await db.projects.get([userId, projectId]);
    const project = stored ? checkRows(Project, [stored], 'projects').rows[0] : undefined;
    if (!project || project.companyId !== companyId) return null;
    return { project, unsent: await unsentStateOf(db, userId, entityKeyOf('projects', projectId)) };
  }, [userId, companyId, projectId]);
}

export interface ProjectSurroundings {
  /** The company's departments (for the project's department name). */
  departments: DepartmentRow[];
  /** The employees the project names (manager, business customer, team), by employee id, when on the device. */
  employees: Map<string, EmployeeRow>;
  /** The project's goals on the device, by id. */
  goals: Map<string, Goal>;
}

/** What the project page names besides the project; undefined while loading. */
export function useProjectSurroundings(companyId: string, project: Project | null | undefined): ProjectSurroundings | undefined {
  const { id: userId } = useCurrentUser();
  const employeeIds = useMemo(
    () => (project ? [...new Set([project.projectManagerEmployeeId, project.businessCustomerEmployeeId, ...project.team.map((member) => member.employeeId)])] : []),
    [project],
  );
  const goalIds = project?.goalIds;
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const [departments, employees, goals] = await Promise.all([
      db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.employees.bulkGet(employeeIds.filter((id): id is string => typeof id === 'string').map((id) => [userId, id])),
      db.goals.bulkGet((goalIds ?? []).map((id) => [userId, id])),
    ]);
    const checkedEmployees = checkRows(EmployeeRowCheck, employees.filter((row) => row !== undefined), 'employees').rows.filter((row) => row.companyId === companyId);
    const checkedGoals = checkRows(Goal, goals.filter((row) => row !== undefined), 'goals').rows.filter((row) => row.companyId === companyId);
    return {
      departments: checkRows(DepartmentRow, departments, 'departments').rows,
      employees: new Map(checkedEmployees.map((row) => [row.id, row])),
      goals: new Map(checkedGoals.map((row) => [row.id, row])),
    };
  }, [userId, companyId, employeeIds, goalIds]);
}

export interface ProjectActions {
  transition: (projectId: string, input: ProjectTransitionInput, member: MemberView) => Promise<Project>;
  complete: (projectId: string, input: ProjectCompleteInput, member: MemberView) => Promise<Project>;
  report: (projectId: string, input: ProjectIndicatorInput, member: MemberView) => Promise<Project>;
  savePayments: (projectId: string, payments: readonly Payment[], member: MemberView) => Promise<Project>;
}

/**
 * The decisions, through the outbox (they work offline; the replayer sends them). A refusal on the device throws a
 * `FormError` the form shows: field errors beside the fields, the rest in the error dialog.
 */
export function useProjectActions(companyId: string): ProjectActions {
  const user = useCurrentUser();
  const intl = useIntl();
  return useMemo(() => {
    const context = (member: MemberView): ProjectActionContext => ({
      db: getAppDatabase(),
      actor: { id: user.id, fullName: user.fullName },
      member,
      afterWrite: afterEnqueue,
    });
    const fieldMessage = (field: string, code: string): string => {
      if (code === 'required') return intl.formatMessage({ id: 'projects.decision.required', defaultMessage: 'Fill this in.' });
      if (code === 'future') return intl.formatMessage({ id: 'projects.decision.future', defaultMessage: 'The date cannot be in the future.' });
      if (code === 'belowPayments') {
        return intl.formatMessage({ id: 'projects.decision.belowPayments', defaultMessage: 'With this effect the remuneration is below the payments already set.' });
      }
      if (code === 'exceedsRemuneration') return intl.formatMessage({ id: 'projects.payments.exceeds', defaultMessage: 'The payments add up to more than the remuneration.' });
      if (field === 'payments') return intl.formatMessage({ id: 'projects.payments.invalid', defaultMessage: 'Check the payments: each person once, amounts of at least zero.' });
      return intl.formatMessage({ id: 'error.validation.fallback', defaultMessage: 'Field is invalid' });
    };
    const explain = (error: unknown): never => {
      if (error instanceof StorageQuotaError) {
        throw new FormError({
          message: intl.formatMessage({ id: 'projects.decision.quota', defaultMessage: 'The device has no storage left, so nothing was saved. Free some space and try again.' }),
        });
      }
      if (!(error instanceof ProjectRefusedError)) throw error;
      switch (error.reason) {
        case 'missing':
          throw new FormError({ message: intl.formatMessage({ id: 'projects.decision.missing', defaultMessage: 'This project is not on this device.' }) });
        case 'notAllowed':
          throw new FormError({ message: intl.formatMessage({ id: 'projects.decision.notAllowed', defaultMessage: 'You may not do this with this project.' }) });
        case 'wrongState':
        case 'notEditable':
        case 'notApproved':
        case 'taken':
          throw new FormError({
            message: intl.formatMessage({ id: 'projects.decision.wrongState', defaultMessage: 'The project is no longer waiting for this: it has changed meanwhile.' }),
          });
        case 'invalid': {
          const fieldErrors: Record<string, string> = {};
          for (const [field, code] of Object.entries(error.fieldErrors)) fieldErrors[field] = fieldMessage(field, code);
          throw new FormError({ fieldErrors });
        }
      }
    };
    return {
      transition: (projectId, input, member) => transitionProject(context(member), companyId, projectId, input).catch(explain),
      complete: (projectId, input, member) => completeProject(context(member), companyId, projectId, input).catch(explain),
      report: (projectId, input, member) => reportProjectIndicator(context(member), companyId, projectId, input).catch(explain),
      savePayments: (projectId, payments, member) => saveProjectPayments(context(member), companyId, projectId, payments).catch(explain),
    };
  }, [companyId, intl, user.fullName, user.id]);
}
