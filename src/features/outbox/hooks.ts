// What the Unsent screen and the header badge read and do: the signed-in user's outbox only (rows are
// tagged by owner), live from Dexie; writes through store.ts. The list holds every row the badge counts:
// the readable rows and, apart, the ones that fail their struct (`readOutbox`). A discard is followed by a
// pull (`pullNow`), which fetches again what the pull skipped while the discarded change waited.
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { useCurrentUser } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { drainNow, pullNow } from '../../lib/offline';
import { countUnsent, readOutbox, type OutboxContents } from '../../lib/outbox/outbox';
import { discardUnreadableUnsent, discardUnsent, retryUnsent } from './store';

/** How many of the user's writes wait to be sent; undefined while loading. */
export function useUnsentCount(userId: string): number | undefined {
  return useLiveQuery(() => countUnsent(getAppDatabase(), userId), [userId]);
}

/** The user's unsent writes in send order, readable and unreadable; undefined while loading. */
export function useUnsentItems(): OutboxContents | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(() => readOutbox(getAppDatabase(), userId), [userId]);
}

export interface UnsentActions {
  retry: (outboxId: string) => Promise<void>;
  discard: (outboxId: string) => Promise<void>;
  /** Discards a row this version cannot read, by its place in the outbox. */
  discardUnreadable: (seq: number) => Promise<void>;
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
  // The pull skipped the server's changes to an entity while it had unsent changes; once a discard takes its
  // last row away, a pull at once fetches it again, so the device does not keep a state the server never had.
  const discard = useCallback(
    async (outboxId: string) => {
      if (await discardUnsent(getAppDatabase(), userId, outboxId)) pullNow();
    },
    [userId],
  );
  const discardUnreadable = useCallback(
    async (seq: number) => {
      if (await discardUnreadableUnsent(getAppDatabase(), userId, seq)) pullNow();
    },
    [userId],
  );
  return { retry, discard, discardUnreadable };
}
