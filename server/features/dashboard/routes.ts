// The dashboard calls of docs/api.md, "Dashboard": the figures of a period for the caller's scope (service.ts says
// exactly what each figure is and who sees which scope), and the financial director's EBITDA per month (ebitda.ts).
// Every member passes the access check of the reads (`company.read`); the scope and the EBITDA readers are decided
// by the services. The EBITDA write is a declared route (an online management write, not on the outbox): its
// Idempotency-Key makes a retried submission answer what the first one answered.

import { coerce, record, string, unknown } from 'superstruct';
import { DashboardQuery, EbitdaInput } from '../../../src/domain/dashboard';
import { translate } from '../../i18n/messages';
import { access, defineRoute, idParams, ok, type DeclaredRoute } from '../../route';
import { EbitdaQuery, listEbitda, saveEbitda } from './ebitda';
import { computeDashboard } from './service';

/** The dashboard's query as it arrives: an empty `departmentId=` is no department, an id is taken in lower case. */
const DashboardRouteQuery = coerce(DashboardQuery, record(string(), unknown()), ({ departmentId, ...rest }) => {
  if (departmentId === '' || departmentId === undefined) return rest;
  return { ...rest, departmentId: typeof departmentId === 'string' ? departmentId.toLowerCase() : departmentId };
});

export const dashboardRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/dashboard',
    access: access.company('company.read'),
    params: idParams('companyId'),
    query: DashboardRouteQuery,
    handler: async ({ ctx, member, query }) => ok(await computeDashboard(ctx.db, member, query, ctx.clock.now())),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/ebitda',
    access: access.company('company.read'),
    params: idParams('companyId'),
    query: EbitdaQuery,
    handler: async ({ db, member, query }) => ok(await listEbitda(db, member, query.from, query.to)),
  }),

  defineRoute({
    method: 'PUT',
    path: '/companies/:companyId/ebitda',
    access: access.company('ebitda.edit'),
    params: idParams('companyId'),
    body: EbitdaInput,
    handler: async ({ ctx, db, member, body, locale }) => {
      const row = await saveEbitda(db, member, body, ctx.clock.now());
      return ok(row, translate(locale, row === null ? 'mail.notice.ebitdaCleared' : 'mail.notice.ebitdaSaved'));
    },
  }),
];
