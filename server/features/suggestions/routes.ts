// The proposal calls of docs/api.md: validate with the shared struct, check membership, call the service.
// Submitting is declared as an operation (features/push/operation.ts), so a push batch runs the same code.

import type { FastifyInstance } from 'fastify';
import { SUGGESTION_SCOPES, SUGGESTION_STATUSES, SuggestionInput, type SuggestionScope, type SuggestionStatus } from '../../../src/domain/suggestion';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import { defineOperation, registerOperationRoute } from '../push/operation';
import { requireMember, requireReadyToStart } from '../../auth/access';
import { createSuggestion, listSuggestions, readSuggestion } from './service';

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;

type Query = Record<string, string | undefined>;

function parseLimit(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new AppError('validation', 400, { fieldErrors: { limit: 'invalid' } });
  return n;
}

export { parseLimit };

/**
 * Submitting a proposal: its own route and an operation of the push batch (features/push), declared once.
 * Any active member; the improvement flow starts once the company has an owner, a manager and a financial
 * director.
 */
export const submitSuggestionOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/suggestions',
  input: SuggestionInput,
  async run(tx, { user, params, input, locale, once }) {
    const companyId = params.companyId ?? '';
    const member = await once(`member:${companyId}`, () => requireMember(tx, user, companyId));
    await once(`ready:${member.companyId}`, () => requireReadyToStart(tx, member.companyId));
    const data = await createSuggestion(tx, member, user, input, { once });
    return { status: 201, body: { data, message: translate(locale, 'mail.notice.suggestionSubmitted') } };
  },
});

export function registerSuggestionRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerOperationRoute(app, ctx, submitSuggestionOperation);

  app.get<{ Params: { companyId: string }; Querystring: Query }>('/companies/:companyId/suggestions', async (request) => {
    const user = await ctx.requireUser(request);
    const member = await requireMember(ctx.db, user, request.params.companyId);
    const { scope = 'all', status, cursor, limit } = request.query;
    if (!(SUGGESTION_SCOPES as readonly string[]).includes(scope)) throw new AppError('validation', 400, { fieldErrors: { scope: 'invalid' } });
    if (status !== undefined && status !== '' && !(SUGGESTION_STATUSES as readonly string[]).includes(status)) {
      throw new AppError('validation', 400, { fieldErrors: { status: 'invalid' } });
    }
    const data = await listSuggestions(ctx.db, member, {
      scope: scope as SuggestionScope,
      status: status ? (status as SuggestionStatus) : undefined,
      cursor: cursor || undefined,
      limit: parseLimit(limit, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT),
    });
    return { data, message: 'OK' };
  });

  app.get<{ Params: { companyId: string; suggestionId: string } }>('/companies/:companyId/suggestions/:suggestionId', async (request) => {
    const user = await ctx.requireUser(request);
    const member = await requireMember(ctx.db, user, request.params.companyId);
    return { data: await readSuggestion(ctx.db, member, request.params.suggestionId), message: 'OK' };
  });
}
