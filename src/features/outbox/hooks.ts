// What the Unsent screen and the header badge read and do: the signed-in user's outbox only (rows are
// tagged by owner), live from Dexie; writes through store.ts.
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { useCurrentUser } from '../../lib/app-state';
import { getAppDatabase, type OutboxRow } from '../../lib/db/database';
import { drainNow } from '../../lib/offline';
import { countUnsent, listOutbox } from '../../lib/outbox/outbox';
import { discardUnsent, retryUnsent } from './store';

/** How many of the user's writes wait to be sent; undefined while loading. */
export function useUnsentCount(userId: string): number | undefined {
  return useLiveQuery(() => countUnsent(getAppDatabase(), userId), [userId]);
}

/** The user's unsent writes in send order; undefined while loading. */
export function useUnsentItems(): OutboxRow[] | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(() => listOutbox(getAppDatabase(), userId), [userId]);
}

export interface UnsentActions {
  retry: (outboxId: string) => Promise<void>;
  discard: (outboxId: string) => Promise<void>;
}

export function useUnsentActions(): UnsentActions {
  const { id: userId } = useCurrentUser();
  const retry = useCallback(
    async (outboxId: string) => {
      await retryUnsent(getAppDatabase(), userId, outboxId);
      drainNow();
    },
    [userId],
  );
  const discard = useCallback(
    async (outboxId: string) => {
      await discardUnsent(getAppDatabase(), userId, outboxId);
    },
    [userId],
  );
  return { retry, discard };
}
