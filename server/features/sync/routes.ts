// GET /sync/pull?companyId=&cursor=&limit= (docs/api.md, "Sync").

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { parseLimit } from '../suggestions/routes';
import { DEFAULT_PULL_LIMIT, MAX_PULL_LIMIT, pull } from './service';

export function registerSyncRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: Record<string, string | undefined> }>('/sync/pull', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const { companyId, cursor, limit } = request.query;
    if (!companyId) throw new AppError('validation', 400, { fieldErrors: { companyId: 'required' } });
    const data = await pull(ctx.db, user, companyId, cursor, parseLimit(limit, DEFAULT_PULL_LIMIT, MAX_PULL_LIMIT));
    void reply.header('Cache-Control', 'no-store');
    return { data, message: 'OK' };
  });
}
