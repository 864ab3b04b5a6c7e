// A registry row as the API and the pull carry it (src/domain/registry.ts `Registry`): one select for every read
// (the service's, the sync's). The items and totals are jsonb written by the service (snapshots taken when the
// registry was sent; the owner's adjustments written at approval), read back as they were written.

import type { Registry, RegistryHistoryEntry, RegistryItem, RegistryStatus } from '../../../src/domain/registry';
import type { Queryable } from '../../db/database';

/** The columns the schema keeps narrower than its types say (the migration's CHECKs, the jsonb shapes written). */
type Narrowed = {
  status: Exclude<RegistryStatus, 'OPEN'>;
  items: RegistryItem[];
  totals: Registry['totals'];
  history: RegistryHistoryEntry[];
};

/** Every column of a registry (`r`). */
export function selectRegistries(db: Queryable) {
  return db.kysely.selectFrom('registries as r').selectAll('r').$narrowType<Narrowed>();
}

export type RegistryRow = Awaited<ReturnType<ReturnType<typeof selectRegistries>['executeTakeFirstOrThrow']>>;

/** The registry as the API answers it. */
export function toRegistry(row: RegistryRow): Registry {
  return {
    id: row.id,
    companyId: row.company_id,
    number: row.number,
    status: row.status,
    items: row.items,
    totals: row.totals,
    sentByUserId: row.sent_by,
    sentByName: row.sent_by_name,
    sentAt: row.sent_at.toISOString(),
    decidedByUserId: row.decided_by,
    decidedByName: row.decided_by_name,
    decidedAt: row.decided_at?.toISOString() ?? null,
    comment: row.decision_comment,
    history: row.history,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
