// Deciding a proposal (docs/api.md, "Proposals"): the holder's review (approve, reject with a reason, ask the
// author to clarify), the distribution to another department, and the author's resend after a clarification.
// What it guarantees:
//   - one state machine: a decision and a distribution only from UNDER_CONSIDERATION, a resend only from
//     CLARIFICATION; the row is locked first (FOR UPDATE), so of two concurrent acts the second sees the
//     first's outcome and is refused with 409 naming it (who, what, when): nothing is overwritten silently;
//   - who may act is the proposal's own rule of src/domain/permissions.ts (canReviewSuggestion,
//     canDistributeSuggestion, canReviseSuggestion); a proposal the caller may not see is not found (404),
//     except for a head it was passed away from, who is told where it went (409) rather than "not found";
//   - every act writes the row, its history entry and the notifications of the people concerned (never the
//     actor) in the caller's transaction, or nothing;
//   - the deadline: a distribution restarts the 5 days for the new department (received_at stays), a
//     clarification pauses the clock (clarification_at) and the resend shifts due_at by the paused time.

import { canDistributeSuggestion, canReviewSuggestion, canReviseSuggestion, canSeeSuggestion } from '../../../src/domain/permissions';
import {
  dueDateOf,
  isUuid,
  type EscalationLevel,
  type Suggestion,
  type SuggestionDistributeInput,
  type SuggestionHistoryEntry,
  type SuggestionReviewInput,
  type SuggestionRevisionInput,
} from '../../../src/domain/suggestion';
import type { NotificationKind } from '../../../src/domain/notification';
import type { Updateable } from 'kysely';
import type { Queryable } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError, type AppErrorExtras } from '../../errors';
import { fullNameOf, type UserRow } from '../../auth/users';
import type { Membership } from '../../auth/access';
import { notify } from '../notifications/service';
import { holdersOf } from './holders';
import { selectSuggestions, toSuggestion, type SuggestionRow } from './service';

/** What an act answers: the proposal as it now stands and the id of the message saying what happened. */
export interface ActOutcome {
  suggestion: Suggestion;
  /** A `mail.notice.*` id, with its values. */
  message: { id: string; values?: Record<string, string> };
}

/** The proposal `id` of the member's company, locked for the rest of the transaction; 404 when there is none. */
async function lockSuggestion(tx: Queryable, member: Membership, id: string): Promise<SuggestionRow> {
  // A push batch hands the path's id over as written: one that is no uuid names nothing.
  if (!isUuid(id)) throw new AppError('notFound', 404);
  const row = await selectSuggestions(tx).where('s.company_id', '=', member.companyId).where('s.id', '=', id.toLowerCase()).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  return row;
}

/** The columns the schema keeps narrower than its types say (service.ts), as an update returns them. */
type Narrowed = Pick<SuggestionRow, 'status' | 'effect_currency' | 'history'>;

/** The columns an act sets on a proposal; the history entry and updated_at are added by `saveProposal`. */
type ProposalChanges = Omit<Updateable<DB['suggestions']>, 'company_id' | 'id' | 'history' | 'updated_at'>;

/** Writes `changes` and the act's history entry to the locked proposal `row`, and answers it as the API shows it. */
async function saveProposal(tx: Queryable, row: SuggestionRow, changes: ProposalChanges, entry: SuggestionHistoryEntry): Promise<Suggestion> {
  const updated = await tx.kysely
    .updateTable('suggestions')
    .set((eb) => ({ ...changes, history: JSON.stringify([...row.history, entry]), updated_at: eb.fn<Date>('clock_timestamp') }))
    .where('company_id', '=', row.company_id)
    .where('id', '=', row.id)
    .returningAll()
    .$narrowType<Narrowed>()
    .executeTakeFirstOrThrow();
  return toSuggestion({ ...updated, images: row.images });
}

const asView = (row: SuggestionRow) => ({ authorId: row.author_id, departmentId: row.department_id });

/** Who acted, for a message naming them: their name then, or "another user" for rows written without one. */
function actorValues(name: string | null, at: Date | null, fallbackAt: Date): Pick<AppErrorExtras, 'values' | 'valueIds'> {
  const when = at ?? fallbackAt;
  return name ? { values: { name, at: when } } : { values: { at: when }, valueIds: { name: ['error.suggestionSomeone'] } };
}

