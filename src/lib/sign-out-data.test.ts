import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDatabase, type OutboxRow, type StoredFile } from './db/database';
import { clearOtherUsersData, clearSignedOutUserData } from './sign-out-data';
import { goalRow, projectRow, registryRow } from '../../tests/fixtures/rows';

const opened: AppDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`sign-out-data-${Math.random()}`);
  opened.push(db);
  return db;
}

const file = (id: string, ownerUserId: string): StoredFile => ({
  id,
  ownerUserId,
  data: new Uint8Array([1, 2, 3]).buffer,
  type: 'image/jpeg',
  name: `${id}.jpg`,
  size: 3,
  uploadKey: `upload-${id}`,
  uploaded: null,
  createdAt: 0,
});

const outboxRow = (id: string, ownerUserId: string, entityKey: string, fileIds: string[]): Omit<OutboxRow, 'seq'> => ({
  id,
  ownerUserId,
  kind: 'suggestion.create',
  method: 'POST',
  path: '/api/v1/companies/c1/suggestions',
  body: { id: entityKey.split(':')[1] },
  fileIds,
  fileField: 'imageIds',
  entityKey,
  status: 'pending',
  attempts: 0,
  nextAttemptAt: 0,
  lastError: null,
  createdAt: 0,
  updatedAt: 0,
});

/** What one user sees on the device: a company with its people, proposals (one unsent), enums, units, cursor. */
async function seedUser(db: AppDatabase, user: string) {
  await db.companies.put({ ownerUserId: user, id: 'c1', name: 'Demo' } as never);
  await db.departments.put({ ownerUserId: user, id: 'd1', companyId: 'c1', name: 'Shop' } as never);
  await db.employees.put({ ownerUserId: user, id: 'e1', companyId: 'c1', userId: user, email: 'secret@demo.local' } as never);
  await db.goals.put({ ...goalRow('g1'), ownerUserId: user });
  await db.projects.put({ ...projectRow('p1'), ownerUserId: user });
  await db.registries.put({ ...registryRow('r1'), ownerUserId: user });
  await db.suggestions.put({ ownerUserId: user, id: 'sent', companyId: 'c1', title: 'Already on the server' } as never);
  await db.suggestions.put({ ownerUserId: user, id: 'unsent', companyId: 'c1', title: 'Waiting to send' } as never);
  await db.enums.put({ ownerUserId: user, data: { enums: {}, supportLink: 'https://t.me/support' }, updatedAt: 0 });
  await db.units.put({ ownerUserId: user, id: 'HOURS', title: 'Hours', type: 'BASE_INDICATOR' });
  await db.syncState.put({ ownerUserId: user, companyId: 'c1', cursor: '42', pulledAt: 0 });
  await db.files.bulkPut([file(`${user}-photo`, user), file(`${user}-orphan`, user)]);
  // The pull skipped server changes of both proposals while they were unsent (one was sent since).
  for (const id of ['sent', 'unsent']) {
    await db.staleRows.put({ ownerUserId: user, companyId: 'c1', entityKey: `suggestions:${id}`, table: 'suggestions', id, markedAt: 0 });
  }
  await db.outbox.add(outboxRow(`${user}-key`, user, 'suggestions:unsent', [`${user}-photo`]));
}

async function rowsOf(db: AppDatabase, user: string): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of db.tables) {
    if (table.name === 'leases') continue;
    const rows = (await table.toArray()) as { ownerUserId: string; id?: string; companyId?: string }[];
    const ids = rows.filter((row) => row.ownerUserId === user).map((row) => row.id ?? row.companyId ?? 'row');
    if (ids.length > 0) result[table.name] = ids.sort();
  }
  return result;
}

describe('the data a signed-out user leaves on the device', () => {
  it("keeps only the user's unsent proposal, its outbox row and its photo, and leaves the other user's rows alone", async () => {
    const db = openDb();
    await seedUser(db, 'userA');
    await seedUser(db, 'userB');
    await db.leases.put({ name: 'outbox', holder: 'tab', expiresAt: 0 });
    const before = await rowsOf(db, 'userB');

    const report = await clearSignedOutUserData(db, 'userA');

    expect(await rowsOf(db, 'userA')).toEqual({
      suggestions: ['unsent'],
      // Still to be fetched again once the proposal has been sent: it stays with the proposal.
      staleRows: ['unsent'],
      outbox: ['userA-key'],
      files: ['userA-photo'],
    });
    expect(await rowsOf(db, 'userB')).toEqual(before);
    expect(await db.leases.count()).toBe(1);
    expect(report).toEqual({ deleted: 12, kept: 4 });
  });

  it('gives the unsent work back unchanged when the user signs in again', async () => {
    const db = openDb();
    await seedUser(db, 'userA');
    const [row] = await db.outbox.toArray();
    await clearSignedOutUserData(db, 'userA');
    expect(await db.outbox.toArray()).toEqual([row]);
    expect(await db.suggestions.get(['userA', 'unsent'])).toMatchObject({ title: 'Waiting to send' });
    expect(new Uint8Array((await db.files.get('userA-photo'))?.data ?? new ArrayBuffer(0))).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('deletes everything of a user with nothing unsent', async () => {
    const db = openDb();
    await seedUser(db, 'userA');
    await db.outbox.clear();
    await clearSignedOutUserData(db, 'userA');
    expect(await rowsOf(db, 'userA')).toEqual({});
  });
});

describe("the data of users whose session ended without a sign-out", () => {
  it("leaves the signed-in user's rows and every user's unsent work, and deletes the rest of the others' rows", async () => {
    const db = openDb();
    await seedUser(db, 'userA');
    await seedUser(db, 'userB');
    await seedUser(db, 'userC');
    const mine = await rowsOf(db, 'userB');

    const report = await clearOtherUsersData(db, 'userB');

    expect(await rowsOf(db, 'userB')).toEqual(mine);
    for (const other of ['userA', 'userC']) {
      expect(await rowsOf(db, other)).toEqual({
        suggestions: ['unsent'],
        staleRows: ['unsent'],
        outbox: [`${other}-key`],
        files: [`${other}-photo`],
      });
    }
    expect(report.deleted).toBe(24);
    expect(await clearOtherUsersData(db, 'userB')).toEqual({ deleted: 0, kept: 8 });
  });
});
