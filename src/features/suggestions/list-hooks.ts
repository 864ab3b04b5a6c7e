// What the review list reads: live queries over the device's mirror only (so the list works offline), built
// on list.ts. The ids of the whole list are index keys; rows are read only for the window on screen.
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import type { MemberView } from '../../domain/permissions';
import { optional, string, type } from 'superstruct';
import { DepartmentRow } from '../../domain/suggestion';
import { useCurrentUser } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { checkRows } from '../../lib/db/rows';
import { memberViewOf, useMemberRoles } from '../../lib/member-view';
import { hasSuggestionsOfGoal, listSuggestionIds, loadSuggestionWindow, type ListFilters, type ListRow } from './list';

export interface ListDepartment {
  id: string;
  name: string;
}

export interface ListViewer {
  member: MemberView;
  /** The company's departments, by name. */
  departments: ListDepartment[];
  /** Department names by id, for the rows. */
  departmentNames: ReadonlyMap<string, string>;
}

/**
 * The signed-in member as the rules see them in this company: roles from the user's company list, headed
 * departments from the mirrored departments' heads. Undefined while loading.
 */
export function useListViewer(companyId: string): ListViewer | undefined {
  const member = useMemberRoles(companyId);
  const { userId } = member;
  const departments = useLiveQuery(async () => {
    const stored = await getAppDatabase().departments.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray();
    return checkRows(DepartmentRow, stored, 'departments').rows.sort((a, b) => a.name.localeCompare(b.name));
  }, [userId, companyId]);
  return useMemo(() => {
    if (!departments) return undefined;
    return {
      member: memberViewOf(member, departments),
      departments: departments.map(({ id, name }) => ({ id, name })),
      departmentNames: new Map(departments.map((department) => [department.id, department.name])),
    };
  }, [departments, member]);
}

/** How many ids the first screen reads before the whole list is counted (a tall tablet shows about 12 rows). */
export const FIRST_SCREEN_IDS = 60;

export interface ListIds {
  ids: readonly string[];
  /** The rows of the first screen, read with it, so the first rows show without another round. */
  firstRows: ReadonlyMap<string, ListRow>;
  /** Whether `ids` is the whole list of the current filters; false while only the first screen is known. */
  isComplete: boolean;
  /** Whether `ids` belong to the current filters (false for a moment after a change: the last list stays). */
  isCurrent: boolean;
}

/**
 * The ids the list shows, in order: first the first screen (limited index scans, so rows show at once), then
 * the whole list. Undefined until the first answer; after a change of filters the last list stays on screen
 * until the new one is known.
 */
export function useSuggestionIds(companyId: string, member: MemberView | undefined, filters: ListFilters): ListIds | undefined {
  const { tab, status, departmentId, goalId, isOverdueOnly, query } = filters;
  const memberKey = member ? `${member.userId}|${member.roles.join(',')}|${member.headOfDepartmentIds.join(',')}` : '';
  // The member is compared by content: a new object with the same rights must not rerun the queries.
  const deps = [companyId, memberKey, tab, status, departmentId, goalId, isOverdueOnly, query];
  // Each answer names the settings it was made for: the last list stays on screen while new filters are read.
  const settings = deps.join('\u0000');
  const run = async (limit?: number) => {
    if (!member) return undefined;
    const db = getAppDatabase();
    const ids = await listSuggestionIds({ db, member, companyId, now: new Date() }, { tab, status, departmentId, goalId, isOverdueOnly, query }, limit);
    const firstRows = limit === undefined ? new Map<string, ListRow>() : await loadSuggestionWindow(db, member.userId, companyId, ids);
    return { ids, settings, firstRows };
  };
  const first = useLiveQuery(() => run(FIRST_SCREEN_IDS), deps);
  // The whole list is read once the first screen is known (IndexedDB answers one long scan at a time, and the
  // first rows must not wait behind it), and only when the first screen was not already all of it.
  const isFirstHere = first?.settings === settings;
  const needsWhole = isFirstHere && first.ids.length >= FIRST_SCREEN_IDS;
  const whole = useLiveQuery(() => (needsWhole ? run() : undefined), [...deps, needsWhole]);
  return useMemo(() => {
    if (whole && (whole.settings === settings || first?.settings !== settings)) {
      const isCurrent = whole.settings === settings;
      return { ids: whole.ids, firstRows: first?.firstRows ?? whole.firstRows, isComplete: isCurrent, isCurrent };
    }
    if (first) {
      const isCurrent = first.settings === settings;
      return { ids: first.ids, firstRows: first.firstRows, isComplete: isCurrent && first.ids.length < FIRST_SCREEN_IDS, isCurrent };
    }
    return undefined;
  }, [first, whole, settings]);
}

/** The rows of these ids (the window on screen and a margin), with their unsent marks. */
export function useSuggestionWindow(companyId: string, ids: readonly string[]): ReadonlyMap<string, ListRow> | undefined {
  const { id: userId } = useCurrentUser();
  const key = ids.join(',');
  return useLiveQuery(
    () => loadSuggestionWindow(getAppDatabase(), userId, companyId, ids),
    // The ids are compared by content (the caller slices a new array on every render).
    [userId, companyId, key],
  );
}

/** What the goal filter needs of a mirrored goal (goals get their full struct with their feature). */
const GoalTitle = type({ id: string(), companyId: string(), title: optional(string()), name: optional(string()) });

export interface GoalOption {
  id: string;
  title: string;
}

/**
 * The goals the goal filter offers: mirrored goals of the company that some proposal points at, by title.
 * Goals without a mirrored row are not offered (there is no title to show). Undefined while loading.
 */
export function useGoalOptions(companyId: string): GoalOption[] | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const stored = await db.goals.where('[ownerUserId+companyId]').equals([userId, companyId]).toArray();
    const goals = checkRows(GoalTitle, stored, 'goals').rows;
    const options: GoalOption[] = [];
    for (const goal of goals) {
      const title = goal.title ?? goal.name ?? '';
      if (title !== '' && (await hasSuggestionsOfGoal(db, userId, companyId, goal.id))) options.push({ id: goal.id, title });
    }
    return options.sort((a, b) => a.title.localeCompare(b.title));
  }, [userId, companyId]);
}