/** 409 for an act that needs the proposal under consideration, naming what became of it instead. */
function notUnderConsideration(row: SuggestionRow): AppError {
  const extras = actorValues(row.decided_by_name, row.status === 'CLARIFICATION' ? (row.clarification_at ?? row.decided_at) : row.decided_at, row.updated_at);
  if (row.status === 'APPROVED') return new AppError('suggestionAlreadyApproved', 409, extras);
  if (row.status === 'REJECTED') return new AppError('suggestionAlreadyRejected', 409, extras);
  return new AppError('suggestionAwaitsClarification', 409, extras);
}

/**
 * The last time the proposal was passed away from a department `member` heads, when it now lies elsewhere:
 * the head whose decision (or distribution) came after it moved hears where it went, not "not found".
 */
function movedAwayFrom(member: Membership, row: SuggestionRow): SuggestionHistoryEntry | null {
  if (member.headOfDepartmentIds.includes(row.department_id)) return null;
  const moves = row.history.filter((entry) => entry.kind === 'DISTRIBUTED' && typeof entry.fromDepartmentId === 'string' && member.headOfDepartmentIds.includes(entry.fromDepartmentId));
  return moves.at(-1) ?? null;
}

async function departmentName(tx: Queryable, companyId: string, departmentId: string): Promise<string | null> {
  const row = await tx.kysely.selectFrom('departments').select('name').where('company_id', '=', companyId).where('id', '=', departmentId).executeTakeFirst();
  return row?.name ?? null;
}

/**
 * Passes when `member` may act on the proposal under `allowed`: 404 when they may not see it, 403 when they see
 * it but may not act. A holder's act (`holderAct`: review, distribution) by a head it was passed away from
 * answers 409 `suggestionMoved` instead.
 */
async function requireActor(tx: Queryable, member: Membership, row: SuggestionRow, allowed: boolean, holderAct: boolean): Promise<void> {
  if (allowed && canSeeSuggestion(member, asView(row))) return;
  const moved = holderAct ? movedAwayFrom(member, row) : null;
  if (moved) {
    const department = (await departmentName(tx, row.company_id, row.department_id)) ?? '—';
    const extras = actorValues(moved.byName ?? null, new Date(moved.at), row.updated_at);
    throw new AppError('suggestionMoved', 409, { ...extras, values: { ...extras.values, department } });
  }
  if (!canSeeSuggestion(member, asView(row))) throw new AppError('notFound', 404);
  throw new AppError('forbidden', 403);
}

