// Writes of the proposals feature (DESIGN.md, "Offline-first data flow"). What it stores and why:
// a submitted proposal is written on the device at once (the user sees it, marked "waiting to send"), with
// its photos (ArrayBuffer + type + name, already downscaled by the UI kit) and its outbox row, in ONE Dexie
// transaction: either all of it is stored or nothing is. The replayer uploads the photos and sends the
// proposal under the row's Idempotency-Key; the success handler then stores the server's proposal over the
// local one, so it becomes a normal proposal.
// Guarantees: the proposal's id is made here (a uuid), so the local row, the outbox row's entity key
// (`suggestions:<id>`) and the server's row are one and the same proposal; the write never waits on the
// browser's persistent-storage question (Firefox holds `persist()` until a person answers a prompt): it is
// asked alongside the write and its answer is awaited for at most `PERSISTENCE_ANSWER_BOUND_MS` from the ask,
// after the write committed; a refusal or no answer is reported to the caller (`isStoragePersistent: false`)
// so the user is told the unsent proposal could be evicted; a full disk surfaces as `StorageQuotaError`
// (nothing stored, the form keeps the draft).
import {
  Suggestion,
  dueDateOf,
  type EffectEstimate,
  type SuggestionInput,
} from '../../domain/suggestion';
import type { AppDatabase, StoredSuggestion } from '../../lib/db/database';
import { PERSISTENCE_ANSWER_BOUND_MS, answerWithin, ensurePersistentStorage, type PersistenceAnswer } from '../../lib/outbox/durability';
import { enqueue, entityKeyOf, revise, storeFile, writeWithOutbox } from '../../lib/outbox/outbox';
import type { SuccessHandler } from '../../lib/outbox/replayer';
import { markStale } from '../../lib/sync/stale-rows';

import { SUGGESTION_CREATE_KIND } from './kind-names';

export { SUGGESTION_CREATE_KIND };

/** What the form gives: the proposal without ids, photos or times. */
export interface SuggestionDraft {
  companyId: string;
  title: string;
  problem: string;
  solution: string;
  expectedEffect: string;
  effectEstimate: EffectEstimate | null;
  departmentId: string;
  /** The company goal it serves (issue 12); absent or null: none. */
  goalId?: string | null;
}

/** A photo picked on this device, after the UI kit's downscaling. */
export interface PhotoInput {
  data: ArrayBuffer;
  type: string;
  name: string;
}

export interface SubmitContext {
  db: AppDatabase;
  author: { id: string; fullName: string };
  now?: () => Date;
  /** Asks for persistent storage; the browser's own by default. May never settle (a prompt nobody answers). */
  ensurePersistent?: () => Promise<boolean>;
  /** How long after asking the answer is still awaited once the proposal is stored (ms). */
  persistenceBoundMs?: number;
  /** Told after the write committed (the app drains the outbox and registers Background Sync). */
  afterWrite?: () => void;
}

export interface SubmitResult {
  id: string;
  /** False: the browser may evict the device's storage, and with it the unsent proposal (refused or no answer yet). */
  isStoragePersistent: boolean;
  /** The browser's answer as it stood when the submit returned. */
  storagePersistence: PersistenceAnswer;
}

export function suggestionsPath(companyId: string): string {
  return `/api/v1/companies/${encodeURIComponent(companyId)}/suggestions`;
}

/** The proposal as the device shows it until the server's answer replaces it. */
function localSuggestion(id: string, draft: SuggestionDraft, author: SubmitContext['author'], at: string): Suggestion {
  return {
    id,
    companyId: draft.companyId,
    title: draft.title,
    problem: draft.problem,
    solution: draft.solution,
    expectedEffect: draft.expectedEffect,
    effectEstimate: draft.effectEstimate,
    departmentId: draft.departmentId,
    goalId: draft.goalId ?? null,
    images: [],
    authorId: author.id,
    authorName: author.fullName,
    status: 'UNDER_CONSIDERATION',
    dueAt: dueDateOf(at),
    submittedAt: at,
    receivedAt: at,
    reviewComment: null,
    history: [{ at, kind: 'SUBMITTED', byUserId: author.id, comment: null }],
    createdAt: at,
    updatedAt: at,
  };
}

function inputOf(id: string, draft: SuggestionDraft, at: string): SuggestionInput {
  return {
    id,
    title: draft.title,
    problem: draft.problem,
    solution: draft.solution,
    expectedEffect: draft.expectedEffect,
    effectEstimate: draft.effectEstimate,
    departmentId: draft.departmentId,
    goalId: draft.goalId ?? null,
    // The replayer puts the uploaded photos' imageIds here.
    imageIds: [],
    submittedAt: at,
  };
}

