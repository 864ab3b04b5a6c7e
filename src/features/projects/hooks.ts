// What the project screens read. Reads go through `useLiveQuery` over the device's mirror only (they work
// offline); stored rows are checked with their structs before use.
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { Goal } from '../../domain/goal';
import type { MemberView } from '../../domain/permissions';
import { Project } from '../../domain/project';
import { Suggestion } from '../../domain/suggestion';
import { Unit } from '../../domain/user';
import { useAppConfig, useCurrentUser } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { checkRows } from '../../lib/db/rows';
import { afterEnqueue } from '../../lib/offline';
import { StorageQuotaError } from '../../lib/outbox/outbox';
import { FormError } from '../../ui/form';
import type { ProjectFormOptions } from './components/project-form';
import { ProjectRefusedError, createProject, editProject, employeeName, type ProjectDraft, type ProjectPhotoInput } from './store';

/** The proposal a new project is made from, as the project form shows it. */
export interface CarriedSuggestion {
  id: string;
  title: string;
  problem: string;
  authorName: string;
  photoCount: number;
  isApproved: boolean;
}

/**
 * The proposal `suggestionId` of the company from the mirror; null when it is not on the device (or belongs to
 * another company), undefined while loading.
 */
export function useCarriedSuggestion(companyId: string, suggestionId: string | null): CarriedSuggestion | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    if (suggestionId === null || suggestionId === '') return null;
    const stored = await getAppDatabase().suggestions.get([userId, suggestionId]);
    const suggestion = stored ? checkRows(Suggestion, [stored], 'suggestions').rows[0] : undefined;
    if (!suggestion || suggestion.companyId !== companyId) return null;
    return {
      id: suggestion.id,
      title: suggestion.title,
      problem: suggestion.problem,
      authorName: suggestion.authorName,
      photoCount: suggestion.images.length,
      isApproved: suggestion.status === 'APPROVED',
    };
  }, [userId, companyId, suggestionId]);
}

// ---------------------------------------------------------------------------------------------------
// The project form (create and edit): what it offers, the project it edits, and the writes through the outbox.

/** A goal's one-line title: "Direction — scope". */
function goalTitle(goal: Goal): string {
  return [goal.direction, goal.scope]
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(' — ');
}

export interface ProjectFormData extends ProjectFormOptions {
  /** The signed-in user's own employee record in the company (the default project manager), null when none. */
  ownEmployeeId: string | null;
}

/**
 * What the project form offers, from the mirror: the company's active employees (with service numbers), its
 * goals and the indicator units (the session's units when the device has not stored them). Undefined while loading.
 */
export function useProjectFormData(companyId: string): ProjectFormData | undefined {
  const { id: userId } = useCurrentUser();
  const config = useAppConfig();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const [storedEmployees, storedGoals, storedUnits] = await Promise.all([
      db.employees.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.goals.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.units.where('ownerUserId').equals(userId).toArray(),
    ]);
    const active = checkRows(EmployeeRowCheck, storedEmployees, 'employees').rows.filter((row) => row.active);
    const employees = active.map((row) => ({ id: row.id, title: employeeName(row), serviceNumber: row.serviceNumber })).sort((a, b) => a.title.localeCompare(b.title));
    const goals = checkRows(Goal, storedGoals, 'goals')
      .rows.map((goal) => ({ id: goal.id, title: goalTitle(goal) }))
      .sort((a, b) => a.title.localeCompare(b.title));
    const stored = checkRows(Unit, storedUnits, 'units').rows;
    const units = (stored.length > 0 ? stored : config.units).filter((unit) => unit.type === 'BASE_INDICATOR').map((unit) => ({ id: unit.id, title: unit.title }));
    const own = active.find((row) => row.userId === userId);
    return { employees, goals, units, ownEmployeeId: own?.id ?? null };
  }, [userId, companyId, config.units]);
}

/** The project `projectId` of the company from the mirror; null when it is not on the device, undefined while loading. */
export function useLocalProject(companyId: string, projectId: string | null): Project | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    if (projectId === null || projectId === '') return null;
    const stored = await getAppDatabase().projects.get([userId, projectId]);
    const project = stored ? checkRows(Project, [stored], 'projects').rows[0] : undefined;
    return project && project.companyId === companyId ? project : null;
  }, [userId, companyId, projectId]);
}

