// What the goal screens read and do. Reads go through `useLiveQuery` over the device's mirror only (goals,
// employees, units, proposals, projects, the outbox), so every screen works offline; stored rows are checked
// with their structs before use. Writes go through store.ts; its refusals come back as a `FormError` in the
// user's language.
import Dexie from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { Goal, type GoalActionInput, type GoalInput } from '../../domain/goal';
import { Project } from '../../domain/project';
import { Suggestion, type EmployeeRow } from '../../domain/suggestion';
import { Unit } from '../../domain/user';
import { useAppConfig, useCurrentUser } from '../../lib/app-state';
import { getAppDatabase, type OutboxStatus } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import { useMemberRoles } from '../../lib/member-view';
import { afterEnqueue } from '../../lib/offline';
import { unsentRowsByKey } from '../../lib/outbox/entity-state';
import { StorageQuotaError, entityKeyOf } from '../../lib/outbox/outbox';
import { FormError } from '../../ui/form';
import { employeeNameOf } from './list';
import { GoalRefusedError, actOnGoal, createGoal, editGoal, type GoalContext } from './store';

export interface GoalItem {
  goal: Goal;
  /** The state of its unsent change, null when the server has it all. */
  unsent: OutboxStatus | null;
}

export interface CompanyGoals {
  items: GoalItem[];
  /** The business customers of these goals that the device knows, by employee id. */
  customers: Map<string, EmployeeRow>;
}

/** Every goal of the company on the device, with its unsent state and business customer. Undefined while loading. */
export function useCompanyGoals(companyId: string): CompanyGoals | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const stored = await db.goals.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray();
    const goals = checkRows(Goal, stored, 'goals').rows;
    const unsent = await unsentRowsByKey(db, userId, goals.map((goal) => entityKeyOf('goals', goal.id)));
    const customerIds = [...new Set(goals.map((goal) => goal.businessCustomerEmployeeId))];
    const found = await db.employees.bulkGet(customerIds.map((id) => [userId, id] as [string, string]));
    const customers = new Map(checkRows(EmployeeRowCheck, found.filter((row) => row !== undefined), 'employees').rows.map((row) => [row.id, row]));
    return {
      items: goals.map((goal) => ({ goal, unsent: unsent.get(entityKeyOf('goals', goal.id))?.status ?? null })),
      customers,
    };
  }, [userId, companyId]);
}

export interface GoalView extends GoalItem {
  /** Its business customer, when the device knows them. */
  customer: EmployeeRow | null;
  /** Proposals made for this goal. */
  suggestions: Suggestion[];
  /** Projects that serve it. */
  projects: Project[];
}

/** One goal with what hangs on it; null when not on the device, undefined while loading. */
export function useGoal(companyId: string, goalId: string): GoalView | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const stored = await db.goals.get([userId, goalId]);
    const goal = stored ? checkRows(Goal, [stored], 'goals').rows[0] : undefined;
    if (!goal || goal.companyId !== companyId) return null;
    const key = entityKeyOf('goals', goalId);
    const [unsent, customerRow, suggestionRows, projectRows] = await Promise.all([
      unsentRowsByKey(db, userId, [key]),
      db.employees.get([userId, goal.businessCustomerEmployeeId]),
      db.suggestions
        .where('[ownerUserId+companyId+goalId+dueAt]')
        .between([userId, companyId, goalId, Dexie.minKey], [userId, companyId, goalId, Dexie.maxKey])
        .toArray(),
      db.projects
        .where('goalIds')
        .equals(goalId)
        .filter((row) => row.ownerUserId === userId && row.companyId === companyId)
        .toArray(),
    ]);
    const customer = customerRow ? (checkRows(EmployeeRowCheck, [customerRow], 'employees').rows[0] ?? null) : null;
    return {
      goal,
      unsent: unsent.get(key)?.status ?? null,
      customer,
      suggestions: checkRows(Suggestion, suggestionRows, 'suggestions').rows.sort((a, b) => b.submittedAt.localeCompare(a.submittedAt)),
      projects: checkRows(Project, projectRows, 'projects').rows.sort((a, b) => a.name.localeCompare(b.name)),
    };
  }, [userId, companyId, goalId]);
}

export interface Option {
  id: string;
  title: string;
}

export interface GoalFormData {
  /** The company's active employees, by name: who may be the business customer. */
  employees: Option[];
  /** The units of a quantitative indicator (type BASE_INDICATOR). */
  units: Option[];
}