/** A comment as stored: trimmed, an empty one none at all. */
function commentOf(comment: string | null | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

interface NoticeTo {
  userIds: readonly (string | null)[];
  kind: NotificationKind;
  params: Record<string, string | null>;
}

const KIND_OF_DECISION = {
  APPROVED: { history: 'APPROVED', notification: 'SUGGESTION_APPROVED', message: 'mail.notice.suggestionApproved' },
  REJECTED: { history: 'REJECTED', notification: 'SUGGESTION_REJECTED', message: 'mail.notice.suggestionRejected' },
  CLARIFICATION: { history: 'CLARIFICATION_REQUESTED', notification: 'SUGGESTION_CLARIFICATION', message: 'mail.notice.suggestionClarificationRequested' },
} as const;

/**
 * `POST .../suggestions/{id}/review`: approve, reject (reason) or ask the author to clarify (question), by the
 * head of its department, the CEO or the owner, while it is under consideration.
 */
export async function reviewSuggestion(tx: Queryable, member: Membership, user: UserRow, id: string, input: SuggestionReviewInput, now: Date): Promise<ActOutcome> {
  const row = await lockSuggestion(tx, member, id);
  await requireActor(tx, member, row, canReviewSuggestion(member, asView(row)), true);
  if (row.status !== 'UNDER_CONSIDERATION') throw notUnderConsideration(row);
  const kinds = KIND_OF_DECISION[input.decision];
  const comment = commentOf(input.comment);
  const byName = fullNameOf(user);
  const entry: SuggestionHistoryEntry = { at: now.toISOString(), kind: kinds.history, byUserId: user.id, byName, comment };
  const clarifying = input.decision === 'CLARIFICATION';
  const suggestion = await saveProposal(
    tx,
    row,
    {
      status: input.decision,
      review_comment: comment,
      decided_by: user.id,
      decided_by_name: byName,
      decided_at: now,
      clarification_at: clarifying ? now : null,
    },
    entry,
  );
  await tell(tx, member, user, suggestion, now, {
    userIds: [row.author_id],
    kind: kinds.notification,
    params: { title: row.title, byName, comment },
  });
  return { suggestion, message: { id: kinds.message } };
}

/**
 * `POST .../suggestions/{id}/distribute`: passes a proposal under consideration to another department of the
 * company, whose holder gets a fresh 5 days from now (received_at, the submission's receipt, stays).
 */
export async function distributeSuggestion(tx: Queryable, member: Membership, user: UserRow, id: string, input: SuggestionDistributeInput, now: Date): Promise<ActOutcome> {
  const row = await lockSuggestion(tx, member, id);
  await requireActor(tx, member, row, canDistributeSuggestion(member, asView(row)), true);
  if (row.status !== 'UNDER_CONSIDERATION') throw notUnderConsideration(row);
  const departmentId = input.departmentId.toLowerCase();
  if (departmentId === row.department_id) throw new AppError('validation', 400, { fieldErrors: { departmentId: 'same' } });
  const department = await departmentName(tx, row.company_id, departmentId);
  if (department === null) throw new AppError('validation', 400, { fieldErrors: { departmentId: 'invalid' } });
  const comment = commentOf(input.comment);
  const byName = fullNameOf(user);
  const entry: SuggestionHistoryEntry = {
    at: now.toISOString(),
    kind: 'DISTRIBUTED',
    byUserId: user.id,
    byName,
    comment,
    fromDepartmentId: row.department_id,
    departmentIds: [departmentId],
  };
  const level: EscalationLevel = 0;
  const suggestion = await saveProposal(
    tx,
    row,
    {
      department_id: departmentId,
      due_at: dueDateOf(now.toISOString()),
      reminded_at: null,
      escalation_level: level,
      escalated_at: null,
      overdue_at: null,
    },
    entry,
  );
  const holders = await holdersOf(tx, row.company_id, departmentId, level);
  await tell(tx, member, user, suggestion, now, {
    userIds: holders.userIds,
    kind: 'SUGGESTION_DISTRIBUTED',
    params: { title: row.title, byName, comment, departmentName: department, dueAt: suggestion.dueAt },
  });
  return { suggestion, message: { id: 'mail.notice.suggestionDistributed', values: { department } } };
}

/**
 * `PATCH .../suggestions/{id}`: the author's clarified proposal, resent. Only its author, only while it waits
 * for the clarification; the due date moves on by the time it waited on the author.
 */
export async function reviseSuggestion(tx: Queryable, member: Membership, user: UserRow, id: string, input: SuggestionRevisionInput, now: Date): Promise<ActOutcome> {
  const row = await lockSuggestion(tx, member, id);
  await requireActor(tx, member, row, canReviseSuggestion(member, asView(row)), false);
  if (row.status !== 'CLARIFICATION') {
    const extras = actorValues(row.decided_by_name, row.decided_at, row.updated_at);
    throw new AppError('suggestionNotInClarification', 409, { ...extras, values: { ...extras.values, status: row.status } });
  }
  const paused = Math.max(0, now.getTime() - (row.clarification_at ?? now).getTime());
  const dueAt = new Date(row.due_at.getTime() + paused);
  const byName = fullNameOf(user);
  const entry: SuggestionHistoryEntry = { at: now.toISOString(), kind: 'RESENT', byUserId: user.id, byName, comment: null };
  const suggestion = await saveProposal(
    tx,
    row,
    {
      title: input.title,
      problem: input.problem,
      solution: input.solution,
      expected_effect: input.expectedEffect,
      effect_amount_minor: input.effectEstimate ? String(input.effectEstimate.amountMinor) : null,
      effect_currency: input.effectEstimate?.currency ?? null,
      status: 'UNDER_CONSIDERATION',
      // The question is answered: it stays in the history (CLARIFICATION_REQUESTED), not as the review's comment.
      review_comment: null,
      due_at: dueAt,
      clarification_at: null,
    },
    entry,
  );
  const holders = await holdersOf(tx, row.company_id, row.department_id, levelOf(row.escalation_level));
  await tell(tx, member, user, suggestion, now, {
    userIds: holders.userIds,
    kind: 'SUGGESTION_RESENT',
    params: { title: suggestion.title, byName, dueAt: suggestion.dueAt },
  });
  return { suggestion, message: { id: 'mail.notice.suggestionResent' } };
}

function levelOf(value: number): EscalationLevel {
  return value >= 2 ? 2 : value === 1 ? 1 : 0;
}

async function tell(tx: Queryable, member: Membership, user: UserRow, suggestion: Suggestion, now: Date, notice: NoticeTo): Promise<void> {
  await notify(tx, { companyId: member.companyId, userIds: notice.userIds, actorId: user.id, kind: notice.kind, suggestionId: suggestion.id, params: notice.params }, now);
}
