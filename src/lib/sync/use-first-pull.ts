// Whether a company's lists are still on their way to this device: the first pull of the company has not come to its
// end, and nothing says it cannot (the device is not known to be offline, and the last pull did not fail). A list
// with no rows says it is loading then, not that there is nothing: on a new device, right after sign-in, the
// proposals are still coming while an empty list would tell the user there are none.
import { useLiveQuery } from 'dexie-react-hooks';
import { useConnectivity } from '../connectivity';
import { getAppDatabase } from '../db/database';
import { isMirrorComplete } from './pull';
import { useSyncProblem } from './use-sync-problem';

/** Whether the company's first pull is pending (undefined while the device's record of it is being read). */
export function useFirstPullPending(userId: string, companyId: string): boolean | undefined {
  const connectivity = useConnectivity();
  const problem = useSyncProblem();
  // null: no record (never pulled); the hook's undefined means not read yet.
  const state = useLiveQuery(async () => (await getAppDatabase().syncState.get([userId, companyId])) ?? null, [userId, companyId]);
  if (state === undefined) return undefined;
  if (isMirrorComplete(state ?? undefined)) return false;
  return connectivity !== 'offline' && problem?.companyId !== companyId;
}