/**
 * What the goal form offers, from the mirror: the company's active employees and the indicator units (the
 * session's units when the device has not stored them yet). Undefined while loading.
 */
export function useGoalFormData(companyId: string): GoalFormData | undefined {
  const { id: userId } = useCurrentUser();
  const config = useAppConfig();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const [storedEmployees, storedUnits] = await Promise.all([
      db.employees.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.units.where('ownerUserId').equals(userId).toArray(),
    ]);
    const employees = checkRows(EmployeeRowCheck, storedEmployees, 'employees')
      .rows.filter((row) => row.active)
      .map((row) => ({ id: row.id, title: employeeNameOf(row) }))
      .sort((a, b) => a.title.localeCompare(b.title));
    const stored = checkRows(Unit, storedUnits, 'units').rows;
    const units = (stored.length > 0 ? stored : config.units).filter((unit) => unit.type === 'BASE_INDICATOR').map((unit) => ({ id: unit.id, title: unit.title }));
    return { employees, units };
  }, [userId, companyId, config.units]);
}

/** The names of the indicator units (id -> title), for showing a goal's indicator. */
export function useUnitTitles(): Map<string, string> | undefined {
  const { id: userId } = useCurrentUser();
  const config = useAppConfig();
  return useLiveQuery(async () => {
    const stored = checkRows(Unit, await getAppDatabase().units.where('ownerUserId').equals(userId).toArray(), 'units').rows;
    return new Map([...config.units, ...stored].map((unit) => [unit.id, unit.title]));
  }, [userId, config.units]);
}

export interface GoalActions {
  create: (input: GoalInput) => Promise<string>;
  edit: (goalId: string, input: GoalInput) => Promise<void>;
  act: (goalId: string, input: GoalActionInput) => Promise<void>;
}

/**
 * Setting, editing and acting on goals, through the outbox (they work offline; the replayer sends them). A
 * refusal on the device throws a `FormError` the form shows: field errors beside the fields, the rest in the
 * error dialog.
 */
export function useGoalActions(companyId: string): GoalActions {
  const user = useCurrentUser();
  const member = useMemberRoles(companyId);
  const intl = useIntl();
  return useMemo(() => {
    const context: GoalContext = { db: getAppDatabase(), actor: { id: user.id, fullName: user.fullName }, member, afterWrite: afterEnqueue };
    const explain = (error: unknown): never => {
      if (error instanceof StorageQuotaError) {
        throw new FormError({
          message: intl.formatMessage({ id: 'goals.error.quota', defaultMessage: 'The device has no storage left, so nothing was saved. Free some space and try again.' }),
        });
      }
      if (!(error instanceof GoalRefusedError)) throw error;
      switch (error.reason) {
        case 'missing':
          throw new FormError({ message: intl.formatMessage({ id: 'goals.error.missing', defaultMessage: 'This goal is not on this device.' }) });
        case 'notAllowed':
          throw new FormError({ message: intl.formatMessage({ id: 'goals.error.notAllowed', defaultMessage: 'You may not do this with this goal.' }) });
        case 'notOpen':
          throw new FormError({ message: intl.formatMessage({ id: 'goals.error.notOpen', defaultMessage: 'The goal has changed meanwhile and no longer waits for this.' }) });
        case 'invalid': {
          const fieldErrors: Record<string, string> = {};
          for (const [field, code] of Object.entries(error.fieldErrors)) {
            fieldErrors[field] =
              field === 'comment' && code === 'required'
                ? intl.formatMessage({ id: 'goals.action.commentRequired', defaultMessage: 'Write what needs clarifying: the owner will read it.' })
                : field === 'businessCustomerEmployeeId'
                  ? intl.formatMessage({ id: 'goals.error.customer', defaultMessage: 'Choose an active employee of this company.' })
                  : intl.formatMessage({ id: 'error.validation.fallback', defaultMessage: 'Field is invalid' });
          }
          throw new FormError({ fieldErrors });
        }
      }
    };
    return {
      create: (input) => createGoal(context, companyId, input).catch(explain),
      edit: (goalId, input) => editGoal(context, companyId, goalId, input).catch(explain),
      act: (goalId, input) => actOnGoal(context, companyId, goalId, input).catch(explain),
    };
  }, [companyId, intl, member, user.fullName, user.id]);
}
