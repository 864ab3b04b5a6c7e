// What the projects list reads: live queries over the device's mirror only (so the list works offline), built on
// list.ts. The ids of the whole list are index keys; rows are read only for the window on screen.
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import type { ProjectListFilter } from '../../domain/project';
import { useCurrentUser } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { countProjectsByFilter, listProjectIds, loadProjectWindow, type ProjectListRow } from './list';

/** How many ids the first screen reads before the whole list is counted. */
export const FIRST_SCREEN_IDS = 60;

export interface ProjectIds {
  ids: readonly string[];
  /** The rows of the first screen, read with it, so the first rows show without another round. */
  firstRows: ReadonlyMap<string, ProjectListRow>;
  /** Whether `ids` is the whole list of the filter; false while only the first screen is known. */
  isComplete: boolean;
  /** Whether `ids` belong to the current filter (false for a moment after a change: the last list stays). */
  isCurrent: boolean;
}

/**
 * The ids the list shows, in order: first the first screen (limited index scans, so rows show at once), then the
 * whole list. Undefined until the first answer; after a change of filter the last list stays until the new one.
 */
export function useProjectIds(companyId: string, filter: ProjectListFilter): ProjectIds | undefined {
  const { id: userId } = useCurrentUser();
  const settings = `${userId}\u0000${companyId}\u0000${filter}`;
  const run = async (limit?: number) => {
    const db = getAppDatabase();
    const ids = await listProjectIds({ db, ownerUserId: userId, companyId }, filter, limit);
    const firstRows = limit === undefined ? new Map<string, ProjectListRow>() : await loadProjectWindow(db, userId, companyId, ids);
    return { ids, settings, firstRows };
  };
  const first = useLiveQuery(() => run(FIRST_SCREEN_IDS), [settings]);
  const isFirstHere = first?.settings === settings;
  const needsWhole = isFirstHere && first.ids.length >= FIRST_SCREEN_IDS;
  const whole = useLiveQuery(() => (needsWhole ? run() : undefined), [settings, needsWhole]);
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

/** How many projects each filter holds (shown on the filter chips). Undefined while loading. */
export function useProjectCounts(companyId: string): Record<ProjectListFilter, number> | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(() => countProjectsByFilter({ db: getAppDatabase(), ownerUserId: userId, companyId }), [userId, companyId]);
}

/** The rows of these ids (the window on screen and a margin), with their unsent marks. */
export function useProjectWindow(companyId: string, ids: readonly string[]): ReadonlyMap<string, ProjectListRow> | undefined {
  const { id: userId } = useCurrentUser();
  const key = ids.join(',');
  return useLiveQuery(
    () => loadProjectWindow(getAppDatabase(), userId, companyId, ids),
    // The ids are compared by content (the caller slices a new array on every render).
    [userId, companyId, key],
  );
}