/**
 * Stores a new proposal, its photos and its outbox row in one transaction. Throws `StorageQuotaError` when
 * the device is full (nothing stored).
 */
export async function submitSuggestion(draft: SuggestionDraft, photos: readonly PhotoInput[], context: SubmitContext): Promise<SubmitResult> {
  const { db, author } = context;
  // Asked now, while the user's tap still counts as a gesture, but never awaited before the write.
  const persistence = askPersistence(context);
  const id = crypto.randomUUID();
  const now = (context.now ?? (() => new Date()))();
  const at = now.toISOString();
  await writeWithOutbox(db, [db.suggestions], async () => {
    const row: StoredSuggestion = { ...localSuggestion(id, draft, author, at), ownerUserId: author.id };
    await db.suggestions.add(row);
    const fileIds: string[] = [];
    for (const photo of photos) {
      const file = await storeFile(db, { ownerUserId: author.id, data: photo.data, type: photo.type, name: photo.name, now: now.getTime() });
      fileIds.push(file.id);
    }
    await enqueue(db, {
      ownerUserId: author.id,
      kind: SUGGESTION_CREATE_KIND,
      method: 'POST',
      path: suggestionsPath(draft.companyId),
      body: inputOf(id, draft, at),
      entityKey: entityKeyOf('suggestions', id),
      fileIds,
      fileField: 'imageIds',
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
  const storagePersistence = persistence.latest() ?? (await persistence.bounded);
  return { id, isStoragePersistent: storagePersistence === 'granted', storagePersistence };
}

/** The persistence question: its answer once it came, and the same bounded from the moment it was asked. */
function askPersistence(context: SubmitContext): { latest: () => PersistenceAnswer | null; bounded: Promise<PersistenceAnswer> } {
  let asked: Promise<boolean>;
  try {
    asked = (context.ensurePersistent ?? (() => ensurePersistentStorage()))();
  } catch (error) {
    asked = Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  let latest: PersistenceAnswer | null = null;
  const bounded = answerWithin(asked, context.persistenceBoundMs ?? PERSISTENCE_ANSWER_BOUND_MS);
  // An answer that came while a large write was still going counts, even if the bound had passed by then.
  asked.then(
    (isGranted) => {
      latest = isGranted ? 'granted' : 'refused';
    },
    () => {
      // answerWithin has logged it.
      latest = 'refused';
    },
  );
  return { latest: () => latest, bounded };
}

/**
 * "Edit and resend" of a proposal the server refused: the local proposal and the outbox row's body get the
 * new text (under a new Idempotency-Key, see `revise`), in one transaction.
 */
export async function resendSuggestion(
  db: AppDatabase,
  ownerUserId: string,
  outboxId: string,
  draft: SuggestionDraft,
  afterWrite?: () => void,
): Promise<boolean> {
  const revised = await writeWithOutbox(db, [db.suggestions], async () => {
    const row = await db.outbox.where('id').equals(outboxId).first();
    if (!row || row.ownerUserId !== ownerUserId || row.kind !== SUGGESTION_CREATE_KIND) return false;
    const id = row.entityKey.slice('suggestions:'.length);
    const old = row.body as Partial<SuggestionInput>;
    const at = typeof old.submittedAt === 'string' ? old.submittedAt : new Date().toISOString();
    const local = await db.suggestions.get([ownerUserId, id]);
    if (local) {
      await db.suggestions.put({ ...local, ...pickDraft(draft), updatedAt: new Date().toISOString() });
    }
    return (await revise(db, outboxId, inputOf(id, draft, at))) !== null;
  });
  if (revised) afterWrite?.();
  return revised;
}

function pickDraft(draft: SuggestionDraft) {
  const { title, problem, solution, expectedEffect, effectEstimate, departmentId } = draft;
  return { title, problem, solution, expectedEffect, effectEstimate, departmentId, goalId: draft.goalId ?? null };
}

/** The replayer's success handler: the server's proposal replaces the local one. */
export const storeCreatedSuggestion: SuccessHandler = async ({ db, row, data }) => {
  if (!Suggestion.is(data)) {
    // The local copy stays until the server's version is fetched again: the pull skipped this proposal while
    // its row waited, so it is marked to be fetched by the next pull.
    console.warn('The server answered a proposal that does not match its struct; the next pull fetches it again');
    await markStale(db, row.ownerUserId, [row.entityKey]);
    return;
  }
  await db.suggestions.put({ ...data, ownerUserId: row.ownerUserId });
};
