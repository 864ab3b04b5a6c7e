// The device's copy of the entity an unsent row changes (its entity key, e.g. 'suggestions:<id>'), read from
// the mirror of the row's own owner (the Unsent screen lists only the signed-in user's rows), so a kind can
// name what the row is about (a decision's proposal title) though the row's body does not carry it.
// Kind-agnostic: any synced table, any row; the value is stored data and is handed on unchecked (the kind
// checks what it reads). Undefined while loading, for a key of no synced table, or when there is no copy.
import { useLiveQuery } from 'dexie-react-hooks';
import { getAppDatabase, type OutboxRow } from '../../../lib/db/database';
import { parseEntityKey } from '../../../lib/sync/stale-rows';

export function useUnsentEntity(row: Pick<OutboxRow, 'ownerUserId' | 'entityKey'>): unknown {
  const { ownerUserId, entityKey } = row;
  return useLiveQuery(async (): Promise<unknown> => {
    const key = parseEntityKey(entityKey);
    if (key === null) return undefined;
    const entity: unknown = await getAppDatabase().mirror(key.table).get([ownerUserId, key.id]);
    return entity ?? undefined;
  }, [ownerUserId, entityKey]);
}
