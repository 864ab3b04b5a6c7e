// What the proposal screens read and do. Reads go through `useLiveQuery` over the device's mirror only, so
// every screen works offline; stored rows are checked with their structs (rows.ts) before use. Writes go
// through store.ts (submitting) and review-store.ts (deciding, distributing, the author's resend); their
// refusals come back as a `FormError` in the user's language.
import { Goal } from '../../domain/goal';
import { Project } from '../../domain/project';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useMemo } from 'react';
import { useIntl } from 'react-intl';
import Dexie from 'dexie';
import { employeeStateOf, missingForStart, type StartRequirement } from '../../domain/company';
import type { MemberView } from '../../domain/permissions';
import {
  DepartmentRow,
  Suggestion,
  type EmployeeRow,
  type SuggestionDistributeInput,
  type SuggestionReviewInput,
  type SuggestionRevisionInput,
} from '../../domain/suggestion';
import { EmployeeRowCheck } from '../../lib/db/employee-rows';
import { useCurrentUser } from '../../lib/app-state';
import { getAppDatabase, type OutboxRow, type OutboxStatus } from '../../lib/db/database';
import { MIRROR_ROW_STRUCTS, StoredOutboxRow, checkRows, isStoredFile } from '../../lib/db/rows';
import { afterEnqueue } from '../../lib/offline';
import { knownPersistentStorage } from '../../lib/outbox/durability';
import { unsentRowsByKey } from '../../lib/outbox/entity-state';
import { StorageQuotaError, entityKeyOf } from '../../lib/outbox/outbox';
import { FormError } from '../../ui/form';
import { activeMembersByUser } from './people';
import type { ReviewContext, ReviewRefusedError } from './review-store';
import { SUGGESTION_CREATE_KIND } from './kind-names';
import type { PhotoInput, SubmitResult, SuggestionDraft } from './store';

export interface SuggestionItem {
  suggestion: Suggestion;
  /** The state of its unsent change, null when the server has it all. */
  unsent: OutboxStatus | null;
}

export interface LocalPhoto {
  id: string;
  name: string;
  type: string;
  data: ArrayBuffer;
}

export interface SuggestionView extends SuggestionItem {
  /** Photos still on the device, waiting to be uploaded with the proposal. */
  localPhotos: LocalPhoto[];
  /** The unsent row (for "edit and resend"). */
  outboxRow: OutboxRow | null;
}

/** The signed-in user's proposals in a company, newest first, unsent ones marked. Undefined while loading. */
export function useMySuggestions(companyId: string): SuggestionItem[] | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const stored = await db.suggestions.where('[ownerUserId+companyId+authorId]').equals([userId, companyId, userId]).toArray();
    const rows = checkRows(Suggestion, stored, 'suggestions').rows;
    const unsent = await unsentRowsByKey(db, userId, rows.map((row) => entityKeyOf('suggestions', row.id)));
    return rows
      .map((suggestion) => ({ suggestion, unsent: unsent.get(entityKeyOf('suggestions', suggestion.id))?.status ?? null }))
      .sort((a, b) => b.suggestion.submittedAt.localeCompare(a.suggestion.submittedAt));
  }, [userId, companyId]);
}

/** One proposal with its unsent state and device photos; null when not on the device, undefined while loading. */
export function useSuggestion(companyId: string, suggestionId: string): SuggestionView | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const stored = await db.suggestions.get([userId, suggestionId]);
    const suggestion = stored ? checkRows(Suggestion, [stored], 'suggestions').rows[0] : undefined;
    if (!suggestion || suggestion.companyId !== companyId) return null;
    const key = entityKeyOf('suggestions', suggestionId);
    const outboxRow = (await unsentRowsByKey(db, userId, [key])).get(key) ?? null;
    const localPhotos: LocalPhoto[] = [];
    for (const fileId of outboxRow?.fileIds ?? []) {
      const file = await db.files.get(fileId);
      if (isStoredFile(file) && file.ownerUserId === userId) localPhotos.push({ id: file.id, name: file.name, type: file.type, data: file.data });
    }
    return { suggestion, unsent: outboxRow?.status ?? null, localPhotos, outboxRow };
  }, [userId, companyId, suggestionId]);
}

/**
 * What the company still lacks before proposals are taken (the server refuses them with 409 until then), from
 * the mirror: the members who have joined (employee rows linked to a user, found by the [ownerUserId+userId]
 * index, so a company of 10,000 reads only its few members). Empty when nothing is missing, or when the
 * mirror holds no member of the company yet (never pulled: the server decides). Undefined while loading.
 */
export function useStartBlockers(companyId: string): StartRequirement[] | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const stored = await getAppDatabase()
      .employees.where('[ownerUserId+userId]')
      .between([userId, Dexie.minKey], [userId, Dexie.maxKey])
      .filter((row) => (row as { companyId?: unknown }).companyId === companyId)
      .toArray();
    const members = checkRows(EmployeeRowCheck, stored, 'employees').rows;
    if (members.length === 0) return [];
    return missingForStart(members.filter((row) => employeeStateOf(row) === 'active').map((row) => row.roles));
  }, [userId, companyId]);
}

