import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Suggestion } from '../../domain/suggestion';
import { AppDatabase } from '../../lib/db/database';
import { PERSISTENCE_ANSWER_BOUND_MS, ensurePersistentStorage, knownPersistentStorage, resetPersistentStorageAnswer } from '../../lib/outbox/durability';
import { StorageQuotaError, listOutbox } from '../../lib/outbox/outbox';
import { resendSuggestion, storeCreatedSuggestion, submitSuggestion, type PhotoInput, type SuggestionDraft } from './store';

const opened: AppDatabase[] = [];
afterEach(async () => {
  vi.useRealTimers();
  resetPersistentStorageAnswer();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`suggestions-store-${Math.random()}`);
  opened.push(db);
  return db;
}

const draft: SuggestionDraft = {
  companyId: 'c1',
  title: 'Shorter changeover',
  problem: 'Changeover takes 40 minutes',
  solution: 'Prepare the tools in advance',
  expectedEffect: '30 minutes a shift',
  effectEstimate: { amountMinor: 1_500_000, currency: 'RUB' },
  departmentId: 'd1',
};
const author = { id: 'u1', fullName: 'Ivan Ivanov' };
const photo = (bytes: number[]): PhotoInput => ({ data: new Uint8Array(bytes).buffer, type: 'image/jpeg', name: 'photo.jpg' });

async function counts(db: AppDatabase) {
  return { suggestions: await db.suggestions.count(), outbox: await db.outbox.count(), files: await db.files.count() };
}

describe('submitSuggestion', () => {
  it('stores the proposal (waiting to send), its photos and its outbox row together', async () => {
    const db = openDb();
    const result = await submitSuggestion(draft, [photo([1, 2, 3]), photo([4, 5])], {
      db,
      author,
      now: () => new Date('2026-03-01T10:00:00Z'),
      ensurePersistent: () => Promise.resolve(true),
    });

    const stored = await db.suggestions.get(['u1', result.id]);
    expect(Suggestion.is(stored)).toBe(true);
    expect(stored).toMatchObject({ title: draft.title, status: 'UNDER_CONSIDERATION', authorId: 'u1', dueAt: '2026-03-06T10:00:00.000Z' });
    const [row] = await listOutbox(db, 'u1');
    expect(row).toMatchObject({
      kind: 'suggestion.create',
      method: 'POST',
      path: '/api/v1/companies/c1/suggestions',
      entityKey: `suggestions:${result.id}`,
      fileField: 'imageIds',
      status: 'pending',
    });
    expect(row?.body).toMatchObject({ id: result.id, title: draft.title, submittedAt: '2026-03-01T10:00:00.000Z' });
    expect(row?.fileIds).toHaveLength(2);
    const files = await db.files.bulkGet(row?.fileIds ?? []);
    expect(files.map((file) => file && Array.from(new Uint8Array(file.data)))).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('carries the goal the proposal serves into the device copy and the request, and none as null', async () => {
    const db = openDb();
    const context = { db, author, now: () => new Date('2026-03-01T10:00:00Z'), ensurePersistent: () => Promise.resolve(true) };
    const served = await submitSuggestion({ ...draft, goalId: 'g1' }, [], context);
    const plain = await submitSuggestion(draft, [], context);
    expect((await db.suggestions.get(['u1', served.id]))?.goalId).toBe('g1');
    expect((await db.suggestions.get(['u1', plain.id]))?.goalId).toBeNull();
    const rows = await listOutbox(db, 'u1');
    expect(rows.map((row) => (row.body as { goalId?: unknown }).goalId)).toEqual(['g1', null]);
  });

  it('stores nothing when a failure comes between the proposal and its photos', async () => {
    const db = openDb();
    const broken = { data: 'not bytes' as unknown as ArrayBuffer, type: 'image/jpeg', name: 'broken.jpg' };
    await expect(
      submitSuggestion(draft, [photo([1]), broken], { db, author, ensurePersistent: () => Promise.resolve(true) }),
    ).rejects.toThrow(TypeError);
    expect(await counts(db)).toEqual({ suggestions: 0, outbox: 0, files: 0 });
  });

  it('reports a refusal of persistent storage and still stores the proposal', async () => {
    const db = openDb();
    const result = await submitSuggestion(draft, [], { db, author, ensurePersistent: () => Promise.resolve(false) });
    expect(result.isStoragePersistent).toBe(false);
    expect(await counts(db)).toEqual({ suggestions: 1, outbox: 1, files: 0 });
  });

  it('stores the proposal and resolves when the persistence question is never answered (a prompt nobody answers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const db = openDb();
    let told = 0;
    const submitting = submitSuggestion(draft, [photo([9])], {
      db,
      author,
      ensurePersistent: () => new Promise<boolean>(() => undefined),
      afterWrite: () => (told += 1),
    });
    // The write does not wait on the question: the proposal is stored before the bound has passed.
    await vi.waitFor(async () => expect(await counts(db)).toEqual({ suggestions: 1, outbox: 1, files: 1 }), { interval: 1 });
    expect(told).toBe(1);
    await vi.advanceTimersByTimeAsync(PERSISTENCE_ANSWER_BOUND_MS);
    const result = await submitting;
    expect(result).toMatchObject({ isStoragePersistent: false, storagePersistence: 'unknown' });
    const [row] = await listOutbox(db, 'u1');
    expect(row).toMatchObject({ entityKey: `suggestions:${result.id}`, status: 'pending' });
  });

  it("never lets the browser's own pending persist() hold the submit, and keeps its late answer", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answer: (isGranted: boolean) => void = () => undefined;
    const storage = { persisted: () => Promise.resolve(false), persist: () => new Promise<boolean>((resolve) => (answer = resolve)) };
    const db = openDb();
    const submitting = submitSuggestion(draft, [], { db, author, ensurePersistent: () => ensurePersistentStorage(storage) });
    await vi.advanceTimersByTimeAsync(PERSISTENCE_ANSWER_BOUND_MS);
    expect(await submitting).toMatchObject({ isStoragePersistent: false, storagePersistence: 'unknown' });
    expect(await counts(db)).toEqual({ suggestions: 1, outbox: 1, files: 0 });
    expect(knownPersistentStorage()).toBeNull();
    answer(true);
    await expect(ensurePersistentStorage(storage)).resolves.toBe(true);
    expect(knownPersistentStorage()).toBe(true);
  });

  it('reports a grant that comes within the bound', async () => {
    const db = openDb();
    const result = await submitSuggestion(draft, [], { db, author, ensurePersistent: () => Promise.resolve(true) });
    expect(result).toMatchObject({ isStoragePersistent: true, storagePersistence: 'granted' });
  });

  it('treats a failing persistence question as a refusal and still stores the proposal', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const db = openDb();
    const result = await submitSuggestion(draft, [], { db, author, ensurePersistent: () => Promise.reject(new Error('denied')) });
    expect(result).toMatchObject({ isStoragePersistent: false, storagePersistence: 'refused' });
    expect(await counts(db)).toEqual({ suggestions: 1, outbox: 1, files: 0 });
  });

  it('turns a full disk into StorageQuotaError and stores nothing', async () => {
    const db = openDb();
    const quota = Object.assign(new Error('full'), { name: 'QuotaExceededError' });
    db.files.hook('creating', () => {
      throw quota;
    });
    await expect(submitSuggestion(draft, [photo([1])], { db, author, ensurePersistent: () => Promise.resolve(true) })).rejects.toBeInstanceOf(
      StorageQuotaError,
    );
    expect(await counts(db)).toEqual({ suggestions: 0, outbox: 0, files: 0 });
  });

  it('tells the app after the write so it can send at once', async () => {
    const db = openDb();
    let told = 0;
    await submitSuggestion(draft, [], { db, author, ensurePersistent: () => Promise.resolve(true), afterWrite: () => (told += 1) });
    expect(told).toBe(1);
  });
});