/** The draft the form edits, from a project (the store's, which the payments' PATCH builds on too). */
export { draftOfProject } from './store';

export interface ProjectFormActions {
  create: (draft: ProjectDraft, photos: ProjectPhotoInput[], suggestionId: string | null) => Promise<string>;
  edit: (projectId: string, draft: ProjectDraft) => Promise<void>;
}

/** The field names of the form a store field error stands beside. */
const FORM_FIELD_OF: Readonly<Record<string, string>> = {
  'baselineMetric.value': 'baselineValue',
  'baselineMetric.unitId': 'baselineUnitId',
  'targetMetric.value': 'targetValue',
  'targetMetric.unitId': 'targetUnitId',
  profitBasisPoints: 'profitPercent',
  maxPerProjectMinor: 'maxPerProject',
};

/**
 * Creating and editing projects through the outbox (they work offline; the replayer sends them). A refusal on the
 * device throws a `FormError` the form shows: field errors beside the fields, the rest in the error dialog.
 */
export function useProjectFormActions(companyId: string, member: MemberView | undefined): ProjectFormActions {
  const user = useCurrentUser();
  const intl = useIntl();
  return useMemo(() => {
    const explain = (error: unknown): never => {
      if (error instanceof StorageQuotaError) {
        throw new FormError({
          message: intl.formatMessage({ id: 'projects.error.quota', defaultMessage: 'The device has no storage left, so nothing was saved. Free some space and try again.' }),
        });
      }
      if (!(error instanceof ProjectRefusedError)) throw error;
      switch (error.reason) {
        case 'missing':
          throw new FormError({ message: intl.formatMessage({ id: 'projects.error.missing', defaultMessage: 'This project or its proposal is not on this device.' }) });
        case 'notAllowed':
          throw new FormError({ message: intl.formatMessage({ id: 'projects.error.notAllowed', defaultMessage: 'You may not create or edit this project.' }) });
        case 'notApproved':
          throw new FormError({ message: intl.formatMessage({ id: 'projects.error.notApproved', defaultMessage: 'Only an approved proposal becomes a project.' }) });
        case 'taken':
          throw new FormError({ message: intl.formatMessage({ id: 'projects.error.taken', defaultMessage: 'This proposal is already a project.' }) });
        case 'notEditable':
        case 'wrongState':
          throw new FormError({
            message: intl.formatMessage({ id: 'projects.error.notEditable', defaultMessage: 'The project has moved on (sent for calculation or further) and can no longer be edited here.' }),
          });
        case 'invalid': {
          const fieldErrors: Record<string, string> = {};
          for (const [field, code] of Object.entries(error.fieldErrors)) {
            fieldErrors[FORM_FIELD_OF[field] ?? field] =
              code === 'notFound'
                ? intl.formatMessage({ id: 'projects.error.notFound', defaultMessage: 'Choose an active employee or goal of this company.' })
                : code === 'duplicate'
                  ? intl.formatMessage({ id: 'projects.form.memberTwice', defaultMessage: 'This employee is already in the team.' })
                  : intl.formatMessage({ id: 'error.validation.fallback', defaultMessage: 'Field is invalid' });
          }
          throw new FormError({ fieldErrors });
        }
      }
    };
    const context = () => {
      if (!member) throw new FormError({ message: intl.formatMessage({ id: 'projects.error.loading', defaultMessage: 'The company is still loading on this device. Try again in a moment.' }) });
      return { db: getAppDatabase(), actor: { id: user.id, fullName: user.fullName }, member, afterWrite: afterEnqueue };
    };
    return {
      create: (draft, photos, suggestionId) => Promise.resolve().then(() => createProject(context(), companyId, draft, { photos, suggestionId })).catch(explain),
      edit: (projectId, draft) => Promise.resolve().then(() => editProject(context(), companyId, projectId, draft)).catch(explain),
    };
  }, [companyId, intl, member, user.fullName, user.id]);
}