export interface DepartmentOption {
  id: string;
  title: string;
}

/** The company's departments from the mirror, by name; undefined while loading. */
export function useDepartments(companyId: string): DepartmentOption[] | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const stored = await getAppDatabase().departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray();
    return checkRows(MIRROR_ROW_STRUCTS.departments, stored, 'departments')
      .rows.map((row) => row as unknown as { id: string; name: string })
      .map((row) => ({ id: row.id, title: row.name }))
      .sort((a, b) => a.title.localeCompare(b.title));
  }, [userId, companyId]);
}

/** The company's goals a proposal may serve (issue 12), from the mirror, by direction; undefined while loading. */
export function useGoalOptions(companyId: string): DepartmentOption[] | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const stored = await getAppDatabase().goals.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray();
    return checkRows(Goal, stored, 'goals')
      .rows.map((goal) => ({ id: goal.id, title: `${goal.direction}: ${goal.scope}` }))
      .sort((a, b) => a.title.localeCompare(b.title));
  }, [userId, companyId]);
}

/** What a proposal leads to (issue 12): the goal it serves and the project made of it, when on the device. */
export interface SuggestionLinks {
  goal: { id: string; title: string } | null;
  project: { id: string; name: string } | null;
}

/** The goal and the project of a proposal from the mirror; undefined while loading. */
export function useSuggestionLinks(companyId: string, suggestionId: string, goalId: string | null): SuggestionLinks | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const storedGoal = goalId === null ? undefined : await db.goals.get([userId, goalId]);
    const goal = storedGoal ? checkRows(Goal, [storedGoal], 'goals').rows[0] : undefined;
    const storedProjects = await db.projects.where('suggestionId').equals(suggestionId).toArray();
    const project = checkRows(Project, storedProjects.filter((row) => row.ownerUserId === userId), 'projects').rows.find((row) => row.companyId === companyId);
    return {
      goal: goal && goal.companyId === companyId ? { id: goal.id, title: `${goal.direction}: ${goal.scope}` } : null,
      project: project ? { id: project.id, name: project.name } : null,
    };
  }, [userId, companyId, suggestionId, goalId]);
}

/** The outbox row of an unsent proposal, for "edit and resend"; null when none, undefined while loading. */
export function useUnsentSuggestionRow(outboxId: string | null): OutboxRow | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    if (!outboxId) return null;
    const stored = await getAppDatabase().outbox.where('id').equals(outboxId).first();
    const row = stored ? checkRows(StoredOutboxRow, [stored], 'outbox').rows[0] : undefined;
    return row && row.ownerUserId === userId && row.kind === SUGGESTION_CREATE_KIND ? row : null;
  }, [userId, outboxId]);
}

/**
 * Submit (or, with an outbox id, edit and resend); quota errors become a message the form shows. The store is
 * loaded on submit, not with the form (a failed load is an error the form shows, and the draft stays).
 */
export function useSubmitSuggestion(): (draft: SuggestionDraft, photos: readonly PhotoInput[], resendOf?: string | null) => Promise<SubmitResult> {
  const user = useCurrentUser();
  const intl = useIntl();
  return useCallback(
    async (draft, photos, resendOf) => {
      const db = getAppDatabase();
      try {
        const { resendSuggestion, submitSuggestion } = await import('./store');
        if (resendOf) {
          const row = await db.outbox.where('id').equals(resendOf).first();
          const done = await resendSuggestion(db, user.id, resendOf, draft, afterEnqueue);
          if (!done || !row) throw new FormError({ message: intl.formatMessage({ id: 'suggestions.resend.gone', defaultMessage: 'This proposal is no longer waiting to be sent.' }) });
          // The question was asked with the first submit; a refusal known by now is still worth the warning.
          const known = knownPersistentStorage();
          return {
            id: row.entityKey.slice('suggestions:'.length),
            isStoragePersistent: known !== false,
            storagePersistence: known === null ? 'unknown' : known ? 'granted' : 'refused',
          };
        }
        return await submitSuggestion(draft, photos, { db, author: { id: user.id, fullName: user.fullName }, afterWrite: afterEnqueue });
      } catch (error) {
        if (error instanceof StorageQuotaError) {
          throw new FormError({
            message: intl.formatMessage({
              id: 'suggestions.create.quota',
              defaultMessage: 'The device has no storage left, so the proposal was not saved. Your text is still here: free some space (or remove a photo) and try again.',
            }),
          });
        }
        throw error;
      }
    },
    [intl, user.fullName, user.id],
  );
}

export interface CompanyPeople {
  /** The company's departments, by name. */
  departments: DepartmentRow[];
  /** Its active members who have joined, by user id (heads, CEOs and owners are among them). */
  members: Map<string, EmployeeRow>;
}

