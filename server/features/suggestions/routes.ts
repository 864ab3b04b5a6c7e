// The proposal calls of docs/api.md: the reads are declared routes (server/route.ts).
// Submitting is declared as an operation (server/operation.ts), so a push batch runs the same code.

import { defaulted, type } from 'superstruct';
import { SUGGESTION_SCOPES, SUGGESTION_STATUSES, SuggestionInput } from '../../../src/domain/suggestion';
import { translate } from '../../i18n/messages';
import { access, defineRoute, idParams, ok, queryEnum, queryLimit, queryText, type DeclaredRoute } from '../../route';
import { defineOperation } from '../../operation';
import { requireReadyToStart } from '../../auth/access';
import { createSuggestion, listSuggestions, readSuggestion } from './service';

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
  async run(tx, { user, member, input, locale, once }) {
    await once(`ready:${member.companyId}`, () => requireReadyToStart(tx, member.companyId));
    const data = await createSuggestion(tx, member, user, input, { once });
    return { status: 201, body: { data, message: translate(locale, 'mail.notice.suggestionSubmitted') } };
  },
});

const companyParams = idParams('companyId');

const SuggestionListQuery = type({
  scope: defaulted(queryEnum(SUGGESTION_SCOPES), 'all'),
  status: queryEnum(SUGGESTION_STATUSES),
  cursor: queryText(1000),
  limit: queryLimit(DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT),
});

/** Submitting (any member), and reading: each member sees what canSeeSuggestion allows (the service's SQL). */
export const suggestionRoutes: readonly DeclaredRoute[] = [
  submitSuggestionOperation.route,

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/suggestions',
    access: access.company('company.read'),
    params: companyParams,
    query: SuggestionListQuery,
    handler: async ({ db, member, query: { scope, status, cursor, limit } }) =>
      ok(await listSuggestions(db, member, { scope: scope ?? 'all', status, cursor, limit })),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/suggestions/:suggestionId',
    access: access.company('company.read'),
    params: idParams('companyId', 'suggestionId'),
    handler: async ({ db, member, params }) => ok(await readSuggestion(db, member, params.suggestionId)),
  }),
];