describe('storeCreatedSuggestion', () => {
  it("replaces the local proposal with the server's", async () => {
    const db = openDb();
    const { id } = await submitSuggestion(draft, [], { db, author, ensurePersistent: () => Promise.resolve(true) });
    const local = await db.suggestions.get(['u1', id]);
    const [row] = await listOutbox(db, 'u1');
    if (!local || !row) throw new Error('nothing stored');
    const { ownerUserId: _owner, ...fromServer } = { ...local, receivedAt: '2026-03-02T08:00:00.000Z', images: [{ imageId: 'i1', imageLink: '/x', name: 'a.jpg' }] };
    await storeCreatedSuggestion({ db, row, data: fromServer });
    expect(await db.suggestions.get(['u1', id])).toMatchObject({ receivedAt: '2026-03-02T08:00:00.000Z', images: [{ imageId: 'i1' }] });
  });
});

describe('resendSuggestion', () => {
  it('puts the corrected text on the proposal and its outbox row under a new key, keeping its photos and place', async () => {
    const db = openDb();
    const { id } = await submitSuggestion(draft, [photo([7])], { db, author, ensurePersistent: () => Promise.resolve(true) });
    const [before] = await listOutbox(db, 'u1');
    if (!before) throw new Error('no row');
    await db.outbox.update(before.seq, { status: 'failed', lastError: { status: 400, message: 'Too long' } });

    expect(await resendSuggestion(db, 'u2', before.id, { ...draft, title: 'Not theirs' })).toBe(false);
    expect(await resendSuggestion(db, 'u1', before.id, { ...draft, title: 'Shorter' })).toBe(true);

    const [after] = await listOutbox(db, 'u1');
    expect(after).toMatchObject({ seq: before.seq, status: 'pending', lastError: null, fileIds: before.fileIds, body: { id, title: 'Shorter' } });
    expect(after?.id).not.toBe(before.id);
    expect(await db.suggestions.get(['u1', id])).toMatchObject({ title: 'Shorter' });
  });
});
