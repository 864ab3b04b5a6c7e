// Deciding a proposal on the device (DESIGN.md, "Offline-first data flow"): the reviewer's decision (approve,
// reject, ask for clarification), a distribution to another department, and the author's resend after a
// clarification question. What it stores and why: each write changes the mirrored proposal at once (status,
// comment, who decided, a history entry, the department and a restarted due date, the resumed clock) and
// queues its request in the outbox, in ONE Dexie transaction, so the screen shows the decision offline
// ("waiting to send") and the device never holds the one without the other.
// Guarantees: every row of one proposal has the entity key `suggestions:<id>`, so the replayer sends them in
// order and the pull does not overwrite the local change while it waits; the input is checked with the
// server's own structs before anything is stored (a refusal stores nothing); a proposal that is not open on
// the device (decided already, here or by a pull) is not decided again; the success handler stores the
// server's proposal, unless a later change of it still waits (its local state stands until that one is
// answered); a 409 (someone decided first) is parked by the replayer and shown on /unsent; discarding it
// there marks the proposal stale, so the next pull brings the server's version back.
import {
  Suggestion,
  SuggestionDistributeInput,
  SuggestionReviewInput,
  SuggestionRevisionInput,
  SUGGESTION_DUE_DAYS,
  type SuggestionHistoryEntry,
} from '../../domain/suggestion';
import type { Struct } from 'superstruct';
import { canDistributeSuggestion, canReviewSuggestion, type MemberView } from '../../domain/permissions';
import { validate, type FieldErrors } from '../../domain/validation';
import type { AppDatabase, OutboxRow } from '../../lib/db/database';
import { StoredOutboxRow, checkRows } from '../../lib/db/rows';
import { REVISABLE_STATUSES, enqueue, entityKeyOf, revise, writeWithOutbox } from '../../lib/outbox/outbox';
import type { SuccessHandler } from '../../lib/outbox/replayer';
import { markStale } from '../../lib/sync/stale-rows';
import { suggestionsPath } from './store';

import { SUGGESTION_DISTRIBUTE_KIND, SUGGESTION_REVIEW_KIND, SUGGESTION_REVISE_KIND } from './kind-names';

export { SUGGESTION_DISTRIBUTE_KIND, SUGGESTION_REVIEW_KIND, SUGGESTION_REVISE_KIND };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Why a decision was not stored. */
export type ReviewRefusal =
  /** The proposal is not on this device (or not in that company). */
  | 'missing'
  /** It is no longer open for this action (decided, or not waiting for the author). */
  | 'notOpen'
  /** The user may not do this with it. */
  | 'notAllowed'
  /** The input breaks the server's rules: see `fieldErrors` (codes of src/domain/validation.ts). */
  | 'invalid';

export class ReviewRefusedError extends Error {
  readonly reason: ReviewRefusal;
  readonly fieldErrors: FieldErrors;

  constructor(reason: ReviewRefusal, fieldErrors: FieldErrors = {}) {
    super(`The proposal change was refused on the device: ${reason}`);
    this.name = 'ReviewRefusedError';
    this.reason = reason;
    this.fieldErrors = fieldErrors;
  }
}

export interface ReviewContext {
  db: AppDatabase;
  /** The signed-in user: the owner of the rows and who decides. */
  actor: { id: string; fullName: string };
  /** The user as the permission rules see them in the proposal's company (omitted for the author's resend). */
  member?: MemberView;
  now?: () => Date;
  /** Told after the write committed (the app drains the outbox). */
  afterWrite?: () => void;
}

export function suggestionPath(companyId: string, suggestionId: string): string {
  return `${suggestionsPath(companyId)}/${encodeURIComponent(suggestionId)}`;
}

function entry(at: string, kind: SuggestionHistoryEntry['kind'], actor: ReviewContext['actor'], comment: string | null, extra: Partial<SuggestionHistoryEntry> = {}): SuggestionHistoryEntry {
  return { at, kind, byUserId: actor.id, byName: actor.fullName, comment, ...extra };
}

