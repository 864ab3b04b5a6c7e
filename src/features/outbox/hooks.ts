// What the Unsent screen and the header badge read and do: the signed-in user's outbox only (rows are
// tagged by owner), live from Dexie; writes through store.ts. The list holds every row the badge counts:
// the readable rows and, apart, the ones that fail their struct (`readOutbox`).
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { useCurrentUser } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { drainNow } from '../../lib/offline';
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
  const discard = useCallback(
    async (outboxId: string) => {
      await discardUnsent(getAppDatabase(), userId, outboxId);
    },
    [userId],
  );
  const discardUnreadable = useCallback(
    async (seq: number) => {
      await discardUnreadableUnsent(getAppDatabase(), userId, seq);
    },
    [userId],
  );
  return { retry, discard, discardUnreadable };
}
