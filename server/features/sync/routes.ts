// GET /sync/pull?companyId=&cursor=&limit= and GET /sync/rows?companyId=&keys= (docs/api.md, "Sync").
// Both answer only what the caller may see as an active member of the company (404 otherwise, checked
// before anything else of the request is read).

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { parseLimit } from '../suggestions/routes';
import { DEFAULT_PULL_LIMIT, MAX_PULL_LIMIT, pull, readRows } from './service';

export function registerSyncRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: Record<string, string | undefined> }>('/sync/pull', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const { companyId, cursor, limit } = request.query;
    if (!companyId) throw new AppError('validation', 400, { fieldErrors: { companyId: 'required' } });
    const data = await pull(ctx.db, user, companyId, cursor, parseLimit(limit, DEFAULT_PULL_LIMIT, MAX_PULL_LIMIT));
    void reply.header('Cache-Control', 'no-store');
    return { data, message: 'OK' };
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/sync/rows', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const { companyId, keys } = request.query;
    if (!companyId) throw new AppError('validation', 400, { fieldErrors: { companyId: 'required' } });
    const data = await readRows(ctx.db, user, companyId, keys);
    void reply.header('Cache-Control', 'no-store');
    return { data, message: 'OK' };
  });
}
