// Uploads that belong to nothing yet, and the limits on them. What it guarantees:
// - one definition of "unattached": no company (attaching a file to a proposal or as a company's logo gives it
//   the company) and no row pointing at it (suggestion_images, project_images, companies.logo_image_id), used alike by the
//   quota and by the removal, so the removal can never take a file the quota counts as attached or the reverse;
// - per user, at most UPLOAD_RATE uploads in its window (429 `uploadRate` with Retry-After) and at most
//   UNATTACHED_QUOTA unattached files, in number and in bytes (413 `uploadQuota`). `admitUpload` runs in the
//   upload's transaction under an advisory lock on the user, so parallel uploads of one user cannot all slip
//   under the quota; a refused upload rolls back and is counted nowhere;
// - `removeStaleUploads` deletes unattached files older than STALE_AFTER_MS in batches, each batch's rows
//   locked with SKIP LOCKED: a file being attached at that moment (locked FOR UPDATE by the proposal's or the
//   company's transaction) is left alone, and one attached meanwhile is no longer a candidate.

import type { ExpressionBuilder } from 'kysely';
import type { Database, Queryable } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { rateWait, takeRate, tooManyRequests, type RateRule } from '../../rate-limit';

export const UPLOAD_RATE: RateRule = { bucket: 'files.upload', limit: 60, windowSeconds: 10 * 60, code: 'uploadRate' };
export const UNATTACHED_QUOTA = { files: 30, bytes: 100 * 1024 * 1024 } as const;
/** An unattached file older than this is removed by the `files.removeStale` job. */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;
const REMOVE_BATCH = 500;

/** `f` (a files row) is attached to nothing. */
function unattached(eb: ExpressionBuilder<DB & { f: DB['files'] }, 'f'>) {
  return eb.and([
    eb('f.company_id', 'is', null),
    eb.not(eb.exists(eb.selectFrom('suggestion_images as si').select('si.file_id').whereRef('si.file_id', '=', 'f.id'))),
    eb.not(eb.exists(eb.selectFrom('project_images as pi').select('pi.file_id').whereRef('pi.file_id', '=', 'f.id'))),
    eb.not(eb.exists(eb.selectFrom('companies as c').select('c.id').whereRef('c.logo_image_id', '=', 'f.id'))),
  ]);
}

export interface UnattachedUsage {
  files: number;
  bytes: number;
}

export async function unattachedUsage(db: Queryable, ownerId: string): Promise<UnattachedUsage> {
  const row = await db.kysely
    .selectFrom('files as f')
    .select((eb) => [eb.fn.countAll<string>().as('files'), eb.fn.coalesce(eb.fn.sum<string>('f.size'), eb.lit(0)).as('bytes')])
    .where('f.owner_id', '=', ownerId)
    .where(unattached)
    .executeTakeFirst();
  // int8 and numeric arrive as strings on both drivers.
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
}

function quotaError(): AppError {
  return new AppError('uploadQuota', 413, { values: { files: UNATTACHED_QUOTA.files, megabytes: UNATTACHED_QUOTA.bytes / (1024 * 1024) } });
}

/**
 * The refusal a new upload of `ownerId` would get whatever its size, checked before its body is read so an
 * upload over the limits costs neither the transfer nor the memory. Counts nothing; `admitUpload` decides.
 */
export async function refuseUploadEarly(db: Database, ownerId: string, now: Date): Promise<void> {
  const wait = await rateWait(db, UPLOAD_RATE, ownerId, now);
  if (wait > 0) throw tooManyRequests(UPLOAD_RATE, wait);
  const usage = await unattachedUsage(db, ownerId);
  if (usage.files >= UNATTACHED_QUOTA.files || usage.bytes >= UNATTACHED_QUOTA.bytes) throw quotaError();
}

/** In the upload's transaction: counts it under UPLOAD_RATE and checks the quota with its `size` included. */
export async function admitUpload(tx: Queryable, ownerId: string, size: number, now: Date): Promise<void> {
  await tx.kysely
    .selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.fn('hashtext', [eb.val(`files.unattached:${ownerId}`)])]).as('locked'))
    .execute();
  await takeRate(tx, UPLOAD_RATE, ownerId, now);
  const usage = await unattachedUsage(tx, ownerId);
  if (usage.files + 1 > UNATTACHED_QUOTA.files || usage.bytes + size > UNATTACHED_QUOTA.bytes) throw quotaError();
}

/** Deletes the files attached to nothing and created before `now` − 24 h; returns how many. */
export async function removeStaleUploads(db: Queryable, now: Date): Promise<number> {
  const before = new Date(now.getTime() - STALE_AFTER_MS);
  let removed = 0;
  for (;;) {
    const result = await db.kysely
      .deleteFrom('files')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('files as f')
          .select('f.id')
          .where('f.created_at', '<', before)
          .where(unattached)
          .orderBy('f.created_at')
          .limit(REMOVE_BATCH)
          .forUpdate('f')
          .skipLocked(),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    removed += n;
    if (n < REMOVE_BATCH) return removed;
  }
}
