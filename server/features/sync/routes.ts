// GET /sync/pull?companyId=&cursor=&limit= and GET /sync/rows?companyId=&keys= (docs/api.md, "Sync"), declared
// (server/route.ts). The company is a query parameter here, so the membership check is the service's first
// step: both answer only what the caller may see as an active member of the company (404 otherwise, before
// anything else of the request is read).

import { type } from 'superstruct';
import { AppError } from '../../errors';
import { access, defineRoute, ok, queryId, queryLimit, queryText, type DeclaredRoute } from '../../route';
import { DEFAULT_PULL_LIMIT, MAX_PULL_LIMIT, pull, readRows } from './service';

const companyQuery = { companyId: queryId };

export const syncRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/sync/pull',
    access: access.user,
    query: type({ ...companyQuery, cursor: queryText(2000), limit: queryLimit(DEFAULT_PULL_LIMIT, MAX_PULL_LIMIT) }),
    handler: async ({ ctx, user, query, reply }) => {
      void reply.header('Cache-Control', 'no-store');
      return ok(await pull(ctx.db, user, requiredCompany(query.companyId), query.cursor, query.limit));
    },
  }),

  defineRoute({
    method: 'GET',
    path: '/sync/rows',
    access: access.user,
    query: type({ ...companyQuery, keys: queryText(100_000) }),
    handler: async ({ ctx, user, query, reply }) => {
      void reply.header('Cache-Control', 'no-store');
      return ok(await readRows(ctx.db, user, requiredCompany(query.companyId), query.keys));
    },
  }),
];

function requiredCompany(companyId: string | undefined): string {
  if (!companyId) throw new AppError('validation', 400, { fieldErrors: { companyId: 'required' } });
  return companyId;
}