function commentOf(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** The proposal after the reviewer's decision, as the server will make it. */
export function applyReview(suggestion: Suggestion, input: SuggestionReviewInput, actor: ReviewContext['actor'], at: string): Suggestion {
  const comment = commentOf(input.comment);
  const decided = { decidedById: actor.id, decidedByName: actor.fullName, decidedAt: at, updatedAt: at };
  if (input.decision === 'CLARIFICATION') {
    return {
      ...suggestion,
      ...decided,
      status: 'CLARIFICATION',
      reviewComment: comment,
      clarificationAt: at,
      history: [...suggestion.history, entry(at, 'CLARIFICATION_REQUESTED', actor, comment)],
    };
  }
  return {
    ...suggestion,
    ...decided,
    status: input.decision,
    reviewComment: comment,
    clarificationAt: null,
    history: [...suggestion.history, entry(at, input.decision, actor, comment)],
  };
}

/** The proposal after it was passed to another department: theirs now, with a new 5-day clock. */
export function applyDistribution(suggestion: Suggestion, input: SuggestionDistributeInput, actor: ReviewContext['actor'], at: string): Suggestion {
  return {
    ...suggestion,
    departmentId: input.departmentId,
    dueAt: new Date(Date.parse(at) + SUGGESTION_DUE_DAYS * DAY_MS).toISOString(),
    escalationLevel: 0,
    overdueAt: null,
    updatedAt: at,
    history: [
      ...suggestion.history,
      entry(at, 'DISTRIBUTED', actor, commentOf(input.comment), { fromDepartmentId: suggestion.departmentId, departmentIds: [input.departmentId] }),
    ],
  };
}

/** The proposal after the author's resend: the new text, under consideration again, the paused days added. */
export function applyRevision(suggestion: Suggestion, input: SuggestionRevisionInput, actor: ReviewContext['actor'], at: string): Suggestion {
  const pausedSince = suggestion.clarificationAt ? Date.parse(suggestion.clarificationAt) : Number.NaN;
  const paused = Number.isNaN(pausedSince) ? 0 : Math.max(0, Date.parse(at) - pausedSince);
  const due = Date.parse(suggestion.dueAt);
  return {
    ...suggestion,
    title: input.title.trim(),
    problem: input.problem.trim(),
    solution: input.solution.trim(),
    expectedEffect: input.expectedEffect.trim(),
    effectEstimate: input.effectEstimate ?? null,
    status: suggestion.status === 'CLARIFICATION' ? 'UNDER_CONSIDERATION' : suggestion.status,
    dueAt: Number.isNaN(due) ? suggestion.dueAt : new Date(due + paused).toISOString(),
    clarificationAt: null,
    updatedAt: at,
    history: suggestion.status === 'CLARIFICATION' ? [...suggestion.history, entry(at, 'RESENT', actor, null)] : suggestion.history,
  };
}

function checked<T, S>(struct: Struct<T, S>, input: unknown): T {
  const result = validate(struct, input);
  if (!result.ok) throw new ReviewRefusedError('invalid', result.errors);
  return result.value;
}

/** The device's copy of the proposal, checked; refuses when it is not there or belongs to another company. */
async function localSuggestion(db: AppDatabase, ownerUserId: string, companyId: string, suggestionId: string): Promise<Suggestion> {
  const stored = await db.suggestions.get([ownerUserId, suggestionId]);
  const suggestion = stored ? checkRows(Suggestion, [stored], 'suggestions').rows[0] : undefined;
  if (!suggestion || suggestion.companyId !== companyId) throw new ReviewRefusedError('missing');
  return suggestion;
}

async function rowsOf(db: AppDatabase, ownerUserId: string, suggestionId: string): Promise<OutboxRow[]> {
  const stored = await db.outbox.where('[ownerUserId+entityKey]').equals([ownerUserId, entityKeyOf('suggestions', suggestionId)]).toArray();
  return checkRows(StoredOutboxRow, stored, 'outbox').rows.sort((a, b) => a.seq - b.seq);
}

function clockOf(context: ReviewContext): Date {
  return (context.now ?? (() => new Date()))();
}

/**
 * Approve, reject (reason required) or ask the author for clarification (question required). Throws
 * `ReviewRefusedError` (nothing stored) or `StorageQuotaError`.
 */
export async function reviewSuggestion(context: ReviewContext, companyId: string, suggestionId: string, raw: SuggestionReviewInput): Promise<void> {
  const { db, actor } = context;
  const input = checked(SuggestionReviewInput, raw);
  const body: SuggestionReviewInput = { decision: input.decision, comment: commentOf(input.comment) };
  const now = clockOf(context);
  await writeWithOutbox(db, [db.suggestions], async () => {
    const suggestion = await localSuggestion(db, actor.id, companyId, suggestionId);
    if (context.member && !canReviewSuggestion(context.member, suggestion)) throw new ReviewRefusedError('notAllowed');
    if (suggestion.status !== 'UNDER_CONSIDERATION') throw new ReviewRefusedError('notOpen');
    await db.suggestions.put({ ...applyReview(suggestion, body, actor, now.toISOString()), ownerUserId: actor.id });
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: SUGGESTION_REVIEW_KIND,
      method: 'POST',
      path: `${suggestionPath(companyId, suggestionId)}/review`,
      body,
      entityKey: entityKeyOf('suggestions', suggestionId),
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
}

/** Passes an open proposal to another department. Throws `ReviewRefusedError` (nothing stored) or `StorageQuotaError`. */
export async function distributeSuggestion(context: ReviewContext, companyId: string, suggestionId: string, raw: SuggestionDistributeInput): Promise<void> {
  const { db, actor } = context;
  const input = checked(SuggestionDistributeInput, raw);
  const comment = commentOf(input.comment);
  const body: SuggestionDistributeInput = comment === null ? { departmentId: input.departmentId } : { departmentId: input.departmentId, comment };
  const now = clockOf(context);
  await writeWithOutbox(db, [db.suggestions], async () => {
    const suggestion = await localSuggestion(db, actor.id, companyId, suggestionId);
    if (context.member && !canDistributeSuggestion(context.member, suggestion)) throw new ReviewRefusedError('notAllowed');
    if (suggestion.status !== 'UNDER_CONSIDERATION') throw new ReviewRefusedError('notOpen');
    if (suggestion.departmentId === input.departmentId) throw new ReviewRefusedError('invalid', { departmentId: 'same' });
    await db.suggestions.put({ ...applyDistribution(suggestion, body, actor, now.toISOString()), ownerUserId: actor.id });
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: SUGGESTION_DISTRIBUTE_KIND,
      method: 'POST',
      path: `${suggestionPath(companyId, suggestionId)}/distribute`,
      body,
      entityKey: entityKeyOf('suggestions', suggestionId),
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
}

/**
 * The author's resend of a proposal waiting for clarification. When an earlier resend of it was refused by
 * the server and waits on /unsent, that row is revised (a new Idempotency-Key, same place in the queue)
 * instead of queueing a second one. Throws `ReviewRefusedError` (nothing stored) or `StorageQuotaError`.
 */
export async function reviseSuggestion(context: ReviewContext, companyId: string, suggestionId: string, raw: SuggestionRevisionInput): Promise<void> {
  const { db, actor } = context;
  const input = checked(SuggestionRevisionInput, raw);
  const body: SuggestionRevisionInput = {
    title: input.title.trim(),
    problem: input.problem.trim(),
    solution: input.solution.trim(),
    expectedEffect: input.expectedEffect.trim(),
    effectEstimate: input.effectEstimate ?? null,
  };
  const now = clockOf(context);
  await writeWithOutbox(db, [db.suggestions], async () => {
    const suggestion = await localSuggestion(db, actor.id, companyId, suggestionId);
    if (suggestion.authorId !== actor.id) throw new ReviewRefusedError('notAllowed');
    const refused = (await rowsOf(db, actor.id, suggestionId)).find((row) => row.kind === SUGGESTION_REVISE_KIND && REVISABLE_STATUSES.includes(row.status));
    if (suggestion.status !== 'CLARIFICATION' && !refused) throw new ReviewRefusedError('notOpen');
    await db.suggestions.put({ ...applyRevision(suggestion, body, actor, now.toISOString()), ownerUserId: actor.id });
    if (refused) {
      if ((await revise(db, refused.id, body, now.getTime())) === null) throw new ReviewRefusedError('notOpen');
      return;
    }
    await enqueue(db, {
      ownerUserId: actor.id,
      kind: SUGGESTION_REVISE_KIND,
      method: 'PATCH',
      path: suggestionPath(companyId, suggestionId),
      body,
      entityKey: entityKeyOf('suggestions', suggestionId),
      now: now.getTime(),
    });
  });
  context.afterWrite?.();
}

/**
 * The replayer's success handler of the three kinds: the server's proposal replaces the device's copy. While
 * a later change of the same proposal still waits, the device's copy (which already shows that change) stays
 * and the proposal is marked to be fetched again once its rows are gone; an answer that fails the struct is
 * fetched again too.
 */
export const storeReviewedSuggestion: SuccessHandler = async ({ db, row, data }) => {
  const later = await db.outbox
    .where('[ownerUserId+entityKey]')
    .equals([row.ownerUserId, row.entityKey])
    .filter((other) => other.seq !== row.seq)
    .count();
  if (!Suggestion.is(data) || later > 0) {
    if (!Suggestion.is(data)) console.warn('The server answered a proposal that does not match its struct; the next pull fetches it again');
    await markStale(db, row.ownerUserId, [row.entityKey]);
    return;
  }
  await db.suggestions.put({ ...data, ownerUserId: row.ownerUserId });
};
