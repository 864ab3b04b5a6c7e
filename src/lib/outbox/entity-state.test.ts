import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase, type OutboxStatus } from '../db/database';
import { unsentRowsByKey, unsentStateOf } from './entity-state';
import { enqueue, entityKeyOf, writeWithOutbox } from './outbox';

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`entity-state-${Math.random()}`);
  opened.push(db);
  return db;
}

/** Queues a change of `entityKey` for `ownerUserId` and puts it in `status`. */
async function queued(db: AppDatabase, ownerUserId: string, entityKey: string, status: OutboxStatus): Promise<void> {
  const row = await writeWithOutbox(db, [], () =>
    enqueue(db, { ownerUserId, kind: 'test.change', method: 'POST', path: '/api/v1/test', body: {}, entityKey, now: 1 }),
  );
  await db.outbox.update(row.seq, { status });
}

describe('the state of an entity’s unsent changes', () => {
  it('is the most troubled change of each entity: failed over conflict over sending over pending', async () => {
    const db = openDb();
    const a = entityKeyOf('projects', 'a');
    const b = entityKeyOf('projects', 'b');
    const c = entityKeyOf('projects', 'c');
    await queued(db, 'u1', a, 'pending');
    await queued(db, 'u1', a, 'failed');
    await queued(db, 'u1', a, 'sending');
    await queued(db, 'u1', b, 'sending');
    await queued(db, 'u1', b, 'conflict');
    await queued(db, 'u1', b, 'pending');
    await queued(db, 'u1', c, 'pending');
    await queued(db, 'u1', c, 'sending');

    const worst = await unsentRowsByKey(db, 'u1', [a, b, c, entityKeyOf('projects', 'none')]);
    expect(new Map([...worst].map(([key, row]) => [key, row.status]))).toEqual(new Map([[a, 'failed'], [b, 'conflict'], [c, 'sending']]));
    expect(await unsentStateOf(db, 'u1', b)).toBe('conflict');
  });

  it('is null for an entity the server has whole, and reads only the signed-in user’s rows', async () => {
    const db = openDb();
    const key = entityKeyOf('goals', 'g1');
    await queued(db, 'u2', key, 'failed');

    expect(await unsentStateOf(db, 'u1', key)).toBeNull();
    expect((await unsentRowsByKey(db, 'u1', [key])).size).toBe(0);
    expect(await unsentStateOf(db, 'u2', key)).toBe('failed');
  });

  it('leaves out a stored row that fails its struct', async () => {
    const db = openDb();
    const key = entityKeyOf('suggestions', 's1');
    await queued(db, 'u1', key, 'pending');
    // A row another version of the app left behind, not readable as an outbox row.
    await db.table('outbox').add({ ownerUserId: 'u1', entityKey: key, status: 'failed' });

    expect(await unsentStateOf(db, 'u1', key)).toBe('pending');
  });
});
