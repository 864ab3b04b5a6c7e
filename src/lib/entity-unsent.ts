// Whether an entity still has a change waiting in the device's outbox ("waiting to be sent"), as a live query, so
// a page follows the replayer: it turns false once the server has taken every change of it.
import { useLiveQuery } from 'dexie-react-hooks';
import { useCurrentUser } from './app-state';
import { getAppDatabase } from './db/database';
import { entityKeyOf, hasUnsentChanges } from './outbox/outbox';

/** Whether the signed-in user's entity `table`/`id` has unsent changes; false without an id, undefined while loading. */
export function useIsEntityUnsent(table: string, id: string | null): boolean | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    if (id === null || id === '') return false;
    return hasUnsentChanges(getAppDatabase(), userId, entityKeyOf(table, id));
  }, [userId, table, id]);
}