export interface CompanyStructure extends CompanyPeople {
  /** Every employee of the company on the device (joined or not), by last name. */
  employees: EmployeeRow[];
}

function checkedDepartments(stored: readonly unknown[]): DepartmentRow[] {
  return checkRows(DepartmentRow, stored, 'departments').rows.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The company's departments and joined members from the mirror, for naming who holds a proposal: members are
 * read through the [ownerUserId+userId] index (rows without an account are not in it), so a company of 10,000
 * employees reads only its members. Undefined while loading.
 */
export function useCompanyPeople(companyId: string): CompanyPeople | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const [departments, joined] = await Promise.all([
      db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.employees
        .where('[ownerUserId+userId]')
        .between([userId, Dexie.minKey], [userId, Dexie.maxKey])
        .filter((row) => (row as { companyId?: unknown }).companyId === companyId)
        .toArray(),
    ]);
    return { departments: checkedDepartments(departments), members: activeMembersByUser(checkRows(EmployeeRowCheck, joined, 'employees').rows) };
  }, [userId, companyId]);
}

/** The company's whole structure (every employee, for the distribution screen). Undefined while loading. */
export function useCompanyStructure(companyId: string): CompanyStructure | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const [departments, stored] = await Promise.all([
      db.departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
      db.employees.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray(),
    ]);
    const employees = checkRows(EmployeeRowCheck, stored, 'employees')
      .rows.filter((row) => row.active)
      .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName));
    return { departments: checkedDepartments(departments), members: activeMembersByUser(employees), employees };
  }, [userId, companyId]);
}

export interface ReviewActions {
  review: (suggestionId: string, input: SuggestionReviewInput, member: MemberView) => Promise<void>;
  distribute: (suggestionId: string, input: SuggestionDistributeInput, member: MemberView) => Promise<void>;
  revise: (suggestionId: string, input: SuggestionRevisionInput) => Promise<void>;
}

/**
 * Deciding, distributing and resending, through the outbox (they work offline; the replayer sends them).
 * A refusal on the device throws a `FormError` the form shows: field errors beside the fields, the rest in
 * the error dialog.
 */
export function useReviewActions(companyId: string): ReviewActions {
  const user = useCurrentUser();
  const intl = useIntl();
  return useMemo(() => {
    const context = (member?: MemberView): ReviewContext => ({
      db: getAppDatabase(),
      actor: { id: user.id, fullName: user.fullName },
      ...(member ? { member } : {}),
      afterWrite: afterEnqueue,
    });
    // The review store is loaded when the user acts, not with every page that offers an action.
    const store = () => import('./review-store');
    const explain = (RefusedError: typeof ReviewRefusedError) => (error: unknown): never => {
      if (error instanceof StorageQuotaError) {
        throw new FormError({
          message: intl.formatMessage({
            id: 'suggestions.review.quota',
            defaultMessage: 'The device has no storage left, so nothing was saved. Free some space and try again.',
          }),
        });
      }
      if (!(error instanceof RefusedError)) throw error;
      switch (error.reason) {
        case 'missing':
          throw new FormError({ message: intl.formatMessage({ id: 'suggestions.review.missing', defaultMessage: 'This proposal is not on this device.' }) });
        case 'notAllowed':
          throw new FormError({ message: intl.formatMessage({ id: 'suggestions.review.notAllowed', defaultMessage: 'You may not do this with this proposal.' }) });
        case 'notOpen':
          throw new FormError({
            message: intl.formatMessage({ id: 'suggestions.review.notOpen', defaultMessage: 'This proposal is no longer waiting for this: it has changed meanwhile.' }),
          });
        case 'invalid': {
          const fieldErrors: Record<string, string> = {};
          for (const [field, code] of Object.entries(error.fieldErrors)) {
            fieldErrors[field] =
              field === 'departmentId' && code === 'same'
                ? intl.formatMessage({ id: 'suggestions.distribute.same', defaultMessage: 'The proposal is already in this department: choose another one.' })
                : field === 'comment' && code === 'required'
                  ? intl.formatMessage({ id: 'suggestions.review.commentRequired', defaultMessage: 'Write a few words: the author will read them.' })
                  : intl.formatMessage({ id: 'error.validation.fallback', defaultMessage: 'Field is invalid' });
          }
          throw new FormError({ fieldErrors });
        }
      }
    };
    return {
      review: (suggestionId, input, member) => store().then((loaded) => loaded.reviewSuggestion(context(member), companyId, suggestionId, input).catch(explain(loaded.ReviewRefusedError))),
      distribute: (suggestionId, input, member) =>
        store().then((loaded) => loaded.distributeSuggestion(context(member), companyId, suggestionId, input).catch(explain(loaded.ReviewRefusedError))),
      revise: (suggestionId, input) => store().then((loaded) => loaded.reviseSuggestion(context(), companyId, suggestionId, input).catch(explain(loaded.ReviewRefusedError))),
    };
  }, [companyId, intl, user.fullName, user.id]);
}
