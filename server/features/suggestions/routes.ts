// The proposal calls of docs/api.md: the reads are declared routes (server/route.ts).
// The writes (submit, review, distribute, the author's resend) are declared as operations
// (server/operation.ts), so a push batch of the outbox runs the same code as the direct call.

import { defaulted, type } from 'superstruct';
import {
  SUGGESTION_STATUSES,
  SuggestionDistributeInput,
  SuggestionInput,
  SuggestionReviewInput,
  SuggestionRevisionInput,
} from '../../../src/domain/suggestion';
import { translate } from '../../i18n/messages';
import { access, defineRoute, idParams, ok, queryEnum, queryId, queryLimit, queryText, type DeclaredRoute } from '../../route';
import { defineOperation, type OperationCall } from '../../operation';
import { requireReadyToStart } from '../../auth/access';
import type { IdempotentResult } from '../../idempotency';
import { createSuggestion, listSuggestions, readSuggestion, SUGGESTION_LIST_SCOPES } from './service';
import { distributeSuggestion, reviewSuggestion, reviseSuggestion, type ActOutcome } from './review';

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;

/**
 * Submitting a proposal: its own route and an operation of the push batch (features/push), declared once.
 * Any active member; the improvement flow starts once the company has an owner, a manager and a financial
 * director.
 */
export const submitSuggestionOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/suggestions',
  permission: 'suggestion.submit',
  input: SuggestionInput,
  async run(tx, { user, member, input, locale, once, now }) {
    await once(`ready:${member.companyId}`, () => requireReadyToStart(tx, member.companyId));
    const data = await createSuggestion(tx, member, user, input, { once, now });
    return { status: 201, body: { data, message: translate(locale, 'mail.notice.suggestionSubmitted') } };
  },
});

/** `{ data: proposal, message }` of an act on a proposal, the message in the request's language. */
function answer(outcome: ActOutcome, locale: OperationCall<unknown>['locale']): IdempotentResult {
  return { status: 200, body: { data: outcome.suggestion, message: translate(locale, outcome.message.id, outcome.message.values) } };
}

/** The holder's decision: approve, reject (reason required), or ask the author to clarify (question required). */
export const reviewSuggestionOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/suggestions/:suggestionId/review',
  permission: 'suggestion.act',
  input: SuggestionReviewInput,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await reviewSuggestion(tx, member, user, params.suggestionId ?? '', input, now), locale),
});

/** Passing a proposal under consideration to another department of the company. */
export const distributeSuggestionOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/suggestions/:suggestionId/distribute',
  permission: 'suggestion.act',
  input: SuggestionDistributeInput,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await distributeSuggestion(tx, member, user, params.suggestionId ?? '', input, now), locale),
});

/** The author's clarified proposal, resent for consideration. */
export const reviseSuggestionOperation = defineOperation({
  method: 'PATCH',
  path: '/companies/:companyId/suggestions/:suggestionId',
  permission: 'suggestion.act',
  input: SuggestionRevisionInput,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await reviseSuggestion(tx, member, user, params.suggestionId ?? '', input, now), locale),
});

/** The writes of this feature the outbox may push in a batch (app.ts lists them in PUSHABLE_OPERATIONS). */
export const SUGGESTION_ACT_OPERATIONS = [reviewSuggestionOperation, distributeSuggestionOperation, reviseSuggestionOperation];

const companyParams = idParams('companyId');

const SuggestionListQuery = type({
  scope: defaulted(queryEnum(SUGGESTION_LIST_SCOPES), 'all'),
  status: queryEnum(SUGGESTION_STATUSES),
  departmentId: queryId,
  goalId: queryId,
  overdue: queryEnum(['true', 'false']),
  q: queryText(200),
  cursor: queryText(1000),
  limit: queryLimit(DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT),
});

/** Submitting (any member), and reading: each member sees what canSeeSuggestion allows (the service's SQL). */
export const suggestionRoutes: readonly DeclaredRoute[] = [
  submitSuggestionOperation.route,
  ...SUGGESTION_ACT_OPERATIONS.map((operation) => operation.route),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/suggestions',
    access: access.company('company.read'),
    params: companyParams,
    query: SuggestionListQuery,
    handler: async ({ ctx, db, member, query: { scope, status, departmentId, goalId, overdue, q, cursor, limit } }) =>
      ok(
        await listSuggestions(db, member, {
          scope: scope ?? 'all',
          status,
          departmentId,
          goalId,
          overdue: overdue === undefined ? undefined : overdue === 'true',
          q,
          cursor,
          limit,
          now: ctx.clock.now(),
        }),
      ),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/suggestions/:suggestionId',
    access: access.company('company.read'),
    params: idParams('companyId', 'suggestionId'),
    handler: async ({ db, member, params }) => ok(await readSuggestion(db, member, params.suggestionId)),
  }),
];

